//! The board stream protocol (`shared/docs/serial-protocol.md`, version 1): how a flocking board
//! streams its flock to a host. Frames are `COBS(payload ++ crc32_le(payload))` then `0x00`;
//! payloads are HELLO (who is talking) and FLOCK (every bird after a tick).
//!
//! `no_std` and no allocator: the encoder writes into the caller's buffer (a board can use it),
//! and the [`Decoder`] takes bytes one at a time into a fixed buffer, never panics, and counts
//! what it rejects.

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
