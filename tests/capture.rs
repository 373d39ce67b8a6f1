//! Pictures people share: `murmur record` writes a GIF of the app's real scene (decoded here by
//! the tests' own decoder: the asked number of frames, frames that differ as the flock moves,
//! the leader's crimson near the click), and in the running app F12 and F9, pressed on the real
//! keyboard path (X events from xdotool into the window), save a PNG and a GIF; a recording
//! whose process is killed still decodes.
//!
//! Needs an X display and, for the keys, `xdotool`: a plain `cargo test` ignores these tests
//! (`common::needs`); `--include-ignored` runs them.

mod common;

use common::{is_crimson, main_window, murmur, needs, wait_for, xdotool};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("murmur-capture-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
#[ignore = "needs an X display (or Xvfb) and Vulkan"]
fn record_writes_the_asked_frames_of_a_moving_flock_with_the_leader_at_the_click() {
    let (_one_at_a_time, display) = needs::display();
    let dir = scratch("record");
    let out = dir.join("flock.gif");
    let click = (450.0f32, 130.0f32);
    let status = murmur()
        .args([
            "record", "--preset", "reynolds", "--boids", "1500", "--seed", "4",
        ])
        .args([
            "--click",
            "450,130",
            "--seconds",
            "2",
            "--fps",
            "10",
            "--size",
            "640x360",
        ])
        .arg("--out")
        .arg(&out)
        .env("DISPLAY", &display.name)
        .env("XDG_RUNTIME_DIR", std::env::temp_dir())
        .env("MURMUR_CONFIG_DIR", &dir)
        .status()
        .expect("murmur runs");
    assert!(status.success(), "murmur record failed: {status}");
    let bytes = std::fs::read(&out).unwrap();
    let gif = common::gif::decode(&bytes).expect("a whole GIF");
    // The decoder is strict: a file cut before its end is not a GIF (so that the killed
    // recording below decoding means something).
    assert!(common::gif::decode(&bytes[..bytes.len() - 1]).is_err());
    assert_eq!((gif.width, gif.height), (640, 360));
    assert_eq!(gif.frames.len(), 20, "2 s at 10 fps");
    assert!(
        gif.frames.iter().all(|f| f.delay == 10),
        "a tenth of a second each"
    );
    for (k, pair) in gif.frames.windows(2).enumerate() {
        let changed = pair[0]
            .rgb
            .iter()
            .zip(&pair[1].rgb)
            .filter(|(a, b)| a != b)
            .count();
        assert!(
            changed > 200,
            "frames {k} and {} differ: {changed} pixels",
            k + 1
        );
    }
    let last = gif.frames.last().unwrap();
    let near_click = (0..gif.height)
        .flat_map(|y| (0..gif.width).map(move |x| (x, y)))
        .filter(|&(x, y)| is_crimson(last.rgb[y * gif.width + x]))
        .filter(|&(x, y)| (x as f32 - click.0).hypot(y as f32 - click.1) < 30.0)
        .count();
    assert!(
        near_click >= 10,
        "the leader's crimson near the click: {near_click} pixels"
    );
    // The control: no click, no leader.
    let plain = dir.join("plain.gif");
    let status = murmur()
        .args([
            "record", "--preset", "reynolds", "--boids", "1500", "--seed", "4",
        ])
        .args([
            "--seconds",
            "0.2",
            "--fps",
            "10",
            "--size",
            "640x360",
            "--out",
        ])
        .arg(&plain)
        .env("DISPLAY", &display.name)
        .env("XDG_RUNTIME_DIR", std::env::temp_dir())
        .env("MURMUR_CONFIG_DIR", &dir)
        .status()
        .expect("murmur runs");
    assert!(status.success());
    let plain = common::gif::decode(&std::fs::read(&plain).unwrap()).unwrap();
    assert_eq!(plain.frames.len(), 2);
    let crimson = plain.frames[1]
        .rgb
        .iter()
        .filter(|p| is_crimson(**p))
        .count();
    assert!(
        crimson < 5,
        "no leader without a click: {crimson} crimson pixels"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Files with this extension in `dir`.
fn files(dir: &Path, extension: &str) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    found.retain(|p| p.extension().is_some_and(|e| e == extension));
    found.sort();
    found
}

#[test]
#[ignore = "needs an X display (or Xvfb), Vulkan and xdotool"]
fn f12_and_f9_save_a_picture_and_a_recording_and_a_killed_recording_still_decodes() {
    let (_one_at_a_time, display) = needs::display();
    needs::xdotool();
    let dir = scratch("keys");
    let pictures = dir.join("pictures");
    std::fs::create_dir_all(&pictures).unwrap();
    let log = dir.join("log.txt");
    let mut app = murmur()
        .args([
            "run", "--preset", "reynolds", "--boids", "800", "--seed", "2",
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
    // Xvfb has no window manager: the window gets key events only once focused.
    let key = |k: &str| {
        xdotool(&display.name, &["windowfocus", "--sync", &window]);
        xdotool(&display.name, &["key", k]).expect("xdotool sends the key");
    };
    // Let the renderer warm up, then a picture.
    std::thread::sleep(Duration::from_secs(5));
    key("F12");
    let png = wait_for(Duration::from_secs(30), || {
        files(&pictures, "png")
            .into_iter()
            .next()
            .filter(|p| std::fs::metadata(p).is_ok_and(|m| m.len() > 0))
    })
    .expect("F12 writes a PNG");
    std::thread::sleep(Duration::from_millis(500));
    let picture = common::load(&png);
    assert_eq!((picture.width, picture.height), (800, 450));
    // A recording of about two seconds.
    key("F9");
    std::thread::sleep(Duration::from_secs(2));
    key("F9");
    let gif = wait_for(Duration::from_secs(30), || {
        files(&pictures, "gif")
            .into_iter()
            .next()
            .and_then(|p| common::gif::decode(&std::fs::read(&p).ok()?).ok())
    })
    .expect("F9 twice writes a GIF that decodes");
    assert!(
        gif.frames.len() > 1,
        "more than one frame: {}",
        gif.frames.len()
    );
    assert_eq!(gif.width, 640, "640 pixels wide");
    // A second recording, and the process killed in the middle of it.
    key("F9");
    std::thread::sleep(Duration::from_secs(2));
    let _ = app.kill();
    let _ = app.wait();
    let gifs = files(&pictures, "gif");
    assert_eq!(
        gifs.len(),
        2,
        "the killed recording's file is there: {gifs:?}"
    );
    let cut = common::gif::decode(&std::fs::read(&gifs[1]).unwrap())
        .expect("the killed recording decodes");
    assert!(
        !cut.frames.is_empty(),
        "with the frames captured before the kill"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The control for `main_window`, which the tests above wait on: an app that cannot open its
/// window (here, a display nobody serves) fails the wait at once, saying that it exited and
/// what it said, rather than passing or waiting out the limit.
#[test]
#[should_panic(expected = "the app exited")]
fn waiting_for_the_window_of_an_app_that_cannot_open_one_fails_with_its_log() {
    let dir = scratch("nowindow");
    let log = dir.join("log.txt");
    let mut app = murmur()
        .args(["run", "--boids", "10"])
        .env("DISPLAY", ":4099")
        .env_remove("WAYLAND_DISPLAY")
        .env("MURMUR_CONFIG_DIR", &dir)
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .expect("murmur runs");
    main_window(":4099", &mut app, &log, Duration::from_secs(60));
}
