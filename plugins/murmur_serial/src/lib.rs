#![doc = include_str!("../README.md")]
pub mod link;
pub mod mirror;
pub mod plugin;
/// Pseudo-terminals: unix only (on Windows a virtual board needs a real or virtual COM port).
#[cfg(unix)]
pub mod pty;
pub mod virtual_board;

pub use link::{LinkEvent, LinkHandle, Source};
pub use mirror::{Divergence, Mirror, MirrorReport};
pub use plugin::SerialBridgePlugin;
