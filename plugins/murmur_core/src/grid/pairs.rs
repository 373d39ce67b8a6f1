//! The neighbourhood sums of a sparse flock on AVX-512, two birds at a time whatever their cells:
//! the first bird in the low eight lanes of a 512-bit register, the second in the high eight.
//! Every lane does the very operations of [`super::sums`]' eight-lane forms in the same order
//! (the same candidate in the same lane, the same reduction tree), so the bits are theirs.

use super::NeighbourGrid;
use super::lanes::LANES;
use super::sums::{NeighbourSums, Radii};
use glam::Vec2;
use std::arch::x86_64::*;

/// `a` in the low eight lanes, `b` in the high eight.
#[inline]
#[target_feature(enable = "avx512f,avx512vl")]
fn halves(a: f32, b: f32) -> __m512 {
    _mm512_mask_blend_ps(0xff00, _mm512_set1_ps(a), _mm512_set1_ps(b))
}

/// `_mm256_hadd_ps` within each 128-bit block of 512 bits: `[x0 + x1, x2 + x3, y0 + y1,
/// y2 + y3]` per block.
#[inline]
#[target_feature(enable = "avx512f,avx512vl")]
fn hadd(x: __m512, y: __m512) -> __m512 {
    _mm512_add_ps(
        _mm512_shuffle_ps::<0b10_00_10_00>(x, y),
        _mm512_shuffle_ps::<0b11_01_11_01>(x, y),
    )
}

/// The lane totals of four vectors for each half, by the tree of the eight-lane forms:
/// `((l0 + l1) + (l2 + l3)) + ((l4 + l5) + (l6 + l7))`.
#[inline]
#[target_feature(enable = "avx512f,avx512vl")]
fn totals(a: __m512, b: __m512, c: __m512, d: __m512) -> ([f32; 4], [f32; 4]) {
    // Blocks: the low half's lanes 0-3 and 4-7, then the high half's.
    let h = hadd(hadd(a, b), hadd(c, d));
    // Each half's second block added to its first.
    let sum = _mm512_add_ps(h, _mm512_shuffle_f32x4::<0b10_11_00_01>(h, h));
    let (mut low, mut high) = ([0.0; 4], [0.0; 4]);
    // SAFETY: each array holds four floats.
    unsafe {
        _mm_storeu_ps(low.as_mut_ptr(), _mm512_castps512_ps128(sum));
        _mm_storeu_ps(high.as_mut_ptr(), _mm512_extractf32x4_ps::<2>(sum));
    }
    (low, high)
}

/// Per-lane partial sums of two birds.
struct Acc {
    seen: [u32; 2],
    apart: [u32; 2],
    seen_x: __m512,
    seen_y: __m512,
    vel_x: __m512,
    vel_y: __m512,
    near_x: __m512,
    near_y: __m512,
    inv_x: __m512,
    inv_y: __m512,
}

impl Acc {
    #[inline]
    #[target_feature(enable = "avx512f,avx512vl")]
    fn new() -> Self {
        let zero = _mm512_setzero_ps();
        Self {
            seen: [0; 2],
            apart: [0; 2],
            seen_x: zero,
            seen_y: zero,
            vel_x: zero,
            vel_y: zero,
            near_x: zero,
            near_y: zero,
            inv_x: zero,
            inv_y: zero,
        }
    }
}

/// What every chunk of a pair of birds uses: the radii, and each bird's position and field of
/// view in its half.
struct Pair {
    zero: __m512,
    one: __m512,
    sight2: __m512,
    near2: __m512,
    px: __m512,
    py: __m512,
    heading_x: __m512,
    heading_y: __m512,
    min_cos: __m512,
}

impl Pair {
    /// Birds at `a` and `b` with velocities `va` and `vb`.
    #[inline]
    #[target_feature(enable = "avx512f,avx512vl")]
    fn new<const VIEW: bool>(radii: Radii, (a, va): (Vec2, Vec2), (b, vb): (Vec2, Vec2)) -> Self {
        let zero = _mm512_setzero_ps();
        let mut pair = Self {
            zero,
            one: _mm512_set1_ps(1.0),
            sight2: _mm512_set1_ps(radii.sight2),
            near2: _mm512_set1_ps(radii.near2),
            px: halves(a.x, b.x),
            py: halves(a.y, b.y),
            heading_x: zero,
            heading_y: zero,
            min_cos: zero,
        };
        if VIEW {
            let ((ha, ca), (hb, cb)) = (view(va, radii), view(vb, radii));
            (pair.heading_x, pair.heading_y) = (halves(ha.x, hb.x), halves(ha.y, hb.y));
            pair.min_cos = halves(ca, cb);
        }
        pair
    }

    /// Adds a chunk of candidates (`x, y, vx, vy`) in the lanes of `valid`, offset by `ox, oy`
    /// (`shift - p`, as the eight-lane forms work it out): the operations of
    /// [`super::sums`]' `add_chunk`, lane for lane.
    #[inline]
    #[target_feature(enable = "avx512f,avx512vl,popcnt")]
    fn add<const NEAR: bool, const INVERSE: bool, const VIEW: bool>(
        &self,
        acc: &mut Acc,
        [x, y, vx, vy]: [__m512; 4],
        [ox, oy]: [__m512; 2],
        valid: __mmask16,
    ) {
        let dx = _mm512_add_ps(x, ox);
        let dy = _mm512_add_ps(y, oy);
        let d2 = _mm512_add_ps(_mm512_mul_ps(dx, dx), _mm512_mul_ps(dy, dy));
        let mut counts = valid;
        if VIEW {
            let along = _mm512_add_ps(
                _mm512_mul_ps(dx, self.heading_x),
                _mm512_mul_ps(dy, self.heading_y),
            );
            let limit = _mm512_mul_ps(self.min_cos, _mm512_sqrt_ps(d2));
            counts = _mm512_mask_cmp_ps_mask::<_CMP_GE_OQ>(counts, along, limit);
        }
        let seen = _mm512_mask_cmp_ps_mask::<_CMP_LT_OQ>(counts, d2, self.sight2);
        let [sa, sb] = count(seen);
        acc.seen[0] += sa;
        acc.seen[1] += sb;
        acc.seen_x = _mm512_mask_add_ps(acc.seen_x, seen, acc.seen_x, dx);
        acc.seen_y = _mm512_mask_add_ps(acc.seen_y, seen, acc.seen_y, dy);
        acc.vel_x = _mm512_mask_add_ps(acc.vel_x, seen, acc.vel_x, vx);
        acc.vel_y = _mm512_mask_add_ps(acc.vel_y, seen, acc.vel_y, vy);
        if NEAR || INVERSE {
            let near = _mm512_mask_cmp_ps_mask::<_CMP_LT_OQ>(counts, d2, self.near2);
            if NEAR {
                acc.near_x = _mm512_mask_add_ps(acc.near_x, near, acc.near_x, dx);
                acc.near_y = _mm512_mask_add_ps(acc.near_y, near, acc.near_y, dy);
            }
            if INVERSE {
                // Coincident birds give no direction (see the eight-lane forms).
                let apart = _mm512_mask_cmp_ps_mask::<_CMP_LT_OQ>(near, self.zero, d2);
                let inv = _mm512_div_ps(self.one, d2);
                let ix = _mm512_mul_ps(dx, inv);
                let iy = _mm512_mul_ps(dy, inv);
                acc.inv_x = _mm512_mask_add_ps(acc.inv_x, apart, acc.inv_x, ix);
                acc.inv_y = _mm512_mask_add_ps(acc.inv_y, apart, acc.inv_y, iy);
                let [aa, ab] = count(apart);
                acc.apart[0] += aa;
                acc.apart[1] += ab;
            }
        }
    }
}

/// The two birds' sums out of their partial sums (by the eight-lane forms' tree), less each
/// bird itself (the blocks include it), handed to `out(half, sums)` for the halves in use.
#[inline]
#[target_feature(enable = "avx512f,avx512vl")]
fn finish<const NEAR: bool, const INVERSE: bool>(
    acc: &Acc,
    velocities: [Vec2; 2],
    halves_used: usize,
    radii: Radii,
    mut out: impl FnMut(usize, NeighbourSums),
) {
    let (first, second) = totals(acc.seen_x, acc.seen_y, acc.vel_x, acc.vel_y);
    let (near_first, near_second) = if NEAR || INVERSE {
        totals(acc.near_x, acc.near_y, acc.inv_x, acc.inv_y)
    } else {
        ([0.0; 4], [0.0; 4])
    };
    let parts = [(first, near_first), (second, near_second)];
    for h in 0..halves_used {
        let (t, n) = parts[h];
        let mut sums = NeighbourSums {
            seen: acc.seen[h],
            seen_offset: Vec2::new(t[0], t[1]),
            seen_velocity: Vec2::new(t[2], t[3]),
            ..NeighbourSums::default()
        };
        if NEAR {
            sums.near_offset = Vec2::new(n[0], n[1]);
        }
        if INVERSE {
            sums.near_inverse = Vec2::new(n[2], n[3]);
            sums.near_apart = acc.apart[h];
        }
        // The spans include the bird itself, at distance 0: seen (when the sight radius is not
        // 0) with its own velocity, with a zero offset and no inverse term.
        if 0.0 < radii.sight2 {
            sums.seen -= 1;
            sums.seen_velocity -= velocities[h];
        }
        out(h, sums);
    }
}

/// A bird's heading and the least cosine it sees, for its velocity `v` (a still bird sees all
/// round).
#[inline(always)]
fn view(v: Vec2, radii: Radii) -> (Vec2, f32) {
    let heading = v.normalize_or_zero();
    let min_cos = if heading == Vec2::ZERO {
        -1.0
    } else {
        radii.min_cos
    };
    (heading, min_cos)
}

/// Counts the lanes of each half of `m`.
#[inline]
#[target_feature(enable = "popcnt")]
fn count(m: __mmask16) -> [u32; 2] {
    [(m & 0xff).count_ones(), (m >> 8).count_ones()]
}

/// A bird of a cell away from the grid's edges whose block's three rows hold at most eight
/// birds each: its slot, and each row's first bird and lanes.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct ShortRows {
    pub(super) k: u32,
    pub(super) start: [u32; 3],
    pub(super) mask: [u8; 3],
}

/// The sums of `birds` (each with its cell's rows) into `out[k - first]`, two birds at a time
/// whatever their cells: the first bird's row in the low eight lanes, the second's in the high
/// eight, each row one masked chunk (no shift: these blocks do not cross a seam), the same
/// operations in each lane as the eight-lane forms, so the same bits.
///
/// # Safety
/// AVX-512 F and VL and POPCNT must be present; the rows must lie within the columns and `out`
/// must hold every bird's slot.
#[inline]
#[target_feature(enable = "avx512f,avx512vl,popcnt")]
pub(super) unsafe fn sum_short_rows_avx512<
    const NEAR: bool,
    const INVERSE: bool,
    const VIEW: bool,
>(
    grid: &NeighbourGrid,
    birds: &[ShortRows],
    first: usize,
    radii: Radii,
    out: &mut [NeighbourSums],
) {
    let c = grid.columns();
    let columns = [
        c.pos[0].as_ptr(),
        c.pos[1].as_ptr(),
        c.vel[0].as_ptr(),
        c.vel[1].as_ptr(),
    ];
    for two in birds.chunks(2) {
        let a = two[0];
        // A lone last bird: the high half reads nothing.
        let b = two
            .get(1)
            .copied()
            .unwrap_or(ShortRows { mask: [0; 3], ..a });
        let (first_bird, second_bird) = (c.get(a.k as usize), c.get(b.k as usize));
        let pair = Pair::new::<VIEW>(radii, first_bird, second_bird);
        // As the eight-lane forms: the offset `shift - p`, the shift being zero.
        let offset = [
            _mm512_sub_ps(pair.zero, pair.px),
            _mm512_sub_ps(pair.zero, pair.py),
        ];
        let mut acc = Acc::new();
        for r in 0..3 {
            let (ma, mb) = (a.mask[r], b.mask[r]);
            let valid = ma as __mmask16 | (mb as __mmask16) << 8;
            let (sa, sb) = (a.start[r] as usize, b.start[r] as usize);
            // SAFETY: the lanes of each mask lie within its row, within the columns.
            let candidates = unsafe {
                [
                    load_pair(columns[0], sa, ma, sb, mb),
                    load_pair(columns[1], sa, ma, sb, mb),
                    load_pair(columns[2], sa, ma, sb, mb),
                    load_pair(columns[3], sa, ma, sb, mb),
                ]
            };
            pair.add::<NEAR, INVERSE, VIEW>(&mut acc, candidates, offset, valid);
        }
        let ks = [a.k as usize - first, b.k as usize - first];
        finish::<NEAR, INVERSE>(
            &acc,
            [first_bird.1, second_bird.1],
            two.len(),
            radii,
            |h, sums| out[ks[h]] = sums,
        );
    }
}

/// The masked chunk at `col + sa` in the low eight lanes and the one at `col + sb` in the high
/// eight.
///
/// # Safety
/// AVX-512 F and VL must be present; the lanes of each mask must be readable from its start.
#[inline]
#[target_feature(enable = "avx512f,avx512vl")]
unsafe fn load_pair(col: *const f32, sa: usize, ma: u8, sb: usize, mb: u8) -> __m512 {
    // SAFETY: passed on from the caller; the high half is read through a pointer eight floats
    // before its start (computed with wrapping arithmetic), at lanes 8.. only.
    unsafe {
        let low = _mm512_zextps256_ps512(_mm256_maskz_loadu_ps(ma, col.add(sa)));
        _mm512_mask_loadu_ps(
            low,
            (mb as __mmask16) << 8,
            col.wrapping_add(sb).wrapping_sub(LANES),
        )
    }
}
