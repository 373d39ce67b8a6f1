//! The streaming decoder: bytes in one at a time, frames out, bounded memory, no panics.

use crate::crc::crc32_mpeg2;
use crate::message::{Message, ParseError, parse};
use crate::{MAX_FRAME, MAX_PAYLOAD, cobs};

/// What the decoder has rejected and accepted so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Frames whose CRC did not match.
    pub crc_errors: u64,
    /// Bad COBS, a wrong length for the kind, or more than a frame's bytes without a delimiter.
    pub framing_errors: u64,
    /// Well-formed frames of a kind this version does not know.
    pub unknown_kind: u64,
    /// Good frames of known kinds.
    pub frames: u64,
    /// Bytes skipped before the first delimiter (joining mid-stream).
    pub skipped_bytes: u64,
}

/// One decoder output.
// The crate is `no_std` without an allocator, so a FLOCK stays inline rather than boxed; an
// event lives on the stack for one call, so its size costs a copy, not memory.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// A good HELLO or FLOCK.
    Message(Message),
    /// A frame was dropped (see [`Stats`] for why).
    Rejected,
}

/// A streaming frame decoder with a fixed buffer of one largest frame.
#[derive(Clone, Debug)]
pub struct Decoder {
    buf: [u8; MAX_FRAME],
    len: usize,
    /// Waiting for a delimiter: at start (we may have joined mid-frame) and after an overflow.
    /// What comes before it is held in `buf` all the same: a whole frame there is accepted.
    syncing: bool,
    stats: Stats,
}

impl Default for Decoder {
    fn default() -> Self {
        Self::new()
    }
}

impl Decoder {
    /// A decoder that discards everything up to and including the first `0x00`, unless what
    /// came before it is one whole frame that passes its CRC (a board's first frame, when the
    /// port was opened before the board's leading `0x00`).
    pub fn new() -> Self {
        Self {
            buf: [0; MAX_FRAME],
            len: 0,
            syncing: true,
            stats: Stats::default(),
        }
    }

    /// The counters.
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// Forgets any partial frame and waits for the next delimiter (after a reconnect, the
    /// stream resumes mid-frame). Counters are kept.
    pub fn resync(&mut self) {
        self.len = 0;
        self.syncing = true;
    }

    /// Feeds one byte; returns an event when it completes (or spoils) a frame.
    pub fn push(&mut self, byte: u8) -> Option<Event> {
        if self.syncing {
            if byte != 0 {
                // Skipped, unless it turns out to belong to a whole first frame.
                self.stats.skipped_bytes += 1;
                if self.len < self.buf.len() {
                    self.buf[self.len] = byte;
                }
                self.len = self.len.saturating_add(1);
                return None;
            }
            self.syncing = false;
            let len = core::mem::take(&mut self.len);
            if len == 0 || len > self.buf.len() {
                return None;
            }
            let event = self.whole_frame(len)?;
            self.stats.skipped_bytes -= len as u64;
            return Some(event);
        }
        if byte != 0 {
            if self.len == self.buf.len() {
                // More than the largest legal frame without a delimiter: drop it and resync.
                self.len = 0;
                self.syncing = true;
                self.stats.framing_errors += 1;
                return Some(Event::Rejected);
            }
            self.buf[self.len] = byte;
            self.len += 1;
            return None;
        }
        let len = core::mem::take(&mut self.len);
        if len == 0 {
            return None; // back-to-back delimiters: nothing to decode
        }
        Some(self.finish(len))
    }

    /// The first segment as a frame, if it is one whole frame with a good CRC; otherwise it was
    /// the tail of a frame joined midway, and no counter but the skipped bytes moves.
    fn whole_frame(&mut self, len: usize) -> Option<Event> {
        let mut copy = [0u8; MAX_FRAME];
        copy[..len].copy_from_slice(&self.buf[..len]);
        let n = cobs::decode_in_place(&mut copy[..len])?;
        if !(5..=MAX_PAYLOAD + 4).contains(&n) {
            return None;
        }
        let (payload, crc) = copy[..n].split_at(n - 4);
        if crc32_mpeg2(payload).to_le_bytes() != [crc[0], crc[1], crc[2], crc[3]] {
            return None;
        }
        parse(payload).ok()?;
        Some(self.finish(len))
    }

    fn finish(&mut self, len: usize) -> Event {
        let Some(n) = cobs::decode_in_place(&mut self.buf[..len]) else {
            self.stats.framing_errors += 1;
            return Event::Rejected;
        };
        if !(5..=MAX_PAYLOAD + 4).contains(&n) {
            self.stats.framing_errors += 1;
            return Event::Rejected;
        }
        let (payload, crc) = self.buf[..n].split_at(n - 4);
        if crc32_mpeg2(payload).to_le_bytes() != [crc[0], crc[1], crc[2], crc[3]] {
            self.stats.crc_errors += 1;
            return Event::Rejected;
        }
        match parse(payload) {
            Ok(Message::Unknown(kind)) => {
                self.stats.unknown_kind += 1;
                Event::Message(Message::Unknown(kind))
            }
            Ok(m) => {
                self.stats.frames += 1;
                Event::Message(m)
            }
            Err(ParseError::Empty | ParseError::BadLength) => {
                self.stats.framing_errors += 1;
                Event::Rejected
            }
        }
    }
}
