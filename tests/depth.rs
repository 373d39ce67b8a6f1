//! The command line on 3D presets, as a user runs it: `headless` prints the 2D lines plus the
//! flock's `shape`, the same for any thread count; `--world WxHxD` and `--leader X,Y,Z` size
//! and lead a 3D flock; `sweep` runs on a 3D preset; and every 2D-only or 3D-only request the
//! other space cannot honour is a one-line error with exit code 2, never a panic (the board's
//! flat OLED beside a 3D flock, a 3D camera asked of a flat scene, among them).

mod common;

use common::murmur_output;

fn lines(out: &std::process::Output) -> Vec<serde_json::Value> {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("every line is JSON"))
        .collect()
}

fn headless(extra: &[&str]) -> Vec<serde_json::Value> {
    let mut args = vec![
        "headless", "--preset", "couzin3d", "--boids", "150", "--steps", "60", "--every", "30",
        "--seed", "3",
    ];
    args.extend_from_slice(extra);
    lines(&murmur_output(&args))
}

#[test]
fn headless_on_a_3d_preset_prints_the_flat_figures_and_the_shape() {
    let out = headless(&["--set", "delta_r_o=5"]);
    assert_eq!(out.len(), 4, "steps 0, 30, 60 and the summary");
    for line in &out[..3] {
        for key in [
            "polarization",
            "angular_momentum",
            "mean_nn_distance",
            "min_nn_distance",
            "mean_neighbours",
        ] {
            assert!(line[key].is_number(), "{key} in {line}");
        }
        let shape: Vec<f64> = line["shape"]
            .as_array()
            .expect("a 3D flock's lines carry its shape")
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        assert_eq!(shape.len(), 3);
        assert!(
            shape[0] > 0.0 && shape[0] <= shape[1] && shape[1] <= shape[2],
            "thickness, width, length: {shape:?}"
        );
    }
    // Negative control: a flat flock has no shape.
    let flat = lines(&murmur_output(&[
        "headless", "--preset", "couzin", "--boids", "100", "--steps", "10",
    ]));
    assert!(
        flat[0].get("shape").is_none_or(|s| s.is_null()),
        "{}",
        flat[0]
    );
}

#[test]
fn a_3d_flock_gives_the_same_figures_on_any_thread_count() {
    let hash = |threads: &str| {
        let out = headless(&["--threads", threads]);
        out.last().unwrap()["state_hash"].clone()
    };
    assert_eq!(hash("1"), hash("2"));
}

#[test]
fn world_and_leader_take_three_numbers_in_3d() {
    let out = lines(&murmur_output(&[
        "headless",
        "--preset",
        "reynolds3d",
        "--boids",
        "300",
        "--steps",
        "200",
        "--every",
        "200",
        "--world",
        "600x400x500",
        "--leader",
        "50,20,-40",
    ]));
    let (first, last) = (&out[0], &out[1]);
    assert!(first["leader_distance"].is_number(), "{first}");
    assert!(
        last["leader_distance"].as_f64() < first["leader_distance"].as_f64(),
        "the flock closes on the leader: {first} then {last}"
    );
}

#[test]
fn sweep_runs_on_a_3d_preset() {
    let dir = std::env::temp_dir().join(format!("murmur-depth-sweep-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let prefix = dir.join("couzin3d");
    let out = murmur_output(&[
        "sweep",
        "--preset",
        "couzin3d",
        "--param",
        "delta_r_o",
        "--values",
        "0,8",
        "--boids",
        "60",
        "--steps",
        "200",
        "--average-last",
        "100",
        "--seeds",
        "1",
        "--out",
        prefix.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let csv = std::fs::read_to_string(prefix.with_extension("csv")).unwrap();
    assert_eq!(csv.lines().count(), 3, "a header and two rows: {csv}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Runs `args`, expects exit code 2 and a one-line error that contains `says`.
fn refused(args: &[&str], says: &str) {
    let out = murmur_output(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(
        stderr.contains(says),
        "{args:?} should say {says:?}: {stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn what_one_space_cannot_honour_is_a_usage_error() {
    let flat = ["headless", "--preset", "reynolds", "--steps", "1"];
    let deep = ["headless", "--preset", "reynolds3d", "--steps", "1"];
    // A depth asked of a flat world.
    refused(&[&flat[..], &["--leader", "1,2,3"]].concat(), "--leader");
    // A 3D world with a bad side.
    for world in ["800x400x0", "800x400x-5", "800x400xinf"] {
        let out = murmur_output(&[&deep[..], &["--world", world]].concat());
        assert_eq!(out.status.code(), Some(2), "--world {world}");
    }
    // 2D-only features asked of a 3D flock: rapier bodies.
    refused(
        &[&deep[..], &["--set", "bodies.enabled=true"]].concat(),
        "bodies",
    );
    // A 3D camera asked of a flat scene (which has one view).
    refused(
        &[
            "screenshot",
            "--preset",
            "reynolds",
            "--camera",
            "orbit",
            "--out",
            "x.png",
        ],
        "--camera",
    );
    refused(
        &[
            "record",
            "--preset",
            "reynolds",
            "--camera",
            "chase",
            "--seconds",
            "1",
            "--out",
            "x.gif",
        ],
        "--camera",
    );
    // The board's OLED shows a flat Q15 flock.
    refused(
        &[
            "screenshot",
            "--preset",
            "reynolds3d",
            "--oled",
            "--out",
            "x.png",
        ],
        "oled",
    );
}
