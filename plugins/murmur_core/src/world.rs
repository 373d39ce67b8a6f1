//! The box a flock lives in (a rectangle in 2D), and whether its opposite faces meet (a torus).

use crate::lanes::{LANES, Lane};
use crate::space::Vector;
use glam::{Vec2, Vec3};

/// An axis-aligned world box centred on the origin: a rectangle in 2D (`Vec2`), a box in 3D
/// (`Vec3`).
///
/// When `wrapped` is true the world is a torus: a boid leaving one face enters at the opposite
/// one, and distances are measured to the nearest periodic image.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorldBounds<V: Vector = Vec2> {
    /// Lowest corner.
    pub min: V,
    /// Width, height (and depth); all positive.
    pub size: V,
    /// Opposite faces are joined.
    pub wrapped: bool,
}

impl WorldBounds<Vec2> {
    /// A `width` x `height` world centred on the origin.
    pub fn centred(width: f32, height: f32, wrapped: bool) -> Self {
        Self::centred_on_size(Vec2::new(width, height), wrapped)
    }
}

impl WorldBounds<Vec3> {
    /// A `width` x `height` x `depth` world centred on the origin (y up).
    pub fn centred3(width: f32, height: f32, depth: f32, wrapped: bool) -> Self {
        Self::centred_on_size(Vec3::new(width, height, depth), wrapped)
    }
}

impl<V: Vector> WorldBounds<V> {
    /// A world of `size` centred on the origin.
    pub fn centred_on_size(size: V, wrapped: bool) -> Self {
        Self {
            min: -size * 0.5,
            size,
            wrapped,
        }
    }

    /// Highest corner.
    pub fn max(&self) -> V {
        self.min + self.size
    }

    /// The centre of the world.
    pub fn centre(&self) -> V {
        self.min + self.size * 0.5
    }

    /// The offset from `from` to `to`: in a wrapped world, to the nearest image of `to`.
    #[inline]
    pub fn delta(&self, from: V, to: V) -> V {
        let d = to - from;
        if self.wrapped {
            d - self.size * (d / self.size).round()
        } else {
            d
        }
    }

    /// Maps a position back into `[min, max)` on a torus; elsewhere returns it unchanged.
    #[inline]
    pub fn wrap(&self, p: V) -> V {
        if !self.wrapped || (p.all_ge(self.min) && p.all_lt(self.min + self.size)) {
            // Inside already (nearly every call): no remainder to take.
            return p;
        }
        let mut q = (p - self.min).rem_euclid(self.size);
        // `rem_euclid` of a tiny negative number rounds up to `size` itself: fold it back.
        for a in 0..V::DIM {
            if q.axis(a) >= self.size.axis(a) {
                *q.axis_mut(a) = 0.0;
            }
        }
        q + self.min
    }

    /// [`WorldBounds::wrap`] for a group of positions (one lane array per axis; the axes past
    /// the space's are not read).
    #[inline]
    pub(crate) fn wrap_lanes(&self, p: &mut [Lane; 3]) {
        if !self.wrapped {
            return;
        }
        let (lo, hi) = (self.min, self.min + self.size);
        let mut inside = true;
        for l in 0..LANES {
            for (a, axis) in p.iter().enumerate().take(V::DIM) {
                inside &= (axis[l] >= lo.axis(a)) & (axis[l] < hi.axis(a));
            }
        }
        if !inside {
            for l in 0..LANES {
                let q = self.wrap(V::from_axes([p[0][l], p[1][l], p[2][l]]));
                for (a, axis) in p.iter_mut().enumerate().take(V::DIM) {
                    axis[l] = q.axis(a);
                }
            }
        }
    }

    /// True when `p` lies inside the box (faces included).
    pub fn contains(&self, p: V) -> bool {
        p.all_ge(self.min) && p.all_le(self.max())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapped_delta_takes_the_nearest_image() {
        let w = WorldBounds::centred(100.0, 50.0, true);
        let d = w.delta(Vec2::new(-49.0, 0.0), Vec2::new(49.0, 0.0));
        assert!((d.x + 2.0).abs() < 1e-4, "{d}");
        let d = w.delta(Vec2::new(0.0, 24.0), Vec2::new(0.0, -24.0));
        assert!((d.y - 2.0).abs() < 1e-4, "{d}");
        let w = WorldBounds::centred3(100.0, 50.0, 30.0, true);
        let d = w.delta(Vec3::new(0.0, 0.0, 14.0), Vec3::new(0.0, 0.0, -14.0));
        assert!((d.z - 2.0).abs() < 1e-4, "{d}");
    }

    #[test]
    fn wrap_folds_positions_into_the_half_open_world() {
        let w = WorldBounds::centred(100.0, 100.0, true);
        assert_eq!(w.wrap(Vec2::new(50.0, -50.0)), Vec2::new(-50.0, -50.0));
        let p = w.wrap(Vec2::new(-50.0 - 1e-9, 0.0));
        assert!(p.x >= -50.0 && p.x < 50.0);
        assert_eq!(w.wrap(Vec2::new(175.0, 0.0)), Vec2::new(-25.0, 0.0));
        let w = WorldBounds::centred3(100.0, 100.0, 40.0, true);
        assert_eq!(
            w.wrap(Vec3::new(0.0, 0.0, 20.0)),
            Vec3::new(0.0, 0.0, -20.0)
        );
        assert_eq!(
            w.wrap(Vec3::new(0.0, 0.0, -45.0)),
            Vec3::new(0.0, 0.0, -5.0)
        );
    }
}
