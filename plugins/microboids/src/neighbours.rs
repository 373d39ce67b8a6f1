//! Neighbour collection: square boxes, Idle birds only, the first MAX_NEARBY by index.

use crate::flock::{Bird, BirdState};
use crate::q15::{Q15, add_sat, avg, mul, q, sub_sat, sub_wrap};
use crate::revision::{AngleAverage, Params, PointAverage};
use crate::trig::Point;

/// Cap on each neighbour list.
pub const MAX_NEARBY: usize = 8;

/// Up to [`MAX_NEARBY`] bird indices, in ascending order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Nearby {
    /// Spare slots: appends write unconditionally (at `len & 15`, which needs no bounds check)
    /// and only advance `len` when they count.
    idx: [u16; 16],
    len: usize,
}

impl Nearby {
    /// The indices.
    pub fn as_slice(&self) -> &[u16] {
        &self.idx[..self.len]
    }

    /// True when the list is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// The square of half-width `s` around a bird, as `(l, r, u, d)`: x strictly between l and r,
/// y strictly between u and d. With the pixel-era quirk, a top edge at or below 64 or a left
/// edge at or beyond 128 becomes 0.
#[inline]
fn square(x: Q15, y: Q15, s: Q15, box_quirk: bool) -> (Q15, Q15, Q15, Q15) {
    let r = add_sat(x, s);
    let mut l = sub_sat(x, s);
    let mut u = sub_sat(y, s);
    let d = add_sat(y, s);
    if box_quirk {
        if u >= q(64) {
            u = q(0);
        }
        if l >= q(128) {
            l = q(0);
        }
    }
    (l, r, u, d)
}

/// `CollectNearbyBirds8`: the first [`MAX_NEARBY`] other Idle birds, in index order, strictly
/// inside the square of half-width `s` around bird `c` (see [`square`] for the quirk). States
/// are read live, so birds already updated this tick count with their new state.
pub fn collect(birds: &[Bird], c: usize, s: Q15, box_quirk: bool) -> Nearby {
    collect_two(birds, c, s, s, box_quirk).0
}

/// [`collect`] for two half-widths at once (separation and cohesion), in one pass over the
/// birds with branch-free tests.
pub fn collect_two(
    birds: &[Bird],
    c: usize,
    s1: Q15,
    s2: Q15,
    box_quirk: bool,
) -> (Nearby, Nearby) {
    let me = birds[c];
    let (l1, r1, u1, d1) = square(me.x, me.y, s1, box_quirk);
    let (l2, r2, u2, d2) = square(me.x, me.y, s2, box_quirk);
    let (mut a, mut b) = (Nearby::default(), Nearby::default());
    for (j, bird) in birds.iter().enumerate() {
        if a.len == MAX_NEARBY && b.len == MAX_NEARBY {
            break;
        }
        let eligible = (j != c) & (bird.state == BirdState::Idle);
        let (x, y) = (bird.x, bird.y);
        let in1 = eligible & (l1 < x) & (x < r1) & (u1 < y) & (y < d1) & (a.len < MAX_NEARBY);
        let in2 = eligible & (l2 < x) & (x < r2) & (u2 < y) & (y < d2) & (b.len < MAX_NEARBY);
        a.idx[a.len & 15] = j as u16;
        a.len += in1 as usize;
        b.idx[b.len & 15] = j as u16;
        b.len += in2 as usize;
    }
    (a, b)
}

/// `AveragePoint`: a low-pass average over the list in order, starting from (0, 0).
pub fn average_point(birds: &[Bird], list: &Nearby, params: &Params) -> Point {
    let (mut ax, mut ay) = (q(0), q(0));
    for &j in list.as_slice() {
        let p = birds[j as usize];
        match params.point_average {
            PointAverage::LowPass => {
                ax = avg(ax, p.x, params.alpha_point);
                ay = avg(ay, p.y, params.alpha_point);
            }
            PointAverage::Bfee0c8Bug => {
                let ey = sub_wrap(p.y, ay);
                // The bug: the x step is built from the y difference (and y gets no step).
                let ex = mul(params.alpha_point, ey);
                ax = sub_sat(p.x, ex);
                ay = sub_sat(p.y, ey);
            }
        }
    }
    Point { x: ax, y: ay }
}

/// `AverageAngle` starting from `start`: for a412 a linear low-pass over the raw 8-bit angles
/// (not circular); for bfee0c8 the 16-bit variant, returned as its top 8 bits (`y >> 7`).
pub fn average_angle(birds: &[Bird], list: &Nearby, params: &Params, start: u8) -> u8 {
    match params.angle_average {
        AngleAverage::LowPass => {
            let mut y = q(start as i16);
            for &j in list.as_slice() {
                y = avg(y, q(birds[j as usize].angle as i16), params.alpha_angle);
            }
            y.to_bits() as u8
        }
        AngleAverage::Wide16 => {
            let alpha = params.alpha_angle.to_bits() as u32;
            let mut y: u16 = 0;
            for &j in list.as_slice() {
                let a = (birds[j as usize].angle as u16) << 7;
                let d = a.wrapping_sub(y) as u32;
                y = a.wrapping_sub(((alpha * d) >> 15) as u16);
            }
            (y >> 7) as u8
        }
    }
}
