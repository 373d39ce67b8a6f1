//! A pseudo-terminal pair in raw mode, so a virtual board can stand in for a USB device.

use std::fs::File;
use std::io;
use std::os::fd::{FromRawFd, OwnedFd};
use std::path::PathBuf;

/// Both ends of a pseudo-terminal: write to `master`; open `slave_path` as a serial port.
pub struct Pty {
    /// The board's end.
    pub master: File,
    /// Kept open so the terminal lives (and buffers) until a reader opens it.
    _slave: OwnedFd,
    /// The device path a reader opens (`/dev/pts/N`).
    pub slave_path: PathBuf,
}

impl Pty {
    /// Opens a pseudo-terminal whose slave side is raw (no line editing, no echo, no signals),
    /// as a USB CDC-ACM port is.
    pub fn open() -> io::Result<Self> {
        let (mut master, mut slave) = (-1, -1);
        let mut name = [0 as libc::c_char; 256];
        // SAFETY: openpty writes two fds and a NUL-terminated name into buffers we own; the
        // termios and window-size pointers may be null.
        let rc = unsafe {
            libc::openpty(
                &mut master,
                &mut slave,
                name.as_mut_ptr(),
                std::ptr::null(),
                std::ptr::null(),
            )
        };
        if rc != 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: openpty succeeded, so both fds are open and owned by nobody else.
        let (master, slave) = unsafe { (File::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) };
        // SAFETY: `name` was NUL-terminated by openpty.
        let slave_path = unsafe { std::ffi::CStr::from_ptr(name.as_ptr()) }
            .to_string_lossy()
            .into_owned();
        use std::os::fd::AsRawFd;
        // SAFETY: a zeroed termios is a valid buffer for tcgetattr to fill; the fd is open.
        unsafe {
            let mut t: libc::termios = std::mem::zeroed();
            if libc::tcgetattr(slave.as_raw_fd(), &mut t) != 0 {
                return Err(io::Error::last_os_error());
            }
            libc::cfmakeraw(&mut t);
            if libc::tcsetattr(slave.as_raw_fd(), libc::TCSANOW, &t) != 0 {
                return Err(io::Error::last_os_error());
            }
        }
        Ok(Self {
            master,
            _slave: slave,
            slave_path: PathBuf::from(slave_path),
        })
    }

    /// Waits (up to `timeout`) until a reader has taken everything written, so that closing
    /// the terminal loses nothing. Returns false on timeout.
    ///
    /// The line discipline holds only 4 KiB; the rest waits in the terminal's own buffer and
    /// moves across as the reader drains it. So an empty read queue for one moment proves
    /// nothing: it must stay empty for a quiet spell, longer than the gap between a reader's
    /// reads and the kernel's refill.
    pub fn wait_drained(&self, timeout: std::time::Duration) -> bool {
        use std::os::fd::AsRawFd;
        use std::time::{Duration, Instant};
        const QUIET: Duration = Duration::from_millis(300);
        let until = Instant::now() + timeout;
        let mut empty_since: Option<Instant> = None;
        loop {
            let mut pending: libc::c_int = 0;
            // SAFETY: FIONREAD writes one int to a pointer we own; the fd is open.
            let rc = unsafe { libc::ioctl(self._slave.as_raw_fd(), libc::FIONREAD, &mut pending) };
            if rc != 0 {
                return true;
            }
            let now = Instant::now();
            if pending == 0 {
                let since = *empty_since.get_or_insert(now);
                if now.duration_since(since) >= QUIET {
                    return true;
                }
            } else {
                empty_since = None;
            }
            if now >= until {
                return false;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}
