//! murmur's micro:bit firmware as the host handles it: building it (`plugins/murmur_microbit`,
//! its own Cargo package for the board), choosing what an image runs by the settings block it
//! carries (`image`), writing it as Intel HEX for the MICROBIT drive (`hex`), and running it
//! under QEMU's `microbit` machine (`qemu`).

pub mod hex;
pub mod image;
pub mod qemu;

use std::path::{Path, PathBuf};
use std::process::Command;

/// The firmware package's folder in this source tree.
pub fn source_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("plugins/murmur_microbit")
}

/// The built firmware's ELF: `MURMUR_FIRMWARE` if set, otherwise built now (a release build of
/// `plugins/murmur_microbit`; cargo does nothing when it is up to date).
pub fn elf() -> Result<PathBuf, String> {
    if let Some(path) = std::env::var_os("MURMUR_FIRMWARE") {
        let path = PathBuf::from(path);
        return if path.is_file() {
            Ok(path)
        } else {
            Err(format!("MURMUR_FIRMWARE={}: no such file", path.display()))
        };
    }
    let dir = source_dir();
    if !dir.join("Cargo.toml").is_file() {
        return Err(format!(
            "the firmware's source is not at {} (set MURMUR_FIRMWARE to a built image)",
            dir.display()
        ));
    }
    eprintln!("building the micro:bit firmware ({})", dir.display());
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(cargo)
        .args(["build", "--release", "--quiet"])
        .current_dir(&dir)
        // The host build's settings are not the board's.
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_BUILD_TARGET")
        .status()
        .map_err(|e| format!("cannot run cargo to build the firmware: {e}"))?;
    if !status.success() {
        return Err(format!(
            "the firmware did not build (cargo build --release in {}; the board's target is \
             added by `rustup target add thumbv6m-none-eabi`)",
            dir.display()
        ));
    }
    let path = dir.join("target/thumbv6m-none-eabi/release/murmur_microbit");
    if path.is_file() {
        Ok(path)
    } else {
        Err(format!(
            "the firmware build left no image at {}",
            path.display()
        ))
    }
}
