//! What a reader of the board stream reports to the [`Mirror`](crate::Mirror): the port coming
//! and going, and each frame decoded.

use murmur_board_link::{Message, Stats};

/// What a reader (the thread here, the web page's Web Serial port) reports.
#[derive(Clone, Debug, PartialEq)]
pub enum LinkEvent {
    /// The port is open.
    Connected(String),
    /// The port could not be opened, or went away; the thread keeps trying.
    Disconnected(String),
    /// A good frame (boxed: a FLOCK is a kilobyte), with the decoder's counters after it.
    Message(Box<Message>, Stats),
    /// A rejected frame, with the decoder's counters after it.
    Rejected(Stats),
    /// A recording was read to its end.
    Ended(Stats),
}
