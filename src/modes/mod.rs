//! The program's modes, and the errors they end with.

pub mod bench;
pub mod firmware;
pub mod headless;
pub mod oled;
pub mod q15;
pub mod record;
pub mod run;
pub mod screenshot;
pub mod serial;
pub mod sweep;

use crate::cli::{Cli, Command, RunArgs, SceneArgs};
use std::fmt;

/// Why a mode stopped early.
#[derive(Debug)]
pub enum ModeError {
    /// The user asked for something invalid (a preset, a flag value): exit code 2.
    Usage(String),
    /// Something failed while running (a file could not be written): exit code 1.
    Failed(String),
    /// A check ran and did not pass, with its own exit code (3 and up; `murmur mirror
    /// --headless` documents its own).
    Verdict(u8, String),
}

impl ModeError {
    /// The process exit code for this error.
    pub fn exit_code(&self) -> u8 {
        match self {
            Self::Usage(_) => 2,
            Self::Failed(_) => 1,
            Self::Verdict(code, _) => *code,
        }
    }
}

impl fmt::Display for ModeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Usage(m) | Self::Failed(m) | Self::Verdict(_, m) => f.write_str(m),
        }
    }
}

/// Runs the mode the command line asks for.
pub fn run(cli: Cli) -> Result<(), ModeError> {
    match cli.command {
        None => run::run(RunArgs {
            scene: SceneArgs::default(),
            size: run::WINDOW,
            board: Default::default(),
            measure_frames: None,
            gpu: false,
        }),
        Some(Command::Run(args)) => run::run(args),
        Some(Command::Headless(args)) => headless::run(args),
        Some(Command::Screenshot(args)) => screenshot::run(args),
        Some(Command::Record(args)) => record::run(args),
        Some(Command::Q15(args)) => q15::run(args),
        Some(Command::Oled(args)) => oled::run(args),
        Some(Command::Sweep(args)) => sweep::run(args),
        Some(Command::Bench(args)) => bench::run(args),
        Some(Command::Board(args)) => serial::board(args),
        Some(Command::Mirror(args)) => serial::mirror(args),
        Some(Command::Replay(args)) => serial::replay(args),
        Some(Command::Firmware(args)) => firmware::run(args),
    }
}

/// Checks, before a windowed mode builds its app, that there is a display to open the window
/// on, so that a machine without one (an SSH session, a server, a container) gets a sentence
/// saying what to do instead of winit's panic and a backtrace. Only what can be told for sure
/// is checked: on Linux and the BSDs, where murmur's window talks X11 only (a Wayland desktop
/// serves it through XWayland), that `DISPLAY` is set and, for a local display (`:N`), that its
/// server takes a connection. Other platforms always have one.
pub(crate) fn needs_display(mode: &str) -> Result<(), ModeError> {
    display_problem(
        cfg!(all(
            unix,
            not(target_os = "macos"),
            not(target_arch = "wasm32")
        )),
        std::env::var("DISPLAY")
            .ok()
            .filter(|v| !v.is_empty())
            .as_deref(),
        x_server_answers,
    )
    .map_or(Ok(()), |why| {
        Err(ModeError::Failed(format!(
            "murmur {mode} opens a window, and {why}. `murmur headless` flies the flock without \
             one; `xvfb-run murmur {mode} ...` gives it a virtual display"
        )))
    })
}

/// Whether local X display `n`'s server takes a connection, on its socket file or (Linux, where
/// a container may see only that) its abstract socket.
#[cfg(all(unix, not(target_arch = "wasm32")))]
fn x_server_answers(n: u32) -> bool {
    use std::os::unix::net::UnixStream;
    let path = format!("/tmp/.X11-unix/X{n}");
    if UnixStream::connect(&path).is_ok() {
        return true;
    }
    #[cfg(target_os = "linux")]
    {
        use std::os::linux::net::SocketAddrExt;
        use std::os::unix::net::SocketAddr;
        if let Ok(addr) = SocketAddr::from_abstract_name(path.as_bytes()) {
            return UnixStream::connect_addr(&addr).is_ok();
        }
    }
    false
}

#[cfg(not(all(unix, not(target_arch = "wasm32"))))]
fn x_server_answers(_: u32) -> bool {
    true
}

/// Why no window could open (`None`: nothing known against it). `x_server(n)` says whether
/// local X display `n`'s server takes a connection.
fn display_problem(
    checked_platform: bool,
    display: Option<&str>,
    x_server: impl Fn(u32) -> bool,
) -> Option<String> {
    if !checked_platform {
        return None;
    }
    let Some(display) = display else {
        return Some(
            "there is no X display here (DISPLAY is unset; on a Wayland desktop XWayland sets it)"
                .into(),
        );
    };
    // ":N", ":N.S" and "unix:N" are local servers with a socket; "host:N" (SSH's forwarding)
    // is not checked.
    let local = display
        .strip_prefix(':')
        .or_else(|| display.strip_prefix("unix:"))?;
    let number: u32 = local.split('.').next()?.parse().ok()?;
    (!x_server(number)).then(|| format!("no X server answers on DISPLAY={display}"))
}

#[cfg(test)]
mod tests {
    use super::display_problem;

    #[test]
    fn a_missing_display_is_told_and_a_present_or_unknown_one_is_not() {
        let only_0 = |n| n == 0;
        let problem = |display| display_problem(true, display, only_0);
        assert!(problem(None).unwrap().contains("DISPLAY is unset"));
        assert!(problem(Some(":7")).unwrap().contains("DISPLAY=:7"));
        assert!(problem(Some("unix:7.0")).is_some());
        assert_eq!(problem(Some(":0")), None);
        assert_eq!(problem(Some(":0.1")), None);
        assert_eq!(problem(Some("unix:0")), None);
        // Forwarded over SSH: not ours to judge.
        assert_eq!(problem(Some("localhost:10.0")), None);
        assert_eq!(display_problem(false, None, only_0), None);
    }
}
