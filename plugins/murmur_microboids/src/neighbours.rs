//! Neighbour collection: square boxes, Idle birds only, the first MAX_NEARBY by index.

use crate::bird::{Bird, BirdState};
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
/// inside the square of half-width `s` around bird `c` (see the private `square` for the quirk). States
/// are read live, so birds already updated this tick count with their new state.
pub fn collect(birds: &[Bird], c: usize, s: Q15, box_quirk: bool) -> Nearby {
    collect_two(birds, c, s, s, box_quirk).0
}

/// [`collect`] for two half-widths at once (separation and cohesion), one pass over the
/// birds with branch-free tests. The reference for [`Columns::collect_two`].
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

/// A box as raw Q15 bits: `(l, r, u, d)`, inside when `l < x < r` and `u < y < d`.
type RawBox = (i16, i16, i16, i16);

/// Birds per scan step.
const STEP: usize = 8;

/// Bit `i` set where bird `i` of eight is Idle (`ok[i] == -1`) and strictly inside each box.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn masks8(
    x: &[i16; STEP],
    y: &[i16; STEP],
    ok: &[i16; STEP],
    b1: RawBox,
    b2: RawBox,
) -> (u32, u32) {
    use core::arch::x86_64::*;
    // SAFETY: SSE2 is part of the x86_64 baseline, and each load reads exactly the 16 bytes of
    // an `[i16; 8]` (unaligned loads are allowed).
    unsafe {
        let load = |a: &[i16; STEP]| _mm_loadu_si128(a.as_ptr().cast::<__m128i>());
        let (xv, yv, okv) = (load(x), load(y), load(ok));
        let inside = |(l, r, u, d): RawBox| {
            let in_x = _mm_and_si128(
                _mm_cmpgt_epi16(xv, _mm_set1_epi16(l)),
                _mm_cmpgt_epi16(_mm_set1_epi16(r), xv),
            );
            let in_y = _mm_and_si128(
                _mm_cmpgt_epi16(yv, _mm_set1_epi16(u)),
                _mm_cmpgt_epi16(_mm_set1_epi16(d), yv),
            );
            let lanes = _mm_and_si128(_mm_and_si128(in_x, in_y), okv);
            (_mm_movemask_epi8(_mm_packs_epi16(lanes, _mm_setzero_si128())) & 0xFF) as u32
        };
        (inside(b1), inside(b2))
    }
}

/// Portable version of the eight-bird test.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn masks8(
    x: &[i16; STEP],
    y: &[i16; STEP],
    ok: &[i16; STEP],
    b1: RawBox,
    b2: RawBox,
) -> (u32, u32) {
    let mask = |(l, r, u, d): RawBox| {
        (0..STEP).fold(0u32, |m, i| {
            let inside = (ok[i] != 0) & (l < x[i]) & (x[i] < r) & (u < y[i]) & (y[i] < d);
            m | (inside as u32) << i
        })
    };
    (mask(b1), mask(b2))
}

/// The birds' positions (raw Q15 bits) and Idle flags as columns, scanned eight at a time.
#[derive(Clone, Debug)]
pub struct Columns<const CAP: usize> {
    x: [i16; CAP],
    y: [i16; CAP],
    /// -1 (all ones) for an Idle bird, 0 otherwise.
    idle: [i16; CAP],
}

impl<const CAP: usize> Default for Columns<CAP> {
    fn default() -> Self {
        Self {
            x: [0; CAP],
            y: [0; CAP],
            idle: [0; CAP],
        }
    }
}

impl<const CAP: usize> Columns<CAP> {
    /// Records bird `idx`'s current position and state.
    #[inline]
    pub fn set(&mut self, idx: usize, bird: &Bird) {
        self.x[idx] = bird.x.to_bits();
        self.y[idx] = bird.y.to_bits();
        self.idle[idx] = -((bird.state == BirdState::Idle) as i16);
    }

    /// Exactly [`collect_two`] over the first `n` birds: eight birds per step are tested against
    /// both boxes at once (SSE2 on x86_64), then the set bits are appended in index order.
    pub fn collect_two(
        &self,
        n: usize,
        c: usize,
        s1: Q15,
        s2: Q15,
        box_quirk: bool,
    ) -> (Nearby, Nearby) {
        let (cx, cy) = (q(self.x[c]), q(self.y[c]));
        let raw = |(l, r, u, d): (Q15, Q15, Q15, Q15)| {
            (l.to_bits(), r.to_bits(), u.to_bits(), d.to_bits())
        };
        let (box1, box2) = (
            raw(square(cx, cy, s1, box_quirk)),
            raw(square(cx, cy, s2, box_quirk)),
        );
        let (mut a, mut b) = (Nearby::default(), Nearby::default());
        let push = |list: &mut Nearby, base: usize, mut mask: u64| {
            while mask != 0 && list.len < MAX_NEARBY {
                list.idx[list.len & 15] = (base + mask.trailing_zeros() as usize) as u16;
                list.len += 1;
                mask &= mask - 1;
            }
        };
        // Blocks of 64 birds: masks for the whole block first, then the first set bits.
        let mut block = 0;
        while block < n && (a.len < MAX_NEARBY || b.len < MAX_NEARBY) {
            let end = (block + 64).min(n);
            let (mut m1, mut m2) = (0u64, 0u64);
            let mut base = block;
            while base < end {
                let (s1, s2) = if base + STEP <= end {
                    let chunk = |col: &[i16; CAP]| -> [i16; STEP] {
                        col[base..base + STEP].try_into().expect("eight birds")
                    };
                    masks8(
                        &chunk(&self.x),
                        &chunk(&self.y),
                        &chunk(&self.idle),
                        box1,
                        box2,
                    )
                } else {
                    // The last, short step: pad with birds that are not Idle.
                    let padded = |col: &[i16; CAP]| -> [i16; STEP] {
                        core::array::from_fn(|i| if base + i < end { col[base + i] } else { 0 })
                    };
                    masks8(
                        &padded(&self.x),
                        &padded(&self.y),
                        &padded(&self.idle),
                        box1,
                        box2,
                    )
                };
                m1 |= (s1 as u64) << (base - block);
                m2 |= (s2 as u64) << (base - block);
                base += STEP;
            }
            // Never the bird itself.
            if (block..end).contains(&c) {
                m1 &= !(1u64 << (c - block));
                m2 &= !(1u64 << (c - block));
            }
            push(&mut a, block, m1);
            push(&mut b, block, m2);
            block = end;
        }
        (a, b)
    }
}

/// `AveragePoint`: a low-pass average over the list in order, starting from (0, 0).
pub fn average_point(birds: &[Bird], list: &Nearby, params: &Params) -> Point {
    let (mut ax, mut ay) = (q(0), q(0));
    let alpha = params.alpha_point;
    match params.point_average {
        PointAverage::LowPass => {
            for &j in list.as_slice() {
                let p = &birds[j as usize];
                ax = avg(ax, p.x, alpha);
                ay = avg(ay, p.y, alpha);
            }
        }
        PointAverage::Bfee0c8Bug => {
            for &j in list.as_slice() {
                let p = &birds[j as usize];
                let ey = sub_wrap(p.y, ay);
                // The bug: the x step is built from the y difference (and y gets no step).
                let ex = mul(alpha, ey);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::XorShift32;

    /// The column scan (SSE2 on x86_64) finds exactly what the plain scan finds.
    #[test]
    fn column_scan_matches_the_plain_scan() {
        let mut rng = XorShift32(7);
        for n in [1usize, 5, 8, 13, 48, 64, 65, 130, 200] {
            let mut birds = [Bird::default(); 200];
            let mut columns = Columns::<200>::default();
            for (i, b) in birds.iter_mut().enumerate().take(n) {
                // Clustered positions so that boxes hold many birds; some not Idle.
                b.x = q(((rng.step() >> 16) as i16) >> 2);
                b.y = q(((rng.step() >> 16) as i16) >> 2);
                b.state = if rng.step().is_multiple_of(5) {
                    BirdState::TurningE
                } else {
                    BirdState::Idle
                };
                columns.set(i, b);
            }
            for quirk in [false, true] {
                for c in 0..n {
                    let want = collect_two(&birds[..n], c, q(0x0280), q(0x4000), quirk);
                    let got = columns.collect_two(n, c, q(0x0280), q(0x4000), quirk);
                    assert_eq!(
                        got.0.as_slice(),
                        want.0.as_slice(),
                        "n {n} bird {c} separation"
                    );
                    assert_eq!(
                        got.1.as_slice(),
                        want.1.as_slice(),
                        "n {n} bird {c} cohesion"
                    );
                }
            }
        }
    }
}
