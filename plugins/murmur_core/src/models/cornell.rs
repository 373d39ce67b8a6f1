//! The Cornell / DE1-SoC velocity-factor model: avoid, match, centre, then clamp the speed.

use super::{SteerContext, check};
use crate::grid::{NeighbourGrid, NeighbourSums, SumsRequest};
use crate::lanes::{LANES, Lane};
use glam::Vec2;
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
    pub(super) fn steer(
        &self,
        grid: &NeighbourGrid,
        k: usize,
        s: &NeighbourSums,
        _ctx: &SteerContext,
    ) -> (Vec2, u32) {
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
    pub(super) fn integrate_velocity(&self, v: Vec2, a: Vec2) -> Vec2 {
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
            Vec2::X
        };
        let slow = direction * self.min_speed;
        let pick = |c: bool, a: Vec2, b: Vec2| Vec2::select(glam::BVec2::splat(c), a, b);
        pick(
            speed > self.max_speed,
            fast,
            pick(speed < self.min_speed, slow, v),
        )
    }

    /// [`Self::integrate_velocity`] lane by lane, in the same operations.
    #[inline]
    pub(super) fn integrate_lanes(&self, vx: &mut Lane, vy: &mut Lane, ax: &Lane, ay: &Lane) {
        // Every select on its own (no `else if`) and the finiteness test as two comparisons,
        // so that the compiler keeps the loop in vector registers: a branch per lane would
        // mispredict on birds that cruise about the speed limits.
        for l in 0..LANES {
            let (x, y) = (vx[l] + ax[l], vy[l] + ay[l]);
            let speed = (x * x + y * y).sqrt();
            let fast = self.max_speed / speed;
            let rcp = 1.0 / speed;
            // `rcp.is_finite() && rcp > 0.0`: a positive reciprocal below infinity.
            let unit = (rcp > 0.0) & (rcp < f32::INFINITY);
            let dx = if unit { x * rcp } else { 1.0 };
            let dy = if unit { y * rcp } else { 0.0 };
            let (sx, sy) = (dx * self.min_speed, dy * self.min_speed);
            let over = speed > self.max_speed;
            let under = speed < self.min_speed;
            let (kx, ky) = (if under { sx } else { x }, if under { sy } else { y });
            vx[l] = if over { x * fast } else { kx };
            vy[l] = if over { y * fast } else { ky };
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
