//! Vicsek et al. (1995): constant speed; each step every particle takes the mean heading of all
//! particles within `radius` of it (itself included) plus uniform noise in [-eta/2, eta/2]; all
//! move at once.

use super::{SteerContext, check};
use crate::grid::{NeighbourGrid, NeighbourSums, SumsRequest};
use crate::rng::{hash_words, unit_f32};
use crate::space::Vector;
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// Parameters of the Vicsek model (the paper's symbols). One tick is the paper's time step 1.
#[cfg_attr(feature = "reflect", derive(bevy_reflect::Reflect))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Vicsek {
    /// Speed v, per tick (0.03 in the paper).
    pub speed: f32,
    /// Interaction radius r (1 in the paper).
    pub radius: f32,
    /// Noise amplitude eta: each new heading gets a uniform angle in [-eta/2, eta/2] radians.
    pub eta: f32,
}

impl Default for Vicsek {
    fn default() -> Self {
        Self {
            speed: 0.03,
            radius: 1.0,
            eta: 2.0,
        }
    }
}

/// Stream tag for the noise draws.
const NOISE_STREAM: u64 = 0x5649_4353_454b_4e5a;

/// Stream tag for the second noise draw in 3D (the direction round the cap).
const NOISE_STREAM_3D: u64 = 0x5649_4353_454b_335a;

impl Vicsek {
    /// The new velocity (returned in place of an acceleration; see `integrate_velocity`).
    /// The neighbourhood sums this model steers by.
    pub(super) fn request(&self) -> SumsRequest {
        SumsRequest {
            sight: self.radius,
            near: 0.0,
            near_offsets: false,
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
        ctx: &SteerContext<V>,
    ) -> (V, u32) {
        let v = grid.vel(k);
        // All particles share one speed, so the direction of the summed velocities is the
        // direction of the summed unit headings, itself included.
        let sum = s.seen_velocity + v;
        let id = ctx.ids[grid.order()[k] as usize] as u64;
        let u = unit_f32(hash_words(&[ctx.seed, id, ctx.tick, NOISE_STREAM]));
        if V::DIM == 2 {
            // The angle of the sum (atan2 of summed sines and cosines) plus a uniform angle in
            // [-eta/2, eta/2].
            let sum = sum.to_vec2();
            let heading = if sum == Vec2::ZERO {
                0.0
            } else {
                sum.to_angle()
            };
            let noise = (u - 0.5) * self.eta;
            return (
                V::from_vec2(Vec2::from_angle(heading + noise) * self.speed),
                s.seen,
            );
        }
        // In 3D (Czirók, Vicsek et al.'s three-dimensional version): a direction drawn uniformly
        // from the cap of half-angle eta/2 about the mean heading, the solid-angle analogue of
        // the plane's uniform angle. The cap's cosine is uniform between cos(eta/2) and 1.
        let w = unit_f32(hash_words(&[ctx.seed, id, ctx.tick, NOISE_STREAM_3D]));
        let mean = sum.normalize_or(v.normalize_or(V::X));
        let half = (0.5 * self.eta).min(std::f32::consts::PI);
        let cos = 1.0 - u * (1.0 - half.cos());
        let angle = cos.clamp(-1.0, 1.0).acos();
        let heading = V::deflect(mean, angle, w * std::f32::consts::TAU);
        (heading * self.speed, s.seen)
    }

    /// Synchronous update: the steering result *is* the new velocity.
    #[inline]
    pub(super) fn integrate_velocity<V: Vector>(&self, _v: V, a: V) -> V {
        a
    }

    pub(super) fn validate(&self) -> Result<(), (&'static str, String)> {
        check("speed", self.speed, 0.0)?;
        check("radius", self.radius, f32::MIN_POSITIVE)?;
        check("eta", self.eta, 0.0)
    }
}
