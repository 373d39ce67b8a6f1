//! `murmur headless` as a user runs it: JSON lines, a final summary, the same output for the
//! same seed whatever the thread count, and one-line errors with exit code 2 for bad input; and
//! `murmur bench`'s look at the same headless plugin app, phase by phase.

mod common;

use common::{murmur, murmur_output};
use std::process::Output;

/// The output with the timing fields (which vary run to run) removed.
fn without_timings(out: &Output) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|line| {
            let mut v: serde_json::Value = serde_json::from_str(line).expect("every line is JSON");
            let o = v.as_object_mut().unwrap();
            o.remove("step_ms");
            o.remove("steps_per_s");
            v
        })
        .collect()
}

const RUN: &[&str] = &[
    "headless",
    "--preset",
    "spaceboids",
    "--boids",
    "600",
    "--steps",
    "60",
    "--every",
    "20",
    "--seed",
    "9",
];

#[test]
fn prints_figures_every_m_steps_and_a_final_summary() {
    let out = murmur_output(RUN);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines = without_timings(&out);
    assert_eq!(lines.len(), 5, "steps 0, 20, 40, 60 and the summary");
    for (i, line) in lines[..4].iter().enumerate() {
        assert_eq!(line["step"], 20 * i as u64);
        assert_eq!(line["boids"], 600);
        for key in [
            "polarization",
            "mean_nn_distance",
            "min_nn_distance",
            "mean_speed",
            "mean_neighbours",
        ] {
            assert!(line[key].is_number(), "{key} in {line}");
        }
        let p = line["polarization"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&p));
    }
    let last = &lines[4];
    assert_eq!(last["final"], true);
    assert_eq!(last["steps"], 60);
    assert!(last["state_hash"].is_string());
}

#[test]
fn same_seed_same_output_for_any_thread_count() {
    let one = without_timings(&murmur_output(&[RUN, &["--threads", "1"]].concat()));
    let two = without_timings(&murmur_output(&[RUN, &["--threads", "2"]].concat()));
    let again = without_timings(&murmur_output(&[RUN, &["--threads", "1"]].concat()));
    assert_eq!(one, two);
    assert_eq!(one, again);
    let other_seed = without_timings(&murmur_output(&[RUN, &["--seed", "10"]].concat()));
    assert_ne!(
        one.last(),
        other_seed.last(),
        "a different seed gives a different flock"
    );
}

#[test]
fn overrides_change_the_run() {
    let base = without_timings(&murmur_output(RUN));
    let slow = without_timings(&murmur_output(&[RUN, &["--set", "max_speed=1"]].concat()));
    let speed = slow.last().unwrap()["mean_speed"].as_f64().unwrap();
    assert!(speed <= 1.0 + 1e-6, "max_speed=1 caps the speed: {speed}");
    assert_ne!(base.last(), slow.last());
}

#[test]
fn metrics_file_gets_csv_rows() {
    let path = std::env::temp_dir().join(format!("murmur-metrics-{}.csv", std::process::id()));
    let out = murmur_output(&[RUN, &["--metrics", path.to_str().unwrap()]].concat());
    assert!(out.status.success());
    let text = std::fs::read_to_string(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    let rows: Vec<&str> = text.lines().collect();
    assert!(rows[0].starts_with("step,boids,polarization"));
    assert_eq!(rows.len(), 5, "header and four samples");
    assert!(!rows[0].contains("leader"), "no leader, no leader columns");
    // With a leader, its figures as in the JSON lines.
    let out = murmur_output(
        &[
            RUN,
            &["--leader", "100,0", "--metrics", path.to_str().unwrap()],
        ]
        .concat(),
    );
    assert!(out.status.success());
    let text = std::fs::read_to_string(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    let rows: Vec<&str> = text.lines().collect();
    assert!(
        rows[0].ends_with(",leader_distance,leader_spin"),
        "{}",
        rows[0]
    );
    let json = without_timings(&out);
    let distance: f64 = rows[1].split(',').nth(9).unwrap().parse().unwrap();
    assert_eq!(Some(distance), json[0]["leader_distance"].as_f64());
}

#[test]
fn bad_input_is_one_line_and_exit_code_2() {
    for args in [
        &["headless", "--preset", "nope"][..],
        &["headless", "--set", "no_such=1"],
        &["headless", "--set", "visual_range"],
        &["headless", "--boids", "-3"],
        &["headless", "--world", "10"],
        // Too wide for 32-bit positions to move by a sixteenth of a unit.
        &["headless", "--world", "1e30x1e30"],
        &["headless", "--steps", "ten"],
        &["headless", "--every", "0"],
        &["headless", "--preset", "/no/such/file.toml"],
    ] {
        let out = murmur_output(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.starts_with("error"), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn a_bad_preset_file_names_file_line_and_field() {
    let path = std::env::temp_dir().join(format!("murmur-bad-{}.toml", std::process::id()));
    std::fs::write(
        &path,
        "model = \"cornell\"\n[cornell]\nvisual_range = 40.0\nmin_speed = \"fast\"\n",
    )
    .unwrap();
    let out = murmur_output(&["headless", "--preset", path.to_str().unwrap()]);
    let _ = std::fs::remove_file(&path);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains(path.to_str().unwrap())
            && err.contains("line 4")
            && err.contains("cornell.min_speed"),
        "{err}"
    );
}

#[test]
fn rust_log_asks_for_more_and_stdout_stays_json() {
    let run = |log: Option<&str>| {
        let mut c = murmur();
        c.args([
            "headless", "--preset", "reynolds", "--boids", "300", "--steps", "20",
        ]);
        c.env_remove("RUST_LOG");
        if let Some(level) = log {
            c.env("RUST_LOG", level);
        }
        c.output().expect("murmur runs")
    };
    let quiet = run(None);
    let told = run(Some("info"));
    assert!(quiet.status.success() && told.status.success());
    assert!(
        quiet.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&quiet.stderr)
    );
    let err = String::from_utf8_lossy(&told.stderr);
    assert!(err.contains("headless: 300 birds, reynolds model"), "{err}");
    assert_eq!(without_timings(&quiet), without_timings(&told));
}

#[test]
fn the_bench_splits_a_plugin_tick_into_its_phases() {
    let out = murmur_output(&[
        "bench", "--only", "ecs", "--sizes", "3000", "--quick", "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON lines"))
        .collect();
    // The first line says which lane form the sums took (the figures' context).
    assert_eq!(lines[0]["kind"], "machine", "{lines:?}");
    assert!(lines[0]["lane_form"].is_string(), "{lines:?}");
    let line = lines
        .iter()
        .find(|l| l["kind"] == "ecs")
        .expect("an ecs line");
    let phases = &line["ecs_phase_ms"];
    let ms = |name: &str| {
        phases[name]
            .as_f64()
            .unwrap_or_else(|| panic!("{name} in {phases}"))
    };
    let [collect, steer, between, integrate, write_back, rest] = [
        "collect_neighbours",
        "steer",
        "follow_leader_to_turn_at_edges",
        "integrate",
        "write_back",
        "rest_of_frame",
    ]
    .map(ms);
    // Every phase that does work takes time; the ones between steering and moving have no
    // leader, predator or turning edge to work on here, so next to nothing (a clock that put
    // the whole tick in one place would fail one or the other).
    for (name, t) in [
        ("collect", collect),
        ("steer", steer),
        ("integrate", integrate),
        ("write-back", write_back),
    ] {
        assert!(t > 0.0, "{name}: {t} ms in {phases}");
    }
    assert!(between < 0.2 * steer, "{phases}");
    // The phases make up the tick (timed in other windows, so only roughly).
    let tick = 1e3 / line["ecs_steps_per_s"].as_f64().expect("a rate");
    let sum = collect + steer + between + integrate + write_back;
    assert!(
        (0.3 * tick..3.0 * tick).contains(&sum),
        "phases {sum} ms against a tick of {tick} ms"
    );
    // The rest of the frame (Bevy's own schedules, the executor) takes some time, but not a
    // tick's worth.
    assert!(
        rest > 0.0 && rest < 3.0 * tick,
        "rest of the frame {rest} ms against a tick of {tick} ms"
    );
}
