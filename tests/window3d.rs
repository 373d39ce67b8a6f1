//! The app's 3D scene under a display, as `murmur screenshot` renders it: birds in depth (near
//! birds drawn larger than far ones, where the flat scene's are all one size), the leader a
//! click puts above the ground under the cursor with the flock gathered round it (and none
//! without the click), and the gold bird kept in view by the chase camera as it flies; and the
//! live window driven by real X key and mouse events (`xdotool`, the window focused).
//!
//! Needs an X display and Vulkan (Mesa's lavapipe will do): a plain `cargo test` ignores these
//! tests (`common::needs`); `--include-ignored` runs them.

mod common;

use common::{
    Display, Picture, is_bird, is_crimson, load, main_window, murmur, needs, wait_for, xdotool,
};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

fn screenshot(display: &Display, args: &[&str], name: &str) -> Picture {
    let out: PathBuf =
        std::env::temp_dir().join(format!("murmur-test-{}-{name}.png", std::process::id()));
    let status = murmur()
        .args(["screenshot", "--seed", "5"])
        .args(args)
        .arg("--out")
        .arg(&out)
        .env("DISPLAY", &display.name)
        .env("XDG_RUNTIME_DIR", std::env::temp_dir())
        .status()
        .expect("murmur runs");
    assert!(status.success(), "murmur screenshot failed: {status}");
    load(&out)
}

/// Pixels matching `f`, away from the two text boxes (top-left status, bottom help line).
fn matching(pic: &Picture, f: fn([u8; 3]) -> bool) -> Vec<(usize, usize)> {
    common::matching(pic, f, 60, 70)
}

/// The gold bird lit by the sun: gold in the light, olive in its own shade (red over green
/// over blue, well apart), unlike the green ground and the pale sky.
fn is_gold(p: [u8; 3]) -> bool {
    let [r, g, b] = p.map(i32::from);
    r > 90 && r > g + 10 && g > b + 40 && g * 2 > r
}

/// The birds as blobs of touching bird pixels: (centre's height, pixels) each.
fn blobs(pic: &Picture) -> Vec<(f32, usize)> {
    let bird: std::collections::HashSet<(usize, usize)> =
        matching(pic, is_bird).into_iter().collect();
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for &start in &bird {
        if !seen.insert(start) {
            continue;
        }
        let (mut stack, mut size, mut ys) = (vec![start], 0usize, 0usize);
        while let Some((x, y)) = stack.pop() {
            size += 1;
            ys += y;
            for dx in -1i64..=1 {
                for dy in -1i64..=1 {
                    let q = ((x as i64 + dx) as usize, (y as i64 + dy) as usize);
                    if bird.contains(&q) && seen.insert(q) {
                        stack.push(q);
                    }
                }
            }
        }
        out.push((ys as f32 / size as f32, size));
    }
    out
}

/// The median blob size of the lowest third of the blobs over that of the highest third.
fn low_over_high(pic: &Picture) -> f32 {
    let mut blobs = blobs(pic);
    assert!(blobs.len() >= 150, "birds to measure: {}", blobs.len());
    blobs.sort_by(|a, b| a.0.total_cmp(&b.0));
    let third = blobs.len() / 3;
    let median = |part: &[(f32, usize)]| {
        let mut sizes: Vec<usize> = part.iter().map(|b| b.1).collect();
        sizes.sort_unstable();
        sizes[sizes.len() / 2] as f32
    };
    median(&blobs[blobs.len() - third..]) / median(&blobs[..third])
}

#[test]
#[ignore = "needs an X display (or Xvfb) and Vulkan"]
fn near_birds_are_drawn_larger_than_far_ones() {
    let (_one_at_a_time, display) = needs::display();
    // A thin layer of birds seen from behind and above: the near ones low in the picture,
    // the far ones up towards the horizon.
    let deep = screenshot(
        &display,
        &[
            "--preset",
            "reynolds3d",
            "--world",
            "800x40x800",
            "--boids",
            "400",
            "--steps",
            "2",
            "--camera",
            "chase",
        ],
        "depth",
    );
    let ratio = low_over_high(&deep);
    assert!(ratio > 1.8, "near birds larger than far ones: {ratio}");
    // The flat scene's birds are one size wherever they are.
    let flat = screenshot(
        &display,
        &["--preset", "reynolds", "--boids", "400", "--steps", "2"],
        "flat",
    );
    let ratio = low_over_high(&flat);
    assert!(
        (0.75..1.33).contains(&ratio),
        "flat birds all one size: {ratio}"
    );
}

#[test]
#[ignore = "needs an X display (or Xvfb) and Vulkan"]
fn a_click_puts_the_leader_above_the_ground_under_the_cursor_and_the_flock_gathers_there() {
    let (_one_at_a_time, display) = needs::display();
    let args = [
        "--preset",
        "reynolds3d",
        "--boids",
        "1500",
        "--steps",
        "400",
        "--camera",
        "orbit",
    ];
    let click = (700.0, 450.0);
    let pic = screenshot(
        &display,
        &[&args[..], &["--click", "700,450"]].concat(),
        "click",
    );

    // The orb and its line down to the ground: the line's foot is where the click was.
    let crimson = matching(&pic, is_crimson);
    assert!(
        crimson.len() >= 30,
        "the leader shows: {} crimson pixels",
        crimson.len()
    );
    let foot = crimson.iter().max_by_key(|p| p.1).unwrap();
    let top = crimson.iter().min_by_key(|p| p.1).unwrap();
    let off = (foot.0 as f32 - click.0).hypot(foot.1 as f32 - click.1);
    assert!(
        off < 25.0,
        "the line ends at the click: {foot:?} vs {click:?}"
    );
    assert!(
        foot.1 - top.1 > 40,
        "the orb is above the ground: {top:?} .. {foot:?}"
    );

    // The flock gathered round the orb: more birds there than there are without the click.
    let orb = (top.0 as f32, top.1 as f32 + 6.0);
    let near = |pic: &Picture| {
        matching(pic, is_bird)
            .iter()
            .filter(|&&(x, y)| (x as f32 - orb.0).hypot(y as f32 - orb.1) < 100.0)
            .count()
    };
    let without = screenshot(&display, &args, "no-click");
    assert!(
        matching(&without, is_crimson).len() < 5,
        "no leader without a click"
    );
    let (with_leader, alone) = (near(&pic), near(&without));
    assert!(
        // The half of the flock round the gold bird lies near too, with or without the click.
        with_leader as f32 > 1.4 * alone as f32 + 100.0,
        "birds round the leader: {with_leader} bird pixels, {alone} without it"
    );
}

#[test]
#[ignore = "needs an X display (or Xvfb) and Vulkan"]
fn the_chase_camera_keeps_the_gold_bird_in_view_as_it_flies() {
    let (_one_at_a_time, display) = needs::display();
    // Ten seconds of W: the bird crosses the world (and stops at its edge).
    let pic = screenshot(
        &display,
        &[
            "--preset",
            "reynolds3d",
            "--boids",
            "1000",
            "--steps",
            "600",
            "--fly",
            "up",
        ],
        "chase",
    );
    let gold = matching(&pic, is_gold);
    assert!(gold.len() >= 40, "the gold bird is in view: {}", gold.len());
    let n = gold.len() as f32;
    let gx = gold.iter().map(|p| p.0 as f32).sum::<f32>() / n;
    let gy = gold.iter().map(|p| p.1 as f32).sum::<f32>() / n;
    let (w, h) = (pic.width as f32, pic.height as f32);
    assert!(
        (gx - w / 2.0).abs() < 0.15 * w && (gy - h / 2.0).abs() < 0.25 * h,
        "the gold bird is near the middle: ({gx}, {gy})"
    );
}

/// The newest PNG in `dir` once it is whole, read (and removed).
fn newest_png(dir: &Path, after: usize) -> Picture {
    let png = wait_for(Duration::from_secs(30), || {
        let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
            .ok()?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "png"))
            .collect();
        found.sort();
        (found.len() > after).then(|| found.pop()).flatten()
    })
    .expect("F12 writes a PNG");
    // Let the writer finish.
    std::thread::sleep(Duration::from_millis(800));
    let pic = load(&png);
    // `load` removed it; keep the count right for the next picture.
    std::fs::write(&png, b"read").unwrap();
    pic
}

#[test]
#[ignore = "needs an X display (or Xvfb), Vulkan and xdotool"]
fn real_keys_and_a_real_click_fly_the_gold_bird_and_place_the_leader_in_the_live_window() {
    let (_one_at_a_time, display) = needs::display();
    needs::xdotool();
    let dir = std::env::temp_dir().join(format!("murmur-test-{}-live3d", std::process::id()));
    let pictures = dir.join("pictures");
    std::fs::create_dir_all(&pictures).unwrap();
    let log = dir.join("log.txt");
    let mut app = murmur()
        .args([
            "run",
            "--preset",
            "reynolds3d",
            "--boids",
            "600",
            "--seed",
            "2",
        ])
        .args(["--size", "800x450"])
        .env("DISPLAY", &display.name)
        .env("XDG_RUNTIME_DIR", std::env::temp_dir())
        .env("MURMUR_CONFIG_DIR", &dir)
        .env("MURMUR_PICTURES_DIR", &pictures)
        .env("NO_COLOR", "1")
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .expect("murmur runs");
    let window = main_window(&display.name, &mut app, &log, Duration::from_secs(120));
    let said = |what: &str| std::fs::read_to_string(&log).is_ok_and(|l| l.contains(what));
    // Xvfb has no window manager: the window gets key events only once focused.
    let x = |args: &[&str]| {
        xdotool(&display.name, &["windowfocus", "--sync", &window]);
        xdotool(&display.name, args).expect("xdotool sends it");
    };
    std::thread::sleep(Duration::from_secs(5));

    // W held for three seconds: the gold bird flies, and the chase camera keeps it in the middle.
    x(&["keydown", "w"]);
    std::thread::sleep(Duration::from_secs(3));
    x(&["keyup", "w"]);
    x(&["key", "F12"]);
    let flown = newest_png(&pictures, 0);
    let gold = matching(&flown, is_gold);
    assert!(gold.len() >= 20, "the gold bird in view: {}", gold.len());
    let gx = gold.iter().map(|p| p.0 as f32).sum::<f32>() / gold.len() as f32;
    // The side panel (330 px) is open in a first session: the picture fills the 470 px left.
    let middle = (800.0 - 330.0) / 2.0;
    assert!(
        (gx - middle).abs() < 90.0,
        "the gold bird near the playfield's middle ({middle}): x = {gx}"
    );

    // A real click on the ground places the leader there: it says so, and the orb shows.
    assert!(!said("leader placed"), "no leader before the click");
    x(&["mousemove", "--window", &window, "400", "380"]);
    x(&["click", "1"]);
    assert!(
        wait_for(Duration::from_secs(20), || said("leader placed")
            .then_some(()))
        .is_some(),
        "the click placed the leader"
    );
    std::thread::sleep(Duration::from_secs(1));
    x(&["key", "F12"]);
    let led = newest_png(&pictures, 1);
    let crimson = matching(&led, is_crimson);
    assert!(crimson.len() >= 10, "the leader shows: {}", crimson.len());

    // V: the orbit camera.
    x(&["key", "v"]);
    assert!(
        wait_for(Duration::from_secs(20), || said("camera: Orbit")
            .then_some(()))
        .is_some(),
        "V took up the orbit camera"
    );
    let _ = app.kill();
    let _ = app.wait();
    let _ = std::fs::remove_dir_all(&dir);
}
