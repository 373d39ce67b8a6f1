#![doc = include_str!("../README.md")]
#![cfg_attr(target_os = "none", no_std)]

use murmur_board_link::message::{BirdRecord, Hello, encode_flock, encode_hello};

/// On the board a panic (which these functions never reach) stops; hosts use std's handler.
#[cfg(target_os = "none")]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    loop {}
}

/// One bird as the C side passes it (`struct bl_bird` in the header): 6 bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BlBird {
    /// x, Q15.
    pub x: i16,
    /// y, Q15.
    pub y: i16,
    /// Heading, 256 = full turn.
    pub angle: u8,
    /// 0 Idle, 1 TurningN, 2 TurningE, 3 TurningS, 4 TurningW.
    pub state: u8,
}

/// Longest frame either function writes (`BL_MAX_FRAME` in the header).
pub const BL_MAX_FRAME: usize = murmur_board_link::MAX_FRAME;

/// Writes a HELLO frame (delimiter included) into `out`, which has room for `cap` bytes.
/// Returns the frame's length, or 0 when `out` is too small or a pointer is null.
///
/// # Safety
/// `name` must point to `name_len` readable bytes (or be null with `name_len` 0), and `out` to
/// `cap` writable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn bl_encode_hello(
    revision: u8,
    seed: u32,
    birds: u8,
    tick_us: u32,
    name: *const u8,
    name_len: usize,
    out: *mut u8,
    cap: usize,
) -> usize {
    if out.is_null() || (name.is_null() && name_len != 0) {
        return 0;
    }
    // SAFETY: the caller promises these ranges are valid (see above).
    let (name, out) = unsafe {
        let name = if name_len == 0 {
            &[][..]
        } else {
            core::slice::from_raw_parts(name, name_len)
        };
        (name, core::slice::from_raw_parts_mut(out, cap))
    };
    // A name that is not UTF-8 is sent empty rather than cut mid-character.
    let name = core::str::from_utf8(name).unwrap_or("");
    encode_hello(&Hello::new(revision, seed, birds, tick_us, name), out).unwrap_or(0)
}

/// Writes a FLOCK frame of `count` birds after `tick` (delimiter included) into `out`, which has
/// room for `cap` bytes. Returns the frame's length, or 0 when `out` is too small, `count` is
/// over 169 or a pointer is null.
///
/// # Safety
/// `birds` must point to `count` readable `bl_bird`s, and `out` to `cap` writable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn bl_encode_flock(
    tick: u32,
    birds: *const BlBird,
    count: usize,
    out: *mut u8,
    cap: usize,
) -> usize {
    if out.is_null()
        || (birds.is_null() && count != 0)
        || count > murmur_board_link::message::MAX_BIRDS
    {
        return 0;
    }
    // SAFETY: the caller promises these ranges are valid (see above).
    let (birds, out) = unsafe {
        let birds = if count == 0 {
            &[][..]
        } else {
            core::slice::from_raw_parts(birds, count)
        };
        (birds, core::slice::from_raw_parts_mut(out, cap))
    };
    let mut records = [BirdRecord::default(); murmur_board_link::message::MAX_BIRDS];
    for (r, b) in records.iter_mut().zip(birds) {
        *r = BirdRecord {
            x: b.x,
            y: b.y,
            angle: b.angle,
            state: b.state,
        };
    }
    encode_flock(tick, &records[..count], out).unwrap_or(0)
}
