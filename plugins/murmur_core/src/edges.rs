//! What happens at the world's edges: turn inside a margin, wrap around, bounce, or nothing.

use crate::space::Vector;
use crate::world::WorldBounds;
#[cfg(test)]
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// The edge behaviour of a flock.
#[cfg_attr(feature = "reflect", derive(bevy_reflect::Reflect))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EdgeMode {
    /// Inside a margin from each edge, velocity is nudged back by a turn factor per tick (the
    /// DE1-SoC model). A bird that still reaches the edge is stopped there.
    #[default]
    Turn,
    /// The world is a torus.
    Wrap,
    /// Birds reflect off the edges like billiard balls.
    Bounce,
    /// No edges: birds fly anywhere.
    None,
}

impl EdgeMode {
    /// All modes, in the order a picker shows them.
    pub const ALL: [EdgeMode; 4] = [Self::Turn, Self::Wrap, Self::Bounce, Self::None];

    /// The name preset files use.
    pub fn name(self) -> &'static str {
        match self {
            Self::Turn => "turn",
            Self::Wrap => "wrap",
            Self::Bounce => "bounce",
            Self::None => "none",
        }
    }
}

/// Edge behaviour and its parameters.
#[cfg_attr(feature = "reflect", derive(bevy_reflect::Reflect))]
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Edges {
    /// Which behaviour.
    pub mode: EdgeMode,
    /// Distance from each edge where turning starts (`turn` mode), in world units.
    pub margin: f32,
    /// Velocity change per tick inside the margin (`turn` mode), in world units per tick².
    pub turn_factor: f32,
}

impl Default for Edges {
    fn default() -> Self {
        Self {
            mode: EdgeMode::Turn,
            margin: 100.0,
            turn_factor: 0.2,
        }
    }
}

impl Edges {
    /// True when positions are kept inside the world.
    pub fn is_bounded(&self) -> bool {
        matches!(self.mode, EdgeMode::Turn | EdgeMode::Bounce)
    }

    /// The acceleration this tick from the edges (non-zero only in `turn` mode, inside a margin).
    #[inline]
    pub fn turn_acceleration<V: Vector>(&self, world: &WorldBounds<V>, p: V) -> V {
        if self.mode != EdgeMode::Turn {
            return V::ZERO;
        }
        let lo = world.min + V::splat(self.margin);
        let hi = world.max() - V::splat(self.margin);
        let mut a = V::ZERO;
        for axis in 0..V::DIM {
            if p.axis(axis) < lo.axis(axis) {
                *a.axis_mut(axis) += self.turn_factor;
            }
            if p.axis(axis) > hi.axis(axis) {
                *a.axis_mut(axis) -= self.turn_factor;
            }
        }
        a
    }

    /// Applies the world's topology after a move: wraps on a torus, reflects or stops at the
    /// edges of a bounded world, leaves an open one alone.
    #[inline]
    pub fn confine<V: Vector>(&self, world: &WorldBounds<V>, p: &mut V, v: &mut V) {
        match self.mode {
            EdgeMode::Wrap => *p = world.wrap(*p),
            EdgeMode::None => {}
            EdgeMode::Bounce | EdgeMode::Turn => {
                let (lo, hi) = (world.min, world.max());
                let bounce = self.mode == EdgeMode::Bounce;
                for axis in 0..V::DIM {
                    let (l, h) = (lo.axis(axis), hi.axis(axis));
                    let (p, v) = (p.axis_mut(axis), v.axis_mut(axis));
                    if *p < l {
                        *p = if bounce { (2.0 * l - *p).min(h) } else { l };
                        *v = v.abs();
                    } else if *p > h {
                        *p = if bounce { (2.0 * h - *p).max(l) } else { h };
                        *v = -v.abs();
                    }
                    if !p.is_finite() {
                        // A non-finite position can only come from a non-finite input; park it
                        // in the middle rather than let it spread.
                        *p = 0.5 * (l + h);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turning_pushes_back_inside_the_margin_only() {
        let world = WorldBounds::centred(640.0, 480.0, false);
        let edges = Edges::default();
        assert_eq!(edges.turn_acceleration(&world, Vec2::ZERO), Vec2::ZERO);
        let a = edges.turn_acceleration(&world, Vec2::new(-300.0, 200.0));
        assert_eq!(a, Vec2::new(0.2, -0.2));
    }

    #[test]
    fn bounce_reflects_position_and_velocity() {
        let world = WorldBounds::centred(100.0, 100.0, false);
        let edges = Edges {
            mode: EdgeMode::Bounce,
            ..Edges::default()
        };
        let (mut p, mut v) = (Vec2::new(53.0, 0.0), Vec2::new(4.0, 1.0));
        edges.confine(&world, &mut p, &mut v);
        assert_eq!(p, Vec2::new(47.0, 0.0));
        assert_eq!(v, Vec2::new(-4.0, 1.0));
    }

    #[test]
    fn wrap_moves_through_the_opposite_edge() {
        let world = WorldBounds::centred(100.0, 100.0, true);
        let edges = Edges {
            mode: EdgeMode::Wrap,
            ..Edges::default()
        };
        let (mut p, mut v) = (Vec2::new(51.0, -52.0), Vec2::ONE);
        edges.confine(&world, &mut p, &mut v);
        assert!((p - Vec2::new(-49.0, 48.0)).length() < 1e-4);
    }
}
