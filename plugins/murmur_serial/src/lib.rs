//! Mirroring a live microboids board. A reader thread opens the port (reconnecting by itself
//! when the device goes away and comes back), decodes the board stream and passes messages to the
//! app through a channel; a [`mirror::Mirror`] runs the same Q15 model in lockstep and reports the
//! first divergence; [`virtual_board`] plays the board (over a pseudo-terminal) with injected
//! faults for tests; [`plugin::SerialBridgePlugin`] shows board and local model side by side.

pub mod link;
pub mod mirror;
pub mod plugin;
pub mod pty;
pub mod virtual_board;

pub use link::{LinkEvent, LinkHandle, Source};
pub use mirror::{Divergence, Mirror, MirrorReport};
pub use plugin::SerialBridgePlugin;
