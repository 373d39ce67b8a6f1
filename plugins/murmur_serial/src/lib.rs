#![doc = include_str!("../README.md")]
pub mod link;
pub mod mirror;
pub mod plugin;
pub mod pty;
pub mod virtual_board;

pub use link::{LinkEvent, LinkHandle, Source};
pub use mirror::{Divergence, Mirror, MirrorReport};
pub use plugin::SerialBridgePlugin;
