#![doc = include_str!("../README.md")]
#![no_std]

pub mod cobs;
pub mod crc;
pub mod decode;
pub mod message;

pub use decode::{Decoder, Event, Stats};
pub use message::{BirdRecord, Flock, Hello, Message, ParseError, encode_flock, encode_hello};

/// Protocol version this crate speaks.
pub const PROTOCOL_VERSION: u8 = 1;
/// Largest decoded payload (CRC excluded).
pub const MAX_PAYLOAD: usize = 1024;
/// Largest frame on the wire: COBS of payload + CRC, plus the delimiter.
pub const MAX_FRAME: usize = cobs::max_encoded_len(MAX_PAYLOAD + 4) + 1;
