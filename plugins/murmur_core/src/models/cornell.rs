//! The Cornell / DE1-SoC velocity-factor model: avoid, match, centre, then clamp the speed.

use super::{SteerContext, check};
use crate::grid::{NeighbourGrid, NeighbourSums, SumsRequest};
use crate::lanes::{LANES, Lane};
use crate::space::Vector;
use serde::{Deserialize, Serialize};

/// Parameters of the Cornell model; the defaults are the published set (V. Hunter Adams).
/// Distances in pixels, speeds in pixels per tick (frame). The turn factor and margins belong to
/// the flock's [`crate::edges::Edges`] (mode `turn`).
#[cfg_attr(feature = "reflect", derive(bevy_reflect::Reflect))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Cornell {
    /// Other boids within this distance count for matching and centering.
    pub visual_range: f32,
    /// Other boids within this distance are avoided.
    pub protected_range: f32,
    /// Pull towards the neighbours' centre of mass, per tick.
    pub centering_factor: f32,
    /// Push away from boids inside the protected range, per tick.
    pub avoid_factor: f32,
    /// Pull towards the neighbours' mean velocity, per tick.
    pub matching_factor: f32,
    /// Speeds are clamped to at most this.
    pub max_speed: f32,
    /// Speeds are clamped to at least this.
    pub min_speed: f32,
}

impl Default for Cornell {
    fn default() -> Self {
        Self {
            visual_range: 40.0,
            protected_range: 8.0,
            centering_factor: 0.0005,
            avoid_factor: 0.05,
            matching_factor: 0.05,
            max_speed: 6.0,
            min_speed: 3.0,
        }
    }
}

impl Cornell {
    /// The neighbourhood sums this model steers by.
    pub(super) fn request(&self) -> SumsRequest {
        SumsRequest {
            sight: self.visual_range,
            near: self.protected_range,
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
        // close_d = sum of (pos - other.pos) over the boids inside the protected range.
        let mut a = -s.near_offset * self.avoid_factor;
        if s.seen > 0 {
            let n = s.seen as f32;
            a += (s.seen_velocity / n - v) * self.matching_factor;
            a += (s.seen_offset / n) * self.centering_factor;
        }
        (a, s.seen)
    }

    #[inline]
    pub(super) fn integrate_velocity<V: Vector>(&self, v: V, a: V) -> V {
        let v = v + a;
        let speed = v.length();
        // All three outcomes are worked out and one picked without a branch: which one a boid
        // takes changes from boid to boid, which a branch would often mispredict.
        let fast = v * (self.max_speed / speed);
        // The original divides by the speed; a stopped boid sets off along +x instead.
        let rcp = speed.recip();
        let direction = if rcp.is_finite() && rcp > 0.0 {
            v * rcp
        } else {
            V::X
        };
        let slow = direction * self.min_speed;
        if speed > self.max_speed {
            fast
        } else if speed < self.min_speed {
            slow
        } else {
            v
        }
    }

    /// [`Self::integrate_velocity`] lane by lane, in the same operations.
    #[inline]
    pub(super) fn integrate_lanes<V: Vector>(&self, v: &mut [Lane; 3], a: &[Lane; 3]) {
        // Every select on its own (no `else if`) and the finiteness test as two comparisons,
        // so that the compiler keeps the loop in vector registers: a branch per lane would
        // mispredict on birds that cruise about the speed limits.
        for l in 0..LANES {
            let mut w = [0.0f32; 3];
            for axis in 0..V::DIM {
                w[axis] = v[axis][l] + a[axis][l];
            }
            let mut speed2 = w[0] * w[0];
            for x in &w[1..V::DIM] {
                speed2 += x * x;
            }
            let speed = speed2.sqrt();
            let fast = self.max_speed / speed;
            let rcp = 1.0 / speed;
            // `rcp.is_finite() && rcp > 0.0`: a positive reciprocal below infinity.
            let unit = (rcp > 0.0) & (rcp < f32::INFINITY);
            let over = speed > self.max_speed;
            let under = speed < self.min_speed;
            for axis in 0..V::DIM {
                let x = w[axis];
                // The direction: +x for a stopped bird.
                let fallback = if axis == 0 { 1.0 } else { 0.0 };
                let d = if unit { x * rcp } else { fallback };
                let slow = d * self.min_speed;
                let kept = if under { slow } else { x };
                v[axis][l] = if over { x * fast } else { kept };
            }
        }
    }

    pub(super) fn validate(&self) -> Result<(), (&'static str, String)> {
        check("visual_range", self.visual_range, f32::MIN_POSITIVE)?;
        check("protected_range", self.protected_range, 0.0)?;
        check("centering_factor", self.centering_factor, f32::MIN)?;
        check("avoid_factor", self.avoid_factor, f32::MIN)?;
        check("matching_factor", self.matching_factor, f32::MIN)?;
        check("min_speed", self.min_speed, 0.0)?;
        check("max_speed", self.max_speed, self.min_speed)
    }
}
