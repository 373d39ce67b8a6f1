//! The settings the image carries: which revision it runs, whether it keeps the board's tick
//! period, and an optional deliberate fault. One build serves every choice: `murmur firmware`
//! and `murmur board --qemu` find the block by its magic in the ELF and write the bytes after it
//! (the same layout is `src/firmware/image.rs` in the murmur crate).

/// The block, in flash.
#[repr(C)]
pub struct Config {
    /// `MURMUR-CONFIG1`, for finding the block in the image.
    pub magic: [u8; 14],
    /// The model revision's protocol number (0 a412, 1 article, 2 bfee0c8).
    pub revision: u8,
    /// 1: tick as fast as the serial line takes the frames (an emulator); 0: one tick per
    /// 31.872 ms from TIMER0, as the board does.
    pub fast: u8,
    /// From this tick on, report bird `fault_bird`'s x one unit off (u32::MAX: never). For the
    /// mirror's negative control.
    pub fault_tick: u32,
    /// The bird the fault is in.
    pub fault_bird: u32,
}

/// What an image built and not patched runs: a412 at the board's pace, no fault.
#[unsafe(no_mangle)]
#[used]
pub static MURMUR_CONFIG: Config = Config {
    magic: *b"MURMUR-CONFIG1",
    revision: 0,
    fast: 0,
    fault_tick: u32::MAX,
    fault_bird: 0,
};

/// The block as the image holds it (read from flash, not folded in by the compiler).
pub fn read() -> Config {
    // SAFETY: a plain static; read volatile so that a patched image is honoured.
    unsafe { (&raw const MURMUR_CONFIG).read_volatile() }
}
