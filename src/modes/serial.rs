//! `murmur board`, `murmur mirror` and `murmur replay`: the virtual board, the mirror of a live
//! one, and recordings.

use super::ModeError;
use crate::cli::{BoardRunArgs, MirrorArgs, ReplayArgs};
use murmur_serial::link::{LinkEvent, LinkHandle, Source};
use murmur_serial::mirror::{Mirror, MirrorReport};
#[cfg(unix)]
use murmur_serial::pty::Pty;
use murmur_serial::virtual_board::{self, BoardConfig, Faults};
use std::time::{Duration, Instant};

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

/// The virtual board on a new pseudo-terminal, whose path goes to stdout first.
#[cfg(unix)]
fn board_on_pty(args: &BoardRunArgs, config: &BoardConfig) -> Result<(), ModeError> {
    use std::io::Write;
    let failed = |e: std::io::Error| ModeError::Failed(format!("the board stopped: {e}"));
    {
        let mut pty = Pty::open()
            .map_err(|e| ModeError::Failed(format!("cannot open a pseudo-terminal: {e}")))?;
        if let Some(link) = &args.link {
            let _ = std::fs::remove_file(link);
            std::os::unix::fs::symlink(&pty.slave_path, link)
                .map_err(|e| ModeError::Usage(format!("cannot link {}: {e}", link.display())))?;
        }
        println!("{}", pty.slave_path.display());
        std::io::stdout().flush().map_err(failed)?;
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
            (None, true) => "in sync with the local model".into(),
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
    let port = args
        .port
        .clone()
        .expect("clap requires --port without --list");
    if !(args.timeout_s.is_finite() && args.timeout_s > 0.0) {
        return Err(ModeError::Usage(format!(
            "--timeout-s must be positive, got {}",
            args.timeout_s
        )));
    }
    if !args.headless {
        let capture = args.screenshot.map(|out| (out, args.frames));
        return super::mirror_app::run(port, args.record, capture);
    }
    if std::fs::metadata(&port).is_err() {
        return Err(ModeError::Usage(format!(
            "no such port: {}",
            port.display()
        )));
    }
    let link = LinkHandle::start(Source::Port(port), args.record.as_deref())
        .map_err(|e| ModeError::Usage(format!("cannot start: {e}")))?;
    let mut mirror = Mirror::new();
    let deadline = Instant::now() + Duration::from_secs_f64(args.timeout_s);
    while mirror.frames_ok() < args.frames {
        let Some(left) = deadline.checked_duration_since(Instant::now()) else {
            break;
        };
        match link.recv_timeout(left) {
            Ok(event) => mirror.handle(&event),
            Err(_) => break,
        }
    }
    drop(link);
    print_report(&mirror.report(), args.json);
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
