//! Neighbourhood sums for the steering models: eight lanes of partial sums over each contiguous
//! span of candidates (AVX-512 masks, AVX, SSE or plain arrays, chosen once at run time; see
//! [`super::lanes`]), masks instead of branches, and a fixed reduction tree at the end, so
//! results depend neither on the thread count nor on the CPU. One source for both spaces: the
//! loops over axes run to the space's `DIM`, so a 2D flock's sums are the very operations they
//! always were.

// Loops over a space's axes index several per-axis arrays at once (`for a in 0..DIM`).
#![allow(clippy::needless_range_loop)]

use super::lanes::{LANES, Lanes, Plain};
use super::{CellBlock, NeighbourGrid, Span};
use crate::space::Vector;
use glam::Vec2;
#[cfg(target_arch = "x86_64")]
use std::any::TypeId;
use std::ops::Range;

/// What the steering models need to know about one boid's neighbours: sums over the other
/// boids within a *sight* radius and within a *near* radius (both strict).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct NeighbourSums<V: Vector = Vec2> {
    /// Other boids closer than the sight radius.
    pub seen: u32,
    /// Sum of the offsets (other - me) to them.
    pub seen_offset: V,
    /// Sum of their velocities.
    pub seen_velocity: V,
    /// Sum of the offsets to the boids closer than the near radius (asked for with `NEAR`).
    pub near_offset: V,
    /// Sum of offset / distance² over the near boids at a non-zero distance (asked for with
    /// `INVERSE`: Reynolds' separation).
    pub near_inverse: V,
    /// Near boids at a non-zero distance (with `INVERSE`).
    pub near_apart: u32,
}

/// Squared radii and the field of view (a unit heading and the least cosine to it that is seen).
#[derive(Clone, Copy, Debug)]
pub(super) struct Radii<V: Vector = Vec2> {
    pub(super) sight2: f32,
    pub(super) near2: f32,
    pub(super) heading: V,
    pub(super) min_cos: f32,
}

/// Equal-length candidate columns: positions then velocities, `2 * DIM` of them used (x, y,
/// vx, vy in 2D; x, y, z, vx, vy, vz in 3D).
type Source<'a> = [&'a [f32]; 6];

/// The space's candidate columns of `grid`.
#[inline(always)]
fn source_of<S: Vector>(grid: &NeighbourGrid<S>) -> Source<'_> {
    let c = grid.columns();
    let mut source: Source = [&[]; 6];
    for a in 0..S::DIM {
        source[a] = &c.pos[a];
        source[S::DIM + a] = &c.vel[a];
    }
    source
}

/// Candidates `start..end` of a [`Source`], with the offset that turns their positions into
/// offsets from the boid asked about (its own position negated, plus any seam shift).
#[derive(Clone, Copy, Debug, Default)]
struct Visit<S: Vector> {
    start: usize,
    end: usize,
    offset: S,
}

/// Per-lane partial sums, one vector per axis (the first `DIM` used).
struct Acc<V> {
    seen: u32,
    offset: [V; 3],
    vel: [V; 3],
    near: [V; 3],
    inv: [V; 3],
    apart: u32,
}

impl<V: Copy> Acc<V> {
    #[inline(always)]
    fn new(zero: V) -> Self {
        Self {
            seen: 0,
            offset: [zero; 3],
            vel: [zero; 3],
            near: [zero; 3],
            inv: [zero; 3],
            apart: 0,
        }
    }
}

/// Loop constants, splatted once per boid.
struct Consts<V> {
    zero: V,
    one: V,
    sight2: V,
    near2: V,
    heading: [V; 3],
    min_cos: V,
}

impl<V: Copy> Consts<V> {
    /// The constants of `radii` in lanes of form `L`.
    ///
    /// # Safety
    /// `L`'s CPU features must be present.
    #[inline(always)]
    unsafe fn new<L: Lanes<V = V>, S: Vector>(radii: &Radii<S>) -> Self {
        // SAFETY: passed on from the caller.
        unsafe {
            let zero = L::splat(0.0);
            let mut heading = [zero; 3];
            for (a, h) in heading.iter_mut().enumerate().take(S::DIM) {
                *h = L::splat(radii.heading.axis(a));
            }
            Self {
                zero,
                one: L::splat(1.0),
                sight2: L::splat(radii.sight2),
                near2: L::splat(radii.near2),
                heading,
                min_cos: L::splat(radii.min_cos),
            }
        }
    }
}

/// Adds eight candidates (positions `pos` before the offset `off`, velocities `vel`, one vector
/// per axis); with `valid`, only the lanes it sets.
///
/// # Safety
/// `L`'s CPU features must be present.
#[inline(always)]
unsafe fn add_chunk<
    S: Vector,
    L: Lanes,
    const NEAR: bool,
    const INVERSE: bool,
    const VIEW: bool,
>(
    acc: &mut Acc<L::V>,
    k: &Consts<L::V>,
    [pos, vel]: [[L::V; 3]; 2],
    off: [L::V; 3],
    valid: Option<L::M>,
) {
    // SAFETY: the caller vouches for `L`'s features; the rest is register arithmetic.
    unsafe {
        let mut d = pos;
        for a in 0..S::DIM {
            d[a] = L::add(pos[a], off[a]);
        }
        let mut d2 = L::mul(d[0], d[0]);
        for a in 1..S::DIM {
            d2 = L::add(d2, L::mul(d[a], d[a]));
        }
        let mut counts = valid;
        if VIEW {
            let mut along = L::mul(d[0], k.heading[0]);
            for a in 1..S::DIM {
                along = L::add(along, L::mul(d[a], k.heading[a]));
            }
            let visible = L::ge(along, L::mul(k.min_cos, L::sqrt(d2)));
            counts = Some(counts.map_or(visible, |m| L::both(m, visible)));
        }
        let only = |m: L::M| counts.map_or(m, |c| L::both(c, m));
        let seen = only(L::lt(d2, k.sight2));
        acc.seen += L::count(seen);
        for a in 0..S::DIM {
            acc.offset[a] = L::add_where(acc.offset[a], seen, d[a]);
        }
        for a in 0..S::DIM {
            acc.vel[a] = L::add_where(acc.vel[a], seen, vel[a]);
        }
        if NEAR || INVERSE {
            let near = only(L::lt(d2, k.near2));
            if NEAR {
                for a in 0..S::DIM {
                    acc.near[a] = L::add_where(acc.near[a], near, d[a]);
                }
            }
            if INVERSE {
                // Coincident boids give no direction: only those at a non-zero distance (the
                // others' quotients are infinite and masked out).
                let apart = L::both(near, L::lt(k.zero, d2));
                let inv = L::div(k.one, d2);
                for a in 0..S::DIM {
                    acc.inv[a] = L::add_where(acc.inv[a], apart, L::mul(d[a], inv));
                }
                acc.apart += L::count(apart);
            }
        }
    }
}

/// Eight floats of each of the space's columns from index `i`: positions and velocities, one
/// vector per axis. Written out rather than through `array::map`, whose closure, when it is not
/// inlined, is built without the caller's CPU features (a call per load).
///
/// # Safety
/// `L`'s CPU features must be present, and each column must hold `i + LANES` floats.
#[inline(always)]
unsafe fn load_columns<S: Vector, L: Lanes>(columns: &Source, i: usize) -> [[L::V; 3]; 2] {
    // SAFETY: passed on from the caller.
    unsafe {
        let zero = L::splat(0.0);
        let mut out = [[zero; 3]; 2];
        for a in 0..S::DIM {
            out[0][a] = L::load(columns[a].as_ptr().add(i));
        }
        for a in 0..S::DIM {
            out[1][a] = L::load(columns[S::DIM + a].as_ptr().add(i));
        }
        out
    }
}

/// The offset `o` splatted, one vector per axis.
///
/// # Safety
/// `L`'s CPU features must be present.
#[inline(always)]
unsafe fn splat_offset<S: Vector, L: Lanes>(o: S) -> [L::V; 3] {
    // SAFETY: passed on from the caller.
    unsafe {
        let mut out = [L::splat(0.0); 3];
        for (a, v) in out.iter_mut().enumerate().take(S::DIM) {
            *v = L::splat(o.axis(a));
        }
        out
    }
}

/// The sums over every candidate of `visits` in `source`.
///
/// # Safety
/// `L`'s CPU features must be present, and every visit must lie within the source.
#[inline(always)]
unsafe fn sum_visits<
    S: Vector,
    L: Lanes,
    const NEAR: bool,
    const INVERSE: bool,
    const VIEW: bool,
>(
    source: &Source,
    visits: &[Visit<S>],
    radii: Radii<S>,
) -> NeighbourSums<S> {
    // SAFETY: loads read eight floats at `i` only where `i + LANES` is within the columns (a
    // short last chunk is read from there when the columns go on, else from a padded copy).
    unsafe {
        let k = Consts::new::<L, S>(&radii);
        let mut acc = Acc::new(k.zero);
        let len = source[0].len();
        for visit in visits {
            let offset = splat_offset::<S, L>(visit.offset);
            let mut i = visit.start;
            while i + LANES <= visit.end {
                let chunk = load_columns::<S, L>(source, i);
                add_chunk::<S, L, NEAR, INVERSE, VIEW>(&mut acc, &k, chunk, offset, None);
                i += LANES;
            }
            if i < visit.end {
                let valid = Some(L::tail(visit.end - i));
                let chunk = if i + LANES <= len {
                    load_columns::<S, L>(source, i)
                } else {
                    let mut padded = [[0.0f32; LANES]; 6];
                    for (p, c) in padded.iter_mut().zip(source).take(2 * S::DIM) {
                        p[..visit.end - i].copy_from_slice(&c[i..visit.end]);
                    }
                    let mut chunk = [[L::splat(0.0); 3]; 2];
                    for a in 0..S::DIM {
                        chunk[0][a] = L::load(padded[a].as_ptr());
                        chunk[1][a] = L::load(padded[S::DIM + a].as_ptr());
                    }
                    chunk
                };
                add_chunk::<S, L, NEAR, INVERSE, VIEW>(&mut acc, &k, chunk, offset, valid);
            }
        }
        totals::<S, L, NEAR, INVERSE>(acc)
    }
}

/// The sums out of the lanes' partial sums, by [`Lanes::totals`]' tree (each vector summed on
/// its own, so how they are grouped four at a time does not change a bit).
///
/// # Safety
/// `L`'s CPU features must be present.
#[inline(always)]
unsafe fn totals<S: Vector, L: Lanes, const NEAR: bool, const INVERSE: bool>(
    acc: Acc<L::V>,
) -> NeighbourSums<S> {
    // SAFETY: passed on from the caller.
    unsafe {
        let pair = |a: [L::V; 3], b: [L::V; 3]| -> (S, S) {
            if S::DIM == 2 {
                let [ax, ay, bx, by] = L::totals(a[0], a[1], b[0], b[1]);
                (S::from_axes([ax, ay, 0.0]), S::from_axes([bx, by, 0.0]))
            } else {
                let [ax, ay, az, bx] = L::totals(a[0], a[1], a[2], b[0]);
                let [by, bz, _, _] = L::totals(b[1], b[2], b[2], b[2]);
                (S::from_axes([ax, ay, az]), S::from_axes([bx, by, bz]))
            }
        };
        let (seen_offset, seen_velocity) = pair(acc.offset, acc.vel);
        // Only the sums asked for (the others stay zero).
        let mut sums = NeighbourSums {
            seen: acc.seen,
            seen_offset,
            seen_velocity,
            ..NeighbourSums::default()
        };
        if NEAR || INVERSE {
            let (near, inv) = pair(acc.near, acc.inv);
            if NEAR {
                sums.near_offset = near;
            }
            if INVERSE {
                sums.near_inverse = inv;
                sums.near_apart = acc.apart;
            }
        }
        sums
    }
}

/// `slice` as a slice of `B` when `A` is `B` (a 2D flock's sums handed to 2D-only code).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn same_type_mut<A: 'static, B: 'static>(slice: &mut [A]) -> Option<&mut [B]> {
    (TypeId::of::<A>() == TypeId::of::<B>()).then(|| {
        // SAFETY: `A` and `B` are the same type.
        unsafe { &mut *(slice as *mut [A] as *mut [B]) }
    })
}

/// `value` as a `B` when `A` is `B`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn same_type<A: 'static, B: 'static>(value: &A) -> Option<&B> {
    (TypeId::of::<A>() == TypeId::of::<B>()).then(|| {
        // SAFETY: `A` and `B` are the same type.
        unsafe { &*(value as *const A as *const B) }
    })
}

/// The lane forms this CPU can run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LaneForm {
    /// Plain arrays.
    #[cfg_attr(
        any(
            target_arch = "x86_64",
            all(target_arch = "wasm32", target_feature = "simd128")
        ),
        allow(dead_code)
    )]
    Plain,
    /// Two WebAssembly `v128` registers (a web build with `simd128`).
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    Simd128,
    /// Two SSE registers.
    #[cfg(target_arch = "x86_64")]
    Sse,
    /// One AVX register.
    #[cfg(target_arch = "x86_64")]
    Avx,
    /// One AVX register with AVX-512 mask registers.
    #[cfg(target_arch = "x86_64")]
    Avx512,
}

/// The lane form the neighbour sums take on this CPU (and build), by name: "AVX-512", "AVX",
/// "SSE", "WebAssembly SIMD" or "plain arrays". For reports that say which form a figure used.
pub fn lane_form_name() -> &'static str {
    match LaneForm::best() {
        LaneForm::Plain => "plain arrays",
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        LaneForm::Simd128 => "WebAssembly SIMD",
        #[cfg(target_arch = "x86_64")]
        LaneForm::Sse => "SSE",
        #[cfg(target_arch = "x86_64")]
        LaneForm::Avx => "AVX",
        #[cfg(target_arch = "x86_64")]
        LaneForm::Avx512 => "AVX-512",
    }
}

/// True when this CPU has the features of [`LaneForm::Avx512`].
#[cfg(target_arch = "x86_64")]
fn has_avx512() -> bool {
    has_avx()
        && std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512vl")
}

/// True when this CPU has the features of [`LaneForm::Avx`].
#[cfg(target_arch = "x86_64")]
fn has_avx() -> bool {
    std::arch::is_x86_feature_detected!("avx") && std::arch::is_x86_feature_detected!("popcnt")
}

impl LaneForm {
    /// The widest form this CPU has (found out once).
    #[inline]
    pub(crate) fn best() -> Self {
        static BEST: std::sync::OnceLock<LaneForm> = std::sync::OnceLock::new();
        *BEST.get_or_init(Self::detect)
    }

    /// The widest form this CPU has.
    fn detect() -> Self {
        #[cfg(target_arch = "x86_64")]
        {
            if has_avx512() {
                Self::Avx512
            } else if has_avx() {
                Self::Avx
            } else {
                Self::Sse
            }
        }
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        {
            Self::Simd128
        }
        #[cfg(not(any(
            target_arch = "x86_64",
            all(target_arch = "wasm32", target_feature = "simd128")
        )))]
        {
            Self::Plain
        }
    }

    /// Every form this CPU can run (for tests that compare them).
    #[cfg(test)]
    pub(crate) fn available() -> Vec<Self> {
        let mut forms = vec![Self::Plain];
        #[cfg(target_arch = "x86_64")]
        {
            forms.push(Self::Sse);
            if has_avx() {
                forms.push(Self::Avx);
            }
            if has_avx512() {
                forms.push(Self::Avx512);
            }
        }
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        forms.push(Self::Simd128);
        forms
    }

    /// Runs `work` with this form's lanes, under the form's CPU features: the one place that
    /// maps a form to its lanes and the features it needs.
    #[inline]
    fn run<W: LaneWork>(self, work: W) -> W::Out {
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx,popcnt")]
        fn avx<W: LaneWork>(work: W) -> W::Out {
            // SAFETY: this function runs only on CPUs with AVX and POPCNT.
            unsafe { work.run::<super::lanes::Avx>(LaneForm::Avx) }
        }
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx512f,avx512vl,popcnt")]
        fn avx512<W: LaneWork>(work: W) -> W::Out {
            // SAFETY: this function runs only on CPUs with AVX-512 F and VL and POPCNT.
            unsafe { work.run::<super::lanes::Avx512>(LaneForm::Avx512) }
        }
        match self {
            // SAFETY (all arms): a form is one this CPU has (`best`, `available`), so its
            // features are present.
            Self::Plain => unsafe { work.run::<Plain>(self) },
            #[cfg(target_arch = "x86_64")]
            Self::Sse => unsafe { work.run::<super::lanes::Sse>(self) },
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Self::Simd128 => unsafe { work.run::<super::lanes::Simd128>(self) },
            #[cfg(target_arch = "x86_64")]
            Self::Avx => unsafe { avx(work) },
            #[cfg(target_arch = "x86_64")]
            Self::Avx512 => unsafe { avx512(work) },
        }
    }

    #[inline]
    fn sum<S: Vector, const NEAR: bool, const INVERSE: bool, const VIEW: bool>(
        self,
        source: &Source,
        visits: &[Visit<S>],
        radii: Radii<S>,
    ) -> NeighbourSums<S> {
        let len = source[0].len();
        for v in visits {
            assert!(v.start <= v.end && v.end <= len, "visit out of range");
        }
        assert!(
            source.iter().take(2 * S::DIM).all(|c| c.len() == len),
            "columns of one length"
        );
        self.run(SumVisits::<S, NEAR, INVERSE, VIEW> {
            source,
            visits,
            radii,
        })
    }

    /// The sums for boids `ks` (all of one cell, whose block is `spans`) into `out`.
    #[inline]
    fn sum_cell<S: Vector, const NEAR: bool, const INVERSE: bool, const VIEW: bool>(
        self,
        grid: &NeighbourGrid<S>,
        spans: &[Span<S>],
        ks: Range<usize>,
        radii: Radii<S>,
        out: &mut [NeighbourSums<S>],
    ) {
        let len = grid.len();
        for s in spans {
            assert!(s.start <= s.end && s.end <= len, "span out of range");
        }
        assert!(
            ks.end <= len && ks.len() == out.len(),
            "one output per boid"
        );
        self.run(SumCell::<S, NEAR, INVERSE, VIEW> {
            grid,
            spans,
            ks,
            radii,
            out,
        })
    }

    /// The sums for the sorted boids `ks` into `out`, a cell's boids at a time (see
    /// [`NeighbourGrid::sums_in_order`]): the CPU's form chosen once for the whole range.
    fn sum_in_order<S: Vector, const NEAR: bool, const INVERSE: bool, const VIEW: bool>(
        self,
        grid: &NeighbourGrid<S>,
        ks: Range<usize>,
        request: SumsRequest,
        radii: Radii<S>,
        out: &mut [NeighbourSums<S>],
    ) {
        self.run(SumInOrder::<S, NEAR, INVERSE, VIEW> {
            grid,
            ks,
            request,
            radii,
            out,
        })
    }
}

/// Work done with one lane form: [`LaneForm::run`] picks the lanes and enables their features.
trait LaneWork {
    /// What the work gives back.
    type Out;

    /// Does the work with lanes `L`, which are `form`'s.
    ///
    /// # Safety
    /// `L`'s CPU features must be present.
    unsafe fn run<L: Lanes>(self, form: LaneForm) -> Self::Out;
}

/// [`LaneForm::sum`]'s work: one boid's sums over its visits.
struct SumVisits<'a, S: Vector, const NEAR: bool, const INVERSE: bool, const VIEW: bool> {
    source: &'a Source<'a>,
    visits: &'a [Visit<S>],
    radii: Radii<S>,
}

impl<S: Vector, const NEAR: bool, const INVERSE: bool, const VIEW: bool> LaneWork
    for SumVisits<'_, S, NEAR, INVERSE, VIEW>
{
    type Out = NeighbourSums<S>;

    #[inline(always)]
    unsafe fn run<L: Lanes>(self, _: LaneForm) -> NeighbourSums<S> {
        // SAFETY: the caller vouches for `L`'s features; `LaneForm::sum` checked the visits.
        unsafe { sum_visits::<S, L, NEAR, INVERSE, VIEW>(self.source, self.visits, self.radii) }
    }
}

/// [`LaneForm::sum_cell`]'s work: a cell's boids over the cell's block.
struct SumCell<'a, S: Vector, const NEAR: bool, const INVERSE: bool, const VIEW: bool> {
    grid: &'a NeighbourGrid<S>,
    spans: &'a [Span<S>],
    ks: Range<usize>,
    radii: Radii<S>,
    out: &'a mut [NeighbourSums<S>],
}

impl<S: Vector, const NEAR: bool, const INVERSE: bool, const VIEW: bool> LaneWork
    for SumCell<'_, S, NEAR, INVERSE, VIEW>
{
    type Out = ();

    #[inline(always)]
    unsafe fn run<L: Lanes>(self, _: LaneForm) {
        // SAFETY: the caller vouches for `L`'s features; `LaneForm::sum_cell` checked the spans.
        unsafe {
            sum_cell_with::<S, L, NEAR, INVERSE, VIEW>(
                self.grid, self.spans, self.ks, self.radii, self.out,
            )
        }
    }
}

/// [`LaneForm::sum_in_order`]'s work: a range of sorted boids, a cell at a time.
struct SumInOrder<'a, S: Vector, const NEAR: bool, const INVERSE: bool, const VIEW: bool> {
    grid: &'a NeighbourGrid<S>,
    ks: Range<usize>,
    request: SumsRequest,
    radii: Radii<S>,
    out: &'a mut [NeighbourSums<S>],
}

impl<S: Vector, const NEAR: bool, const INVERSE: bool, const VIEW: bool> LaneWork
    for SumInOrder<'_, S, NEAR, INVERSE, VIEW>
{
    type Out = ();

    #[inline(always)]
    unsafe fn run<L: Lanes>(self, form: LaneForm) {
        // SAFETY: the caller vouches for `L`'s features.
        unsafe {
            sum_in_order_with::<S, L, NEAR, INVERSE, VIEW>(
                form,
                self.grid,
                self.ks,
                self.request,
                self.radii,
                self.out,
            )
        }
    }
}

/// [`LaneForm::sum_in_order`] with form `L` (which is `form`).
///
/// # Safety
/// `L`'s CPU features must be present.
#[inline(always)]
unsafe fn sum_in_order_with<
    S: Vector,
    L: Lanes,
    const NEAR: bool,
    const INVERSE: bool,
    const VIEW: bool,
>(
    form: LaneForm,
    grid: &NeighbourGrid<S>,
    ks: Range<usize>,
    request: SumsRequest,
    radii: Radii<S>,
    out: &mut [NeighbourSums<S>],
) {
    assert!(
        ks.end <= grid.len() && ks.len() == out.len(),
        "one output per boid"
    );
    let layout = grid.layout();
    let inv_nx = 1.0 / layout.nx as f64;
    // A sparse flat flock (at most two birds a cell on average, so that most blocks' rows are
    // short) on AVX-512: bird by bird.
    #[cfg(target_arch = "x86_64")]
    if form == LaneForm::Avx512
        && layout.nx >= 3
        && layout.ny >= 3
        && grid.len() <= 2 * layout.cell_count()
        && let (Some(flat), Some(flat_radii)) = (
            same_type::<NeighbourGrid<S>, NeighbourGrid<Vec2>>(grid),
            same_type::<Radii<S>, Radii<Vec2>>(&radii),
        )
    {
        let flat_out = same_type_mut::<NeighbourSums<S>, NeighbourSums<Vec2>>(out)
            .expect("the sums of a flat flock are flat");
        // SAFETY: the form's features are present.
        unsafe {
            sum_in_order_avx512::<NEAR, INVERSE, VIEW>(flat, ks, request, *flat_radii, flat_out)
        };
        return;
    }
    let mut k = ks.start;
    while k < ks.end {
        let (cell, coords) = grid.cell_holding(k, inv_nx);
        let run_end = (grid.cell_start[cell + 1] as usize).min(ks.end);
        let sums = &mut out[k - ks.start..run_end - ks.start];
        // SAFETY: `L` is `form`'s, whose features are present.
        unsafe {
            sum_run::<S, L, NEAR, INVERSE, VIEW>(
                form,
                grid,
                (cell, coords),
                k..run_end,
                request,
                radii,
                sums,
            )
        };
        k = run_end;
    }
}

/// The sums of boids `ks` of one cell (its index and coordinates) over its block.
///
/// # Safety
/// `L` is `form`'s, whose CPU features must be present.
#[inline(always)]
unsafe fn sum_run<S: Vector, L: Lanes, const NEAR: bool, const INVERSE: bool, const VIEW: bool>(
    form: LaneForm,
    grid: &NeighbourGrid<S>,
    (cell, coords): (usize, [usize; 3]),
    ks: Range<usize>,
    request: SumsRequest,
    radii: Radii<S>,
    out: &mut [NeighbourSums<S>],
) {
    let mut block = CellBlock::empty();
    grid.fill_block_at(cell, coords, &mut block);
    match block.spans() {
        Some(spans) => {
            for s in spans {
                assert!(s.start <= s.end && s.end <= grid.len(), "span out of range");
            }
            // SAFETY: the spans were checked above; the caller vouches for the form.
            unsafe {
                sum_one_by_one::<S, L, NEAR, INVERSE, VIEW>(form, grid, spans, ks, radii, out)
            };
        }
        None => {
            for (j, s) in ks.zip(out) {
                grid.cell_sums_in(
                    form,
                    &block,
                    j..j + 1,
                    request,
                    radii.min_cos,
                    std::slice::from_mut(s),
                );
            }
        }
    }
}

/// Birds taken at a time by [`sum_in_order_avx512`].
#[cfg(target_arch = "x86_64")]
const FLAT: usize = 64;

/// [`sum_in_order_with`] on AVX-512 for a flat flock, bird by bird rather than cell by cell (a
/// sparse flock has a bird or two in a cell): each bird's cell as the sort left it, and for a
/// cell away from the grid's edges whose block's rows hold at most eight birds each, the rows'
/// starts and lanes; those birds are then summed two at a time whatever their cells
/// ([`super::pairs::sum_short_rows_avx512`]), the others a cell's run at a time.
///
/// # Safety
/// AVX-512 F and VL and POPCNT must be present; the grid must have at least three cells across
/// and down.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn sum_in_order_avx512<const NEAR: bool, const INVERSE: bool, const VIEW: bool>(
    grid: &NeighbourGrid<Vec2>,
    ks: Range<usize>,
    request: SumsRequest,
    radii: Radii<Vec2>,
    out: &mut [NeighbourSums<Vec2>],
) {
    use super::pairs::{ShortRows, sum_short_rows_avx512};
    let layout = grid.layout();
    let (nx, ny) = (layout.nx, layout.ny);
    let inv_nx = 1.0 / nx as f64;
    let starts = &grid.cell_start[..];
    let mut first = ks.start;
    // Reused from batch to batch (each batch writes before it reads).
    let mut inner = [ShortRows::default(); FLAT];
    let mut others = [[0usize; 4]; FLAT];
    while first < ks.end {
        let batch = first..(first + FLAT).min(ks.end);
        // Birds of cells away from the edges whose rows are short, and the rest.
        let (mut inners, mut other) = (0, 0);
        for k in batch.clone() {
            let (cell, [cx, cy, _]) = grid.cell_holding(k, inv_nx);
            if cx.wrapping_sub(1) < nx - 2 && cy.wrapping_sub(1) < ny - 2 {
                // Three rows of three cells from `cell - nx - 1`, no shifts.
                let rows = [0, 1, 2].map(|r| {
                    let row = cell + r * nx - nx - 1;
                    (starts[row], starts[row + 3])
                });
                if rows.iter().all(|&(s, e)| e - s <= LANES as u32) {
                    inner[inners] = ShortRows {
                        k: k as u32,
                        start: rows.map(|(s, _)| s),
                        mask: rows.map(|(s, e)| ((1u32 << (e - s)) - 1) as u8),
                    };
                    inners += 1;
                    continue;
                }
            }
            others[other] = [k, cell, cx, cy];
            other += 1;
        }
        let inner = &inner[..inners];
        for b in inner {
            assert!(ks.contains(&(b.k as usize)), "one output per bird");
        }
        // SAFETY: the caller vouches for the features; the rows lie within the columns, and
        // every bird's output is within `out` (checked above).
        unsafe { sum_short_rows_avx512::<NEAR, INVERSE, VIEW>(grid, inner, ks.start, radii, out) };
        // The others a cell's run at a time (a cell's birds are consecutive).
        let others = &others[..other];
        let mut i = 0;
        while i < others.len() {
            let [k, cell, cx, cy] = others[i];
            let mut j = i + 1;
            while j < others.len() && others[j][1] == cell && others[j][0] == k + (j - i) {
                j += 1;
            }
            let run = k..k + (j - i);
            let sums = &mut out[run.start - ks.start..run.end - ks.start];
            // SAFETY: the caller vouches for the features.
            unsafe {
                sum_run::<Vec2, super::lanes::Avx512, NEAR, INVERSE, VIEW>(
                    LaneForm::Avx512,
                    grid,
                    (cell, [cx, cy, 0]),
                    run,
                    request,
                    radii,
                    sums,
                )
            };
            i = j;
        }
        first = batch.end;
    }
}

/// [`sum_cell_with`] on AVX-512 when no span is longer than the lanes (a small or sparse flock):
/// each span is one chunk, read with masked loads, and every bird runs the same straight
/// sequence of chunks without a branch per span. The chunks, lanes and order of the sums are
/// [`sum_cell_with`]'s, so the bits are too.
///
/// # Safety
/// The CPU must have AVX-512 F and VL and POPCNT; the spans and `ks` must lie within the
/// columns, and no span may hold more than [`LANES`] boids.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx512f,avx512vl,popcnt")]
unsafe fn sum_short_spans_avx512<
    S: Vector,
    const NEAR: bool,
    const INVERSE: bool,
    const VIEW: bool,
>(
    grid: &NeighbourGrid<S>,
    spans: &[Span<S>],
    ks: Range<usize>,
    radii: Radii<S>,
    out: &mut [NeighbourSums<S>],
) {
    use super::lanes::Avx512 as L;
    use std::arch::x86_64::_mm256_maskz_loadu_ps;
    let c = grid.columns();
    let source = source_of(grid);
    // Each span's first boid and lane mask, worked out once for the cell's boids.
    let mut chunks: S::Blocks<(usize, u8, S)> = Default::default();
    for (chunk, span) in chunks.as_mut().iter_mut().zip(spans) {
        // SAFETY: the caller vouches for the features.
        *chunk = (
            span.start,
            unsafe { L::tail(span.end - span.start) },
            span.shift,
        );
    }
    let chunks = &chunks.as_ref()[..spans.len()];
    // SAFETY: the caller vouches for the features; loads are masked to the spans, which lie
    // within the columns.
    unsafe {
        let mut k = Consts::new::<L, S>(&radii);
        for (b, sums) in ks.zip(out) {
            let (p, v) = c.get(b);
            if VIEW {
                let heading = v.normalize_or_zero();
                // A still boid sees all round.
                let min_cos = if heading == S::ZERO {
                    -1.0
                } else {
                    radii.min_cos
                };
                for a in 0..S::DIM {
                    k.heading[a] = L::splat(heading.axis(a));
                }
                k.min_cos = L::splat(min_cos);
            }
            let mut acc = Acc::new(k.zero);
            for &(start, mask, shift) in chunks {
                let o = splat_offset::<S, L>(shift - p);
                let mut chunk = [[k.zero; 3]; 2];
                for a in 0..S::DIM {
                    chunk[0][a] = _mm256_maskz_loadu_ps(mask, source[a].as_ptr().add(start));
                }
                for a in 0..S::DIM {
                    chunk[1][a] =
                        _mm256_maskz_loadu_ps(mask, source[S::DIM + a].as_ptr().add(start));
                }
                add_chunk::<S, L, NEAR, INVERSE, VIEW>(&mut acc, &k, chunk, o, Some(mask));
            }
            *sums = totals::<S, L, NEAR, INVERSE>(acc);
            // As in `sum_cell_with`: the boid itself is among the spans.
            if 0.0 < radii.sight2 {
                sums.seen -= 1;
                sums.seen_velocity -= v;
            }
        }
    }
}

/// The sums of boids `ks` of one cell over its spans: the short-span form where it applies,
/// else [`sum_cell_with`]. (A function, not a closure, so that it is built with its caller's CPU
/// features: a closure that is not inlined would lose them, and every lane operation would
/// become a call.)
///
/// # Safety
/// As for [`sum_cell_with`]; `L` is `form`'s.
#[inline(always)]
unsafe fn sum_one_by_one<
    S: Vector,
    L: Lanes,
    const NEAR: bool,
    const INVERSE: bool,
    const VIEW: bool,
>(
    form: LaneForm,
    grid: &NeighbourGrid<S>,
    spans: &[Span<S>],
    ks: Range<usize>,
    radii: Radii<S>,
    out: &mut [NeighbourSums<S>],
) {
    match form {
        // SAFETY (both arms): passed on from the caller.
        #[cfg(target_arch = "x86_64")]
        LaneForm::Avx512 if spans.iter().all(|s| s.end - s.start <= LANES) => unsafe {
            sum_short_spans_avx512::<S, NEAR, INVERSE, VIEW>(grid, spans, ks, radii, out)
        },
        _ => unsafe { sum_cell_with::<S, L, NEAR, INVERSE, VIEW>(grid, spans, ks, radii, out) },
    }
}

/// The sums for every boid of `ks` over the spans of their shared block.
///
/// # Safety
/// `L`'s CPU features must be present, and the spans and `ks` must lie within the columns.
#[inline(always)]
unsafe fn sum_cell_with<
    S: Vector,
    L: Lanes,
    const NEAR: bool,
    const INVERSE: bool,
    const VIEW: bool,
>(
    grid: &NeighbourGrid<S>,
    spans: &[Span<S>],
    ks: Range<usize>,
    radii: Radii<S>,
    out: &mut [NeighbourSums<S>],
) {
    let c = grid.columns();
    let source = source_of(grid);
    let mut visits: S::Blocks<Visit<S>> = Default::default();
    let visits = &mut visits.as_mut()[..spans.len()];
    for (k, sums) in ks.zip(out) {
        let (p, v) = c.get(k);
        for (visit, span) in visits.iter_mut().zip(spans) {
            *visit = Visit {
                start: span.start,
                end: span.end,
                offset: span.shift - p,
            };
        }
        let mut radii = radii;
        if VIEW {
            radii.heading = v.normalize_or_zero();
            if radii.heading == S::ZERO {
                // A still boid sees all round.
                radii.min_cos = -1.0;
            }
        }
        // SAFETY: passed on from the caller.
        *sums = unsafe { sum_visits::<S, L, NEAR, INVERSE, VIEW>(&source, visits, radii) };
        // The spans include the boid itself, at distance 0: seen (when the sight radius is not
        // 0) with its own velocity, with a zero offset and no inverse term.
        if 0.0 < radii.sight2 {
            sums.seen -= 1;
            sums.seen_velocity -= v;
        }
    }
}

/// Which sums a steering model needs, and within which radii.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SumsRequest {
    /// The sight radius (`seen`, `seen_offset`, `seen_velocity`).
    pub sight: f32,
    /// The near radius.
    pub near: f32,
    /// Fill `near_offset`.
    pub near_offsets: bool,
    /// Fill `near_inverse` and `near_apart`.
    pub inverse: bool,
}

impl<V: Vector> NeighbourSums<V> {
    /// Adds another set of sums over different boids.
    fn merge(&mut self, o: &NeighbourSums<V>) {
        self.seen += o.seen;
        self.seen_offset += o.seen_offset;
        self.seen_velocity += o.seen_velocity;
        self.near_offset += o.near_offset;
        self.near_inverse += o.near_inverse;
        self.near_apart += o.near_apart;
    }
}

/// Calls `$f::<NEAR, INVERSE, VIEW>($args)` with the three flags known at run time turned into
/// constants.
macro_rules! with_flags {
    ($near:expr, $inverse:expr, $view:expr, $f:ident $(:: $g:ident)* $([$t:ty])?, ($($arg:expr),*)) => {
        match ($near, $inverse, $view) {
            (false, false, false) => $f$(::$g)*::<$($t,)? false, false, false>($($arg),*),
            (false, false, true) => $f$(::$g)*::<$($t,)? false, false, true>($($arg),*),
            (false, true, false) => $f$(::$g)*::<$($t,)? false, true, false>($($arg),*),
            (false, true, true) => $f$(::$g)*::<$($t,)? false, true, true>($($arg),*),
            (true, false, false) => $f$(::$g)*::<$($t,)? true, false, false>($($arg),*),
            (true, false, true) => $f$(::$g)*::<$($t,)? true, false, true>($($arg),*),
            (true, true, false) => $f$(::$g)*::<$($t,)? true, true, false>($($arg),*),
            (true, true, true) => $f$(::$g)*::<$($t,)? true, true, true>($($arg),*),
        }
    };
}

impl<V: Vector> NeighbourGrid<V> {
    /// Sums over the other boids within `sight` and within `near` of boid `k` (a sorted index):
    /// `NEAR` adds the near offsets, `INVERSE` the offsets over distance². With a `cap` (not
    /// `usize::MAX`), only the first `cap` boids within the larger radius, in visiting order,
    /// count. With `view_min_cos` above -1, a boid sees only neighbours whose direction makes
    /// a cosine of at least that with its heading (a still boid sees all round).
    #[inline]
    pub fn neighbour_sums<const NEAR: bool, const INVERSE: bool>(
        &self,
        k: usize,
        sight: f32,
        near: f32,
        cap: usize,
        view_min_cos: f32,
    ) -> NeighbourSums<V> {
        let request = SumsRequest {
            sight,
            near,
            near_offsets: NEAR,
            inverse: INVERSE,
        };
        let mut out = [NeighbourSums::default()];
        if cap == usize::MAX {
            let block = self.block(self.cell_of(k));
            self.cell_sums(&block, k..k + 1, request, view_min_cos, &mut out);
        } else {
            self.visited_sums(LaneForm::best(), k, cap, request, view_min_cos, &mut out[0]);
        }
        out[0]
    }

    /// The uncapped sums of `request` for boids `ks` into `out` (one each), where the boids are
    /// normally all of `block`'s cell: then the whole batch runs in one pass over the block,
    /// the cheapest way to sum a flock in cell order. Boids of other cells are summed over
    /// their own blocks.
    pub fn cell_sums(
        &self,
        block: &CellBlock<V>,
        ks: Range<usize>,
        request: SumsRequest,
        view_min_cos: f32,
        out: &mut [NeighbourSums<V>],
    ) {
        self.cell_sums_in(LaneForm::best(), block, ks, request, view_min_cos, out);
    }

    /// The uncapped sums of `request` for the sorted boids `ks` into `out` (one each), in cell
    /// order: each cell's block is built once and its boids summed in one pass, and the lane form
    /// is chosen once for the range. The same sums as [`NeighbourGrid::cell_sums`] boid by boid.
    pub fn sums_in_order(
        &self,
        ks: Range<usize>,
        request: SumsRequest,
        view_min_cos: f32,
        out: &mut [NeighbourSums<V>],
    ) {
        self.sums_in_order_in(LaneForm::best(), ks, request, view_min_cos, out);
    }

    /// [`NeighbourGrid::sums_in_order`] with a given lane form.
    pub(crate) fn sums_in_order_in(
        &self,
        form: LaneForm,
        ks: Range<usize>,
        request: SumsRequest,
        view_min_cos: f32,
        out: &mut [NeighbourSums<V>],
    ) {
        let radii = Radii {
            sight2: request.sight * request.sight,
            near2: request.near * request.near,
            heading: V::ZERO,
            min_cos: view_min_cos,
        };
        let view = view_min_cos > -1.0;
        with_flags!(
            request.near_offsets,
            request.inverse,
            view,
            LaneForm::sum_in_order[V],
            (form, self, ks, request, radii, out)
        )
    }

    /// [`NeighbourGrid::cell_sums`] with a given lane form.
    pub(crate) fn cell_sums_in(
        &self,
        form: LaneForm,
        block: &CellBlock<V>,
        ks: Range<usize>,
        request: SumsRequest,
        view_min_cos: f32,
        out: &mut [NeighbourSums<V>],
    ) {
        assert_eq!(ks.len(), out.len(), "one output per boid");
        let radii = Radii {
            sight2: request.sight * request.sight,
            near2: request.near * request.near,
            heading: V::ZERO,
            min_cos: view_min_cos,
        };
        let view = view_min_cos > -1.0;
        let (near, inverse) = (request.near_offsets, request.inverse);
        let cell = self.cell_range(block.cell);
        let whole = cell.start <= ks.start && ks.end <= cell.end;
        match block.spans() {
            Some(spans) if whole => with_flags!(
                near,
                inverse,
                view,
                LaneForm::sum_cell[V],
                (form, self, spans, ks, radii, out)
            ),
            // A torus too small for whole spans: pair by pair.
            None if whole => {
                for (k, sums) in ks.zip(out) {
                    self.visited_sums(form, k, usize::MAX, request, view_min_cos, sums);
                }
            }
            _ => {
                for (k, sums) in ks.zip(out) {
                    let own = self.block(self.cell_of(k));
                    match own.spans() {
                        Some(spans) if self.cell_range(own.cell).contains(&k) => with_flags!(
                            near,
                            inverse,
                            view,
                            LaneForm::sum_cell[V],
                            (
                                form,
                                self,
                                spans,
                                k..k + 1,
                                radii,
                                std::slice::from_mut(sums)
                            )
                        ),
                        _ => self.visited_sums(form, k, usize::MAX, request, view_min_cos, sums),
                    }
                }
            }
        }
    }

    /// The sums pair by pair (capped, or on a torus too small for whole spans): the visit skips
    /// the boid itself and takes the nearest image; the neighbours are summed eight at a time.
    fn visited_sums(
        &self,
        form: LaneForm,
        k: usize,
        cap: usize,
        request: SumsRequest,
        view_min_cos: f32,
        out: &mut NeighbourSums<V>,
    ) {
        let heading = if view_min_cos > -1.0 {
            self.vel(k).normalize_or_zero()
        } else {
            V::ZERO
        };
        let radii = Radii {
            sight2: request.sight * request.sight,
            near2: request.near * request.near,
            heading,
            min_cos: view_min_cos,
        };
        let view = heading != V::ZERO;
        let reach = request.sight.max(request.near);
        *out = with_flags!(
            request.near_offsets,
            request.inverse,
            view,
            Self::visited_sums_with,
            (self, form, k, reach, cap, radii)
        );
    }

    fn visited_sums_with<const NEAR: bool, const INVERSE: bool, const VIEW: bool>(
        &self,
        form: LaneForm,
        k: usize,
        reach: f32,
        cap: usize,
        radii: Radii<V>,
    ) -> NeighbourSums<V> {
        let mut buffer = [[0.0f32; LANES]; 6];
        let mut filled = 0;
        let mut sums = NeighbourSums::default();
        let flush = |buffer: &[[f32; LANES]; 6], filled: usize, sums: &mut NeighbourSums<V>| {
            let mut source: Source = [&[]; 6];
            for (s, column) in source.iter_mut().zip(buffer).take(2 * V::DIM) {
                *s = column;
            }
            let all = [Visit {
                start: 0,
                end: filled,
                offset: V::ZERO,
            }];
            sums.merge(&form.sum::<V, NEAR, INVERSE, VIEW>(&source, &all, radii));
        };
        self.for_each_neighbour(k, reach, cap, |j, d, _| {
            let v = self.vel(j);
            for a in 0..V::DIM {
                buffer[a][filled] = d.axis(a);
                buffer[V::DIM + a][filled] = v.axis(a);
            }
            filled += 1;
            if filled == LANES {
                flush(&buffer, filled, &mut sums);
                filled = 0;
            }
        });
        if filled > 0 {
            flush(&buffer, filled, &mut sums);
        }
        sums
    }
}
