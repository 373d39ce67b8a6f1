//! QEMU's `microbit` machine (an nRF51822: the Cortex-M0 core, its UART, timers and FICR)
//! running a firmware image, its UART on QEMU's standard output. A pipe, not QEMU's own
//! pseudo-terminal: QEMU's pty drops what it sends while no reader has it open, while a pipe
//! holds the emulated UART back until the bytes are taken, as a real serial line's reader does.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

/// Where `scripts/get-qemu.sh` unpacks Debian's QEMU (it is not installed system-wide: its
/// package would replace a newer qemu-utils these machines have).
pub fn cache_dir() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))?;
    Some(base.join("murmur/qemu"))
}

/// The QEMU to run and the library path it needs: `MURMUR_QEMU`, the unpacked one in the
/// cache folder, or `qemu-system-arm` on the PATH.
pub fn find() -> Result<(PathBuf, Option<String>), String> {
    if let Some(path) = std::env::var_os("MURMUR_QEMU") {
        return Ok((PathBuf::from(path), None));
    }
    if let Some(dir) = cache_dir() {
        let binary = dir.join("usr/bin/qemu-system-arm");
        if binary.is_file() {
            let libs = [
                dir.join("usr/lib/x86_64-linux-gnu"),
                dir.join("lib/x86_64-linux-gnu"),
            ]
            .iter()
            .map(|p| p.display().to_string())
            .chain(std::env::var("LD_LIBRARY_PATH").ok())
            .collect::<Vec<_>>()
            .join(":");
            return Ok((binary, Some(libs)));
        }
    }
    let on_path = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|p| p.join("qemu-system-arm"))
            .find(|p| p.is_file())
    });
    on_path.map(|p| (p, None)).ok_or_else(|| {
        "QEMU's qemu-system-arm was not found. Get it with `bash scripts/get-qemu.sh` (unpacks \
         Debian's qemu-system-arm 7.2 into ~/.cache/murmur/qemu, no root needed), install it \
         (`apt-get install qemu-system-arm`, `brew install qemu`), or set MURMUR_QEMU to its path"
            .into()
    })
}

/// Starts QEMU on `image` (an ELF, or an Intel HEX as the MICROBIT drive takes it) with the
/// UART on the child's stdout; `plugin` adds a TCG plugin (`-plugin`) and its arguments.
pub fn start(image: &Path, plugin: Option<&str>) -> Result<Child, String> {
    let (binary, libs) = find()?;
    let mut command = Command::new(&binary);
    command
        .args(["-M", "microbit", "-display", "none", "-monitor", "none"])
        .args(["-serial", "stdio"]);
    if image
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("hex"))
    {
        // QEMU's generic loader reads Intel HEX into flash; the core then boots from its
        // vector table as the board does.
        let mut device = std::ffi::OsString::from("loader,file=");
        device.push(image);
        command.arg("-device").arg(device);
    } else {
        command.arg("-kernel").arg(image);
    }
    command.stdin(Stdio::null()).stdout(Stdio::piped());
    if let Some(plugin) = plugin {
        command.args(["-plugin", plugin]);
    }
    if let Some(libs) = libs {
        command.env("LD_LIBRARY_PATH", libs);
    }
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt;
        // SAFETY: prctl is async-signal-safe; it only asks the kernel to kill QEMU when the
        // murmur that started it dies, so that no emulated board outlives its bridge.
        unsafe {
            command.pre_exec(|| {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                Ok(())
            });
        }
    }
    command
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", binary.display()))
}
