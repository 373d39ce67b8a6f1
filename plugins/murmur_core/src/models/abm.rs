//! The "Flocking" model of the agent-based-modelling frameworks comparison
//! (JuliaDynamics/ABMFrameworksComparison), exactly as declared there: for each neighbour within
//! vision, h = periodic offset to it, cohere += h, match += its velocity, separate -= h when
//! |h| < separation; vel += (cohere_factor cohere + separate_factor separate + match_factor
//! match) / max(n, 1); vel normalised; pos += speed vel, wrapped.

use super::{SteerContext, check};
use crate::grid::{NeighbourGrid, NeighbourSums, SumsRequest};
use crate::lanes::LANES;
use crate::space::Vector;
use serde::{Deserialize, Serialize};

/// Parameters of the ABM-comparison flocking model (their names).
#[cfg_attr(feature = "reflect", derive(bevy_reflect::Reflect))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AbmFlocking {
    /// Distance moved per step.
    pub speed: f32,
    /// Neighbours closer than this push away.
    pub separation: f32,
    /// Neighbours within this distance count.
    pub vision: f32,
    /// Weight of the summed offsets.
    pub cohere_factor: f32,
    /// Weight of the summed pushes.
    pub separate_factor: f32,
    /// Weight of the summed velocities.
    pub match_factor: f32,
}

impl Default for AbmFlocking {
    fn default() -> Self {
        Self {
            speed: 1.0,
            separation: 1.0,
            vision: 5.0,
            cohere_factor: 0.03,
            separate_factor: 0.015,
            match_factor: 0.05,
        }
    }
}

impl AbmFlocking {
    /// The new velocity (returned in place of an acceleration; see `integrate_velocity`).
    /// The neighbourhood sums this model steers by.
    pub(super) fn request(&self) -> SumsRequest {
        SumsRequest {
            sight: self.vision,
            near: self.separation,
            near_offsets: true,
            inverse: false,
        }
    }

    /// Boid `k`'s steering from its neighbourhood sums `s` (see [`Self::request`]).
    #[inline]
    pub(super) fn steer<V: Vector>(
        &self,
        grid: &NeighbourGrid<V>,
        k: usize,
        s: &NeighbourSums<V>,
        _ctx: &SteerContext<V>,
    ) -> (V, u32) {
        let v = grid.vel(k);
        let n = s.seen.max(1) as f32;
        let change = (s.seen_offset * self.cohere_factor - s.near_offset * self.separate_factor
            + s.seen_velocity * self.match_factor)
            / n;
        // `normalize_or`, with the fallback worked out only when it is needed (same bits).
        let w = v + change;
        let rcp = w.length_recip();
        let heading = if rcp.is_finite() && rcp > 0.0 {
            w * rcp
        } else {
            v.normalize_or(V::X)
        };
        (heading * self.speed, s.seen)
    }

    /// [`Self::steer`] for the consecutive boids `first..first + sums.len()` (their sums), handed
    /// to `out`: eight boids at a time in lanes, the same operations in the same order, so the
    /// same bits, with the divisions and square roots of eight boids done together.
    pub(super) fn steer_run<V: Vector>(
        &self,
        grid: &NeighbourGrid<V>,
        first: usize,
        sums: &[NeighbourSums<V>],
        mut out: impl FnMut(usize, V, u32),
    ) {
        let velocity = &grid.columns().vel;
        for (c, chunk) in sums.chunks(LANES).enumerate() {
            let at = first + c * LANES;
            let m = chunk.len();
            // Per axis: the summed offsets, near offsets and velocities; then the velocity.
            let mut n = [0.0f32; LANES];
            let (mut so, mut no, mut mv, mut v) = (
                [[0.0f32; LANES]; 3],
                [[0.0f32; LANES]; 3],
                [[0.0f32; LANES]; 3],
                [[0.0f32; LANES]; 3],
            );
            for (l, s) in chunk.iter().enumerate() {
                n[l] = s.seen.max(1) as f32;
                for a in 0..V::DIM {
                    so[a][l] = s.seen_offset.axis(a);
                    no[a][l] = s.near_offset.axis(a);
                    mv[a][l] = s.seen_velocity.axis(a);
                }
            }
            for a in 0..V::DIM {
                v[a][..m].copy_from_slice(&velocity[a][at..at + m]);
            }
            let mut h = [[0.0f32; LANES]; 3];
            for l in 0..LANES {
                let mut w = [0.0f32; 3];
                for a in 0..V::DIM {
                    let change = (so[a][l] * self.cohere_factor - no[a][l] * self.separate_factor
                        + mv[a][l] * self.match_factor)
                        / n[l];
                    w[a] = v[a][l] + change;
                }
                // `normalize_or` of w, falling back on v's direction, then on +x.
                let (mut w2, mut v2) = (w[0] * w[0], v[0][l] * v[0][l]);
                for a in 1..V::DIM {
                    w2 += w[a] * w[a];
                    v2 += v[a][l] * v[a][l];
                }
                let rcp = 1.0 / w2.sqrt();
                let rcp_v = 1.0 / v2.sqrt();
                let unit_v = rcp_v.is_finite() && rcp_v > 0.0;
                let unit_w = rcp.is_finite() && rcp > 0.0;
                for a in 0..V::DIM {
                    let fallback = if a == 0 { 1.0 } else { 0.0 };
                    let f = if unit_v { v[a][l] * rcp_v } else { fallback };
                    h[a][l] = if unit_w { w[a] * rcp } else { f };
                }
            }
            for (l, s) in chunk.iter().enumerate() {
                out(
                    at + l,
                    V::from_axes([h[0][l], h[1][l], h[2][l]]) * self.speed,
                    s.seen,
                );
            }
        }
    }

    /// The steering result *is* the new velocity.
    #[inline]
    pub(super) fn integrate_velocity<V: Vector>(&self, _v: V, a: V) -> V {
        a
    }

    pub(super) fn validate(&self) -> Result<(), (&'static str, String)> {
        check("speed", self.speed, 0.0)?;
        check("separation", self.separation, 0.0)?;
        check("vision", self.vision, f32::MIN_POSITIVE)?;
        check("cohere_factor", self.cohere_factor, f32::MIN)?;
        check("separate_factor", self.separate_factor, f32::MIN)?;
        check("match_factor", self.match_factor, f32::MIN)
    }
}
