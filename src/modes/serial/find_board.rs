//! `murmur mirror` without `--port`: the one connected board it recognises. First by what the
//! USB descriptor says (the micro:bit's interface chip, DAPLink, is Arm's 0d28:0204), then, among
//! the other ports, the one that sends a HELLO within a couple of seconds.

use crate::modes::ModeError;
use murmur_board_link::{Decoder, Event, Message};
use serialport::{SerialPortInfo, SerialPortType};
use std::io::Read;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The micro:bit's USB interface chip (DAPLink): vendor Arm (mbed), product CMSIS-DAP.
const MICROBIT: (u16, u16) = (0x0D28, 0x0204);
/// How long a port is listened to for a HELLO (the board sends one about every second).
const LISTEN: Duration = Duration::from_millis(2500);

fn describe(port: &SerialPortInfo) -> String {
    match &port.port_type {
        SerialPortType::UsbPort(u) => format!(
            "{} (USB {:04x}:{:04x} {})",
            port.port_name,
            u.vid,
            u.pid,
            u.product.clone().unwrap_or_default()
        ),
        _ => port.port_name.clone(),
    }
}

/// True when the port sends a HELLO within [`LISTEN`].
fn says_hello(name: &str, baud: u32) -> bool {
    let Ok(mut port) = serialport::new(name, baud)
        .timeout(Duration::from_millis(200))
        .open()
    else {
        return false;
    };
    let mut decoder = Decoder::new();
    let until = Instant::now() + LISTEN;
    let mut buffer = [0u8; 512];
    while Instant::now() < until {
        let n = match port.read(&mut buffer) {
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::TimedOut => continue,
            Err(_) => return false,
        };
        for &byte in &buffer[..n] {
            if let Some(Event::Message(Message::Hello(_))) = decoder.push(byte) {
                return true;
            }
        }
    }
    false
}

/// The one board connected, or a usage error listing the candidates.
pub fn one(baud: u32) -> Result<PathBuf, ModeError> {
    let ports = serialport::available_ports()
        .map_err(|e| ModeError::Failed(format!("cannot list the serial ports: {e}")))?;
    let microbits: Vec<&SerialPortInfo> = ports
        .iter()
        .filter(
            |p| matches!(&p.port_type, SerialPortType::UsbPort(u) if (u.vid, u.pid) == MICROBIT),
        )
        .collect();
    if let [one] = microbits.as_slice() {
        eprintln!("mirroring {}", describe(one));
        return Ok(PathBuf::from(&one.port_name));
    }
    let talking: Vec<&SerialPortInfo> = if microbits.is_empty() {
        ports
            .iter()
            .filter(|p| says_hello(&p.port_name, baud))
            .collect()
    } else {
        microbits.clone()
    };
    if let [one] = talking.as_slice() {
        eprintln!("mirroring {} (it sends HELLO)", describe(one));
        return Ok(PathBuf::from(&one.port_name));
    }
    let list = |ports: &[&SerialPortInfo]| {
        ports
            .iter()
            .map(|p| format!("\n  {}", describe(p)))
            .collect::<String>()
    };
    Err(ModeError::Usage(if talking.len() > 1 {
        format!(
            "more than one board is connected; choose one with --port:{}",
            list(&talking)
        )
    } else if ports.is_empty() {
        "no serial ports found: plug the board in, or name its port with --port (a \
         pseudo-terminal from `murmur board --pty` or `murmur board --qemu`)"
            .into()
    } else {
        format!(
            "no connected port sends a HELLO; choose one with --port:{}",
            list(&ports.iter().collect::<Vec<_>>())
        )
    }))
}
