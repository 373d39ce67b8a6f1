//! Q15 arithmetic with the firmware's exact semantics: products floor (arithmetic shift) and
//! wrap, sums and differences saturate, nothing ever rounds.

use fixed::types::I1F15;

/// A Q15 number: an `i16` read as a fraction of 32768, so -32768 is -1.0 and 32767 is 0.99997.
pub type Q15 = I1F15;

/// A Q15 value from its raw `i16`.
#[inline]
pub const fn q(bits: i16) -> Q15 {
    Q15::from_bits(bits)
}

/// `Q15_MAX` (from 0.99999 * 32768, truncated).
pub const Q15_MAX: Q15 = q(32767);
/// `Q15_MIN`: -1.0.
pub const Q15_MIN: Q15 = q(-32768);
/// `Q(0.9999)`: 32764, not 32767 (the float is truncated).
pub const Q_0_9999: Q15 = q(32764);

/// `QMath_Mul`: `floor(a * b / 2^15)`, wrapped to 16 bits. `fixed`'s wrapping multiplication
/// shifts the 32-bit product arithmetically, which is exactly this.
#[inline]
pub fn mul(a: Q15, b: Q15) -> Q15 {
    a.wrapping_mul(b)
}

/// `QMath_AddSat`.
#[inline]
pub fn add_sat(a: Q15, b: Q15) -> Q15 {
    a.saturating_add(b)
}

/// `QMath_SubSat`.
#[inline]
pub fn sub_sat(a: Q15, b: Q15) -> Q15 {
    a.saturating_sub(b)
}

/// `QMath_Add`: wraps.
#[inline]
pub fn add_wrap(a: Q15, b: Q15) -> Q15 {
    a.wrapping_add(b)
}

/// `QMath_Sub`: wraps.
#[inline]
pub fn sub_wrap(a: Q15, b: Q15) -> Q15 {
    a.wrapping_sub(b)
}

/// `QMath_Avg`: one step of a single-pole low-pass filter, `x + alpha * (p - x)`, where `p` is
/// the previous output, `x` the new sample and `alpha` the weight kept on the old value.
#[inline]
pub fn avg(p: Q15, x: Q15, alpha: Q15) -> Q15 {
    add_sat(x, mul(alpha, sub_sat(p, x)))
}

/// `QMath_Int16ToUInt8(v, s)`: `((v >> s) + (0x4000 >> (s - 1))) >> 8`, truncated to `u8`
/// (0..127 for s = 1, 0..63 for s = 2). `s` is 1 or 2 in this model.
#[inline]
pub fn int16_to_u8(v: Q15, s: u32) -> u8 {
    let v = v.to_bits() as i32;
    (((v >> s) + (0x4000 >> (s - 1))) >> 8) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn products_floor_towards_minus_infinity() {
        assert_eq!(mul(q(5), q(-3)), q(-1));
        assert_eq!(mul(q(16383), q(-1)), q(-1));
        assert_eq!(mul(q(16383), q(1)), q(0));
        assert_eq!(mul(q(-32768), q(-32768)), q(-32768), "wraps");
        assert_eq!(mul(q(-32768), q(1234)), q(-1234));
    }

    #[test]
    fn sums_saturate_and_wrapping_sums_wrap() {
        assert_eq!(add_sat(q(32000), q(1000)), Q15_MAX);
        assert_eq!(sub_sat(q(-32000), q(1000)), Q15_MIN);
        assert_eq!(add_wrap(q(32767), q(1)), q(-32768));
        assert_eq!(sub_wrap(q(-32768), q(1)), q(32767));
    }
}
