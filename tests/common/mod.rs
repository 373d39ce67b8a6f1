//! What the app's tests share: the murmur binary this test run built, the headless test app
//! the app-plugin tests start from (`app`), an X display for the tests that run the real app
//! (Xvfb started when there is none), PNG pictures read back, and the app's colours.

#![allow(dead_code)]

pub mod app;
pub mod gif;
pub mod needs;

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The murmur binary this test run built, ready for arguments.
pub fn murmur() -> Command {
    Command::new(env!("CARGO_BIN_EXE_murmur"))
}

/// Runs murmur with `args` to its end and takes what it printed.
pub fn murmur_output(args: &[&str]) -> std::process::Output {
    murmur().args(args).output().expect("murmur runs")
}

/// The named counters of a JSON report (`murmur mirror --json`, `murmur replay --json`), in
/// order; a missing one fails the test.
pub fn counts<const N: usize>(report: &serde_json::Value, keys: [&str; N]) -> [u64; N] {
    keys.map(|k| {
        report[k]
            .as_u64()
            .unwrap_or_else(|| panic!("{k} in {report}"))
    })
}

/// A display to render on, and the Xvfb we started for it (killed on drop).
pub struct Display {
    pub name: String,
    server: Option<Child>,
}

impl Drop for Display {
    fn drop(&mut self) {
        if let Some(server) = &mut self.server {
            // SIGTERM lets Xvfb remove its lock file and socket; SIGKILL would leave them behind
            // and, run after run, use up the display numbers.
            let _ = Command::new("kill")
                .args(["-TERM", &server.id().to_string()])
                .status();
            for _ in 0..40 {
                if let Ok(Some(_)) = server.try_wait() {
                    return;
                }
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
            let _ = server.kill();
            let _ = server.wait();
        }
    }
}

/// Whether display `n` is taken. A lock file whose server is gone (killed without cleaning up)
/// is stale: it and its socket are removed, and the number is free again.
fn display_taken(n: u32) -> bool {
    let lock = format!("/tmp/.X{n}-lock");
    let socket = format!("/tmp/.X11-unix/X{n}");
    let Ok(text) = std::fs::read_to_string(&lock) else {
        return Path::new(&socket).exists();
    };
    let alive = text
        .trim()
        .parse::<u32>()
        .is_ok_and(|pid| Path::new(&format!("/proc/{pid}")).exists());
    if alive {
        return true;
    }
    std::fs::remove_file(&lock).is_err() || {
        let _ = std::fs::remove_file(&socket);
        false
    }
}

fn display() -> Option<Display> {
    if let Ok(name) = std::env::var("DISPLAY")
        && !name.is_empty()
    {
        return Some(Display { name, server: None });
    }
    for n in 90..190 {
        if display_taken(n) {
            continue;
        }
        let name = format!(":{n}");
        let Ok(server) = Command::new("Xvfb")
            .args([&name, "-screen", "0", "1920x1080x24", "-nolisten", "tcp"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
        else {
            return None; // no Xvfb installed
        };
        let mut display = Display {
            name,
            server: Some(server),
        };
        if display.came_up(n) {
            return Some(display);
        }
        // This number would not serve (another server took it first, or ours died): dropping
        // `display` stops ours, and the next number is tried.
    }
    None
}

impl Display {
    /// Whether the Xvfb just started for display `n` has opened its socket, waiting up to 20 s
    /// (a busy machine starts it slowly); `false` as soon as it has exited.
    fn came_up(&mut self, n: u32) -> bool {
        let socket = format!("/tmp/.X11-unix/X{n}");
        let Some(server) = &mut self.server else {
            return true;
        };
        for _ in 0..400 {
            if Path::new(&socket).exists() {
                return true;
            }
            if let Ok(Some(_)) = server.try_wait() {
                return false;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        false
    }
}

/// The X window id of `app`'s main window (named "murmur") on `display`, waiting up to
/// `limit`. Fails the test with the app's exit status and the end of its log (`log`, where its
/// stderr goes) when the app exits first or no window shows up in time, so that a failure says
/// why.
#[track_caller]
pub fn main_window(display: &str, app: &mut Child, log: &Path, limit: Duration) -> String {
    let started = Instant::now();
    loop {
        if let Some(window) = xdotool(display, &["search", "--name", "^murmur$"])
            .and_then(|w| w.lines().next().map(str::to_string))
        {
            return window;
        }
        let exited = app.try_wait().ok().flatten();
        if exited.is_some() || started.elapsed() > limit {
            let said = std::fs::read_to_string(log).unwrap_or_default();
            let lines: Vec<&str> = said.lines().collect();
            let tail = &lines[lines.len().saturating_sub(60)..];
            let what = match exited {
                Some(status) => format!("the app exited ({status}) before its window opened"),
                None => format!(
                    "no window named murmur on {display} after {:.0} s",
                    started.elapsed().as_secs_f32()
                ),
            };
            let _ = app.kill();
            let _ = app.wait();
            panic!("{what}; the end of its log:\n{}", tail.join("\n"));
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// Held for a whole test: each test starts its own Xvfb on the first free display number, and
/// two starting at once would pick the same one.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// A display and the lock that keeps it this test's, or `None` where there is none: tests take
/// theirs from `needs::display`, which fails without one.
fn display_or_none() -> Option<(std::sync::MutexGuard<'static, ()>, Display)> {
    let guard = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    display().map(|d| (guard, d))
}

pub struct Picture {
    pub width: usize,
    pub height: usize,
    pub rgb: Vec<[u8; 3]>,
}

/// Reads a PNG written by murmur, then removes it.
pub fn load(out: &Path) -> Picture {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(out).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.color_type.samples();
    let rgb = buf[..info.buffer_size()]
        .chunks(channels)
        .map(|p| [p[0], p[1], p[2]])
        .collect();
    let _ = std::fs::remove_file(out);
    Picture {
        width: info.width as usize,
        height: info.height as usize,
        rgb,
    }
}

pub fn is_bird(p: [u8; 3]) -> bool {
    // Flock birds are dark blue to violet on the light sky (112, 231, 255).
    p[1] < 120 && p[2] > 60 && p[0] < 150
}

pub fn is_gold(p: [u8; 3]) -> bool {
    p[0] > 200 && (140..235).contains(&p[1]) && p[2] < 90
}

pub fn is_crimson(p: [u8; 3]) -> bool {
    p[0] > 170 && p[1] < 80 && (20..120).contains(&p[2])
}

/// Pixels of `pic` matching `f`, leaving out `top` rows at the top and `bottom` at the bottom
/// (where the app's text boxes are).
pub fn matching(
    pic: &Picture,
    f: fn([u8; 3]) -> bool,
    top: usize,
    bottom: usize,
) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for y in top..pic.height - bottom {
        for x in 0..pic.width {
            if f(pic.rgb[y * pic.width + x]) {
                out.push((x, y));
            }
        }
    }
    out
}

/// Waits up to `limit` for `ready`.
pub fn wait_for<T>(limit: Duration, mut ready: impl FnMut() -> Option<T>) -> Option<T> {
    let started = Instant::now();
    while started.elapsed() < limit {
        if let Some(v) = ready() {
            return Some(v);
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    None
}

/// Runs `xdotool` with `args` on `display`: its output, or `None` when it failed.
pub fn xdotool(display: &str, args: &[&str]) -> Option<String> {
    let out = Command::new("xdotool")
        .args(args)
        .env("DISPLAY", display)
        .stderr(Stdio::null())
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}
