//! Obstacles as a preset describes them (in 2D circles, boxes and convex polygons, which become
//! physics colliders in the Bevy plugins; in 3D spheres, boxes and the ground, which the core's
//! [`crate::solids`] steers round), and how birds keep clear of them.

use crate::solids::Solid;
use glam::{Vec2, Vec3};
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
    /// A rectangle, turned by `angle` degrees counter-clockwise about its centre; in 3D (with a
    /// `depth`) a box, turned about the vertical through its centre.
    Box {
        /// Centre.
        x: f32,
        /// Centre.
        y: f32,
        /// Centre, in 3D.
        #[serde(default, skip_serializing_if = "is_zero")]
        z: f32,
        /// Full width.
        width: f32,
        /// Full height.
        height: f32,
        /// Full depth, in 3D (0: a flat rectangle).
        #[serde(default, skip_serializing_if = "is_zero")]
        depth: f32,
        /// Rotation in degrees.
        #[serde(default)]
        angle: f32,
    },
    /// A ball (3D).
    Sphere {
        /// Centre.
        x: f32,
        /// Centre.
        y: f32,
        /// Centre.
        z: f32,
        /// Radius.
        radius: f32,
    },
    /// The ground (3D): a flock over it never flies below `height`.
    Ground {
        /// Height of the ground (y).
        height: f32,
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

    /// A box of `size` (width, height, depth) centred at `centre`, turned `angle` degrees about
    /// the vertical (3D).
    pub fn cuboid(centre: Vec3, size: Vec3, angle: f32) -> Self {
        Self::Box {
            x: centre.x,
            y: centre.y,
            z: centre.z,
            width: size.x,
            height: size.y,
            depth: size.z,
            angle,
        }
    }

    /// A ball at `centre` (3D).
    pub fn sphere(centre: Vec3, radius: f32) -> Self {
        Self::Sphere {
            x: centre.x,
            y: centre.y,
            z: centre.z,
            radius,
        }
    }

    /// True for a shape of a 3D world (a sphere, a box with a depth, the ground).
    pub fn is_3d(&self) -> bool {
        match self {
            Self::Sphere { .. } | Self::Ground { .. } => true,
            Self::Box { depth, .. } => *depth > 0.0,
            Self::Circle { .. } | Self::Polygon { .. } => false,
        }
    }

    /// The shape's kind, as preset files name it.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Circle { .. } => "circle",
            Self::Box { .. } => "box",
            Self::Polygon { .. } => "polygon",
            Self::Sphere { .. } => "sphere",
            Self::Ground { .. } => "ground",
        }
    }

    /// The solid a 3D flock steers round, for a 3D shape; `None` for a 2D one.
    pub fn solid(&self) -> Option<Solid> {
        match *self {
            Self::Sphere { x, y, z, radius } => Some(Solid::Sphere {
                centre: Vec3::new(x, y, z),
                radius,
            }),
            Self::Ground { height } => Some(Solid::Ground { height }),
            Self::Box {
                x,
                y,
                z,
                width,
                height,
                depth,
                angle,
            } if depth > 0.0 => Some(Solid::Cuboid {
                centre: Vec3::new(x, y, z),
                half: Vec3::new(width, height, depth) * 0.5,
                yaw: angle.to_radians(),
            }),
            _ => None,
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
                z,
                width,
                height,
                depth,
                angle,
            } => {
                finite(*x, "x")?;
                finite(*y, "y")?;
                finite(*z, "z")?;
                positive(*width, "width")?;
                positive(*height, "height")?;
                if !(depth.is_finite() && *depth >= 0.0) {
                    return Err(format!("depth must be a finite number >= 0, got {depth}"));
                }
                finite(*angle, "angle")
            }
            Self::Sphere { x, y, z, radius } => {
                finite(*x, "x")?;
                finite(*y, "y")?;
                finite(*z, "z")?;
                positive(*radius, "radius")
            }
            Self::Ground { height } => finite(*height, "height"),
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

impl Obstacle {
    /// Signed distance from `p` to the obstacle's surface in the plane: negative inside. (A 3D
    /// shape's distance is its [`Obstacle::solid`]'s.)
    pub fn distance(&self, p: Vec2) -> f32 {
        match self {
            Self::Circle { x, y, radius } => (p - Vec2::new(*x, *y)).length() - radius,
            Self::Box {
                x,
                y,
                width,
                height,
                angle,
                ..
            } => {
                let local = Vec2::from_angle(-angle.to_radians()).rotate(p - Vec2::new(*x, *y));
                let q = local.abs() - Vec2::new(*width, *height) * 0.5;
                q.max(Vec2::ZERO).length() + q.x.max(q.y).min(0.0)
            }
            Self::Polygon { points } => {
                let hull = convex_hull(points);
                let n = hull.len();
                if n < 3 {
                    return f32::INFINITY;
                }
                let mut inside = true;
                let mut nearest = f32::INFINITY;
                for i in 0..n {
                    let (a, b) = (hull[i], hull[(i + 1) % n]);
                    // The hull runs counter-clockwise: inside is to the left of every edge.
                    inside &= (b - a).perp_dot(p - a) >= 0.0;
                    let t = ((p - a).dot(b - a) / (b - a).length_squared()).clamp(0.0, 1.0);
                    nearest = nearest.min((p - (a + (b - a) * t)).length());
                }
                if inside { -nearest } else { nearest }
            }
            Self::Sphere { x, y, radius, .. } => (p - Vec2::new(*x, *y)).length() - radius,
            Self::Ground { height } => p.y - height,
        }
    }
}

fn is_zero(v: &f32) -> bool {
    *v == 0.0
}

/// The convex hull of `points`, counter-clockwise (gift wrapping; obstacles have few points).
/// Fewer than three points, or all on one line, give what is left of the wrap.
pub fn convex_hull(points: &[[f32; 2]]) -> Vec<Vec2> {
    let pts: Vec<Vec2> = points.iter().map(|p| Vec2::new(p[0], p[1])).collect();
    if pts.is_empty() {
        return pts;
    }
    let start = (0..pts.len())
        .min_by(|&a, &b| {
            pts[a]
                .x
                .total_cmp(&pts[b].x)
                .then(pts[a].y.total_cmp(&pts[b].y))
        })
        .expect("not empty");
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
    hull.into_iter().map(|i| pts[i]).collect()
}

/// Area of the convex hull of `points`.
fn hull_area(points: &[[f32; 2]]) -> f32 {
    let hull = convex_hull(points);
    if hull.len() < 3 {
        return 0.0;
    }
    let mut twice = 0.0;
    for (k, &a) in hull.iter().enumerate() {
        twice += a.perp_dot(hull[(k + 1) % hull.len()]);
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
            shape = "sphere"
            x = 1
            y = 2
            z = 3
            radius = 4
            [[obstacles]]
            shape = "ground"
            height = -50
            [[obstacles]]
            shape = "polygon"
            points = [[0, 0], [10, 0], [5, 8]]
            "#,
        )
        .unwrap();
        assert_eq!(f.obstacles.len(), 5);
        assert!(!f.obstacles[1].is_3d() && f.obstacles[2].is_3d() && f.obstacles[3].is_3d());
        assert!(!f.obstacles[4].is_3d());
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

    #[test]
    fn distances_are_negative_inside_and_exact_outside() {
        let disc = Obstacle::circle(Vec2::new(10.0, 0.0), 5.0);
        assert_eq!(disc.distance(Vec2::new(20.0, 0.0)), 5.0);
        assert_eq!(disc.distance(Vec2::new(10.0, 0.0)), -5.0);
        let turned = Obstacle::Box {
            x: 0.0,
            y: 0.0,
            width: 10.0,
            height: 2.0,
            angle: 90.0,
            z: 0.0,
            depth: 0.0,
        };
        assert!((turned.distance(Vec2::new(0.0, 4.0)) + 1.0).abs() < 1e-5);
        assert!((turned.distance(Vec2::new(3.0, 0.0)) - 2.0).abs() < 1e-5);
        // Points given clockwise and with one inside the hull.
        let square = Obstacle::Polygon {
            points: vec![[0.0, 0.0], [0.0, 4.0], [1.0, 1.0], [4.0, 4.0], [4.0, 0.0]],
        };
        assert_eq!(
            convex_hull(&[[0.0, 0.0], [0.0, 4.0], [1.0, 1.0], [4.0, 4.0], [4.0, 0.0]]).len(),
            4
        );
        assert_eq!(square.distance(Vec2::new(2.0, 2.0)), -2.0);
        assert_eq!(square.distance(Vec2::new(7.0, 0.0)), 3.0);
        assert!((square.distance(Vec2::new(7.0, 8.0)) - 5.0).abs() < 1e-5);
    }
}
