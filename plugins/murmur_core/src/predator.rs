//! Predators (the DE1-SoC extension): a bird within a predator's range turns away from it axis
//! by axis; a hunting predator chases the nearest bird.

use crate::grid::Columns;
use crate::space::Vector;
use crate::world::WorldBounds;
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// How birds react to a predator, and how a hunting predator flies.
#[cfg_attr(feature = "reflect", derive(bevy_reflect::Reflect))]
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PredatorParams {
    /// Birds closer than this flee, in world units (100 in the DE1-SoC boids).
    pub range: f32,
    /// Velocity change per tick and axis of a fleeing bird, away from the predator (the
    /// DE1-SoC's predator turn factor, 0.5).
    pub flee_factor: f32,
    /// A hunting predator's top speed, in world units per tick.
    pub hunt_speed: f32,
    /// A hunting predator's largest change of velocity per tick.
    pub hunt_force: f32,
}

impl Default for PredatorParams {
    fn default() -> Self {
        Self {
            range: 100.0,
            flee_factor: 0.5,
            hunt_speed: 4.0,
            hunt_force: 0.25,
        }
    }
}

impl PredatorParams {
    /// The velocity change of a bird at offset `away` (bird minus predator): `flee_factor` on
    /// each axis, away from the predator, while it is within `range`.
    #[inline]
    pub fn flee<V: Vector>(&self, away: V) -> V {
        if away.length_squared() >= self.range * self.range {
            return V::ZERO;
        }
        // Per axis, as the DE1-SoC does: no push along an axis the two share exactly.
        let sign = |d: f32| {
            if d > 0.0 {
                1.0
            } else if d < 0.0 {
                -1.0
            } else {
                0.0
            }
        };
        let mut push = V::ZERO;
        for a in 0..V::DIM {
            *push.axis_mut(a) = sign(away.axis(a));
        }
        push * self.flee_factor
    }

    /// A hunting predator's next velocity: towards `to_target` (the offset to its prey) at top
    /// speed, turning by at most `hunt_force`; straight on when there is no prey.
    pub fn chase<V: Vector>(&self, vel: V, to_target: Option<V>) -> V {
        let desired = match to_target {
            Some(d) if d != V::ZERO => d.normalize_or_zero() * self.hunt_speed,
            _ => vel,
        };
        let v = (vel + (desired - vel).clamp_length_max(self.hunt_force))
            .clamp_length_max(self.hunt_speed);
        if v.is_finite() { v } else { V::ZERO }
    }

    /// Checks the values, naming the first bad field.
    pub fn validate(&self) -> Result<(), (&'static str, String)> {
        for (field, value) in [
            ("range", self.range),
            ("flee_factor", self.flee_factor),
            ("hunt_speed", self.hunt_speed),
            ("hunt_force", self.hunt_force),
        ] {
            if !(value.is_finite() && value >= 0.0) {
                return Err((field, format!("must be a finite number >= 0, got {value}")));
            }
        }
        Ok(())
    }
}

/// A predator as the flock sees it this tick.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PredatorState<V: Vector = Vec2> {
    /// Where it is.
    pub pos: V,
    /// Its range and how hard birds turn away.
    pub params: PredatorParams,
}

/// The bird nearest to `from` (across the seams of a torus), if any; ties go to the lower index.
pub fn nearest<V: Vector>(world: &WorldBounds<V>, from: V, birds: &Columns<V>) -> Option<usize> {
    let mut best: Option<(usize, f32)> = None;
    for i in 0..birds.len() {
        let d2 = world.delta(from, birds.pos_of(i)).length_squared();
        if d2.is_finite() && best.is_none_or(|(_, b)| d2 < b) {
            best = Some((i, d2));
        }
    }
    best.map(|(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn birds_in_range_turn_away_axis_by_axis() {
        let p = PredatorParams::default();
        assert_eq!(p.flee(Vec2::new(30.0, -40.0)), Vec2::new(0.5, -0.5));
        assert_eq!(p.flee(Vec2::new(-10.0, 0.0)), Vec2::new(-0.5, 0.0));
        assert_eq!(
            p.flee(Vec2::new(60.0, 80.0)),
            Vec2::ZERO,
            "at the range: out"
        );
        assert_eq!(p.flee(Vec2::new(200.0, 0.0)), Vec2::ZERO);
    }

    #[test]
    fn a_hunter_turns_towards_its_prey_within_its_limits() {
        let p = PredatorParams::default();
        let v = p.chase(Vec2::new(4.0, 0.0), Some(Vec2::new(0.0, 100.0)));
        assert!(v.y > 0.0 && v.length() <= p.hunt_speed + 1e-5, "{v}");
        assert!((v - Vec2::new(4.0, 0.0)).length() <= p.hunt_force + 1e-5);
        assert_eq!(p.chase(Vec2::new(1.0, 2.0), None), Vec2::new(1.0, 2.0));
        assert_eq!(p.chase(Vec2::ZERO, Some(Vec2::ZERO)), Vec2::ZERO);
    }

    #[test]
    fn the_nearest_bird_is_found_across_the_seam() {
        let world = WorldBounds::centred(100.0, 100.0, true);
        let pos = Columns::from_state(
            &[Vec2::new(20.0, 0.0), Vec2::new(-48.0, 0.0)],
            &[Vec2::ZERO; 2],
        );
        assert_eq!(nearest(&world, Vec2::new(48.0, 0.0), &pos), Some(1));
        let open = WorldBounds::centred(100.0, 100.0, false);
        assert_eq!(nearest(&open, Vec2::new(48.0, 0.0), &pos), Some(0));
        assert_eq!(nearest(&open, Vec2::ZERO, &Columns::default()), None);
    }
}
