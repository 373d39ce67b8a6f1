//! Neighbourhood sums for the steering models, in a loop the compiler vectorises: eight
//! independent lanes of partial sums over each contiguous span, masks instead of branches, and
//! a final fixed-order reduction (so the result does not depend on threads).

use super::{NeighbourGrid, Span};
use glam::Vec2;

/// Partial sums kept per lane.
const LANES: usize = 8;

/// What the steering models need to know about one boid's neighbours: sums over the others
/// within a *sight* radius and within a *near* radius (both strict).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct NeighbourSums {
    /// Other boids closer than the sight radius.
    pub seen: u32,
    /// Sum of the offsets (other - me) to them.
    pub seen_offset: Vec2,
    /// Sum of their velocities.
    pub seen_velocity: Vec2,
    /// Other boids closer than the near radius.
    pub near: u32,
    /// Sum of the offsets to them.
    pub near_offset: Vec2,
    /// Sum of offset / distance² over the near boids at a non-zero distance (only computed
    /// when asked for: Reynolds' separation).
    pub near_inverse: Vec2,
    /// Near boids at a non-zero distance (only counted with `near_inverse`).
    pub near_apart: u32,
}

/// Per-lane partial sums.
#[derive(Default)]
struct Lanes {
    seen: [f32; LANES],
    seen_x: [f32; LANES],
    seen_y: [f32; LANES],
    vel_x: [f32; LANES],
    vel_y: [f32; LANES],
    near: [f32; LANES],
    near_x: [f32; LANES],
    near_y: [f32; LANES],
    inv_x: [f32; LANES],
    inv_y: [f32; LANES],
    apart: [f32; LANES],
}

/// `v` where `mask` is all ones, `+0.0` where it is zero: a select without a branch.
#[inline(always)]
fn keep(v: f32, mask: u32) -> f32 {
    f32::from_bits(v.to_bits() & mask)
}

/// All ones when `on`, else zero.
#[inline(always)]
fn mask(on: bool) -> u32 {
    (on as u32).wrapping_neg()
}

impl Lanes {
    /// Adds up to [`LANES`] candidates at once: offsets `dx, dy`, velocities `vx, vy`, and
    /// `valid` lanes (false for the boid itself and past the end of a span). Written as
    /// independent per-lane array operations with bit-mask selects so it becomes SIMD code.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn add<const INVERSE: bool>(
        &mut self,
        dx: &[f32; LANES],
        dy: &[f32; LANES],
        vx: &[f32; LANES],
        vy: &[f32; LANES],
        valid: &[bool; LANES],
        sight2: f32,
        near2: f32,
    ) {
        let d2: [f32; LANES] = std::array::from_fn(|l| dx[l] * dx[l] + dy[l] * dy[l]);
        let seen: [u32; LANES] = std::array::from_fn(|l| mask(valid[l] & (d2[l] < sight2)));
        let near: [u32; LANES] = std::array::from_fn(|l| mask(valid[l] & (d2[l] < near2)));
        for l in 0..LANES {
            self.seen[l] += keep(1.0, seen[l]);
            self.seen_x[l] += keep(dx[l], seen[l]);
            self.seen_y[l] += keep(dy[l], seen[l]);
            self.vel_x[l] += keep(vx[l], seen[l]);
            self.vel_y[l] += keep(vy[l], seen[l]);
            self.near[l] += keep(1.0, near[l]);
            self.near_x[l] += keep(dx[l], near[l]);
            self.near_y[l] += keep(dy[l], near[l]);
        }
        if INVERSE {
            let apart: [u32; LANES] = std::array::from_fn(|l| near[l] & mask(d2[l] > 0.0));
            for l in 0..LANES {
                let inv = keep(1.0 / d2[l], apart[l]);
                self.inv_x[l] += keep(dx[l] * inv, apart[l]);
                self.inv_y[l] += keep(dy[l] * inv, apart[l]);
                self.apart[l] += keep(1.0, apart[l]);
            }
        }
    }

    fn total(self) -> NeighbourSums {
        let sum = |a: [f32; LANES]| a.iter().sum::<f32>();
        NeighbourSums {
            seen: sum(self.seen) as u32,
            seen_offset: Vec2::new(sum(self.seen_x), sum(self.seen_y)),
            seen_velocity: Vec2::new(sum(self.vel_x), sum(self.vel_y)),
            near: sum(self.near) as u32,
            near_offset: Vec2::new(sum(self.near_x), sum(self.near_y)),
            near_inverse: Vec2::new(sum(self.inv_x), sum(self.inv_y)),
            near_apart: sum(self.apart) as u32,
        }
    }
}

impl NeighbourGrid {
    /// Sums over the other boids within `sight` and within `near` of boid `k` (a sorted index).
    /// With a `cap` (not `usize::MAX`), only the first `cap` boids within the larger radius, in
    /// visiting order, count. `INVERSE` also sums offset / distance².
    #[inline]
    pub fn neighbour_sums<const INVERSE: bool>(
        &self,
        k: usize,
        sight: f32,
        near: f32,
        cap: usize,
    ) -> NeighbourSums {
        let (sight2, near2) = (sight * sight, near * near);
        let mut lanes = Lanes::default();
        let mut spans = [Span {
            start: 0,
            end: 0,
            shift: Vec2::ZERO,
        }; 9];
        match self.spans(k, &mut spans) {
            Some(n) if cap == usize::MAX => {
                for span in &spans[..n] {
                    self.add_span::<INVERSE>(&mut lanes, k, span, sight2, near2);
                }
            }
            _ => {
                // Capped, or a torus too small for whole spans: visit pair by pair.
                let mut one = |d: Vec2, j: usize| {
                    let lane = |v: f32| std::array::from_fn(|l| if l == 0 { v } else { 0.0 });
                    let valid = std::array::from_fn(|l| l == 0);
                    let (vx, vy) = (lane(self.vx[j]), lane(self.vy[j]));
                    lanes.add::<INVERSE>(&lane(d.x), &lane(d.y), &vx, &vy, &valid, sight2, near2);
                };
                self.for_each_neighbour(k, sight.max(near), cap, |j, d, _| one(d, j));
            }
        }
        lanes.total()
    }

    #[inline(always)]
    fn add_span<const INVERSE: bool>(
        &self,
        lanes: &mut Lanes,
        k: usize,
        span: &Span,
        sight2: f32,
        near2: f32,
    ) {
        let p = self.pos(k);
        let (ox, oy) = (span.shift.x - p.x, span.shift.y - p.y);
        let range = span.start..span.end;
        let (xs, ys) = (&self.px[range.clone()], &self.py[range.clone()]);
        let (vxs, vys) = (&self.vx[range.clone()], &self.vy[range]);
        let full = xs.len() / LANES * LANES;
        let all = [true; LANES];
        let as_lanes = |c: &[f32]| -> [f32; LANES] { c.try_into().expect("a whole chunk") };
        let offset =
            |c: [f32; LANES], o: f32| -> [f32; LANES] { std::array::from_fn(|l| c[l] + o) };
        for (i, (((cx, cy), cvx), cvy)) in xs[..full]
            .chunks_exact(LANES)
            .zip(ys[..full].chunks_exact(LANES))
            .zip(vxs[..full].chunks_exact(LANES))
            .zip(vys[..full].chunks_exact(LANES))
            .enumerate()
        {
            let first = span.start + i * LANES;
            // Only the chunk holding the boid itself needs a per-lane mask.
            let holds_me = (first..first + LANES).contains(&k);
            let valid = if holds_me {
                std::array::from_fn(|l| first + l != k)
            } else {
                all
            };
            lanes.add::<INVERSE>(
                &offset(as_lanes(cx), ox),
                &offset(as_lanes(cy), oy),
                &as_lanes(cvx),
                &as_lanes(cvy),
                &valid,
                sight2,
                near2,
            );
        }
        // The last, short chunk, padded with invalid lanes.
        let rest = xs.len() - full;
        if rest > 0 {
            let pad = |c: &[f32], o: f32| -> [f32; LANES] {
                std::array::from_fn(|l| if l < rest { c[full + l] + o } else { 0.0 })
            };
            let first = span.start + full;
            let valid = std::array::from_fn(|l| l < rest && first + l != k);
            lanes.add::<INVERSE>(
                &pad(xs, ox),
                &pad(ys, oy),
                &pad(vxs, 0.0),
                &pad(vys, 0.0),
                &valid,
                sight2,
                near2,
            );
        }
    }
}
