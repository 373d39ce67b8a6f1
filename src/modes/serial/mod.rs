//! `murmur board`, `murmur mirror` and `murmur replay`: the virtual board, the mirror of a live
//! one (headless here, its window in `window`; the mirror itself is murmur_serial's), and
//! recordings.

#[cfg(unix)]
mod emulated;
mod find_board;
mod window;

use super::ModeError;
use crate::cli::{parse_revision, parse_seed};
use clap::Args;
use murmur_serial::link::{LinkEvent, LinkHandle, Source};
use murmur_serial::mirror::{Mirror, MirrorReport};
#[cfg(unix)]
use murmur_serial::pty::Pty;
use murmur_serial::virtual_board::{self, BoardConfig, Faults};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// `murmur board`.
#[derive(Args, Debug, Clone)]
pub struct BoardRunArgs {
    /// Open a pseudo-terminal and print its path (open it as the mirror would a USB device).
    #[arg(long, conflicts_with = "port")]
    pub pty: bool,
    /// Write to this serial device instead.
    #[arg(long, required_unless_present_any = ["pty", "qemu"])]
    pub port: Option<PathBuf>,
    /// Run murmur's micro:bit firmware on QEMU's emulated Cortex-M0 (building it if needed)
    /// instead of the model here, on a new pseudo-terminal whose path is printed first.
    #[arg(long, conflicts_with_all = [
        "port", "pty", "seed", "birds", "name", "announce", "ticks", "drop_every", "flip_every",
        "noise_every", "truncate_every", "stall_at", "reset_at",
    ])]
    pub qemu: bool,
    /// With --qemu: run this firmware image (an ELF, or the Intel HEX `murmur firmware`
    /// writes) as it is, instead of building one with --revision, --fast and the fault flags.
    #[arg(long, requires = "qemu", conflicts_with_all = ["fast", "fault_tick"], value_name = "FILE")]
    pub image: Option<PathBuf>,
    /// With --qemu: from this tick on, the firmware reports one bird's x one unit off (a
    /// negative control for the mirror).
    #[arg(long, requires = "qemu", value_name = "TICK")]
    pub fault_tick: Option<u32>,
    /// With --fault-tick: which bird (default 0).
    #[arg(long, requires = "fault_tick", value_name = "BIRD")]
    pub fault_bird: Option<u32>,
    /// With --pty or --qemu, also make this path a symbolic link to the terminal (replaced on
    /// each start, so a mirror watching it sees the board vanish and come back).
    #[arg(long)]
    pub link: Option<PathBuf>,
    /// Model revision: a412, bfee0c8 or article.
    #[arg(long, default_value = "a412", value_parser = parse_revision)]
    pub revision: murmur_microboids::Revision,
    /// Seed passed to Bird_Init (a412 and bfee0c8 ignore it).
    #[arg(long, default_value = "0x12345678", value_parser = parse_seed)]
    pub seed: u32,
    /// Birds (1 to 169, the most one FLOCK frame holds).
    #[arg(long, default_value_t = 48, value_parser = clap::value_parser!(u8).range(1..=169))]
    pub birds: u8,
    /// Board name in the HELLO.
    #[arg(long, default_value = "murmur virtual board")]
    pub name: String,
    /// Announce this revision number in the HELLO while running --revision (a lying board, to
    /// test divergence reports).
    #[arg(long)]
    pub announce: Option<u8>,
    /// As fast as the reader takes it, instead of one tick per 31.872 ms.
    #[arg(long)]
    pub fast: bool,
    /// Stop after this many ticks (ticks 0..=N are sent).
    #[arg(long)]
    pub ticks: Option<u32>,
    /// Fault: drop the FLOCK of every Nth tick.
    #[arg(long, value_name = "N")]
    pub drop_every: Option<u32>,
    /// Fault: flip a bit in the FLOCK of every Nth tick (its CRC fails).
    #[arg(long, value_name = "N")]
    pub flip_every: Option<u32>,
    /// Fault: a burst of noise after the FLOCK of every Nth tick.
    #[arg(long, value_name = "N")]
    pub noise_every: Option<u32>,
    /// Fault: send only half of the FLOCK of every Nth tick.
    #[arg(long, value_name = "N")]
    pub truncate_every: Option<u32>,
    /// Fault: go quiet before this tick ...
    #[arg(long, value_name = "TICK")]
    pub stall_at: Option<u32>,
    /// ... for this many milliseconds.
    #[arg(long, default_value_t = 1000)]
    pub stall_ms: u64,
    /// Fault: reboot at this step (Bird_Init again, ticks restart at 0).
    #[arg(long, value_name = "STEP")]
    pub reset_at: Option<u32>,
}

/// `murmur mirror`.
#[derive(Args, Debug, Clone)]
pub struct MirrorArgs {
    /// List the serial ports and exit.
    #[arg(long, conflicts_with_all = ["port", "headless"])]
    pub list: bool,
    /// The board's serial port (e.g. /dev/ttyACM0) or a pseudo-terminal. Without it, the one
    /// connected board murmur recognises (a micro:bit's interface chip, or the one port that
    /// sends a HELLO); several or none: a list of the candidates.
    #[arg(long)]
    pub port: Option<PathBuf>,
    /// The serial line's rate.
    #[arg(long, default_value_t = 115_200, value_parser = clap::value_parser!(u32).range(1200..=4_000_000))]
    pub baud: u32,
    /// No window: read until --frames FLOCK frames were compared with the local model (or
    /// --timeout-s), report, and exit 0 only if all agreed: 3 when the board and the model
    /// disagree, 4 when fewer than --frames frames could be compared in time (no HELLO, a model
    /// murmur does not run, a silent port).
    #[arg(long)]
    pub headless: bool,
    /// With --headless: FLOCK frames to compare before stopping.
    #[arg(long, default_value_t = 100)]
    pub frames: u64,
    /// With --headless: give up after this many seconds.
    #[arg(long, default_value_t = 30.0)]
    pub timeout_s: f64,
    /// With --headless: print one JSON object (otherwise a short summary).
    #[arg(long)]
    pub json: bool,
    /// Append every received frame to this file (flushed frame by frame).
    #[arg(long)]
    pub record: Option<PathBuf>,
    /// In the window: once --frames FLOCK frames have arrived, save the window as this PNG and
    /// exit.
    #[arg(long, conflicts_with = "headless", value_name = "PNG")]
    pub screenshot: Option<PathBuf>,
}

/// `murmur replay`.
#[derive(Args, Debug, Clone)]
pub struct ReplayArgs {
    /// The recording.
    pub file: PathBuf,
    /// Print one JSON object (otherwise a short summary).
    #[arg(long)]
    pub json: bool,
}

/// Runs `murmur board`: a virtual board streaming its flock on a pseudo-terminal or a port.
pub fn board(args: BoardRunArgs) -> Result<(), ModeError> {
    let config = BoardConfig {
        revision: args.revision,
        announce: args.announce,
        seed: args.seed,
        birds: args.birds as usize,
        name: args.name.clone(),
        fast: args.fast,
        ticks: args.ticks,
        faults: Faults {
            drop_every: args.drop_every,
            flip_every: args.flip_every,
            noise_every: args.noise_every,
            truncate_every: args.truncate_every,
            stall_at: args.stall_at,
            stall: Duration::from_millis(args.stall_ms),
            reset_at: args.reset_at,
        },
    };
    let failed = |e: std::io::Error| ModeError::Failed(format!("the board stopped: {e}"));
    if args.qemu {
        return board_on_qemu(&args);
    }
    if args.link.is_some() && !args.pty {
        return Err(ModeError::Usage("--link goes with --pty or --qemu".into()));
    }
    if args.pty {
        return board_on_pty(&args, &config);
    }
    let path = args.port.expect("clap requires --port without --pty");
    let mut port = serialport::new(path.display().to_string(), 115_200)
        .timeout(Duration::from_secs(5))
        .open()
        .map_err(|e| ModeError::Usage(format!("cannot open {}: {e}", path.display())))?;
    virtual_board::run(&config, &mut port).map_err(failed)
}

/// A new pseudo-terminal (and `link` to it), its path printed first on stdout.
#[cfg(unix)]
fn open_pty(link: Option<&std::path::Path>) -> Result<Pty, ModeError> {
    use std::io::Write;
    let pty = Pty::open()
        .map_err(|e| ModeError::Failed(format!("cannot open a pseudo-terminal: {e}")))?;
    if let Some(link) = link {
        let _ = std::fs::remove_file(link);
        std::os::unix::fs::symlink(&pty.slave_path, link)
            .map_err(|e| ModeError::Usage(format!("cannot link {}: {e}", link.display())))?;
    }
    println!("{}", pty.slave_path.display());
    std::io::stdout()
        .flush()
        .map_err(|e| ModeError::Failed(format!("cannot write to stdout: {e}")))?;
    Ok(pty)
}

/// murmur's firmware under QEMU, on a new pseudo-terminal.
#[cfg(unix)]
fn board_on_qemu(args: &BoardRunArgs) -> Result<(), ModeError> {
    emulated::run(args)
}

/// The emulated board is bridged to a pseudo-terminal: a unix thing.
#[cfg(not(unix))]
fn board_on_qemu(_: &BoardRunArgs) -> Result<(), ModeError> {
    Err(ModeError::Usage(
        "--qemu needs a unix system (it bridges QEMU to a pseudo-terminal); on Windows flash          the firmware onto a real micro:bit (murmur firmware --out murmur.hex)"
            .into(),
    ))
}

/// The virtual board on a new pseudo-terminal, whose path goes to stdout first.
#[cfg(unix)]
fn board_on_pty(args: &BoardRunArgs, config: &BoardConfig) -> Result<(), ModeError> {
    let failed = |e: std::io::Error| ModeError::Failed(format!("the board stopped: {e}"));
    {
        let mut pty = open_pty(args.link.as_deref())?;
        virtual_board::run(config, &mut pty.master).map_err(failed)?;
        // Let the reader take the last frames before the terminal closes.
        pty.wait_drained(Duration::from_secs(10));
        if let Some(link) = &args.link {
            let _ = std::fs::remove_file(link);
        }
        Ok(())
    }
}

/// Pseudo-terminals are a unix thing: say what to do instead.
#[cfg(not(unix))]
fn board_on_pty(_: &BoardRunArgs, _: &BoardConfig) -> Result<(), ModeError> {
    Err(ModeError::Usage(
        "--pty needs a unix system (pseudo-terminals); on Windows run the virtual board on a \
         serial port, e.g. one end of a virtual COM pair: murmur board --port COM3"
            .into(),
    ))
}

fn print_report(report: &MirrorReport, json: bool) {
    if json {
        println!(
            "{}",
            serde_json::to_string(report).expect("a report serialises")
        );
        return;
    }
    println!(
        "{} FLOCK frames, {} HELLOs, {} CRC errors, {} framing errors, {} unknown, {} lost, {} resets, last tick {}; {}",
        report.frames_ok,
        report.hellos,
        report.crc_errors,
        report.framing_errors,
        report.unknown_kind,
        report.lost_frames,
        report.resets,
        report.last_tick.map_or("-".into(), |t| t.to_string()),
        match (&report.first_divergence, report.in_sync) {
            (Some(d), _) => format!(
                "diverged at tick {} bird {} field {}",
                d.tick, d.bird, d.field
            ),
            (None, true) => format!(
                "in sync with the local model ({} compared)",
                report.frames_compared
            ),
            (None, false) => "no local model to compare".into(),
        }
    );
}

/// Runs `murmur mirror`: a live board's stream beside the local model, in a window or headless.
pub fn mirror(args: MirrorArgs) -> Result<(), ModeError> {
    if args.list {
        let ports = serialport::available_ports()
            .map_err(|e| ModeError::Failed(format!("cannot list ports: {e}")))?;
        if ports.is_empty() {
            println!("no serial ports found");
        }
        for p in ports {
            let kind = match p.port_type {
                serialport::SerialPortType::UsbPort(u) => format!(
                    "USB {:04x}:{:04x} {}",
                    u.vid,
                    u.pid,
                    u.product.unwrap_or_default()
                ),
                serialport::SerialPortType::PciPort => "PCI".into(),
                serialport::SerialPortType::BluetoothPort => "Bluetooth".into(),
                serialport::SerialPortType::Unknown => "unknown".into(),
            };
            println!("{}\t{kind}", p.port_name);
        }
        return Ok(());
    }
    if !(args.timeout_s.is_finite() && args.timeout_s > 0.0) {
        return Err(ModeError::Usage(format!(
            "--timeout-s must be positive, got {}",
            args.timeout_s
        )));
    }
    let port = match args.port.clone() {
        Some(port) => port,
        None => find_board::one(args.baud)?,
    };
    if !args.headless {
        let capture = args.screenshot.map(|out| (out, args.frames));
        return window::run(port, args.baud, args.record, capture);
    }
    if std::fs::metadata(&port).is_err() {
        return Err(ModeError::Usage(format!(
            "no such port: {}",
            port.display()
        )));
    }
    let source = Source::Port {
        path: port,
        baud: args.baud,
    };
    let link = LinkHandle::start(source, args.record.as_deref())
        .map_err(|e| ModeError::Usage(format!("cannot start: {e}")))?;
    let mut mirror = Mirror::new();
    let deadline = Instant::now() + Duration::from_secs_f64(args.timeout_s);
    while mirror.frames_compared() < args.frames {
        let Some(left) = deadline.checked_duration_since(Instant::now()) else {
            break;
        };
        match link.recv_timeout(left) {
            Ok(event) => mirror.handle(&event),
            Err(_) => break,
        }
    }
    drop(link);
    let report = mirror.report();
    print_report(&report, args.json);
    verdict(&report, args.frames)
}

/// Exit codes of `murmur mirror --headless` beyond usage (2) and failure (1).
const DIVERGED: u8 = 3;
/// See [`DIVERGED`].
const TOO_FEW_FRAMES: u8 = 4;

/// Passes only when `frames` frames were compared and all agreed.
fn verdict(report: &MirrorReport, frames: u64) -> Result<(), ModeError> {
    if let Some(d) = report.first_divergence {
        return Err(ModeError::Verdict(
            DIVERGED,
            format!(
                "the board and the local model disagree: tick {}, bird {}, field {}",
                d.tick, d.bird, d.field
            ),
        ));
    }
    if report.frames_compared < frames {
        let why = match &report.hello {
            None => "no HELLO came".to_string(),
            Some(h) if h.revision_name.is_none() => {
                format!(
                    "the board's HELLO names revision {}, which murmur does not run",
                    h.revision
                )
            }
            Some(_) => "the board sent too few frames".to_string(),
        };
        return Err(ModeError::Verdict(
            TOO_FEW_FRAMES,
            format!(
                "{} of {frames} frames compared before the timeout ({} unchecked): {why}",
                report.frames_compared, report.frames_unchecked
            ),
        ));
    }
    Ok(())
}

/// Runs `murmur replay`: the mirror's counters from a recording.
pub fn replay(args: ReplayArgs) -> Result<(), ModeError> {
    let link = LinkHandle::start(Source::File(args.file.clone()), None)
        .map_err(|e| ModeError::Usage(format!("cannot read {}: {e}", args.file.display())))?;
    let mut mirror = Mirror::new();
    while let Ok(event) = link.recv_timeout(Duration::from_secs(60)) {
        let ended = matches!(event, LinkEvent::Ended(_));
        mirror.handle(&event);
        if ended {
            break;
        }
    }
    print_report(&mirror.report(), args.json);
    Ok(())
}
