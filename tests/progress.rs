//! Progress bars on the long commands: on stderr when it is a terminal (a pseudo-terminal
//! here), not when it is a pipe, and stdout's JSON the same either way.
#![cfg(unix)]

mod common;

use common::murmur;
use murmur_serial::pty::Pty;
use std::io::Read;
use std::process::{Output, Stdio};

/// The figures of a headless run's JSON lines, without the timings (which differ run to run).
fn figures(stdout: &[u8]) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(stdout)
        .lines()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).expect("a JSON line");
            let o = v.as_object_mut().unwrap();
            o.remove("step_ms");
            o.remove("steps_per_s");
            v
        })
        .collect()
}

fn headless(stderr: Stdio) -> Output {
    murmur()
        .args([
            "headless", "--preset", "cornell", "--boids", "2000", "--steps", "300",
        ])
        .args(["--every", "100", "--seed", "3"])
        // At once, not after two seconds: the test must not depend on the machine's speed.
        .env("MURMUR_PROGRESS_AFTER_MS", "0")
        .stdout(Stdio::piped())
        .stderr(stderr)
        .output()
        .expect("murmur runs")
}

#[test]
fn a_bar_on_a_terminal_none_in_a_pipe_and_the_same_json_either_way() {
    let pty = Pty::open().expect("a pseudo-terminal");
    let slave = std::fs::OpenOptions::new()
        .write(true)
        .open(&pty.slave_path)
        .unwrap();
    let mut master = pty.master.try_clone().unwrap();
    let reader = std::thread::spawn(move || {
        let mut seen = Vec::new();
        let mut buf = [0u8; 4096];
        // Until the child and our copy of the slave are closed (EIO) or nothing more comes.
        while let Ok(n) = master.read(&mut buf) {
            if n == 0 {
                break;
            }
            seen.extend_from_slice(&buf[..n]);
            if String::from_utf8_lossy(&seen).contains("ETA") {
                break;
            }
        }
        seen
    });
    let on_terminal = headless(Stdio::from(slave));
    assert!(on_terminal.status.success());
    drop(pty);
    let shown = String::from_utf8_lossy(&reader.join().unwrap()).into_owned();
    assert!(
        shown.contains("steps") && shown.contains("ETA"),
        "a bar with an ETA on the terminal: {shown:?}"
    );

    let in_pipe = headless(Stdio::piped());
    assert!(in_pipe.status.success());
    let err = String::from_utf8_lossy(&in_pipe.stderr);
    assert!(!err.contains("ETA"), "no bar in a pipe: {err:?}");
    assert_eq!(figures(&on_terminal.stdout), figures(&in_pipe.stdout));
    assert_eq!(
        figures(&in_pipe.stdout).len(),
        5,
        "four reports and the summary"
    );
}
