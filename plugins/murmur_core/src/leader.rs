//! Leader steering: seek, arrive, then orbit at a radius (the p5 sketch), or flee. In 3D the
//! orbit is a ring about an axis through the leader (vertical unless the leader says otherwise).

use crate::space::Vector;
#[cfg(test)]
use glam::Vec2;
use glam::Vec3;
use serde::{Deserialize, Serialize};

/// How a flock reacts to a leader.
#[cfg_attr(feature = "reflect", derive(bevy_reflect::Reflect))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LeaderMode {
    /// Stream to the leader, gather, then circle it.
    #[default]
    Follow,
    /// Get away from the leader when it comes within `flee_radius`.
    Flee,
    /// Ignore it.
    Off,
}

/// Tuning of the leader behaviour.
#[cfg_attr(feature = "reflect", derive(bevy_reflect::Reflect))]
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LeaderParams {
    /// Follow, flee or ignore.
    pub mode: LeaderMode,
    /// Radius of the circle the flock settles on around the leader, in world units.
    pub orbit_radius: f32,
    /// Width of the band around the circle in which a bird turns from seeking to circling, in
    /// world units; it also sets how gently birds arrive.
    pub slowing_radius: f32,
    /// Largest steering change per tick, in world units per tick².
    pub max_force: f32,
    /// Weight of the leader's pull relative to the flock's own rules.
    pub weight: f32,
    /// Birds closer than this flee a fleeing leader, in world units.
    pub flee_radius: f32,
    /// Largest steering change per tick while fleeing (danger overrides the flock's manners).
    pub flee_force: f32,
    /// +1 circles counter-clockwise, -1 clockwise.
    pub orbit_direction: f32,
    /// Birds farther than this ignore a following leader, in world units (0: every bird
    /// follows, as in the p5 sketch).
    pub follow_range: f32,
    /// In 3D, the axis of the ring the flock circles on, through the leader (`[0, 1, 0]`:
    /// vertical, the ring horizontal); `orbit_direction` is about it by the right-hand rule.
    /// A 2D flock circles in its plane and ignores it.
    #[serde(default = "vertical", skip_serializing_if = "is_vertical")]
    pub orbit_axis: [f32; 3],
}

fn vertical() -> [f32; 3] {
    [0.0, 1.0, 0.0]
}

fn is_vertical(axis: &[f32; 3]) -> bool {
    *axis == vertical()
}

impl Default for LeaderParams {
    fn default() -> Self {
        Self {
            mode: LeaderMode::Follow,
            orbit_radius: 80.0,
            slowing_radius: 100.0,
            max_force: 0.05,
            weight: 1.0,
            flee_radius: 150.0,
            flee_force: 0.2,
            orbit_direction: 1.0,
            follow_range: 0.0,
            orbit_axis: vertical(),
        }
    }
}

impl LeaderParams {
    /// The orbit's axis as a unit vector (vertical when the one given has no direction).
    pub fn axis(&self) -> Vec3 {
        Vec3::from_array(self.orbit_axis).normalize_or(Vec3::Y)
    }

    /// The steering acceleration on a bird at offset `to_leader` (from the bird to the leader's
    /// nearest image) moving at `vel`, for a flock whose cruising speed is `speed`.
    #[inline]
    pub fn steer<V: Vector>(&self, to_leader: V, vel: V, speed: f32) -> V {
        let dist = to_leader.length();
        let desired = match self.mode {
            LeaderMode::Off => return V::ZERO,
            LeaderMode::Flee => {
                if dist >= self.flee_radius {
                    return V::ZERO;
                }
                // Straight away; a bird exactly on the leader picks any direction it already has.
                let away = (-to_leader)
                    .try_normalize()
                    .unwrap_or_else(|| vel.normalize_or(V::X));
                // Danger overrides the flock's manners: fleeing has its own steering limit.
                return (away * speed - vel).clamp_length_max(self.flee_force) * self.weight;
            }
            LeaderMode::Follow => {
                if self.follow_range > 0.0 && dist > self.follow_range {
                    return V::ZERO;
                }
                let Some(inward) = to_leader.try_normalize() else {
                    // On top of the leader: step out towards the circle along the current heading.
                    return (vel.normalize_or(V::X) * speed - vel).clamp_length_max(self.max_force)
                        * self.weight;
                };
                if V::DIM == 3 {
                    self.ring_velocity(to_leader, vel, speed)
                } else {
                    // Radial speed falls from full seek far away, through zero on the circle
                    // (where the bird only circles), to an outward push inside it: seek, arrive,
                    // orbit.
                    let band = self.slowing_radius.max(f32::EPSILON);
                    let radial = ((dist - self.orbit_radius) / band).clamp(-1.0, 1.0);
                    // Counter-clockwise about the leader is the outward direction turned left.
                    let tangent =
                        V::orbit_tangent(-inward, Vec3::Z) * self.orbit_direction.signum();
                    let tangential = (1.0 - radial * radial).max(0.0).sqrt();
                    (inward * radial + tangent * tangential) * speed
                }
            }
        };
        (desired - vel).clamp_length_max(self.max_force) * self.weight
    }

    /// The desired velocity of a bird following a leader in 3D: to the nearest point of the
    /// ring of `orbit_radius` about the axis through the leader, easing into flight along the
    /// ring within `slowing_radius` of it. In the ring's plane this is the 2D rule (seek far
    /// away, circle on the ring, an outward push inside it); off the plane the bird also climbs
    /// or dives to it.
    fn ring_velocity<V: Vector>(&self, to_leader: V, vel: V, speed: f32) -> V {
        let axis = V::from_vec3(self.axis());
        let along = to_leader.dot(axis);
        let planar = to_leader - axis * along;
        // Inward in the ring's plane; on the axis itself, out along the bird's own heading.
        let inward = planar.try_normalize().unwrap_or_else(|| {
            let heading = vel - axis * vel.dot(axis);
            -heading
                .try_normalize()
                .unwrap_or_else(|| V::from_vec3(self.axis().any_orthonormal_vector()))
        });
        let to_ring = axis * along + inward * (planar.length() - self.orbit_radius);
        let band = self.slowing_radius.max(f32::EPSILON);
        let closeness = (to_ring.length() / band).min(1.0);
        let towards = to_ring.normalize_or_zero();
        let tangent = V::orbit_tangent(-inward, self.axis()) * self.orbit_direction.signum();
        let tangential = (1.0 - closeness * closeness).max(0.0).sqrt();
        (towards * closeness + tangent * tangential) * speed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn far_away_birds_head_for_the_leader() {
        let p = LeaderParams::default();
        let a = p.steer(Vec2::new(1000.0, 0.0), Vec2::ZERO, 3.0);
        assert!(a.x > 0.0 && a.y.abs() < 1e-6, "{a}");
    }

    #[test]
    fn birds_on_the_circle_are_pushed_along_it() {
        let p = LeaderParams::default();
        // Leader one orbit radius to the right: counter-clockwise around it means heading down.
        let a = p.steer(Vec2::new(p.orbit_radius, 0.0), Vec2::ZERO, 3.0);
        assert!(a.y < 0.0 && a.x.abs() < 1e-6, "{a}");
    }

    #[test]
    fn a_follow_range_leaves_far_birds_alone() {
        let p = LeaderParams {
            follow_range: 200.0,
            ..LeaderParams::default()
        };
        assert_eq!(p.steer(Vec2::new(1000.0, 0.0), Vec2::ZERO, 3.0), Vec2::ZERO);
        assert!(p.steer(Vec2::new(150.0, 0.0), Vec2::ZERO, 3.0).x > 0.0);
    }

    #[test]
    fn flee_pushes_away_inside_the_radius_only() {
        let p = LeaderParams {
            mode: LeaderMode::Flee,
            ..LeaderParams::default()
        };
        assert!(p.steer(Vec2::new(50.0, 0.0), Vec2::ZERO, 3.0).x < 0.0);
        // Fleeing steers up to flee_force, not max_force.
        let hard = p.steer(Vec2::new(50.0, 0.0), Vec2::new(3.0, 0.0), 3.0);
        assert!((hard.length() - p.flee_force).abs() < 1e-6, "{hard}");
        assert_eq!(p.steer(Vec2::new(500.0, 0.0), Vec2::ZERO, 3.0), Vec2::ZERO);
        assert!(p.steer(Vec2::ZERO, Vec2::ZERO, 3.0).is_finite());
    }
}
