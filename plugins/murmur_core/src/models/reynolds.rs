//! Reynolds steering as the p5 leader sketch uses it: desired velocities at `max_speed`,
//! steering limited by `max_force`, separation weighted by 1/d².

use super::{SteerContext, check, with_length};
use crate::grid::{NeighbourGrid, NeighbourSums, SumsRequest};
use crate::lanes::{LANES, Lane};
use crate::space::Vector;
use serde::{Deserialize, Serialize};

/// Parameters of the Reynolds model. Distances in world units (pixels in the sketch), speeds per
/// tick (one tick = one frame at 60 Hz).
#[cfg_attr(feature = "reflect", derive(bevy_reflect::Reflect))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Reynolds {
    /// Top speed; every desired velocity has this length.
    pub max_speed: f32,
    /// Largest steering change per tick from alignment and cohesion.
    pub max_force: f32,
    /// Separation's steering may reach this multiple of `max_force` (1.2 in the sketch).
    pub separation_force_factor: f32,
    /// Neighbours closer than this are aligned with and drawn towards.
    pub perception_radius: f32,
    /// Neighbours closer than this push away, weighted by 1/d² (25 px in the sketch).
    pub separation_radius: f32,
    /// Weight of separation.
    pub separation_weight: f32,
    /// Weight of alignment.
    pub alignment_weight: f32,
    /// Weight of cohesion.
    pub cohesion_weight: f32,
}

impl Default for Reynolds {
    fn default() -> Self {
        Self {
            max_speed: 3.0,
            max_force: 0.05,
            separation_force_factor: 1.2,
            perception_radius: 50.0,
            separation_radius: 25.0,
            separation_weight: 1.5,
            alignment_weight: 1.0,
            cohesion_weight: 1.0,
        }
    }
}

impl Reynolds {
    /// The neighbourhood sums this model steers by.
    pub(super) fn request(&self) -> SumsRequest {
        SumsRequest {
            sight: self.perception_radius,
            near: self.separation_radius,
            near_offsets: false,
            inverse: true,
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
        let mut a = V::ZERO;
        if s.seen > 0 {
            let n = s.seen as f32;
            let align = (with_length(s.seen_velocity / n, self.max_speed) - v)
                .clamp_length_max(self.max_force);
            let cohere = (with_length(s.seen_offset / n, self.max_speed) - v)
                .clamp_length_max(self.max_force);
            a += align * self.alignment_weight + cohere * self.cohesion_weight;
        }
        // Away from each near bird, weighted 1/d²; coincident birds (d = 0) have no direction to
        // push along and the sketch skips them.
        if s.near_apart > 0 {
            let push = -s.near_inverse / s.near_apart as f32;
            let separate = (with_length(push, self.max_speed) - v)
                .clamp_length_max(self.max_force * self.separation_force_factor);
            a += separate * self.separation_weight;
        }
        (a, s.seen)
    }

    #[inline]
    pub(super) fn integrate_velocity<V: Vector>(&self, v: V, a: V) -> V {
        (v + a).clamp_length_max(self.max_speed)
    }

    /// [`Self::integrate_velocity`] lane by lane, in the same operations (glam's
    /// `clamp_length_max`).
    #[inline]
    pub(super) fn integrate_lanes<V: Vector>(&self, v: &mut [Lane; 3], a: &[Lane; 3]) {
        let max = self.max_speed;
        for l in 0..LANES {
            let mut w = [0.0f32; 3];
            for axis in 0..V::DIM {
                w[axis] = v[axis][l] + a[axis][l];
            }
            let mut length2 = w[0] * w[0];
            for x in &w[1..V::DIM] {
                length2 += x * x;
            }
            let length = length2.sqrt();
            let over = length2 > max * max;
            for axis in 0..V::DIM {
                let x = w[axis];
                v[axis][l] = if over { max * (x / length) } else { x };
            }
        }
    }

    pub(super) fn validate(&self) -> Result<(), (&'static str, String)> {
        check("max_speed", self.max_speed, 0.0)?;
        check("max_force", self.max_force, 0.0)?;
        check("separation_force_factor", self.separation_force_factor, 0.0)?;
        check(
            "perception_radius",
            self.perception_radius,
            f32::MIN_POSITIVE,
        )?;
        check("separation_radius", self.separation_radius, 0.0)?;
        check("separation_weight", self.separation_weight, f32::MIN)?;
        check("alignment_weight", self.alignment_weight, f32::MIN)?;
        check("cohesion_weight", self.cohesion_weight, f32::MIN)
    }
}
