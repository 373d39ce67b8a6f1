//! murmur's micro:bit firmware on QEMU's emulated Cortex-M0 (`murmur board --qemu`), mirrored
//! by `murmur mirror --headless` over the pseudo-terminal it prints: every revision in sync for
//! 2,000 frames with exact counters; a deliberate one-unit fault caught at its tick, bird and
//! field; the board killed and started again; a mirror started late.
//!
//! Needs QEMU (`bash scripts/get-qemu.sh`) and the board's target (`rustup target add
//! thumbv6m-none-eabi`): a plain `cargo test` ignores them (`common::needs`); asked for
//! (`--include-ignored`), a machine without QEMU fails them.
#![cfg(unix)]

mod common;

use common::{murmur, needs};
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

/// QEMU is here to run the board on, or the test fails saying where it looked.
fn needs_qemu() {
    if let Err(e) = murmur::firmware::qemu::find() {
        needs::missing("QEMU's micro:bit", e);
    }
}

/// A running `murmur board --qemu`, the terminal it bridges to, QEMU's process id, and what
/// the board (and QEMU) said on stderr, kept for failure messages.
struct Board {
    child: Child,
    path: PathBuf,
    qemu_pid: u32,
    said: Arc<Mutex<String>>,
}

impl Board {
    /// What the board said so far.
    fn said(&self) -> String {
        self.said.lock().unwrap().clone()
    }
}

impl Drop for Board {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The firmware, built once for every board of this test run (boards started side by side
/// would otherwise each run cargo on the same build folder).
fn firmware() -> &'static Path {
    static ELF: OnceLock<PathBuf> = OnceLock::new();
    ELF.get_or_init(|| murmur::firmware::elf().expect("the firmware builds"))
}

fn board(args: &[&str]) -> Board {
    let mut child = murmur()
        .args(["board", "--qemu"])
        .args(args)
        .env("MURMUR_FIRMWARE", firmware())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("murmur board runs");
    // Its stderr is read to the end on a thread of its own: a pipe no one reads would stop
    // the board (and QEMU, which shares it) the first time either writes to it.
    let said = Arc::new(Mutex::new(String::new()));
    let (pid_tx, pid_rx) = std::sync::mpsc::channel();
    {
        let said = said.clone();
        let stderr = child.stderr.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                if let Some(rest) = line.strip_prefix("QEMU (pid ") {
                    let _ = pid_tx.send(rest.split(')').next().unwrap().parse::<u32>().unwrap());
                }
                said.lock().unwrap().push_str(&(line + "\n"));
            }
        });
    }
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let qemu_pid = pid_rx
        .recv_timeout(Duration::from_secs(60))
        .unwrap_or_else(|_| panic!("no QEMU line: {}", said.lock().unwrap()));
    assert!(
        !line.trim().is_empty(),
        "murmur board --qemu printed no terminal: {}",
        said.lock().unwrap()
    );
    Board {
        child,
        path: PathBuf::from(line.trim()),
        qemu_pid,
        said,
    }
}

/// `murmur mirror --headless --json` until `frames` frames were compared: report, exit code.
fn mirror(port: &Path, frames: u64) -> (Value, Option<i32>) {
    let out = murmur()
        .args(["mirror", "--headless", "--json", "--timeout-s", "60"])
        .args(["--frames", &frames.to_string(), "--port"])
        .arg(port)
        .output()
        .expect("murmur mirror runs");
    let mut report: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "one JSON object ({e}): {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    // What the mirror said, for the failure messages that print the report.
    report["stderr"] = String::from_utf8_lossy(&out.stderr).into_owned().into();
    (report, out.status.code())
}

fn counters(v: &Value) -> [u64; 9] {
    common::counts(
        v,
        [
            "frames_ok",
            "frames_compared",
            "frames_unchecked",
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
#[ignore = "needs QEMU (scripts/get-qemu.sh)"]
fn every_revision_runs_2000_frames_in_sync_on_the_emulated_core() {
    needs_qemu();
    for (revision, number) in [("a412", 0), ("bfee0c8", 2), ("article", 1)] {
        let b = board(&["--fast", "--revision", revision]);
        let (v, code) = mirror(&b.path, 2000);
        assert_eq!(code, Some(0), "{revision}: {v}");
        // HELLO at tick 0 and every 32 ticks up to 1984: 63 of them.
        assert_eq!(
            counters(&v),
            [2000, 2000, 0, 63, 0, 0, 0, 0, 0],
            "{revision}: {v}"
        );
        assert_eq!(v["last_tick"], 1999);
        assert_eq!(v["in_sync"], true);
        assert_eq!(v["hello"]["revision"], number);
        assert_eq!(v["hello"]["name"], "murmur micro:bit");
        assert_eq!(v["hello"]["birds"], 48);
        assert_eq!(v["hello"]["tick_us"], 31872);
    }
}

#[test]
#[ignore = "needs QEMU (scripts/get-qemu.sh)"]
fn a_one_unit_fault_in_the_firmware_is_caught_at_its_tick_bird_and_field() {
    needs_qemu();
    let b = board(&[
        "--fast",
        "--revision",
        "article",
        "--fault-tick",
        "777",
        "--fault-bird",
        "5",
    ]);
    let (v, code) = mirror(&b.path, 1000);
    assert_eq!(code, Some(3), "a divergence exits 3: {v}");
    assert_eq!(v["in_sync"], false);
    assert_eq!(v["first_divergence"]["tick"], 777);
    assert_eq!(v["first_divergence"]["bird"], 5);
    assert_eq!(v["first_divergence"]["field"], "x");
    // Negative control: the same board without the fault agrees over the same frames.
    let b = board(&["--fast", "--revision", "article"]);
    assert_eq!(mirror(&b.path, 1000).1, Some(0));
}

#[test]
#[ignore = "needs QEMU (scripts/get-qemu.sh)"]
fn the_board_killed_and_started_again_is_mirrored_through_its_reset() {
    needs_qemu();
    let dir = std::env::temp_dir().join(format!("murmur-qemu-reconnect-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let link = dir.join("microbit");
    let link_s = link.to_str().unwrap();
    // At the board's own pace (31.4 frames a second): killed after two seconds or so of frames.
    let first = board(&["--revision", "bfee0c8", "--link", link_s]);
    let reader = {
        let link = link.clone();
        std::thread::spawn(move || mirror(&link, 120))
    };
    std::thread::sleep(Duration::from_millis(2500));
    let killed = std::process::Command::new("kill")
        .args(["-9", &first.qemu_pid.to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let mut first = first;
    let _ = first.child.wait();
    let _second = board(&["--revision", "bfee0c8", "--link", link_s]);
    let (v, code) = reader.join().unwrap();
    assert_eq!(code, Some(0), "{v}");
    let [
        ok,
        compared,
        unchecked,
        hellos,
        crc,
        framing,
        unknown,
        lost,
        resets,
    ] = counters(&v);
    assert_eq!(
        (compared, unchecked, crc, unknown, lost),
        (ok, 0, 0, 0, 0),
        "{v}"
    );
    assert_eq!(resets, 1, "the second boot is a reset: {v}");
    assert!(hellos >= 2 && framing <= 1, "{v}");
    assert!(
        v["last_tick"].as_u64().unwrap() < ok - 1,
        "the count restarted: {v}"
    );
    assert_eq!(v["in_sync"], true);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
#[ignore = "needs QEMU (scripts/get-qemu.sh)"]
fn the_hex_file_for_the_microbit_drive_boots_and_keeps_the_boards_pace() {
    needs_qemu();
    let hex = std::env::temp_dir().join(format!("murmur-{}.hex", std::process::id()));
    let out = murmur()
        .args(["firmware", "--revision", "article", "--out"])
        .arg(&hex)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&hex).unwrap();
    assert!(text.starts_with(":020000040000FA") && text.ends_with(":00000001FF\n"));
    // QEMU's loader takes the HEX as the MICROBIT drive would: the core boots from it.
    let b = board(&["--image", hex.to_str().unwrap()]);
    let started = std::time::Instant::now();
    let (v, code) = mirror(&b.path, 64);
    let took = started.elapsed();
    assert_eq!(code, Some(0), "{v}");
    assert_eq!(v["hello"]["revision"], 1);
    // 63 ticks at 31.872 ms: two seconds, however fast the machine (a --fast image takes a
    // few milliseconds).
    assert!(
        took >= Duration::from_millis(1500),
        "paced by TIMER0: {took:?}"
    );
    let _ = std::fs::remove_file(&hex);
}

#[test]
#[ignore = "needs QEMU (scripts/get-qemu.sh)"]
fn a_mirror_started_late_syncs_at_the_next_hello() {
    needs_qemu();
    let b = board(&["--fast", "--revision", "a412"]);
    // The first mirror takes 500 frames and leaves mid-stream; the second comes in later.
    let (first, code) = mirror(&b.path, 500);
    assert_eq!(code, Some(0), "{first}; the board said: {}", b.said());
    let (v, code) = mirror(&b.path, 200);
    assert_eq!(code, Some(0), "{v}; the board said: {}", b.said());
    let [ok, compared, unchecked, ..] = counters(&v);
    let first_tick = v["last_tick"].as_u64().unwrap() + 1 - ok;
    assert!(first_tick >= 500, "it joined mid-stream: {v}");
    assert!(unchecked <= 32, "synced at the next HELLO: {v}");
    assert_eq!(compared, 200);
    assert_eq!(v["in_sync"], true);
}
