//! SpaceBoids: heading = random + towards average position + away from near boids + average
//! heading, each normalised and weighted; the random direction changes every half second.

use super::{SteerContext, check};
use crate::grid::{NeighbourGrid, NeighbourSums, SumsRequest};
use crate::rng::{hash_words, mix64, unit_direction};
use crate::space::Vector;
use serde::{Deserialize, Serialize};

/// Parameters of the SpaceBoids model. Distances in world units, speeds per tick (60 Hz).
#[cfg_attr(feature = "reflect", derive(bevy_reflect::Reflect))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SpaceBoids {
    /// Boids within this distance count for the average position and heading.
    pub sight_range: f32,
    /// Boids within this distance are avoided.
    pub near_range: f32,
    /// Weight of the wandering random direction.
    pub random_weight: f32,
    /// Weight of the direction towards the average position.
    pub position_weight: f32,
    /// Weight of the direction away from near boids.
    pub avoid_weight: f32,
    /// Weight of the average heading.
    pub heading_weight: f32,
    /// Ticks between changes of the random direction (30 = 0.5 s at 60 Hz).
    pub random_interval_ticks: u32,
    /// Acceleration along the heading, per tick² (the rigid body's thrust).
    pub thrust: f32,
    /// Fraction of velocity lost per tick (the rigid body's drag).
    pub drag: f32,
    /// Top speed.
    pub max_speed: f32,
}

impl Default for SpaceBoids {
    fn default() -> Self {
        Self {
            sight_range: 60.0,
            near_range: 16.0,
            random_weight: 0.35,
            position_weight: 0.6,
            avoid_weight: 1.5,
            heading_weight: 1.0,
            random_interval_ticks: 30,
            thrust: 0.12,
            drag: 0.01,
            max_speed: 3.5,
        }
    }
}

impl SpaceBoids {
    /// The neighbourhood sums this model steers by.
    pub(super) fn request(&self) -> SumsRequest {
        SumsRequest {
            sight: self.sight_range,
            near: self.near_range,
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
        ctx: &SteerContext<V>,
    ) -> (V, u32) {
        let id = ctx.ids[grid.order()[k] as usize] as u64;
        // The source divides by the neighbour count even when it is 0 and normalises zero
        // vectors; here an empty neighbourhood or a zero sum adds nothing.
        let towards = s.seen_offset.normalize_or_zero(); // direction of the average position
        let away = (-s.near_offset).normalize_or_zero(); // sum of (pos - other.pos), normalised
        let heading = self.random_direction::<V>(ctx.seed, id, ctx.tick) * self.random_weight
            + towards * self.position_weight
            + away * self.avoid_weight
            + s.seen_velocity.normalize_or_zero() * self.heading_weight;
        (heading.normalize_or_zero() * self.thrust, s.seen)
    }

    /// The wandering direction of boid `id` at `tick`: constant for `random_interval_ticks`, with
    /// each boid's changes staggered so the flock does not twitch in unison.
    pub fn random_direction<V: Vector>(&self, seed: u64, id: u64, tick: u64) -> V {
        let interval = self.random_interval_ticks.max(1) as u64;
        let phase = mix64(seed ^ id) % interval;
        let epoch = (tick + phase) / interval;
        unit_direction(hash_words(&[seed, id, epoch, WANDER_STREAM]))
    }

    #[inline]
    pub(super) fn integrate_velocity<V: Vector>(&self, v: V, a: V) -> V {
        ((v + a) * (1.0 - self.drag)).clamp_length_max(self.max_speed)
    }

    pub(super) fn validate(&self) -> Result<(), (&'static str, String)> {
        check("sight_range", self.sight_range, f32::MIN_POSITIVE)?;
        check("near_range", self.near_range, 0.0)?;
        check("random_weight", self.random_weight, f32::MIN)?;
        check("position_weight", self.position_weight, f32::MIN)?;
        check("avoid_weight", self.avoid_weight, f32::MIN)?;
        check("heading_weight", self.heading_weight, f32::MIN)?;
        check("thrust", self.thrust, 0.0)?;
        check("drag", self.drag, 0.0)?;
        if self.drag > 1.0 {
            return Err(("drag", format!("must be at most 1, got {}", self.drag)));
        }
        check("max_speed", self.max_speed, 0.0)
    }
}

/// Stream tag separating the wander directions from other uses of the same seed.
const WANDER_STREAM: u64 = 0x5350_4143_4542_4f49;
