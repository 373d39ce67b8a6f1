//! Neighbourhood sums for the steering models, in a loop the compiler vectorises: four
//! independent lanes of partial sums (one SSE register each) over each contiguous span, bit
//! masks instead of branches, and a final fixed-order reduction (so results do not depend on
//! threads). Each model asks only for the sums it uses, so the accumulators fit in registers.

use super::{NeighbourGrid, Span};
use glam::Vec2;

/// Partial sums kept per lane.
const LANES: usize = 4;

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

/// Per-lane partial sums.
#[derive(Default)]
struct Lanes {
    seen: [f32; LANES],
    seen_x: [f32; LANES],
    seen_y: [f32; LANES],
    vel_x: [f32; LANES],
    vel_y: [f32; LANES],
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
    /// Adds [`LANES`] candidates: offsets `dx, dy` and velocities `vx, vy`. Padding lanes carry
    /// an infinite offset, which no radius admits. With `VIEW`, a candidate also has to lie
    /// within the field of view: cosine to `view.heading` at least `view.min_cos`.
    #[inline(always)]
    fn add<const NEAR: bool, const INVERSE: bool, const VIEW: bool>(
        &mut self,
        dx: &[f32; LANES],
        dy: &[f32; LANES],
        vx: &[f32; LANES],
        vy: &[f32; LANES],
        radii: Radii,
    ) {
        let Radii {
            sight2,
            near2,
            view,
        } = radii;
        let d2: [f32; LANES] = std::array::from_fn(|l| dx[l] * dx[l] + dy[l] * dy[l]);
        let visible: [u32; LANES] = std::array::from_fn(|l| {
            if VIEW {
                let along = dx[l] * view.heading.x + dy[l] * view.heading.y;
                mask(along >= view.min_cos * d2[l].sqrt())
            } else {
                u32::MAX
            }
        });
        let seen: [u32; LANES] = std::array::from_fn(|l| mask(d2[l] < sight2) & visible[l]);
        for l in 0..LANES {
            self.seen[l] += keep(1.0, seen[l]);
            self.seen_x[l] += keep(dx[l], seen[l]);
            self.seen_y[l] += keep(dy[l], seen[l]);
            self.vel_x[l] += keep(vx[l], seen[l]);
            self.vel_y[l] += keep(vy[l], seen[l]);
        }
        if NEAR || INVERSE {
            let near: [u32; LANES] = std::array::from_fn(|l| mask(d2[l] < near2) & visible[l]);
            if NEAR {
                for l in 0..LANES {
                    self.near_x[l] += keep(dx[l], near[l]);
                    self.near_y[l] += keep(dy[l], near[l]);
                }
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
    }

    fn total(self) -> NeighbourSums {
        let sum = |a: [f32; LANES]| a.iter().sum::<f32>();
        NeighbourSums {
            seen: sum(self.seen) as u32,
            seen_offset: Vec2::new(sum(self.seen_x), sum(self.seen_y)),
            seen_velocity: Vec2::new(sum(self.vel_x), sum(self.vel_y)),
            near_offset: Vec2::new(sum(self.near_x), sum(self.near_y)),
            near_inverse: Vec2::new(sum(self.inv_x), sum(self.inv_y)),
            near_apart: sum(self.apart) as u32,
        }
    }
}

/// A field of view: a unit heading and the least cosine to it that is seen.
#[derive(Clone, Copy, Debug)]
struct View {
    heading: Vec2,
    min_cos: f32,
}

/// Squared radii and the field of view, passed down the inner loops.
#[derive(Clone, Copy, Debug)]
struct Radii {
    sight2: f32,
    near2: f32,
    view: View,
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
        let heading = self.vel(k).normalize_or_zero();
        let radii = Radii {
            sight2: sight * sight,
            near2: near * near,
            view: View {
                heading,
                min_cos: view_min_cos,
            },
        };
        if view_min_cos > -1.0 && heading != Vec2::ZERO {
            self.sums::<NEAR, INVERSE, true>(k, sight.max(near), cap, radii)
        } else {
            self.sums::<NEAR, INVERSE, false>(k, sight.max(near), cap, radii)
        }
    }

    #[inline(always)]
    fn sums<const NEAR: bool, const INVERSE: bool, const VIEW: bool>(
        &self,
        k: usize,
        reach: f32,
        cap: usize,
        radii: Radii,
    ) -> NeighbourSums {
        let sight2 = radii.sight2;
        let mut lanes = Lanes::default();
        let mut spans = [Span {
            start: 0,
            end: 0,
            shift: Vec2::ZERO,
        }; 9];
        match self.spans(k, &mut spans) {
            Some(n) if cap == usize::MAX => {
                for span in &spans[..n] {
                    self.add_span::<NEAR, INVERSE, VIEW>(&mut lanes, k, span, radii);
                }
                let mut sums = lanes.total();
                // The spans include the boid itself, at distance 0: seen (when the sight radius
                // is not 0) with its own velocity, with a zero offset and no inverse term.
                if 0.0 < sight2 {
                    sums.seen -= 1;
                    sums.seen_velocity -= self.vel(k);
                }
                sums
            }
            _ => {
                // Capped, or a torus too small for whole spans: visit pair by pair (self is
                // skipped by the visit).
                self.for_each_neighbour(k, reach, cap, |j, d, _| {
                    let lane =
                        |x: f32| std::array::from_fn(|l| if l == 0 { x } else { f32::INFINITY });
                    let v = self.vel(j);
                    let zero = |x: f32| std::array::from_fn(|l| if l == 0 { x } else { 0.0 });
                    lanes.add::<NEAR, INVERSE, VIEW>(
                        &lane(d.x),
                        &lane(d.y),
                        &zero(v.x),
                        &zero(v.y),
                        radii,
                    );
                });
                lanes.total()
            }
        }
    }

    #[inline(always)]
    fn add_span<const NEAR: bool, const INVERSE: bool, const VIEW: bool>(
        &self,
        lanes: &mut Lanes,
        k: usize,
        span: &Span,
        radii: Radii,
    ) {
        let p = self.pos(k);
        let (ox, oy) = (span.shift.x - p.x, span.shift.y - p.y);
        let c = self.columns();
        let range = span.start..span.end;
        let (xs, ys, vxs, vys) = (
            &c.px[range.clone()],
            &c.py[range.clone()],
            &c.vx[range.clone()],
            &c.vy[range],
        );
        let full = xs.len() / LANES * LANES;
        let four =
            |c: &[f32]| -> [f32; LANES] { c.try_into().expect("chunks_exact gives whole chunks") };
        let shifted = |c: &[f32], o: f32| -> [f32; LANES] {
            let v = four(c);
            std::array::from_fn(|l| v[l] + o)
        };
        for (((cx, cy), cvx), cvy) in xs[..full]
            .chunks_exact(LANES)
            .zip(ys[..full].chunks_exact(LANES))
            .zip(vxs[..full].chunks_exact(LANES))
            .zip(vys[..full].chunks_exact(LANES))
        {
            lanes.add::<NEAR, INVERSE, VIEW>(
                &shifted(cx, ox),
                &shifted(cy, oy),
                &four(cvx),
                &four(cvy),
                radii,
            );
        }
        if full < xs.len() {
            // The last, short chunk: padding lanes sit infinitely far away.
            let pad = |col: &[f32], o: f32, fill: f32| -> [f32; LANES] {
                std::array::from_fn(|l| {
                    if full + l < col.len() {
                        col[full + l] + o
                    } else {
                        fill
                    }
                })
            };
            let inf = f32::INFINITY;
            lanes.add::<NEAR, INVERSE, VIEW>(
                &pad(xs, ox, inf),
                &pad(ys, oy, inf),
                &pad(vxs, 0.0, 0.0),
                &pad(vys, 0.0, 0.0),
                radii,
            );
        }
    }
}
