//! The reader thread: opens the port (again and again while it is absent), reads with a short
//! timeout so it never blocks the app, decodes, records raw frames, and sends what it learns
//! through a channel.

pub use crate::event::LinkEvent;
use murmur_board_link::{Decoder, Event};
use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread::JoinHandle;
use std::time::Duration;

/// Where the stream comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// A serial device (or pseudo-terminal), opened at `baud` 8N1 (the board's 115200 unless
    /// told otherwise) and reopened after it vanishes.
    Port {
        /// The device's path.
        path: PathBuf,
        /// Its baud rate.
        baud: u32,
    },
    /// A recording, read once to its end.
    File(PathBuf),
}

/// How long a read waits before checking whether to stop.
const READ_TIMEOUT: Duration = Duration::from_millis(50);
/// Pause between attempts to open a missing port.
const RETRY: Duration = Duration::from_millis(200);

/// Appends every frame as received (delimiter included) and flushes it, so a crash loses
/// nothing already written; a truncated file replays up to its last whole frame.
struct Recorder {
    file: File,
    frame: Vec<u8>,
    synced: bool,
}

impl Recorder {
    fn open(path: &Path) -> io::Result<Self> {
        let mut file = OpenOptions::new().create(true).append(true).open(path)?;
        // A leading delimiter lets a replay start with the first frame.
        if file.metadata()?.len() == 0 {
            file.write_all(&[0])?;
        }
        Ok(Self {
            file,
            frame: Vec::with_capacity(murmur_board_link::MAX_FRAME),
            synced: false,
        })
    }

    fn push(&mut self, byte: u8) -> io::Result<()> {
        if !self.synced {
            self.synced = byte == 0;
            return Ok(());
        }
        self.frame.push(byte);
        if byte == 0 || self.frame.len() > murmur_board_link::MAX_FRAME {
            self.file.write_all(&self.frame)?;
            self.file.flush()?;
            self.frame.clear();
        }
        Ok(())
    }

    fn resync(&mut self) {
        self.frame.clear();
        self.synced = false;
    }
}

/// The running reader thread; dropping it stops the thread.
pub struct LinkHandle {
    rx: Receiver<LinkEvent>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl LinkHandle {
    /// Starts reading `source`, recording to `record` if given (opened here, so a bad path is
    /// an error now rather than later).
    pub fn start(source: Source, record: Option<&Path>) -> io::Result<Self> {
        let recorder = record.map(Recorder::open).transpose()?;
        if let Source::File(path) = &source {
            File::open(path)?; // fail now on a missing recording
        }
        let (tx, rx) = mpsc::channel();
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let stop = stop.clone();
            std::thread::Builder::new()
                .name("murmur-serial".into())
                .spawn(move || run(source, recorder, &tx, &stop))?
        };
        Ok(Self {
            rx,
            stop,
            thread: Some(thread),
        })
    }

    /// Events received so far, without waiting.
    pub fn try_iter(&self) -> impl Iterator<Item = LinkEvent> + '_ {
        self.rx.try_iter()
    }

    /// The next event, waiting at most `timeout`.
    pub fn recv_timeout(&self, timeout: Duration) -> Result<LinkEvent, RecvTimeoutError> {
        self.rx.recv_timeout(timeout)
    }
}

impl Drop for LinkHandle {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Feeds `bytes` to the decoder (and recorder); false when the app has gone.
fn feed(
    bytes: &[u8],
    decoder: &mut Decoder,
    recorder: &mut Option<Recorder>,
    tx: &mpsc::Sender<LinkEvent>,
) -> bool {
    for &b in bytes {
        if let Some(r) = recorder.as_mut()
            && let Err(e) = r.push(b)
        {
            let _ = tx.send(LinkEvent::Disconnected(format!(
                "recording failed: {e}; no longer recording"
            )));
            *recorder = None;
        }
        let event = match decoder.push(b) {
            Some(Event::Message(m)) => LinkEvent::Message(Box::new(m), decoder.stats()),
            Some(Event::Rejected) => LinkEvent::Rejected(decoder.stats()),
            None => continue,
        };
        if tx.send(event).is_err() {
            return false;
        }
    }
    true
}

fn run(
    source: Source,
    mut recorder: Option<Recorder>,
    tx: &mpsc::Sender<LinkEvent>,
    stop: &AtomicBool,
) {
    let mut decoder = Decoder::new();
    let mut buf = [0u8; 4096];
    match source {
        Source::File(path) => {
            let Ok(mut file) = File::open(&path) else {
                let _ = tx.send(LinkEvent::Disconnected(format!(
                    "cannot open {}",
                    path.display()
                )));
                return;
            };
            loop {
                match file.read(&mut buf) {
                    Ok(0) => break,
                    Ok(n) => {
                        if !feed(&buf[..n], &mut decoder, &mut recorder, tx) {
                            return;
                        }
                    }
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => {
                        let _ = tx.send(LinkEvent::Disconnected(format!(
                            "cannot read {}: {e}",
                            path.display()
                        )));
                        break;
                    }
                }
            }
            let _ = tx.send(LinkEvent::Ended(decoder.stats()));
        }
        Source::Port { path, baud } => {
            let name = port_name(&path);
            let mut reported_absent = false;
            while !stop.load(Ordering::Relaxed) {
                let port = serialport::new(name.clone(), baud)
                    .timeout(READ_TIMEOUT)
                    .open();
                let mut port = match port {
                    Ok(p) => p,
                    Err(e) => {
                        if !reported_absent
                            && tx
                                .send(LinkEvent::Disconnected(format!("cannot open {name}: {e}")))
                                .is_err()
                        {
                            return;
                        }
                        reported_absent = true;
                        std::thread::sleep(RETRY);
                        continue;
                    }
                };
                reported_absent = false;
                if tx.send(LinkEvent::Connected(name.clone())).is_err() {
                    return;
                }
                // Whatever was in flight when we (re)joined is not a frame of ours.
                decoder.resync();
                if let Some(r) = recorder.as_mut() {
                    r.resync();
                }
                while !stop.load(Ordering::Relaxed) {
                    match port.read(&mut buf) {
                        Ok(0) => {
                            // End of file: the device is gone.
                            if tx
                                .send(LinkEvent::Disconnected(format!("{name}: closed")))
                                .is_err()
                            {
                                return;
                            }
                            std::thread::sleep(RETRY);
                            break;
                        }
                        Ok(n) => {
                            if !feed(&buf[..n], &mut decoder, &mut recorder, tx) {
                                return;
                            }
                        }
                        Err(e)
                            if matches!(
                                e.kind(),
                                io::ErrorKind::TimedOut
                                    | io::ErrorKind::Interrupted
                                    | io::ErrorKind::WouldBlock
                            ) => {}
                        Err(e) => {
                            if tx
                                .send(LinkEvent::Disconnected(format!("{name}: {e}")))
                                .is_err()
                            {
                                return;
                            }
                            std::thread::sleep(RETRY);
                            break;
                        }
                    }
                }
            }
        }
    }
}

/// The name a serial port is opened by: the path as given (`/dev/ttyACM0`, `COM3`,
/// `\\.\COM12`), not resolved or checked against the file system, which does not hold
/// Windows' COM ports.
fn port_name(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

#[cfg(test)]
mod port_tests {
    use super::port_name;
    use std::path::Path;

    #[test]
    fn port_names_pass_through_as_given() {
        for name in ["COM3", r"\\.\COM12", "/dev/ttyACM0", "/dev/pts/7"] {
            assert_eq!(port_name(Path::new(name)), name);
        }
    }
}
