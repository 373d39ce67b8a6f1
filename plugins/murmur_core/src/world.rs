//! The rectangle a flock lives in, and whether its opposite edges meet (a torus).

use crate::lanes::{LANES, Lane};
use glam::Vec2;

/// An axis-aligned world rectangle centred on the origin.
///
/// When `wrapped` is true the world is a torus: a boid leaving one edge enters at the opposite
/// one, and distances are measured to the nearest periodic image.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorldBounds {
    /// Lower-left corner.
    pub min: Vec2,
    /// Width and height; both positive.
    pub size: Vec2,
    /// Opposite edges are joined.
    pub wrapped: bool,
}

impl WorldBounds {
    /// A `width` x `height` world centred on the origin.
    pub fn centred(width: f32, height: f32, wrapped: bool) -> Self {
        let size = Vec2::new(width, height);
        Self {
            min: -size * 0.5,
            size,
            wrapped,
        }
    }

    /// Upper-right corner.
    pub fn max(&self) -> Vec2 {
        self.min + self.size
    }

    /// The centre of the world.
    pub fn centre(&self) -> Vec2 {
        self.min + self.size * 0.5
    }

    /// The offset from `from` to `to`: in a wrapped world, to the nearest image of `to`.
    #[inline]
    pub fn delta(&self, from: Vec2, to: Vec2) -> Vec2 {
        let d = to - from;
        if self.wrapped {
            d - self.size * (d / self.size).round()
        } else {
            d
        }
    }

    /// Maps a position back into `[min, max)` on a torus; elsewhere returns it unchanged.
    #[inline]
    pub fn wrap(&self, p: Vec2) -> Vec2 {
        if !self.wrapped || (p.cmpge(self.min).all() && p.cmplt(self.min + self.size).all()) {
            // Inside already (nearly every call): no remainder to take.
            return p;
        }
        let mut q = (p - self.min).rem_euclid(self.size);
        // `rem_euclid` of a tiny negative number rounds up to `size` itself: fold it back.
        if q.x >= self.size.x {
            q.x = 0.0;
        }
        if q.y >= self.size.y {
            q.y = 0.0;
        }
        q + self.min
    }

    /// [`WorldBounds::wrap`] for a group of positions.
    #[inline]
    pub(crate) fn wrap_lanes(&self, x: &mut Lane, y: &mut Lane) {
        if !self.wrapped {
            return;
        }
        let (lo, hi) = (self.min, self.min + self.size);
        let mut inside = true;
        for l in 0..LANES {
            inside &= (x[l] >= lo.x) & (y[l] >= lo.y) & (x[l] < hi.x) & (y[l] < hi.y);
        }
        if !inside {
            for l in 0..LANES {
                let p = self.wrap(Vec2::new(x[l], y[l]));
                (x[l], y[l]) = (p.x, p.y);
            }
        }
    }

    /// True when `p` lies inside the rectangle (edges included).
    pub fn contains(&self, p: Vec2) -> bool {
        let max = self.max();
        p.x >= self.min.x && p.y >= self.min.y && p.x <= max.x && p.y <= max.y
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
    }

    #[test]
    fn wrap_folds_positions_into_the_half_open_world() {
        let w = WorldBounds::centred(100.0, 100.0, true);
        assert_eq!(w.wrap(Vec2::new(50.0, -50.0)), Vec2::new(-50.0, -50.0));
        let p = w.wrap(Vec2::new(-50.0 - 1e-9, 0.0));
        assert!(p.x >= -50.0 && p.x < 50.0);
        assert_eq!(w.wrap(Vec2::new(175.0, 0.0)), Vec2::new(-25.0, 0.0));
    }
}
