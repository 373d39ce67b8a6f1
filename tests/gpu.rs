//! The GPU path in the app a user runs: `murmur headless --gpu` reports a flock flown in compute
//! shaders (the same state run after run), says why and falls back to the CPU for a model the GPU
//! does not run, and `murmur screenshot --gpu` draws the GPU's flock as the CPU path draws its
//! own, flat and in 3D.
//!
//! The tests on the GPU need one that runs compute shaders (on Linux without one, Mesa's
//! lavapipe): they are ignored by a plain `cargo test` (`common::needs`).

mod common;

use common::{Picture, is_bird, is_gold, load, murmur, murmur_output, needs};
use std::path::PathBuf;

/// `murmur headless --gpu` flies on a GPU here, or the test fails saying why not.
fn needs_gpu() {
    let out = murmur_output(&["headless", "--gpu", "--boids", "10", "--steps", "1"]);
    let last = String::from_utf8_lossy(&out.stdout)
        .lines()
        .last()
        .map(str::to_string)
        .unwrap_or_default();
    if !last.contains(r#""path":"gpu""#) {
        needs::missing(
            "a GPU that runs compute shaders",
            String::from_utf8_lossy(&out.stderr).trim(),
        );
    }
}

fn final_line(args: &[&str]) -> (serde_json::Value, String) {
    let out = murmur_output(args);
    assert!(out.status.success(), "murmur {args:?}: {out:?}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let last = stdout.lines().last().expect("a final line");
    (
        serde_json::from_str(last).unwrap(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

#[test]
#[ignore = "needs a GPU (Vulkan; lavapipe will do)"]
fn headless_on_the_gpu_reports_the_same_flock_each_run() {
    needs_gpu();
    let args = [
        "headless", "--gpu", "--preset", "cornell", "--boids", "3000", "--steps", "120", "--every",
        "60", "--leader", "50,20",
    ];
    let (first, _) = final_line(&args);
    assert_eq!(first["path"], "gpu");
    assert!(first["gpu"].as_str().is_some_and(|g| !g.is_empty()));
    assert_eq!(first["boids"], 3000);
    assert!(first["mean_nn_distance"].as_f64().is_some_and(|d| d > 0.0));
    let (again, _) = final_line(&args);
    assert_eq!(first["state_hash"], again["state_hash"]);
    // Negative control: the CPU path from the same start ends elsewhere (rounding differs), so
    // the equality above is the GPU's own.
    let cpu: Vec<&str> = args.iter().copied().filter(|&a| a != "--gpu").collect();
    let (on_cpu, _) = final_line(&cpu);
    assert_eq!(on_cpu["path"], "cpu");
    assert_ne!(first["state_hash"], on_cpu["state_hash"]);
}

#[test]
#[ignore = "needs a GPU (Vulkan; lavapipe will do)"]
fn a_3d_preset_flies_on_the_gpu_with_its_solids_as_on_the_cpu() {
    needs_gpu();
    let args = [
        "headless",
        "--gpu",
        "--preset",
        "reynolds3d",
        "--boids",
        "3000",
        "--steps",
        "150",
        "--every",
        "50",
        "--leader",
        "50,20,-30",
    ];
    let (first, _) = final_line(&args);
    assert_eq!(first["path"], "gpu");
    assert_eq!(first["shape"].as_array().map(Vec::len), Some(3), "{first}");
    let (again, _) = final_line(&args);
    assert_eq!(first["state_hash"], again["state_hash"]);
    // The CPU from the same start: another hash (rounding differs), the same flock by its
    // figures.
    let cpu: Vec<&str> = args.iter().copied().filter(|&a| a != "--gpu").collect();
    let (on_cpu, _) = final_line(&cpu);
    assert_eq!(on_cpu["path"], "cpu");
    assert_ne!(first["state_hash"], on_cpu["state_hash"]);
    for figure in ["mean_neighbours", "mean_nn_distance", "angular_momentum"] {
        let (g, c) = (first[figure].as_f64(), on_cpu[figure].as_f64());
        let (Some(g), Some(c)) = (g, c) else {
            panic!("{figure}: GPU {first}, CPU {on_cpu}");
        };
        eprintln!("{figure}: GPU {g:.3}, CPU {c:.3}");
        assert!((g / c - 1.0).abs() < 0.1, "{figure}: GPU {g}, CPU {c}");
    }
}

#[test]
fn a_model_without_a_gpu_kernel_says_so_and_runs_on_the_cpu() {
    let (summary, stderr) = final_line(&[
        "headless", "--gpu", "--preset", "vicsek", "--boids", "300", "--steps", "5",
    ]);
    assert_eq!(summary["path"], "cpu");
    assert!(
        stderr.contains("reynolds and cornell") && stderr.contains("running on the CPU"),
        "{stderr}"
    );
}

fn screenshot(display: &common::Display, gpu: bool, seed: &str, name: &str) -> Picture {
    let scene = ["--preset", "reynolds", "--boids", "2000"];
    screenshot_of(display, &scene, gpu, seed, name)
}

fn screenshot_of(
    display: &common::Display,
    scene: &[&str],
    gpu: bool,
    seed: &str,
    name: &str,
) -> Picture {
    let out: PathBuf =
        std::env::temp_dir().join(format!("murmur-test-{}-{name}.png", std::process::id()));
    let mut command = murmur();
    command
        .arg("screenshot")
        .args(scene)
        .args(["--seed", seed])
        .args(["--steps", "120", "--size", "1280x720", "--out"])
        .arg(&out)
        .env("DISPLAY", &display.name)
        .env("XDG_RUNTIME_DIR", std::env::temp_dir());
    if gpu {
        command.arg("--gpu");
    }
    let status = command.status().expect("murmur runs");
    assert!(status.success(), "murmur screenshot failed: {status}");
    load(&out)
}

/// Bird pixels in each 40x40 tile, away from the text boxes at the top and bottom.
fn tiles(pic: &Picture) -> Vec<f64> {
    let mut out = vec![0.0; (pic.width / 40) * 15];
    for y in 60..660 {
        for x in 0..pic.width {
            if is_bird(pic.rgb[y * pic.width + x]) {
                out[((y - 60) / 40) * (pic.width / 40) + x / 40] += 1.0;
            }
        }
    }
    out
}

fn correlation(a: &[f64], b: &[f64]) -> f64 {
    let n = a.len() as f64;
    let (ma, mb) = (a.iter().sum::<f64>() / n, b.iter().sum::<f64>() / n);
    let cov: f64 = a.iter().zip(b).map(|(x, y)| (x - ma) * (y - mb)).sum();
    let va: f64 = a.iter().map(|x| (x - ma).powi(2)).sum();
    let vb: f64 = b.iter().map(|y| (y - mb).powi(2)).sum();
    cov / (va * vb).sqrt()
}

#[test]
#[ignore = "needs a GPU (Vulkan; lavapipe will do) and an X display (or Xvfb)"]
fn the_gpu_flock_is_drawn_where_the_cpu_flock_flies() {
    needs_gpu();
    let (_one_at_a_time, display) = needs::display();
    let gpu = screenshot(&display, true, "5", "gpu");
    let cpu = screenshot(&display, false, "5", "cpu");
    let other = screenshot(&display, false, "6", "cpu-other-seed");
    let (g, c, o) = (tiles(&gpu), tiles(&cpu), tiles(&other));
    let (birds_gpu, birds_cpu) = (g.iter().sum::<f64>(), c.iter().sum::<f64>());
    eprintln!("bird pixels: GPU {birds_gpu}, CPU {birds_cpu}");
    assert!(
        birds_gpu > 5000.0,
        "the GPU's birds are drawn: {birds_gpu} pixels"
    );
    // The same birds, the same size: about as many pixels.
    assert!(
        (birds_gpu / birds_cpu - 1.0).abs() < 0.2,
        "{birds_gpu} vs {birds_cpu}"
    );
    let same = correlation(&g, &c);
    let unrelated = correlation(&o, &c);
    eprintln!(
        "tile correlation with the CPU's picture: GPU {same:.3}, another seed {unrelated:.3}"
    );
    assert!(
        same > 0.8 && same > unrelated + 0.2,
        "GPU {same}, another seed {unrelated}"
    );
    // The gold player is drawn on the GPU path too.
    let gold = gpu.rgb.iter().filter(|&&p| is_gold(p)).count();
    assert!(gold >= 20, "the gold bird: {gold} pixels");
}

#[test]
#[ignore = "needs a GPU (Vulkan; lavapipe will do) and an X display (or Xvfb)"]
fn the_3d_gpu_flock_is_drawn_where_and_as_the_cpu_draws_its_own() {
    needs_gpu();
    let (_one_at_a_time, display) = needs::display();
    // The whole box from the orbit camera: the flock, the column, the hill.
    let scene = [
        "--preset",
        "reynolds3d",
        "--boids",
        "3000",
        "--camera",
        "orbit",
    ];
    let gpu = screenshot_of(&display, &scene, true, "5", "gpu3d");
    let cpu = screenshot_of(&display, &scene, false, "5", "cpu3d");
    let other = screenshot_of(&display, &scene, false, "6", "cpu3d-other-seed");
    let (g, c) = (tiles(&gpu), tiles(&cpu));
    let (birds_gpu, birds_cpu) = (g.iter().sum::<f64>(), c.iter().sum::<f64>());
    eprintln!("3D bird pixels: GPU {birds_gpu}, CPU {birds_cpu}");
    assert!(
        birds_gpu > 3000.0,
        "the GPU's birds are drawn: {birds_gpu} pixels"
    );
    // The same lit birds, the same size: about as many pixels.
    assert!(
        (birds_gpu / birds_cpu - 1.0).abs() < 0.15,
        "{birds_gpu} vs {birds_cpu}"
    );
    // Bird by bird: the GPU's bird pixels on (or next to) the CPU's, far more than another
    // seed's are (its flock fills the same region of the box, so tiles alone would not tell:
    // their correlation was 0.999 for the GPU and 0.970 for another seed).
    let same = overlap(&gpu, &cpu);
    let unrelated = overlap(&other, &cpu);
    eprintln!("3D bird pixels on the CPU's: GPU {same:.3}, another seed {unrelated:.3}");
    // The flock is dense, so even another seed's pixels often land by a bird: the GPU's
    // misses are held to a third of that seed's.
    assert!(
        same > 0.9 && 3.0 * (1.0 - same) < 1.0 - unrelated,
        "GPU {same}, another seed {unrelated}"
    );
}

/// The share of `a`'s bird pixels (away from the text boxes) within a pixel of one of `b`'s.
fn overlap(a: &Picture, b: &Picture) -> f64 {
    let bird = |pic: &Picture, x: usize, y: usize| is_bird(pic.rgb[y * pic.width + x]);
    let (mut on, mut all) = (0usize, 0usize);
    for y in 61..659 {
        for x in 1..a.width - 1 {
            if !bird(a, x, y) {
                continue;
            }
            all += 1;
            if (y - 1..=y + 1).any(|v| (x - 1..=x + 1).any(|u| bird(b, u, v))) {
                on += 1;
            }
        }
    }
    on as f64 / all.max(1) as f64
}
