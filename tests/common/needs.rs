//! What a test needs from the machine (an X display, xdotool, a GPU, QEMU), found or the test
//! failed with what to install.
//!
//! The rule for every such test: it is `#[ignore = "needs …"]`, so a plain
//! `cargo test --workspace` lists it as ignored (not run) instead of passing it unseen; asked for
//! (`cargo test --workspace -- --include-ignored`, as `.ci/run` does), it needs what it needs,
//! and a machine without it fails the test, naming what is missing. The reasons read alike:
//! "needs an X display (or Xvfb) and Vulkan", "... and xdotool", "needs a GPU (Vulkan;
//! lavapipe will do)", "needs QEMU (scripts/get-qemu.sh)".

use std::process::Command;

/// Fails the test: the machine lacks `what`. `why` is what looking for it said.
#[track_caller]
pub fn missing(what: &str, why: impl std::fmt::Display) -> ! {
    panic!(
        "this test needs {what}, which this machine lacks ({why}); a plain `cargo test` \
         leaves it out as ignored"
    )
}

/// An X display to render on (Xvfb started when there is none), held for the whole test.
pub fn display() -> (std::sync::MutexGuard<'static, ()>, super::Display) {
    super::display_or_none()
        .unwrap_or_else(|| missing("an X display", "DISPLAY is unset and Xvfb would not start"))
}

/// xdotool, to type into and click in the app's window.
pub fn xdotool() {
    if let Err(e) = Command::new("xdotool").arg("version").output() {
        missing("xdotool (apt-get install xdotool)", e);
    }
}
