//! The payloads: HELLO and FLOCK, their encoding into frames and their parsing.

use crate::cobs;
use crate::crc::crc32_mpeg2;
use crate::{MAX_PAYLOAD, PROTOCOL_VERSION};

/// Payload kinds.
pub const KIND_HELLO: u8 = 0x01;
/// Payload kinds.
pub const KIND_FLOCK: u8 = 0x02;
/// Longest board name in a HELLO.
pub const MAX_NAME: usize = 32;
/// Most birds in a FLOCK: its payload (6 + 6 per bird) must fit the 1024-byte limit.
pub const MAX_BIRDS: usize = (MAX_PAYLOAD - 6) / 6;

/// HELLO: who is talking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hello {
    /// Protocol version (1).
    pub version: u8,
    /// 0 = conway a412, 1 = article, 2 = conway bfee0c8, 255 = not a mirrorable model.
    pub revision: u8,
    /// Seed passed to Bird_Init.
    pub seed: u32,
    /// Birds (1..255).
    pub birds: u8,
    /// Tick period in microseconds.
    pub tick_us: u32,
    name: [u8; MAX_NAME],
    name_len: u8,
}

impl Hello {
    /// A HELLO; the name is cut to 32 bytes (at a character boundary).
    pub fn new(revision: u8, seed: u32, birds: u8, tick_us: u32, name: &str) -> Self {
        let mut cut = name.len().min(MAX_NAME);
        while !name.is_char_boundary(cut) {
            cut -= 1;
        }
        let mut bytes = [0u8; MAX_NAME];
        bytes[..cut].copy_from_slice(&name.as_bytes()[..cut]);
        Self {
            version: PROTOCOL_VERSION,
            revision,
            seed,
            birds,
            tick_us,
            name: bytes,
            name_len: cut as u8,
        }
    }

    /// The board's name (empty when it sent bytes that are not UTF-8).
    pub fn name(&self) -> &str {
        core::str::from_utf8(&self.name[..self.name_len as usize]).unwrap_or("")
    }
}

/// One bird as a FLOCK carries it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BirdRecord {
    /// x, Q15.
    pub x: i16,
    /// y, Q15.
    pub y: i16,
    /// Heading, 256 = full turn.
    pub angle: u8,
    /// 0 Idle, 1 TurningN, 2 TurningE, 3 TurningS, 4 TurningW.
    pub state: u8,
}

/// FLOCK: the whole flock after one tick.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flock {
    /// Ticks since Bird_Init (0 = right after it).
    pub tick: u32,
    count: u8,
    birds: [BirdRecord; MAX_BIRDS],
}

impl Flock {
    /// A FLOCK of up to [`MAX_BIRDS`] birds (more are cut off).
    pub fn new(tick: u32, birds: &[BirdRecord]) -> Self {
        let n = birds.len().min(MAX_BIRDS);
        let mut all = [BirdRecord::default(); MAX_BIRDS];
        all[..n].copy_from_slice(&birds[..n]);
        Self {
            tick,
            count: n as u8,
            birds: all,
        }
    }

    /// The birds, in firmware index order.
    pub fn birds(&self) -> &[BirdRecord] {
        &self.birds[..self.count as usize]
    }
}

/// A parsed payload.
// Inline, not boxed: the crate runs without an allocator (see `Event`).
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Message {
    /// See [`Hello`].
    Hello(Hello),
    /// See [`Flock`].
    Flock(Flock),
    /// A well-formed frame of a kind this version does not know (0x03..0xFF): skip it.
    Unknown(u8),
}

/// Why a payload was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// No bytes.
    Empty,
    /// The length is wrong for the kind, or the count does not match it.
    BadLength,
}

/// Parses a decoded payload (CRC already checked and removed).
pub fn parse(payload: &[u8]) -> Result<Message, ParseError> {
    let (&kind, _) = payload.split_first().ok_or(ParseError::Empty)?;
    let u32_at =
        |i: usize| u32::from_le_bytes([payload[i], payload[i + 1], payload[i + 2], payload[i + 3]]);
    match kind {
        KIND_HELLO => {
            if !(12..=12 + MAX_NAME).contains(&payload.len()) {
                return Err(ParseError::BadLength);
            }
            let mut hello = Hello::new(payload[2], u32_at(3), payload[7], u32_at(8), "");
            hello.version = payload[1];
            let name = &payload[12..];
            hello.name[..name.len()].copy_from_slice(name);
            hello.name_len = name.len() as u8;
            Ok(Message::Hello(hello))
        }
        KIND_FLOCK => {
            if payload.len() < 6 {
                return Err(ParseError::BadLength);
            }
            let n = payload[5] as usize;
            if payload.len() != 6 + 6 * n {
                return Err(ParseError::BadLength);
            }
            let mut flock = Flock {
                tick: u32_at(1),
                count: n as u8,
                birds: [BirdRecord::default(); MAX_BIRDS],
            };
            for (b, rec) in flock.birds[..n]
                .iter_mut()
                .zip(payload[6..].chunks_exact(6))
            {
                *b = BirdRecord {
                    x: i16::from_le_bytes([rec[0], rec[1]]),
                    y: i16::from_le_bytes([rec[2], rec[3]]),
                    angle: rec[4],
                    state: rec[5],
                };
            }
            Ok(Message::Flock(flock))
        }
        other => Ok(Message::Unknown(other)),
    }
}

/// Why a frame could not be written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EncodeError {
    /// The output buffer is too short (`crate::MAX_FRAME` always suffices).
    BufferTooSmall,
    /// More than [`MAX_BIRDS`] birds.
    TooManyBirds,
}

/// Frames `payload` into `out`: COBS(payload ++ CRC, little-endian) then `0x00`.
pub fn frame(payload: &[u8], out: &mut [u8]) -> Result<usize, EncodeError> {
    let mut raw = [0u8; MAX_PAYLOAD + 4];
    let n = payload.len();
    if n > MAX_PAYLOAD {
        return Err(EncodeError::BufferTooSmall);
    }
    raw[..n].copy_from_slice(payload);
    raw[n..n + 4].copy_from_slice(&crc32_mpeg2(payload).to_le_bytes());
    let len = cobs::encode(&raw[..n + 4], out).ok_or(EncodeError::BufferTooSmall)?;
    *out.get_mut(len).ok_or(EncodeError::BufferTooSmall)? = 0;
    Ok(len + 1)
}

/// Writes a HELLO frame into `out`; returns its length.
pub fn encode_hello(hello: &Hello, out: &mut [u8]) -> Result<usize, EncodeError> {
    let mut p = [0u8; 12 + MAX_NAME];
    p[0] = KIND_HELLO;
    p[1] = hello.version;
    p[2] = hello.revision;
    p[3..7].copy_from_slice(&hello.seed.to_le_bytes());
    p[7] = hello.birds;
    p[8..12].copy_from_slice(&hello.tick_us.to_le_bytes());
    let name = &hello.name[..hello.name_len as usize];
    p[12..12 + name.len()].copy_from_slice(name);
    frame(&p[..12 + name.len()], out)
}

/// Writes a FLOCK frame of `birds` after `tick` into `out`; returns its length.
pub fn encode_flock(tick: u32, birds: &[BirdRecord], out: &mut [u8]) -> Result<usize, EncodeError> {
    if birds.len() > MAX_BIRDS {
        return Err(EncodeError::TooManyBirds);
    }
    let mut p = [0u8; 6 + 6 * MAX_BIRDS];
    p[0] = KIND_FLOCK;
    p[1..5].copy_from_slice(&tick.to_le_bytes());
    p[5] = birds.len() as u8;
    for (rec, b) in p[6..].chunks_exact_mut(6).zip(birds) {
        rec[0..2].copy_from_slice(&b.x.to_le_bytes());
        rec[2..4].copy_from_slice(&b.y.to_le_bytes());
        rec[4] = b.angle;
        rec[5] = b.state;
    }
    frame(&p[..6 + 6 * birds.len()], out)
}
