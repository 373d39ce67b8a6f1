//! Neighbourhood sums for the steering models: eight lanes of partial sums over each contiguous
//! span of candidates (AVX-512 masks, AVX, SSE or plain arrays, chosen once at run time; see
//! [`super::lanes`]), masks instead of branches, and a fixed reduction tree at the end, so
//! results depend neither on the thread count nor on the CPU.

use super::lanes::{LANES, Lanes, Plain};
use super::{CellBlock, NeighbourGrid, Span};
use glam::Vec2;
use std::ops::Range;

/// What the steering models need to know about one boid's neighbours: sums over the other
/// boids within a *sight* radius and within a *near* radius (both strict).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct NeighbourSums {
    /// Other boids closer than the sight radius.
    pub seen: u32,
    /// Sum of the offsets (other - me) to them.
    pub seen_offset: Vec2,
    /// Sum of their velocities.
    pub seen_velocity: Vec2,
    /// Sum of the offsets to the boids closer than the near radius (asked for with `NEAR`).
    pub near_offset: Vec2,
    /// Sum of offset / distance² over the near boids at a non-zero distance (asked for with
    /// `INVERSE`: Reynolds' separation).
    pub near_inverse: Vec2,
    /// Near boids at a non-zero distance (with `INVERSE`).
    pub near_apart: u32,
}

/// Squared radii and the field of view (a unit heading and the least cosine to it that is seen).
#[derive(Clone, Copy, Debug)]
pub(super) struct Radii {
    pub(super) sight2: f32,
    pub(super) near2: f32,
    pub(super) heading: Vec2,
    pub(super) min_cos: f32,
}

/// Four equal-length candidate columns: x, y, vx, vy.
#[derive(Clone, Copy)]
struct Source<'a> {
    x: &'a [f32],
    y: &'a [f32],
    vx: &'a [f32],
    vy: &'a [f32],
}

/// Candidates `start..end` of a [`Source`], with the offset that turns their positions into
/// offsets from the boid asked about (its own position negated, plus any seam shift).
#[derive(Clone, Copy, Debug, Default)]
struct Visit {
    start: usize,
    end: usize,
    offset: Vec2,
}

/// Per-lane partial sums.
struct Acc<V> {
    seen: u32,
    seen_x: V,
    seen_y: V,
    vel_x: V,
    vel_y: V,
    near_x: V,
    near_y: V,
    inv_x: V,
    inv_y: V,
    apart: u32,
}

/// Loop constants, splatted once per boid.
struct Consts<V> {
    zero: V,
    one: V,
    sight2: V,
    near2: V,
    heading_x: V,
    heading_y: V,
    min_cos: V,
}

/// Adds eight candidates (positions `x, y` before the offset `ox, oy`, velocities `vx, vy`);
/// with `valid`, only the lanes it sets.
///
/// # Safety
/// `L`'s CPU features must be present.
#[inline(always)]
unsafe fn add_chunk<L: Lanes, const NEAR: bool, const INVERSE: bool, const VIEW: bool>(
    acc: &mut Acc<L::V>,
    k: &Consts<L::V>,
    [x, y, vx, vy]: [L::V; 4],
    [ox, oy]: [L::V; 2],
    valid: Option<L::M>,
) {
    // SAFETY: the caller vouches for `L`'s features; the rest is register arithmetic.
    unsafe {
        let dx = L::add(x, ox);
        let dy = L::add(y, oy);
        let d2 = L::add(L::mul(dx, dx), L::mul(dy, dy));
        let mut counts = valid;
        if VIEW {
            let along = L::add(L::mul(dx, k.heading_x), L::mul(dy, k.heading_y));
            let visible = L::ge(along, L::mul(k.min_cos, L::sqrt(d2)));
            counts = Some(counts.map_or(visible, |m| L::both(m, visible)));
        }
        let only = |m: L::M| counts.map_or(m, |c| L::both(c, m));
        let seen = only(L::lt(d2, k.sight2));
        acc.seen += L::count(seen);
        acc.seen_x = L::add_where(acc.seen_x, seen, dx);
        acc.seen_y = L::add_where(acc.seen_y, seen, dy);
        acc.vel_x = L::add_where(acc.vel_x, seen, vx);
        acc.vel_y = L::add_where(acc.vel_y, seen, vy);
        if NEAR || INVERSE {
            let near = only(L::lt(d2, k.near2));
            if NEAR {
                acc.near_x = L::add_where(acc.near_x, near, dx);
                acc.near_y = L::add_where(acc.near_y, near, dy);
            }
            if INVERSE {
                // Coincident boids give no direction: only those at a non-zero distance (the
                // others' quotients are infinite and masked out).
                let apart = L::both(near, L::lt(k.zero, d2));
                let inv = L::div(k.one, d2);
                acc.inv_x = L::add_where(acc.inv_x, apart, L::mul(dx, inv));
                acc.inv_y = L::add_where(acc.inv_y, apart, L::mul(dy, inv));
                acc.apart += L::count(apart);
            }
        }
    }
}

/// Eight floats of each column from index `i`. Written out rather than through `array::map`,
/// whose closure, when it is not inlined, is built without the caller's CPU features (a call
/// per load).
///
/// # Safety
/// `L`'s CPU features must be present, and each column must hold `i + LANES` floats.
#[inline(always)]
unsafe fn load_columns<L: Lanes>([x, y, vx, vy]: [&[f32]; 4], i: usize) -> [L::V; 4] {
    // SAFETY: passed on from the caller.
    unsafe {
        [
            L::load(x.as_ptr().add(i)),
            L::load(y.as_ptr().add(i)),
            L::load(vx.as_ptr().add(i)),
            L::load(vy.as_ptr().add(i)),
        ]
    }
}

/// The sums over every candidate of `visits` in `source`.
///
/// # Safety
/// `L`'s CPU features must be present, and every visit must lie within the source.
#[inline(always)]
unsafe fn sum_visits<L: Lanes, const NEAR: bool, const INVERSE: bool, const VIEW: bool>(
    source: Source,
    visits: &[Visit],
    radii: Radii,
) -> NeighbourSums {
    // SAFETY: loads read eight floats at `i` only where `i + LANES` is within the columns (a
    // short last chunk is read from there when the columns go on, else from a padded copy).
    unsafe {
        let zero = L::splat(0.0);
        let k = Consts {
            zero,
            one: L::splat(1.0),
            sight2: L::splat(radii.sight2),
            near2: L::splat(radii.near2),
            heading_x: L::splat(radii.heading.x),
            heading_y: L::splat(radii.heading.y),
            min_cos: L::splat(radii.min_cos),
        };
        let mut acc = Acc {
            seen: 0,
            seen_x: zero,
            seen_y: zero,
            vel_x: zero,
            vel_y: zero,
            near_x: zero,
            near_y: zero,
            inv_x: zero,
            inv_y: zero,
            apart: 0,
        };
        let len = source.x.len();
        let columns = [source.x, source.y, source.vx, source.vy];
        for visit in visits {
            let offset = [L::splat(visit.offset.x), L::splat(visit.offset.y)];
            let mut i = visit.start;
            while i + LANES <= visit.end {
                let chunk = load_columns::<L>(columns, i);
                add_chunk::<L, NEAR, INVERSE, VIEW>(&mut acc, &k, chunk, offset, None);
                i += LANES;
            }
            if i < visit.end {
                let valid = Some(L::tail(visit.end - i));
                let chunk = if i + LANES <= len {
                    load_columns::<L>(columns, i)
                } else {
                    columns.map(|c| {
                        let mut padded = [0.0; LANES];
                        padded[..visit.end - i].copy_from_slice(&c[i..visit.end]);
                        L::load(padded.as_ptr())
                    })
                };
                add_chunk::<L, NEAR, INVERSE, VIEW>(&mut acc, &k, chunk, offset, valid);
            }
        }
        totals::<L, NEAR, INVERSE>(acc)
    }
}

/// The sums out of the lanes' partial sums, by [`Lanes::totals`]' tree.
///
/// # Safety
/// `L`'s CPU features must be present.
#[inline(always)]
unsafe fn totals<L: Lanes, const NEAR: bool, const INVERSE: bool>(acc: Acc<L::V>) -> NeighbourSums {
    // SAFETY: passed on from the caller.
    unsafe {
        let [seen_x, seen_y, vel_x, vel_y] =
            L::totals(acc.seen_x, acc.seen_y, acc.vel_x, acc.vel_y);
        // Only the sums asked for (the others stay zero).
        let mut sums = NeighbourSums {
            seen: acc.seen,
            seen_offset: Vec2::new(seen_x, seen_y),
            seen_velocity: Vec2::new(vel_x, vel_y),
            ..NeighbourSums::default()
        };
        if NEAR || INVERSE {
            let [near_x, near_y, inv_x, inv_y] =
                L::totals(acc.near_x, acc.near_y, acc.inv_x, acc.inv_y);
            if NEAR {
                sums.near_offset = Vec2::new(near_x, near_y);
            }
            if INVERSE {
                sums.near_inverse = Vec2::new(inv_x, inv_y);
                sums.near_apart = acc.apart;
            }
        }
        sums
    }
}

/// The lane forms this CPU can run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LaneForm {
    /// Plain arrays.
    #[cfg_attr(target_arch = "x86_64", allow(dead_code))]
    Plain,
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
        #[cfg(not(target_arch = "x86_64"))]
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
        forms
    }

    #[inline]
    fn sum<const NEAR: bool, const INVERSE: bool, const VIEW: bool>(
        self,
        source: Source,
        visits: &[Visit],
        radii: Radii,
    ) -> NeighbourSums {
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx,popcnt")]
        fn avx<const NEAR: bool, const INVERSE: bool, const VIEW: bool>(
            source: Source,
            visits: &[Visit],
            radii: Radii,
        ) -> NeighbourSums {
            // SAFETY: this function runs only on CPUs with AVX and POPCNT; visits lie within the source.
            unsafe { sum_visits::<super::lanes::Avx, NEAR, INVERSE, VIEW>(source, visits, radii) }
        }
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx512f,avx512vl,popcnt")]
        fn avx512<const NEAR: bool, const INVERSE: bool, const VIEW: bool>(
            source: Source,
            visits: &[Visit],
            radii: Radii,
        ) -> NeighbourSums {
            // SAFETY: this function runs only on CPUs with AVX-512 F and VL and POPCNT; visits lie within
            // the source.
            unsafe {
                sum_visits::<super::lanes::Avx512, NEAR, INVERSE, VIEW>(source, visits, radii)
            }
        }
        for v in visits {
            assert!(
                v.start <= v.end && v.end <= source.x.len(),
                "visit out of range"
            );
        }
        assert!(
            source.y.len() == source.x.len()
                && source.vx.len() == source.x.len()
                && source.vy.len() == source.x.len(),
            "columns of one length"
        );
        match self {
            // SAFETY (all arms): visits were checked above; the form's features are present.
            Self::Plain => unsafe {
                sum_visits::<Plain, NEAR, INVERSE, VIEW>(source, visits, radii)
            },
            #[cfg(target_arch = "x86_64")]
            Self::Sse => unsafe {
                sum_visits::<super::lanes::Sse, NEAR, INVERSE, VIEW>(source, visits, radii)
            },
            #[cfg(target_arch = "x86_64")]
            Self::Avx => unsafe { avx::<NEAR, INVERSE, VIEW>(source, visits, radii) },
            #[cfg(target_arch = "x86_64")]
            Self::Avx512 => unsafe { avx512::<NEAR, INVERSE, VIEW>(source, visits, radii) },
        }
    }

    /// The sums for boids `ks` (all of one cell, whose block is `spans`) into `out`.
    #[inline]
    fn sum_cell<const NEAR: bool, const INVERSE: bool, const VIEW: bool>(
        self,
        grid: &NeighbourGrid,
        spans: &[Span],
        ks: Range<usize>,
        radii: Radii,
        out: &mut [NeighbourSums],
    ) {
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx,popcnt")]
        fn avx<const NEAR: bool, const INVERSE: bool, const VIEW: bool>(
            grid: &NeighbourGrid,
            spans: &[Span],
            ks: Range<usize>,
            radii: Radii,
            out: &mut [NeighbourSums],
        ) {
            // SAFETY: this function runs only on CPUs with AVX and POPCNT; spans lie within the columns.
            unsafe {
                sum_cell_with::<super::lanes::Avx, NEAR, INVERSE, VIEW>(grid, spans, ks, radii, out)
            }
        }
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx512f,avx512vl,popcnt")]
        fn avx512<const NEAR: bool, const INVERSE: bool, const VIEW: bool>(
            grid: &NeighbourGrid,
            spans: &[Span],
            ks: Range<usize>,
            radii: Radii,
            out: &mut [NeighbourSums],
        ) {
            // SAFETY: this function runs only on CPUs with AVX-512 F and VL and POPCNT; spans lie within
            // the columns.
            unsafe {
                sum_cell_with::<super::lanes::Avx512, NEAR, INVERSE, VIEW>(
                    grid, spans, ks, radii, out,
                )
            }
        }
        let len = grid.len();
        for s in spans {
            assert!(s.start <= s.end && s.end <= len, "span out of range");
        }
        assert!(
            ks.end <= len && ks.len() == out.len(),
            "one output per boid"
        );
        match self {
            // SAFETY (all arms): spans were checked above; the form's features are present.
            Self::Plain => unsafe {
                sum_cell_with::<Plain, NEAR, INVERSE, VIEW>(grid, spans, ks, radii, out)
            },
            #[cfg(target_arch = "x86_64")]
            Self::Sse => unsafe {
                sum_cell_with::<super::lanes::Sse, NEAR, INVERSE, VIEW>(grid, spans, ks, radii, out)
            },
            #[cfg(target_arch = "x86_64")]
            Self::Avx => unsafe { avx::<NEAR, INVERSE, VIEW>(grid, spans, ks, radii, out) },
            #[cfg(target_arch = "x86_64")]
            Self::Avx512 => unsafe { avx512::<NEAR, INVERSE, VIEW>(grid, spans, ks, radii, out) },
        }
    }
}

impl LaneForm {
    /// The sums for the sorted boids `ks` into `out`, a cell's boids at a time (see
    /// [`NeighbourGrid::sums_in_order`]): the CPU's form chosen once for the whole range.
    fn sum_in_order<const NEAR: bool, const INVERSE: bool, const VIEW: bool>(
        self,
        grid: &NeighbourGrid,
        ks: Range<usize>,
        request: SumsRequest,
        radii: Radii,
        out: &mut [NeighbourSums],
    ) {
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx,popcnt")]
        fn avx<const NEAR: bool, const INVERSE: bool, const VIEW: bool>(
            grid: &NeighbourGrid,
            ks: Range<usize>,
            request: SumsRequest,
            radii: Radii,
            out: &mut [NeighbourSums],
        ) {
            // SAFETY: this function runs only on CPUs with AVX and POPCNT.
            unsafe {
                sum_in_order_with::<super::lanes::Avx, NEAR, INVERSE, VIEW>(
                    LaneForm::Avx,
                    grid,
                    ks,
                    request,
                    radii,
                    out,
                )
            }
        }
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx512f,avx512vl,popcnt")]
        fn avx512<const NEAR: bool, const INVERSE: bool, const VIEW: bool>(
            grid: &NeighbourGrid,
            ks: Range<usize>,
            request: SumsRequest,
            radii: Radii,
            out: &mut [NeighbourSums],
        ) {
            // SAFETY: this function runs only on CPUs with AVX-512 F and VL and POPCNT.
            unsafe {
                sum_in_order_with::<super::lanes::Avx512, NEAR, INVERSE, VIEW>(
                    LaneForm::Avx512,
                    grid,
                    ks,
                    request,
                    radii,
                    out,
                )
            }
        }
        match self {
            // SAFETY (all arms): the form's features are present.
            Self::Plain => unsafe {
                sum_in_order_with::<Plain, NEAR, INVERSE, VIEW>(self, grid, ks, request, radii, out)
            },
            #[cfg(target_arch = "x86_64")]
            Self::Sse => unsafe {
                sum_in_order_with::<super::lanes::Sse, NEAR, INVERSE, VIEW>(
                    self, grid, ks, request, radii, out,
                )
            },
            #[cfg(target_arch = "x86_64")]
            Self::Avx => unsafe { avx::<NEAR, INVERSE, VIEW>(grid, ks, request, radii, out) },
            #[cfg(target_arch = "x86_64")]
            Self::Avx512 => unsafe { avx512::<NEAR, INVERSE, VIEW>(grid, ks, request, radii, out) },
        }
    }
}

/// [`LaneForm::sum_in_order`] with form `L` (which is `form`).
///
/// # Safety
/// `L`'s CPU features must be present.
#[inline(always)]
unsafe fn sum_in_order_with<L: Lanes, const NEAR: bool, const INVERSE: bool, const VIEW: bool>(
    form: LaneForm,
    grid: &NeighbourGrid,
    ks: Range<usize>,
    request: SumsRequest,
    radii: Radii,
    out: &mut [NeighbourSums],
) {
    assert!(
        ks.end <= grid.len() && ks.len() == out.len(),
        "one output per boid"
    );
    let layout = grid.layout();
    let inv_nx = 1.0 / layout.nx as f64;
    // A sparse flock (at most two birds a cell on average, so that most blocks' rows are short)
    // on AVX-512: bird by bird.
    #[cfg(target_arch = "x86_64")]
    if form == LaneForm::Avx512
        && layout.nx >= 3
        && layout.ny >= 3
        && grid.len() <= 2 * layout.cell_count()
    {
        // SAFETY: the form's features are present.
        unsafe { sum_in_order_avx512::<NEAR, INVERSE, VIEW>(grid, ks, request, radii, out) };
        return;
    }
    let mut k = ks.start;
    while k < ks.end {
        let (cell, cx, cy) = grid.cell_holding(k, inv_nx);
        let run_end = (grid.cell_start[cell + 1] as usize).min(ks.end);
        let sums = &mut out[k - ks.start..run_end - ks.start];
        // SAFETY: `L` is `form`'s, whose features are present.
        unsafe {
            sum_run::<L, NEAR, INVERSE, VIEW>(
                form,
                grid,
                [cell, cx, cy],
                k..run_end,
                request,
                radii,
                sums,
            )
        };
        k = run_end;
    }
}

/// The sums of boids `ks` of one cell (`[cell, column, row]`) over its block.
///
/// # Safety
/// `L` is `form`'s, whose CPU features must be present.
#[inline(always)]
unsafe fn sum_run<L: Lanes, const NEAR: bool, const INVERSE: bool, const VIEW: bool>(
    form: LaneForm,
    grid: &NeighbourGrid,
    [cell, cx, cy]: [usize; 3],
    ks: Range<usize>,
    request: SumsRequest,
    radii: Radii,
    out: &mut [NeighbourSums],
) {
    let mut block = CellBlock {
        cell: 0,
        spans: [Span::default(); 9],
        len: None,
    };
    grid.fill_block_at(cell, cx, cy, &mut block);
    match block.spans() {
        Some(spans) => {
            for s in spans {
                assert!(s.start <= s.end && s.end <= grid.len(), "span out of range");
            }
            // SAFETY: the spans were checked above; the caller vouches for the form.
            unsafe { sum_one_by_one::<L, NEAR, INVERSE, VIEW>(form, grid, spans, ks, radii, out) };
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

/// [`sum_in_order_with`] on AVX-512, bird by bird rather than cell by cell (a sparse flock has a
/// bird or two in a cell): each bird's cell as the sort left it, and for a cell away from the
/// grid's edges whose block's rows hold at most eight birds each, the rows' starts and lanes;
/// those birds are then summed two at a time whatever their cells
/// ([`super::pairs::sum_short_rows_avx512`]), the others a cell's run at a time.
///
/// # Safety
/// AVX-512 F and VL and POPCNT must be present; the grid must have at least three cells across
/// and down.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn sum_in_order_avx512<const NEAR: bool, const INVERSE: bool, const VIEW: bool>(
    grid: &NeighbourGrid,
    ks: Range<usize>,
    request: SumsRequest,
    radii: Radii,
    out: &mut [NeighbourSums],
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
            let (cell, cx, cy) = grid.cell_holding(k, inv_nx);
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
                sum_run::<super::lanes::Avx512, NEAR, INVERSE, VIEW>(
                    LaneForm::Avx512,
                    grid,
                    [cell, cx, cy],
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
unsafe fn sum_short_spans_avx512<const NEAR: bool, const INVERSE: bool, const VIEW: bool>(
    grid: &NeighbourGrid,
    spans: &[Span],
    ks: Range<usize>,
    radii: Radii,
    out: &mut [NeighbourSums],
) {
    use super::lanes::Avx512 as L;
    use std::arch::x86_64::_mm256_maskz_loadu_ps;
    let c = grid.columns();
    let columns = [c.px.as_ptr(), c.py.as_ptr(), c.vx.as_ptr(), c.vy.as_ptr()];
    // Each span's first boid and lane mask, worked out once for the cell's boids.
    let mut chunks = [(0usize, 0u8, Vec2::ZERO); 9];
    for (chunk, span) in chunks.iter_mut().zip(spans) {
        // SAFETY: the caller vouches for the features.
        *chunk = (
            span.start,
            unsafe { L::tail(span.end - span.start) },
            span.shift,
        );
    }
    let chunks = &chunks[..spans.len()];
    // SAFETY: the caller vouches for the features; loads are masked to the spans, which lie
    // within the columns.
    unsafe {
        let zero = L::splat(0.0);
        let mut k = Consts {
            zero,
            one: L::splat(1.0),
            sight2: L::splat(radii.sight2),
            near2: L::splat(radii.near2),
            heading_x: zero,
            heading_y: zero,
            min_cos: L::splat(radii.min_cos),
        };
        for (b, sums) in ks.zip(out) {
            let (p, v) = c.get(b);
            if VIEW {
                let heading = v.normalize_or_zero();
                // A still boid sees all round.
                let min_cos = if heading == Vec2::ZERO {
                    -1.0
                } else {
                    radii.min_cos
                };
                (k.heading_x, k.heading_y) = (L::splat(heading.x), L::splat(heading.y));
                k.min_cos = L::splat(min_cos);
            }
            let mut acc = Acc {
                seen: 0,
                seen_x: zero,
                seen_y: zero,
                vel_x: zero,
                vel_y: zero,
                near_x: zero,
                near_y: zero,
                inv_x: zero,
                inv_y: zero,
                apart: 0,
            };
            for &(start, mask, shift) in chunks {
                let o = shift - p;
                let chunk = columns.map(|col| _mm256_maskz_loadu_ps(mask, col.add(start)));
                add_chunk::<L, NEAR, INVERSE, VIEW>(
                    &mut acc,
                    &k,
                    chunk,
                    [L::splat(o.x), L::splat(o.y)],
                    Some(mask),
                );
            }
            *sums = totals::<L, NEAR, INVERSE>(acc);
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
unsafe fn sum_one_by_one<L: Lanes, const NEAR: bool, const INVERSE: bool, const VIEW: bool>(
    form: LaneForm,
    grid: &NeighbourGrid,
    spans: &[Span],
    ks: Range<usize>,
    radii: Radii,
    out: &mut [NeighbourSums],
) {
    match form {
        // SAFETY (both arms): passed on from the caller.
        #[cfg(target_arch = "x86_64")]
        LaneForm::Avx512 if spans.iter().all(|s| s.end - s.start <= LANES) => unsafe {
            sum_short_spans_avx512::<NEAR, INVERSE, VIEW>(grid, spans, ks, radii, out)
        },
        _ => unsafe { sum_cell_with::<L, NEAR, INVERSE, VIEW>(grid, spans, ks, radii, out) },
    }
}

/// The sums for every boid of `ks` over the spans of their shared block.
///
/// # Safety
/// `L`'s CPU features must be present, and the spans and `ks` must lie within the columns.
#[inline(always)]
unsafe fn sum_cell_with<L: Lanes, const NEAR: bool, const INVERSE: bool, const VIEW: bool>(
    grid: &NeighbourGrid,
    spans: &[Span],
    ks: Range<usize>,
    radii: Radii,
    out: &mut [NeighbourSums],
) {
    let c = grid.columns();
    let source = Source {
        x: &c.px,
        y: &c.py,
        vx: &c.vx,
        vy: &c.vy,
    };
    let mut visits = [Visit::default(); 9];
    let visits = &mut visits[..spans.len()];
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
            if radii.heading == Vec2::ZERO {
                // A still boid sees all round.
                radii.min_cos = -1.0;
            }
        }
        // SAFETY: passed on from the caller.
        *sums = unsafe { sum_visits::<L, NEAR, INVERSE, VIEW>(source, visits, radii) };
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

impl NeighbourSums {
    /// Adds another set of sums over different boids.
    fn merge(&mut self, o: &NeighbourSums) {
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
    ($near:expr, $inverse:expr, $view:expr, $f:ident $(:: $g:ident)*, ($($arg:expr),*)) => {
        match ($near, $inverse, $view) {
            (false, false, false) => $f$(::$g)*::<false, false, false>($($arg),*),
            (false, false, true) => $f$(::$g)*::<false, false, true>($($arg),*),
            (false, true, false) => $f$(::$g)*::<false, true, false>($($arg),*),
            (false, true, true) => $f$(::$g)*::<false, true, true>($($arg),*),
            (true, false, false) => $f$(::$g)*::<true, false, false>($($arg),*),
            (true, false, true) => $f$(::$g)*::<true, false, true>($($arg),*),
            (true, true, false) => $f$(::$g)*::<true, true, false>($($arg),*),
            (true, true, true) => $f$(::$g)*::<true, true, true>($($arg),*),
        }
    };
}

impl NeighbourGrid {
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
    ) -> NeighbourSums {
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
        block: &CellBlock,
        ks: Range<usize>,
        request: SumsRequest,
        view_min_cos: f32,
        out: &mut [NeighbourSums],
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
        out: &mut [NeighbourSums],
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
        out: &mut [NeighbourSums],
    ) {
        let radii = Radii {
            sight2: request.sight * request.sight,
            near2: request.near * request.near,
            heading: Vec2::ZERO,
            min_cos: view_min_cos,
        };
        let view = view_min_cos > -1.0;
        with_flags!(
            request.near_offsets,
            request.inverse,
            view,
            LaneForm::sum_in_order,
            (form, self, ks, request, radii, out)
        )
    }

    /// [`NeighbourGrid::cell_sums`] with a given lane form.
    pub(crate) fn cell_sums_in(
        &self,
        form: LaneForm,
        block: &CellBlock,
        ks: Range<usize>,
        request: SumsRequest,
        view_min_cos: f32,
        out: &mut [NeighbourSums],
    ) {
        assert_eq!(ks.len(), out.len(), "one output per boid");
        let radii = Radii {
            sight2: request.sight * request.sight,
            near2: request.near * request.near,
            heading: Vec2::ZERO,
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
                LaneForm::sum_cell,
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
                            LaneForm::sum_cell,
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
        out: &mut NeighbourSums,
    ) {
        let heading = if view_min_cos > -1.0 {
            self.vel(k).normalize_or_zero()
        } else {
            Vec2::ZERO
        };
        let radii = Radii {
            sight2: request.sight * request.sight,
            near2: request.near * request.near,
            heading,
            min_cos: view_min_cos,
        };
        let view = heading != Vec2::ZERO;
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
        radii: Radii,
    ) -> NeighbourSums {
        let mut buffer = [[0.0f32; LANES]; 4];
        let mut filled = 0;
        let mut sums = NeighbourSums::default();
        let flush = |buffer: &[[f32; LANES]; 4], filled: usize, sums: &mut NeighbourSums| {
            let [x, y, vx, vy] = buffer;
            let source = Source { x, y, vx, vy };
            let all = [Visit {
                start: 0,
                end: filled,
                offset: Vec2::ZERO,
            }];
            sums.merge(&form.sum::<NEAR, INVERSE, VIEW>(source, &all, radii));
        };
        self.for_each_neighbour(k, reach, cap, |j, d, _| {
            let v = self.vel(j);
            for (column, value) in buffer.iter_mut().zip([d.x, d.y, v.x, v.y]) {
                column[filled] = value;
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
