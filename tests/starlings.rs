//! The starling preset on the command line, as a user runs it: `headless` reports the field
//! studies' figures on every line (and only for this model), in its CSV too; `sweep` sweeps the
//! number of birds and plots another figure than polarization; a bad `--y` is a usage error.

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

/// A fresh folder of this test process's own.
fn scratch(what: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("murmur-starlings-{what}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const FIGURES: [&str; 4] = [
    "interaction_neighbours",
    "border_density_ratio",
    "correlation_length",
    "flock_size",
];

#[test]
fn headless_reports_the_field_figures_on_every_line() {
    let dir = scratch("headless");
    let csv = dir.join("starlings.csv");
    let out = lines(&murmur_output(&[
        "headless",
        "--preset",
        "starlings",
        "--boids",
        "400",
        "--world",
        "26x5x17",
        "--steps",
        "100",
        "--every",
        "50",
        "--metrics",
        csv.to_str().unwrap(),
    ]));
    assert_eq!(out.len(), 4, "steps 0, 50, 100 and the summary");
    for line in &out {
        for key in FIGURES {
            assert!(line[key].is_number(), "{key} in {line}");
        }
        let heeded = line["interaction_neighbours"].as_f64().unwrap();
        assert!((6.0..=7.0).contains(&heeded), "{line}");
    }
    let text = std::fs::read_to_string(&csv).unwrap();
    let header = text.lines().next().unwrap();
    for key in FIGURES {
        assert!(header.contains(key), "{header}");
    }
    assert_eq!(text.lines().count(), 4, "a header and three rows");
    // Negative control: another model's lines carry none of them.
    let other = lines(&murmur_output(&[
        "headless", "--preset", "couzin3d", "--boids", "100", "--steps", "10",
    ]));
    for line in &other {
        for key in FIGURES {
            assert!(line.get(key).is_none(), "{key} in {line}");
        }
    }
}

#[test]
fn sweep_takes_the_number_of_birds_and_plots_another_figure() {
    let dir = scratch("sweep");
    let prefix = dir.join("size");
    let out = murmur_output(&[
        "sweep",
        "--preset",
        "starlings",
        "--param",
        "boids",
        "--values",
        "200,400",
        "--steps",
        "60",
        "--average-last",
        "10",
        "--seeds",
        "1",
        "--y",
        "correlation_length",
        "--out",
        prefix.to_str().unwrap(),
    ]);
    let rows = lines(&out);
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["boids"].as_f64(), Some(200.0));
    assert_eq!(rows[1]["boids"].as_f64(), Some(400.0));
    assert!(rows[1]["correlation_length"].is_number(), "{}", rows[1]);
    let csv = std::fs::read_to_string(prefix.with_extension("csv")).unwrap();
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let rows: Vec<Vec<&str>> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    let at = |name: &str| header.iter().position(|h| *h == name).unwrap();
    // The start box grows with the birds, so its density holds: 2x the birds, 2^(1/3) the width.
    let width = |r: &Vec<&str>| r[at("width")].parse::<f64>().unwrap();
    let ratio = width(&rows[1]) / width(&rows[0]);
    assert!((ratio - 2f64.cbrt()).abs() < 1e-3, "{ratio}");
    assert!(prefix.with_extension("svg").exists() && prefix.with_extension("png").exists());

    let bad = murmur_output(&[
        "sweep",
        "--preset",
        "starlings",
        "--param",
        "boids",
        "--values",
        "200",
        "--y",
        "speed",
    ]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("correlation_length"));
}

#[test]
fn a_falcon_splits_the_flock_and_the_parts_join_again() {
    let run = |hunter: &[&str]| {
        let mut args = vec![
            "headless",
            "--preset",
            "starlings",
            "--boids",
            "2000",
            "--world",
            "44x9x30",
            "--steps",
            "1500",
            "--every",
            "50",
        ];
        args.extend_from_slice(hunter);
        let out = lines(&murmur_output(&args));
        let summary = out.last().unwrap().clone();
        let changes: Vec<(u64, u64)> = summary["group_changes"]
            .as_array()
            .expect("the starling model's summary lists the group changes")
            .iter()
            .map(|c| (c["step"].as_u64().unwrap(), c["groups"].as_u64().unwrap()))
            .collect();
        changes
    };
    // A falcon diving from ahead and above, at 25 m/s.
    let changes = run(&["--hunter", "120,30,0"]);
    let split = changes.iter().position(|c| c.1 > 1);
    let joined = split.and_then(|s| changes[s..].iter().position(|c| c.1 == 1));
    assert!(split.is_some() && joined.is_some(), "{changes:?}");
    // Negative control: without it the flock stays one.
    assert_eq!(run(&[]), vec![], "no falcon, no split");
}
