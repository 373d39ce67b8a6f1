//! xorshift32, the firmware's random numbers.

/// The firmware's seed for both its init and speed generators.
pub const FIRMWARE_SEED: u32 = 0x1312_1312;

/// xorshift32 (13, 17, 5) on `u32`, modulo 2^32.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct XorShift32(pub u32);

impl XorShift32 {
    /// Steps once and returns the new state.
    #[inline]
    pub fn step(&mut self) -> u32 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        self.0 = x;
        x
    }
}

impl Default for XorShift32 {
    fn default() -> Self {
        Self(FIRMWARE_SEED)
    }
}
