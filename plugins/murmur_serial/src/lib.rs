#![doc = include_str!("../README.md")]
pub mod event;
// The reader thread: not in the browser, whose page reads its port with Web Serial.
#[cfg(not(target_arch = "wasm32"))]
pub mod link;
pub mod mirror;
pub mod plugin;
/// Pseudo-terminals: unix only (on Windows a virtual board needs a real or virtual COM port).
#[cfg(unix)]
pub mod pty;
// The virtual board is a thread with its own clock: not in the browser.
#[cfg(not(target_arch = "wasm32"))]
pub mod virtual_board;

pub use event::LinkEvent;
#[cfg(not(target_arch = "wasm32"))]
pub use link::{LinkHandle, Source};
pub use mirror::{Divergence, Mirror, MirrorReport};
pub use plugin::MirrorViewPlugin;
#[cfg(not(target_arch = "wasm32"))]
pub use plugin::SerialBridgePlugin;
