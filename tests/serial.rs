//! The serial bridge end to end over real pseudo-terminals: `murmur board --pty` plays the board,
//! `murmur mirror --headless` reads it as it would a USB device. One test per fault kind, each
//! with exact counters and every good frame delivered; resets, divergence, reconnection,
//! recording and replay.

// The virtual board runs on pseudo-terminals, which only unix systems have.
#![cfg(unix)]

mod common;

use common::murmur;
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

/// A running virtual board and the terminal it writes to.
struct Board {
    child: Child,
    path: PathBuf,
}

impl Drop for Board {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn board(args: &[&str]) -> Board {
    let mut child = murmur()
        .args(["board", "--pty", "--fast"])
        .args(args)
        .stdout(Stdio::piped())
        .spawn()
        .expect("murmur board runs");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    Board {
        child,
        path: PathBuf::from(line.trim()),
    }
}

/// `murmur mirror --headless --json` until `frames` frames were compared: its report and exit
/// code.
fn mirror_exit(port: &Path, frames: u64, extra: &[&str]) -> (Value, Option<i32>) {
    let out = murmur()
        .args([
            "mirror",
            "--headless",
            "--json",
            "--timeout-s",
            "20",
            "--frames",
            &frames.to_string(),
            "--port",
        ])
        .arg(port)
        .args(extra)
        .output()
        .expect("murmur mirror runs");
    let report = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "one JSON object ({e}): {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (report, out.status.code())
}

/// As [`mirror_exit`], for a mirror that must pass (every frame compared agreed).
fn mirror(port: &Path, frames: u64, extra: &[&str]) -> Value {
    let (report, code) = mirror_exit(port, frames, extra);
    assert_eq!(code, Some(0), "{report}");
    report
}

/// Board with `args`, mirror until `frames` FLOCK frames.
fn run(args: &[&str], frames: u64) -> Value {
    let b = board(args);
    mirror(&b.path, frames, &[])
}

fn counters(v: &Value) -> [u64; 7] {
    common::counts(
        v,
        [
            "frames_ok",
            "hellos",
            "crc_errors",
            "framing_errors",
            "unknown_kind",
            "lost_frames",
            "resets",
        ],
    )
}

#[test]
fn a_clean_stream_arrives_whole_and_in_sync() {
    let v = run(&["--ticks", "200"], 201);
    // HELLO at tick 0 and every 31 ticks: 0, 31, 62, 93, 124, 155, 186.
    assert_eq!(counters(&v), [201, 7, 0, 0, 0, 0, 0]);
    assert_eq!(v["last_tick"], 200);
    assert_eq!(v["in_sync"], true);
    assert_eq!(v["hello"]["revision_name"], "a412");
    assert_eq!(v["hello"]["tick_us"], 31872);
    assert_eq!(v["first_divergence"], Value::Null);
}

#[test]
fn dropped_frames_are_counted_as_lost() {
    // Ticks 9, 19, ..., 99 dropped: 10 of 101.
    let v = run(&["--ticks", "100", "--drop-every", "10"], 91);
    assert_eq!(counters(&v), [91, 4, 0, 0, 0, 10, 0]);
    assert_eq!(v["in_sync"], true, "the local model runs through the gaps");
}

#[test]
fn flipped_bits_are_crc_errors_and_their_ticks_lost() {
    // Ticks 6, 13, ..., 69 corrupted: 10 of 71.
    let v = run(&["--ticks", "70", "--flip-every", "7"], 61);
    assert_eq!(counters(&v), [61, 3, 10, 0, 0, 10, 0]);
    assert_eq!(v["in_sync"], true);
}

#[test]
fn noise_between_frames_is_rejected_and_loses_nothing() {
    // A burst after ticks 4, 9, ..., 49: ten garbage frames, all 51 FLOCKs intact.
    let v = run(&["--ticks", "50", "--noise-every", "5"], 51);
    let [ok, hellos, crc, framing, unknown, lost, resets] = counters(&v);
    assert_eq!((ok, hellos, unknown, lost, resets), (51, 2, 0, 0, 0));
    assert_eq!(crc + framing, 10, "each burst is one rejected frame: {v}");
}

#[test]
fn truncated_frames_are_rejected_and_their_ticks_lost() {
    // Ticks 7, 15, ..., 79 cut in half: 10 of 81.
    let v = run(&["--ticks", "80", "--truncate-every", "8"], 71);
    let [ok, _, crc, framing, _, lost, resets] = counters(&v);
    assert_eq!((ok, crc + framing, lost, resets), (71, 10, 10, 0), "{v}");
}

#[test]
fn a_stall_delays_but_loses_nothing() {
    let started = Instant::now();
    let v = run(
        &["--ticks", "40", "--stall-at", "20", "--stall-ms", "700"],
        41,
    );
    assert!(started.elapsed() >= Duration::from_millis(700));
    assert_eq!(counters(&v), [41, 2, 0, 0, 0, 0, 0]);
}

#[test]
fn a_reset_is_counted_and_the_model_follows_it() {
    // Ticks 0..29, a reboot (HELLO, tick 0), then ticks 1..30.
    let v = run(&["--ticks", "60", "--reset-at", "30"], 61);
    assert_eq!(counters(&v), [61, 2, 0, 0, 0, 0, 1]);
    assert_eq!(v["last_tick"], 30);
    assert_eq!(v["in_sync"], true);
}

#[test]
fn a_board_running_another_model_is_caught_at_its_first_divergence() {
    // Runs bfee0c8, announces a412: the same init, different ticks.
    let b = board(&["--ticks", "20", "--revision", "bfee0c8", "--announce", "0"]);
    let (v, code) = mirror_exit(&b.path, 21, &[]);
    assert_eq!(code, Some(3), "a divergence has its own exit code: {v}");
    assert_eq!(v["frames_compared"], 21);
    assert_eq!(v["in_sync"], false);
    assert_eq!(v["first_divergence"]["tick"], 1);
    assert_eq!(v["first_divergence"]["bird"], 0);
    assert!(
        ["x", "y", "angle", "state"].contains(&v["first_divergence"]["field"].as_str().unwrap())
    );
}

#[test]
fn frames_no_local_model_can_check_are_unchecked_and_fail_the_check() {
    // HELLO says revision 255: "not a mirrorable model".
    let b = board(&["--ticks", "10", "--announce", "255"]);
    let out = murmur()
        .args([
            "mirror",
            "--headless",
            "--json",
            "--frames",
            "5",
            "--timeout-s",
            "2",
        ])
        .arg("--port")
        .arg(&b.path)
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(4), "too few frames compared: {v}");
    assert_eq!(v["frames_ok"], 11);
    assert_eq!(
        (
            v["frames_compared"].as_u64(),
            v["frames_unchecked"].as_u64()
        ),
        (Some(0), Some(11))
    );
    assert_eq!(v["in_sync"], false, "nothing compared is not in sync");
}

#[test]
fn the_mirror_reconnects_when_the_board_goes_and_comes_back() {
    let dir = std::env::temp_dir().join(format!("murmur-reconnect-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let link = dir.join("board");
    let link_s = link.to_str().unwrap();
    let first = board(&["--ticks", "40", "--link", link_s]);
    let reader = {
        let link = link.clone();
        std::thread::spawn(move || mirror(&link, 82, &[]))
    };
    // The first board exits once the mirror has read it all; then a second one appears.
    let mut first = first;
    let _ = first.child.wait();
    let _second = board(&["--ticks", "40", "--link", link_s]);
    let v = reader.join().unwrap();
    assert_eq!(counters(&v), [82, 4, 0, 0, 0, 0, 1], "{v}");
    assert_eq!(v["in_sync"], true);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_recording_replays_to_the_same_counts_even_cut_short() {
    let file = std::env::temp_dir().join(format!("murmur-record-{}.bin", std::process::id()));
    let _ = std::fs::remove_file(&file);
    let b = board(&["--ticks", "60", "--flip-every", "9"]);
    let live = mirror(&b.path, 55, &["--record", file.to_str().unwrap()]);
    let replay = |path: &Path| -> Value {
        let out = murmur()
            .args(["replay", "--json"])
            .arg(path)
            .output()
            .unwrap();
        assert!(out.status.success());
        serde_json::from_slice(&out.stdout).unwrap()
    };
    assert_eq!(counters(&replay(&file)), counters(&live));
    // Cut the file mid-frame: it replays up to its last whole frame.
    let bytes = std::fs::read(&file).unwrap();
    let cut = file.with_extension("cut");
    std::fs::write(&cut, &bytes[..bytes.len() - 100]).unwrap();
    let short = replay(&cut);
    assert_eq!(short["frames_ok"], live["frames_ok"].as_u64().unwrap() - 1);
    assert_eq!(short["framing_errors"], 0);
    let _ = std::fs::remove_file(&file);
    let _ = std::fs::remove_file(&cut);
}

#[test]
fn bad_ports_and_flags_exit_with_2() {
    for args in [
        &["mirror", "--headless", "--port", "/no/such/port"][..],
        &["mirror"],
        &["board"],
        &["board", "--pty", "--birds", "0"],
        &["replay", "/no/such/recording"],
        &[
            "mirror",
            "--headless",
            "--port",
            "/dev/null",
            "--timeout-s",
            "-1",
        ],
    ] {
        let out = murmur().args(args).output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let out = murmur().args(["mirror", "--list"]).output().unwrap();
    assert!(out.status.success());
}
