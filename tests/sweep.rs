//! `murmur sweep` and the science presets from the command line: order parameters in every
//! headless line, sweeps written as CSV and PNG, bad input refused.

mod common;

use common::murmur_output;

#[test]
fn headless_reports_both_order_parameters_for_the_science_models() {
    for preset in ["vicsek", "couzin"] {
        let out = murmur_output(&[
            "headless", "--preset", preset, "--steps", "20", "--every", "10", "--set", "boids=50",
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        for line in String::from_utf8_lossy(&out.stdout).lines() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            assert!(
                v["polarization"].is_number() && v["angular_momentum"].is_number(),
                "{line}"
            );
        }
    }
    let out = murmur_output(&[
        "headless", "--preset", "vicsek", "--steps", "10", "--set", "eta=2.0",
    ]);
    assert!(out.status.success());
}

#[test]
fn a_sweep_writes_one_row_per_point_and_a_plot() {
    let prefix = std::env::temp_dir().join(format!("murmur-sweep-{}", std::process::id()));
    let prefix = prefix.to_str().unwrap();
    let out = murmur_output(&[
        "sweep",
        "--preset",
        "vicsek",
        "--param",
        "eta",
        "--values",
        "0,3,...,6",
        "--boids",
        "30,60",
        "--world",
        "3x3,4x4",
        "--steps",
        "200",
        "--average-last",
        "100",
        "--seeds",
        "2",
        "--out",
        prefix,
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let csv = std::fs::read_to_string(format!("{prefix}.csv")).unwrap();
    let png = std::fs::read(format!("{prefix}.png")).unwrap();
    let svg = std::fs::read_to_string(format!("{prefix}.svg")).unwrap();
    for ext in ["csv", "png", "svg"] {
        let _ = std::fs::remove_file(format!("{prefix}.{ext}"));
    }
    let rows: Vec<&str> = csv.lines().collect();
    assert!(rows[0].starts_with("boids,width,height,eta,polarization,polarization_err"));
    assert_eq!(rows.len(), 1 + 2 * 3, "two series of three values");
    // Low noise orders, full noise does not.
    let pol = |row: &str| row.split(',').nth(4).unwrap().parse::<f64>().unwrap();
    assert!(pol(rows[1]) > 0.9 && pol(rows[3]) < 0.4, "{csv}");
    assert_eq!(&png[1..4], b"PNG");
    // The vector figure: both series in the legend, error bars in the first series' colour
    // (three points, three lines each, beside its polyline), a linear axis.
    assert!(svg.starts_with("<svg"), "an SVG");
    assert!(svg.contains("N = 30, L = 3") && svg.contains("N = 60, L = 4"));
    let blue = svg
        .matches("<line opacity=\"1\" stroke=\"#1F77B4\"")
        .count();
    assert!(blue >= 9, "error bars drawn: {blue} lines");
    let x = x_axis_labels(&svg);
    assert!(
        x.contains(&"3".to_string()) || x.contains(&"3.0".to_string()),
        "a linear axis: {x:?}"
    );
}

/// The labels along an SVG chart's x axis: the texts below the plot (the title is at the top,
/// the y axis's labels beside it), less the axis's name.
fn x_axis_labels(svg: &str) -> Vec<String> {
    svg.split("<text")
        .skip(1)
        .filter_map(|t| {
            let (attrs, rest) = t.split_once('>')?;
            let y: f64 = attrs
                .split("y=\"")
                .nth(1)?
                .split('"')
                .next()?
                .parse()
                .ok()?;
            let (text, _) = rest.split_once("</text>")?;
            Some((y, text.trim().to_string()))
        })
        .filter(|(y, text)| *y > 535.0 && text != "eta")
        .map(|(_, text)| text)
        .collect()
}

#[test]
fn a_sweep_over_decades_gets_a_logarithmic_axis_when_asked() {
    let prefix = std::env::temp_dir().join(format!("murmur-sweep-log-{}", std::process::id()));
    let prefix = prefix.to_str().unwrap();
    let out = murmur_output(&[
        "sweep",
        "--preset",
        "vicsek",
        "--param",
        "eta",
        "--values",
        "0.05,0.5,5",
        "--boids",
        "30",
        "--world",
        "3x3",
        "--steps",
        "60",
        "--average-last",
        "20",
        "--seeds",
        "1",
        "--log-x",
        "--out",
        prefix,
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let svg = std::fs::read_to_string(format!("{prefix}.svg")).unwrap();
    for ext in ["csv", "png", "svg"] {
        let _ = std::fs::remove_file(format!("{prefix}.{ext}"));
    }
    let labels = x_axis_labels(&svg);
    assert_eq!(labels, vec!["0.1", "1.0"], "decades on the axis");
    // Values at or below 0 cannot go on a logarithmic axis.
    let out = murmur_output(&[
        "sweep", "--preset", "vicsek", "--param", "eta", "--values", "0,1", "--log-x",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--log-x needs values above 0"));
}

#[test]
fn bad_sweeps_are_refused() {
    for args in [
        &[
            "sweep", "--preset", "vicsek", "--param", "nope", "--values", "1,2",
        ][..],
        &[
            "sweep", "--preset", "vicsek", "--param", "eta", "--values", "1,...,2",
        ],
        &[
            "sweep",
            "--preset",
            "vicsek",
            "--param",
            "eta",
            "--values",
            "1,2",
            "--steps",
            "10",
            "--average-last",
            "20",
        ],
        &[
            "sweep",
            "--preset",
            "vicsek",
            "--param",
            "eta",
            "--values",
            "1,2",
            "--boids",
            "10,20",
            "--world",
            "1x1,2x2,3x3",
        ],
        &[
            "sweep", "--preset", "vicsek", "--param", "eta", "--values", "1", "--param2", "radius",
        ],
    ] {
        let out = murmur_output(args);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn a_sweep_into_a_folder_that_is_not_there_is_refused_before_it_runs() {
    // A long sweep (400 runs): refused at once, not after the runs.
    let args = [
        "sweep",
        "--preset",
        "vicsek",
        "--param",
        "eta",
        "--values",
        "0,0.1,...,3.9",
        "--boids",
        "400",
        "--steps",
        "3000",
        "--average-last",
        "100",
        "--seeds",
        "10",
        "--out",
        "/no/such/folder/x",
    ];
    let started = std::time::Instant::now();
    let out = murmur_output(&args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("no such directory: /no/such/folder"),
        "{stderr}"
    );
    assert!(started.elapsed().as_secs() < 30, "it ran the sweep first");
    // Control: into a folder that is there, the same prefix form writes the three files.
    let dir = std::env::temp_dir().join(format!("murmur-sweep-out-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let prefix = dir.join("x");
    let out = murmur_output(&[
        "sweep",
        "--preset",
        "vicsek",
        "--param",
        "eta",
        "--values",
        "1,2",
        "--boids",
        "40",
        "--steps",
        "20",
        "--average-last",
        "10",
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
    for ext in ["csv", "png", "svg"] {
        assert!(dir.join(format!("x.{ext}")).is_file(), "x.{ext}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
