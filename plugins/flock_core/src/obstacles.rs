//! Obstacles as a preset describes them (circles, boxes, convex polygons), and how birds keep
//! clear of them. The shapes become physics colliders in the Bevy plugins.

use glam::Vec2;
use serde::{Deserialize, Serialize};

/// One obstacle, in world units.
#[cfg_attr(feature = "reflect", derive(bevy_reflect::Reflect))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "shape", rename_all = "lowercase", deny_unknown_fields)]
pub enum Obstacle {
    /// A disc.
    Circle {
        /// Centre.
        x: f32,
        /// Centre.
        y: f32,
        /// Radius.
        radius: f32,
    },
    /// A rectangle, turned by `angle` degrees counter-clockwise about its centre.
    Box {
        /// Centre.
        x: f32,
        /// Centre.
        y: f32,
        /// Full width.
        width: f32,
        /// Full height.
        height: f32,
        /// Rotation in degrees.
        #[serde(default)]
        angle: f32,
    },
    /// The convex hull of at least three points.
    Polygon {
        /// Corners, as `[x, y]` pairs.
        points: Vec<[f32; 2]>,
    },
}

impl Obstacle {
    /// A disc at `centre`.
    pub fn circle(centre: Vec2, radius: f32) -> Self {
        Self::Circle {
            x: centre.x,
            y: centre.y,
            radius,
        }
    }

    /// Checks the numbers, saying what is wrong.
    pub fn validate(&self) -> Result<(), String> {
        let finite = |v: f32, what: &str| {
            if v.is_finite() {
                Ok(())
            } else {
                Err(format!("{what} must be finite, got {v}"))
            }
        };
        let positive = |v: f32, what: &str| {
            if v.is_finite() && v > 0.0 {
                Ok(())
            } else {
                Err(format!("{what} must be a positive number, got {v}"))
            }
        };
        match self {
            Self::Circle { x, y, radius } => {
                finite(*x, "x")?;
                finite(*y, "y")?;
                positive(*radius, "radius")
            }
            Self::Box {
                x,
                y,
                width,
                height,
                angle,
            } => {
                finite(*x, "x")?;
                finite(*y, "y")?;
                positive(*width, "width")?;
                positive(*height, "height")?;
                finite(*angle, "angle")
            }
            Self::Polygon { points } => {
                if points.len() < 3 {
                    return Err(format!("a polygon needs 3 points, got {}", points.len()));
                }
                for p in points {
                    finite(p[0], "a point's x")?;
                    finite(p[1], "a point's y")?;
                }
                // Twice the hull's area: zero when the points are all on one line.
                let area = hull_area(points);
                if area <= 0.0 {
                    return Err("a polygon's points must not all lie on one line".into());
                }
                Ok(())
            }
        }
    }
}

/// Area of the convex hull of `points` (gift wrapping; few points).
fn hull_area(points: &[[f32; 2]]) -> f32 {
    let pts: Vec<Vec2> = points.iter().map(|p| Vec2::new(p[0], p[1])).collect();
    let start = (0..pts.len())
        .min_by(|&a, &b| {
            pts[a]
                .x
                .total_cmp(&pts[b].x)
                .then(pts[a].y.total_cmp(&pts[b].y))
        })
        .expect("at least three points");
    let mut hull = vec![start];
    let mut current = start;
    loop {
        let mut next = (current + 1) % pts.len();
        for i in 0..pts.len() {
            let cross = (pts[next] - pts[current]).perp_dot(pts[i] - pts[current]);
            if cross < 0.0 {
                next = i;
            }
        }
        if next == start || hull.len() > pts.len() {
            break;
        }
        hull.push(next);
        current = next;
    }
    let mut twice = 0.0;
    for (k, &i) in hull.iter().enumerate() {
        let j = hull[(k + 1) % hull.len()];
        twice += pts[i].perp_dot(pts[j]);
    }
    (twice * 0.5).abs()
}

/// How birds keep clear of obstacles.
#[cfg_attr(feature = "reflect", derive(bevy_reflect::Reflect))]
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Avoidance {
    /// How far ahead a bird looks, in ticks of its current speed (never less than its personal
    /// space, so slow birds still see what is close).
    pub look_ahead: f32,
    /// Largest steering change per tick to get round an obstacle.
    pub force: f32,
    /// A bird's radius against obstacles: it is cast as a disc this wide and never overlaps one.
    pub clearance: f32,
}

impl Default for Avoidance {
    fn default() -> Self {
        Self {
            look_ahead: 30.0,
            force: 0.5,
            clearance: 3.0,
        }
    }
}

impl Avoidance {
    /// Checks the values, naming the first bad field.
    pub fn validate(&self) -> Result<(), (&'static str, String)> {
        for (field, value) in [
            ("look_ahead", self.look_ahead),
            ("force", self.force),
            ("clearance", self.clearance),
        ] {
            if !(value.is_finite() && value >= 0.0) {
                return Err((field, format!("must be a finite number >= 0, got {value}")));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preset_shapes_parse_and_bad_ones_say_why() {
        #[derive(Deserialize)]
        struct File {
            obstacles: Vec<Obstacle>,
        }
        let f: File = toml::from_str(
            r#"
            [[obstacles]]
            shape = "circle"
            x = 10
            y = -5
            radius = 20
            [[obstacles]]
            shape = "box"
            x = 0
            y = 0
            width = 4
            height = 100
            [[obstacles]]
            shape = "polygon"
            points = [[0, 0], [10, 0], [5, 8]]
            "#,
        )
        .unwrap();
        assert_eq!(f.obstacles.len(), 3);
        assert!(f.obstacles.iter().all(|o| o.validate().is_ok()));
        assert!(Obstacle::circle(Vec2::ZERO, 0.0).validate().is_err());
        let line = Obstacle::Polygon {
            points: vec![[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]],
        };
        assert!(line.validate().unwrap_err().contains("one line"));
        let two = Obstacle::Polygon {
            points: vec![[0.0, 0.0], [1.0, 1.0]],
        };
        assert!(two.validate().unwrap_err().contains("3 points"));
    }
}
