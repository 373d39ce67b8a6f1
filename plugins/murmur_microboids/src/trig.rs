//! The firmware's trigonometry: sine tables, moving a point, CORDIC atan2, quadrants and the
//! shortest-angle midpoint. Angles are binary: 256 is a full turn, 64 points along +y (down on
//! the display).

use crate::q15::{Q_0_9999, Q15, add_sat, mul, q, sub_sat};

/// A binary angle: 256 steps per turn, arithmetic modulo 256.
pub type Angle = u8;

/// A point in Q15 coordinates.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Point {
    /// x, -1 (left) to 1 (right).
    pub x: Q15,
    /// y, -1 (top) to 1 (bottom).
    pub y: Q15,
}

impl Point {
    /// A point from raw Q15 values.
    pub const fn new(x: i16, y: i16) -> Self {
        Self { x: q(x), y: q(y) }
    }

    /// The origin.
    pub const ORIGIN: Point = Point::new(0, 0);
}

/// The first quarter wave of `qsin`, as the firmware's table holds it (data, not a formula).
const QSIN_QUARTER: [i16; 65] = [
    0, 804, 1607, 2410, 3211, 4011, 4808, 5602, 6392, 7179, 7961, 8739, 9512, 10278, 11039, 11793,
    12539, 13278, 14010, 14732, 15446, 16151, 16846, 17530, 18204, 18868, 19519, 20159, 20787,
    21403, 22005, 22594, 23170, 23732, 24279, 24812, 25329, 25832, 26319, 26790, 27245, 27684,
    28106, 28510, 28898, 29269, 29621, 29956, 30273, 30572, 30852, 31114, 31356, 31580, 31785,
    31971, 32138, 32285, 32413, 32521, 32610, 32679, 32728, 32758, 32767,
];

const fn build_sin() -> [Q15; 256] {
    let mut raw = [0i16; 256];
    let mut i = 0;
    while i <= 64 {
        raw[i] = QSIN_QUARTER[i];
        raw[128 - i] = QSIN_QUARTER[i];
        i += 1;
    }
    let mut i = 0;
    while i < 128 {
        raw[128 + i] = -raw[i];
        i += 1;
    }
    let mut out = [q(0); 256];
    let mut i = 0;
    while i < 256 {
        out[i] = q(raw[i]);
        i += 1;
    }
    out
}

const fn build_cos() -> [Q15; 256] {
    let mut out = [q(0); 256];
    let mut i = 0;
    while i < 256 {
        out[i] = QSIN[(i + 64) % 256];
        i += 1;
    }
    out
}

/// `qsin[angle]`.
pub const QSIN: [Q15; 256] = build_sin();
/// `qcos[angle] = qsin[angle + 64]`.
pub const QCOS: [Q15; 256] = build_cos();

/// CORDIC arctangent steps, 65536 = a full turn (only the first four are used).
pub const LUT_ATANPI2: [u16; 16] = [
    8192, 4836, 2555, 1297, 651, 325, 162, 81, 40, 20, 10, 5, 2, 1, 0, 0,
];

/// CORDIC iterations.
const CORDIC_ITS: usize = 4;

/// `TRIG_Translate16`: moves `p` by `inc` along `angle`; each step is floored, positions clamp
/// at the canvas edges (they never wrap).
#[inline]
pub fn translate16(p: &mut Point, angle: Angle, inc: Q15) {
    let dx = mul(inc, QCOS[angle as usize]);
    let dy = mul(inc, QSIN[angle as usize]);
    p.x = add_sat(p.x, dx);
    p.y = add_sat(p.y, dy);
}

/// `TRIG_ATan2`: the angle of the vector `a - b`, by four CORDIC steps on halved coordinates
/// (each halved *before* subtracting). 0 for a zero vector.
pub fn atan2(a: Point, b: Point) -> Angle {
    let half = |v: Q15| (v.to_bits() >> 1) as i32;
    let dx = half(a.x) - half(b.x);
    let dy = half(a.y) - half(b.y);
    // |dx|, |dy| <= 32767: they fit in Q15.
    let mut cx = q(dx.unsigned_abs() as i16);
    let mut cy = q(dy.unsigned_abs() as i16);
    let mut acc: u16 = 0;
    let mut d = q(-32768);
    for (i, &step) in LUT_ATANPI2.iter().enumerate().take(CORDIC_ITS) {
        if cy == q(0) {
            break;
        }
        let ty = mul(d, q(cy.to_bits() >> i));
        let tx = mul(d, q(cx.to_bits() >> i));
        let (new_cx, new_cy) = (sub_sat(cx, ty), add_sat(cy, tx));
        cx = new_cx;
        cy = new_cy;
        acc = if d < q(0) {
            acc.wrapping_add(step)
        } else {
            acc.wrapping_sub(step)
        };
        d = if cy < q(0) { Q_0_9999 } else { q(-32768) };
    }
    let r = (acc >> 8) as u8;
    if dy < 0 && dx < 0 {
        r.wrapping_sub(128)
    } else if dx < 0 {
        128u8.wrapping_sub(r)
    } else if dy < 0 {
        0u8.wrapping_sub(r)
    } else {
        r
    }
}

/// The firmware's quadrant labels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Quadrant {
    /// `a.x < b.x`, `a.y < b.y`.
    Quad0 = 0,
    /// `a.x >= b.x`, `a.y < b.y`.
    Quad1 = 1,
    /// `a.x >= b.x`, `a.y >= b.y`.
    Quad2 = 2,
    /// `a.x < b.x`, `a.y >= b.y`.
    Quad3 = 3,
}

/// `TRIG_WhichQuadrant`, on the raw (unhalved) coordinates.
#[inline]
pub fn which_quadrant(a: Point, b: Point) -> Quadrant {
    match (a.x < b.x, a.y < b.y) {
        (true, true) => Quadrant::Quad0,
        (true, false) => Quadrant::Quad3,
        (false, true) => Quadrant::Quad1,
        (false, false) => Quadrant::Quad2,
    }
}

/// `TRIG_SAM`: the midpoint of two angles along the shorter way round, floored; a tie (half a
/// turn apart) goes the long way, as the firmware does.
#[inline]
pub fn sam(a: Angle, b: Angle) -> Angle {
    let (a, b) = (a as i32, b as i32);
    let lo = (a - b).abs();
    let hi = (a.min(b) + 256) - a.max(b);
    if lo < hi {
        ((a + b) >> 1) as u8
    } else {
        ((a + b + 256) >> 1) as u8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_follow_their_symmetries() {
        assert_eq!(QSIN[64], q(32767));
        assert_eq!(QSIN[128], q(0));
        assert_eq!(QSIN[192], q(-32767));
        assert_eq!(QCOS[0], q(32767));
        assert_eq!(QCOS[64], q(0));
        assert_eq!(QCOS[128], q(-32767));
        assert!(QSIN.iter().all(|v| v.to_bits() != -32768));
        for i in 0..=64 {
            assert_eq!(QSIN[128 - i], QSIN[i]);
        }
    }
}
