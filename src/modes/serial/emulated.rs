//! `murmur board --qemu`: murmur's micro:bit firmware on QEMU's emulated Cortex-M0, its UART
//! bridged to a new pseudo-terminal whose path goes to stdout first, as `murmur board --pty`
//! prints its own: `murmur mirror --port` opens it as it would the real board's USB port.

use super::{BoardRunArgs, open_pty};
use crate::firmware::image::{Image, Settings};
use crate::firmware::{self, qemu};
use crate::modes::ModeError;
use std::io::{Read, Write};
use std::time::Duration;

/// The image with the flags' settings, written beside the others of this run.
fn prepared_image(args: &BoardRunArgs) -> Result<std::path::PathBuf, ModeError> {
    let failed = ModeError::Failed;
    let elf = firmware::elf().map_err(failed)?;
    let bytes = std::fs::read(&elf)
        .map_err(|e| ModeError::Failed(format!("cannot read {}: {e}", elf.display())))?;
    let mut image = Image::read(bytes).map_err(|e| failed(format!("{}: {e}", elf.display())))?;
    let fault = match (args.fault_tick, args.fault_bird) {
        (Some(tick), bird) => Some((tick, bird.unwrap_or(0))),
        (None, Some(_)) => {
            return Err(ModeError::Usage("--fault-bird needs --fault-tick".into()));
        }
        (None, None) => None,
    };
    image
        .set(Settings {
            revision: args.revision,
            fast: args.fast,
            fault,
        })
        .map_err(|e| failed(format!("{}: {e}", elf.display())))?;
    let path = std::env::temp_dir().join(format!(
        "murmur-microbit-{}-{}.elf",
        args.revision.name(),
        std::process::id()
    ));
    std::fs::write(&path, image.bytes())
        .map_err(|e| ModeError::Failed(format!("cannot write {}: {e}", path.display())))?;
    Ok(path)
}

/// Runs the firmware under QEMU until QEMU stops (or the reader of the terminal is gone).
pub fn run(args: &BoardRunArgs) -> Result<(), ModeError> {
    // No QEMU: say so (and how to get it) before building anything.
    qemu::find().map_err(ModeError::Failed)?;
    let (image, temporary) = match &args.image {
        Some(given) if given.is_file() => (given.clone(), false),
        Some(given) => {
            return Err(ModeError::Usage(format!(
                "no such image: {}",
                given.display()
            )));
        }
        None => (prepared_image(args)?, true),
    };
    let forget = |image: &std::path::Path| {
        if temporary {
            let _ = std::fs::remove_file(image);
        }
    };
    let mut child = qemu::start(&image, None).map_err(|e| {
        forget(&image);
        ModeError::Failed(e)
    })?;
    let mut uart = child.stdout.take().expect("stdout is piped");
    let pty = open_pty(args.link.as_deref())?;
    let what = match &args.image {
        Some(given) => given.display().to_string(),
        None => format!(
            "murmur's micro:bit firmware: {}, {}",
            args.revision.name(),
            if args.fast {
                "as fast as the reader takes it"
            } else {
                "one tick per 31.872 ms"
            }
        ),
    };
    eprintln!("QEMU (pid {}) runs {what}", child.id());
    let mut master = &pty.master;
    let mut buffer = [0u8; 4096];
    let mut loaded = false;
    let outcome = loop {
        match uart.read(&mut buffer) {
            Ok(0) => break Ok(()),
            Ok(n) => {
                if !loaded {
                    // The core runs, so QEMU has loaded the image: a temporary one can go now
                    // (not only at the end, which a killed murmur never reaches).
                    loaded = true;
                    forget(&image);
                }
                if let Err(e) = master.write_all(&buffer[..n]) {
                    break Err(e);
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => break Err(e),
        }
    };
    let _ = child.kill();
    let status = child.wait();
    pty.wait_drained(Duration::from_secs(10));
    forget(&image);
    if let Some(link) = &args.link {
        let _ = std::fs::remove_file(link);
    }
    match (outcome, status) {
        (Err(e), _) => Err(ModeError::Failed(format!(
            "the emulated board stopped: {e}"
        ))),
        (Ok(()), Ok(status)) => Err(ModeError::Failed(format!(
            "the emulated board stopped: QEMU exited ({status})"
        ))),
        (Ok(()), Err(e)) => Err(ModeError::Failed(format!(
            "the emulated board stopped: {e}"
        ))),
    }
}
