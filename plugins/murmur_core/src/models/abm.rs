//! The "Flocking" model of the agent-based-modelling frameworks comparison
//! (JuliaDynamics/ABMFrameworksComparison), exactly as declared there: for each neighbour within
//! vision, h = periodic offset to it, cohere += h, match += its velocity, separate -= h when
//! |h| < separation; vel += (cohere_factor cohere + separate_factor separate + match_factor
//! match) / max(n, 1); vel normalised; pos += speed vel, wrapped.

use super::{SteerContext, check};
use crate::grid::{NeighbourGrid, NeighbourSums, SumsRequest};
use crate::lanes::LANES;
use glam::Vec2;
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
    pub(super) fn steer(
        &self,
        grid: &NeighbourGrid,
        k: usize,
        s: &NeighbourSums,
        _ctx: &SteerContext,
    ) -> (Vec2, u32) {
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
            v.normalize_or(Vec2::X)
        };
        (heading * self.speed, s.seen)
    }

    /// [`Self::steer`] for the consecutive boids `first..first + sums.len()` (their sums), handed
    /// to `out`: eight boids at a time in lanes, the same operations in the same order, so the
    /// same bits, with the divisions and square roots of eight boids done together.
    pub(super) fn steer_run(
        &self,
        grid: &NeighbourGrid,
        first: usize,
        sums: &[NeighbourSums],
        mut out: impl FnMut(usize, Vec2, u32),
    ) {
        let velocity = grid.columns();
        for (c, chunk) in sums.chunks(LANES).enumerate() {
            let at = first + c * LANES;
            let m = chunk.len();
            let mut lane = [[0.0f32; LANES]; 8];
            let [n, sx, sy, nx, ny, mx, my, _] = &mut lane;
            for (l, s) in chunk.iter().enumerate() {
                n[l] = s.seen.max(1) as f32;
                (sx[l], sy[l]) = (s.seen_offset.x, s.seen_offset.y);
                (nx[l], ny[l]) = (s.near_offset.x, s.near_offset.y);
                (mx[l], my[l]) = (s.seen_velocity.x, s.seen_velocity.y);
            }
            let (mut vx, mut vy) = ([0.0f32; LANES], [0.0f32; LANES]);
            vx[..m].copy_from_slice(&velocity.vx[at..at + m]);
            vy[..m].copy_from_slice(&velocity.vy[at..at + m]);
            let (mut hx, mut hy) = ([0.0f32; LANES], [0.0f32; LANES]);
            for l in 0..LANES {
                let cx = (sx[l] * self.cohere_factor - nx[l] * self.separate_factor
                    + mx[l] * self.match_factor)
                    / n[l];
                let cy = (sy[l] * self.cohere_factor - ny[l] * self.separate_factor
                    + my[l] * self.match_factor)
                    / n[l];
                let (wx, wy) = (vx[l] + cx, vy[l] + cy);
                // `Vec2::normalize_or` of w, falling back on v's direction, then on +x.
                let rcp = 1.0 / (wx * wx + wy * wy).sqrt();
                let rcp_v = 1.0 / (vx[l] * vx[l] + vy[l] * vy[l]).sqrt();
                let (fx, fy) = if rcp_v.is_finite() && rcp_v > 0.0 {
                    (vx[l] * rcp_v, vy[l] * rcp_v)
                } else {
                    (1.0, 0.0)
                };
                (hx[l], hy[l]) = if rcp.is_finite() && rcp > 0.0 {
                    (wx * rcp, wy * rcp)
                } else {
                    (fx, fy)
                };
            }
            for (l, s) in chunk.iter().enumerate() {
                out(at + l, Vec2::new(hx[l], hy[l]) * self.speed, s.seen);
            }
        }
    }

    /// The steering result *is* the new velocity.
    #[inline]
    pub(super) fn integrate_velocity(&self, _v: Vec2, a: Vec2) -> Vec2 {
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
