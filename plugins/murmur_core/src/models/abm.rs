//! The "Flocking" model of the agent-based-modelling frameworks comparison
//! (JuliaDynamics/ABMFrameworksComparison), exactly as declared there: for each neighbour within
//! vision, h = periodic offset to it, cohere += h, match += its velocity, separate -= h when
//! |h| < separation; vel += (cohere_factor cohere + separate_factor separate + match_factor
//! match) / max(n, 1); vel normalised; pos += speed vel, wrapped.

use super::{SteerContext, check};
use crate::grid::{NeighbourGrid, NeighbourSums, SumsRequest};
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
