//! Solids a 3D flock flies round and never enters: spheres, boxes turned about the vertical and
//! the ground, as analytic shapes. Each bird looks ahead along where it is about to fly and, with
//! a solid in the way, steers for the nearest clear heading (the `AvoidObstacles` phase); after
//! the move, a bird that would end up closer to a solid than its clearance is put back on the
//! surface and loses the part of its velocity that points in (so none ever enters).
//! (A 2D flock's obstacles are physics colliders: `murmur_physics`.)

use crate::obstacles::Avoidance;
use crate::space::Vector;
use glam::{Vec2, Vec3};

/// A solid in a 3D world, in world units (y up).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Solid {
    /// A ball.
    Sphere {
        /// Its centre.
        centre: Vec3,
        /// Its radius.
        radius: f32,
    },
    /// A box turned by `yaw` radians (counter-clockwise seen from above) about the vertical
    /// through its centre.
    Cuboid {
        /// Its centre.
        centre: Vec3,
        /// Half its width, height and depth.
        half: Vec3,
        /// The turn about the vertical, in radians.
        yaw: f32,
    },
    /// The ground: everything below `height`.
    Ground {
        /// The ground's height (y).
        height: f32,
    },
}

/// Headings tried on each side, in steps of [`STEP_DEGREES`], before backing away.
const STEPS: u32 = 12;
/// Angle between two tried headings.
const STEP_DEGREES: f32 = 15.0;

impl Solid {
    /// A point in the box's own frame (its centre at the origin, unturned).
    #[inline]
    fn to_local(centre: Vec3, yaw: f32, p: Vec3) -> Vec3 {
        let d = p - centre;
        let flat = Vec2::from_angle(-yaw).rotate(Vec2::new(d.x, -d.z));
        Vec3::new(flat.x, d.y, -flat.y)
    }

    /// A direction from the box's own frame back to the world's.
    #[inline]
    fn from_local(yaw: f32, d: Vec3) -> Vec3 {
        let flat = Vec2::from_angle(yaw).rotate(Vec2::new(d.x, -d.z));
        Vec3::new(flat.x, d.y, -flat.y)
    }

    /// Signed distance from `p` to the surface (negative inside) and the outward direction
    /// of steepest ascent there (the surface normal at the nearest point).
    pub fn distance_and_normal(&self, p: Vec3) -> (f32, Vec3) {
        match *self {
            Self::Sphere { centre, radius } => {
                let d = p - centre;
                (d.length() - radius, d.normalize_or(Vec3::Y))
            }
            Self::Ground { height } => (p.y - height, Vec3::Y),
            Self::Cuboid { centre, half, yaw } => {
                let local = Self::to_local(centre, yaw, p);
                let q = local.abs() - half;
                let sign = Vec3::select(local.cmplt(Vec3::ZERO), -Vec3::ONE, Vec3::ONE);
                let outside = q.max(Vec3::ZERO);
                if outside != Vec3::ZERO {
                    let normal = (outside * sign).normalize_or(Vec3::Y);
                    (outside.length(), Self::from_local(yaw, normal))
                } else {
                    // Inside: out through the nearest face.
                    let axis = if q.x >= q.y && q.x >= q.z {
                        Vec3::X
                    } else if q.y >= q.z {
                        Vec3::Y
                    } else {
                        Vec3::Z
                    };
                    (q.max_element(), Self::from_local(yaw, axis * sign))
                }
            }
        }
    }

    /// Signed distance from `p` to the surface: negative inside.
    pub fn distance(&self, p: Vec3) -> f32 {
        self.distance_and_normal(p).0
    }

    /// How far a ball of radius `r` at `from` travels along unit `dir` before it touches the
    /// solid, if it does within `reach`, and the surface's normal there (0 when it touches
    /// already). Boxes are widened by `r` on every face (their corners taken square), which only
    /// errs on the side of caution.
    pub fn cast(&self, from: Vec3, dir: Vec3, r: f32, reach: f32) -> Option<(f32, Vec3)> {
        let (t, normal) = match *self {
            Self::Sphere { centre, radius } => {
                let big = radius + r;
                let m = from - centre;
                let c = m.length_squared() - big * big;
                if c <= 0.0 {
                    return Some((0.0, m.normalize_or(-dir)));
                }
                let b = m.dot(dir);
                let disc = b * b - c;
                if b > 0.0 || disc < 0.0 {
                    return None;
                }
                let t = -b - disc.sqrt();
                (t, (m + dir * t).normalize_or(-dir))
            }
            Self::Ground { height } => {
                let above = from.y - (height + r);
                if above <= 0.0 {
                    return Some((0.0, Vec3::Y));
                }
                if dir.y >= 0.0 {
                    return None;
                }
                (above / -dir.y, Vec3::Y)
            }
            Self::Cuboid { centre, half, yaw } => {
                let o = Self::to_local(centre, yaw, from);
                let d = Self::from_local(-yaw, dir);
                let big = half + Vec3::splat(r);
                // Slabs: the last entry and the first exit along the ray.
                let (mut enter, mut exit) = (f32::NEG_INFINITY, f32::INFINITY);
                let mut face = Vec3::ZERO;
                for a in 0..3 {
                    if d[a] == 0.0 {
                        if o[a].abs() > big[a] {
                            return None;
                        }
                        continue;
                    }
                    let (t1, t2) = ((-big[a] - o[a]) / d[a], (big[a] - o[a]) / d[a]);
                    let (near, far) = if t1 < t2 { (t1, t2) } else { (t2, t1) };
                    if near > enter {
                        enter = near;
                        let mut n = Vec3::ZERO;
                        n[a] = -d[a].signum();
                        face = n;
                    }
                    exit = exit.min(far);
                }
                if enter > exit || exit < 0.0 {
                    return None;
                }
                if enter <= 0.0 {
                    // Already within the widened box.
                    return Some((0.0, self.distance_and_normal(from).1));
                }
                (enter, Self::from_local(yaw, face))
            }
        };
        (t <= reach).then_some((t.max(0.0), normal))
    }

    /// True when a ball of radius `reach` about `p` may touch the solid (a cheap test that
    /// spares the cast for birds nowhere near it).
    #[inline]
    pub fn near(&self, p: Vec3, reach: f32) -> bool {
        match *self {
            Self::Sphere { centre, radius } => {
                (p - centre).length_squared() < (radius + reach) * (radius + reach)
            }
            Self::Ground { height } => p.y - height < reach,
            Self::Cuboid { centre, half, .. } => {
                // The box's bounding ball.
                let r = half.length() + reach;
                (p - centre).length_squared() < r * r
            }
        }
    }
}

/// The steering that takes a bird at `p` flying at `v`, about to fly along `v + acc`, round
/// the solids ahead: none when its way is clear within its look-ahead. `near` is its personal
/// space, `cruise` its flock's cruising speed. Only a 3D flock has solids.
pub fn avoid<V: Vector>(
    solids: &[Solid],
    a: &Avoidance,
    near: f32,
    cruise: f32,
    p: V,
    v: V,
    acc: V,
) -> V {
    if solids.is_empty() || a.force == 0.0 || a.look_ahead == 0.0 || V::DIM != 3 {
        return V::ZERO;
    }
    let (p, v) = (p.to_vec3(), v.to_vec3());
    let Some(dir) = (v + acc.to_vec3())
        .try_normalize()
        .or_else(|| v.try_normalize())
    else {
        return V::ZERO;
    };
    if !p.is_finite() {
        return V::ZERO;
    }
    let speed = v.length();
    let reach = (speed.max(0.5 * cruise) * a.look_ahead).max(near) + a.clearance;
    let cast = |d: Vec3, r: f32| -> Option<(f32, Vec3)> {
        solids
            .iter()
            .filter(|s| s.near(p, reach))
            .filter_map(|s| s.cast(p, d, r, reach))
            .min_by(|x, y| x.0.total_cmp(&y.0))
    };
    if !solids.iter().any(|s| s.near(p, reach)) {
        return V::ZERO;
    }
    let Some((distance, normal)) = cast(dir, a.clearance) else {
        return V::ZERO;
    };
    // Turn first the way the surface slopes away (the normal's part square to the heading);
    // head-on, upwards, else any way square to the heading.
    let side = (normal - dir * normal.dot(dir))
        .try_normalize()
        .or_else(|| (Vec3::Y - dir * dir.y).try_normalize())
        .unwrap_or_else(|| dir.any_orthonormal_vector());
    let other = dir.cross(side);
    let mut chosen = None;
    'search: for step in 1..=STEPS {
        let (sin, cos) = (step as f32 * STEP_DEGREES).to_radians().sin_cos();
        for s in [side, other, -other, -side] {
            let d = dir * cos + s * sin;
            // A slimmer ball for the search: a bird already at its clearance from a wall must
            // still find the way along it clear.
            if cast(d, 0.5 * a.clearance).is_none() {
                chosen = Some(d);
                break 'search;
            }
        }
    }
    // Boxed in: back away along the surface normal.
    let heading = chosen.unwrap_or(normal);
    let urgency = 1.0 - (distance / reach).clamp(0.0, 1.0);
    let desired = heading * speed.max(cruise);
    V::from_vec3((desired - v).clamp_length_max(a.force * (0.5 + urgency)))
}

/// Puts a bird that ended a move within `clearance` of a solid back on that margin's surface,
/// and takes from its velocity the part that points into the solid. Only a 3D flock has solids.
/// The ground comes last, so that no bird ends a move below it: a box standing on the ground
/// would otherwise push a bird at its foot out through its bottom face, into the ground.
#[inline]
pub fn keep_out<V: Vector>(solids: &[Solid], clearance: f32, p: &mut V, v: &mut V) {
    if V::DIM != 3 {
        return;
    }
    let is_ground = |s: &&Solid| matches!(s, Solid::Ground { .. });
    let above = solids.iter().filter(|s| !is_ground(s));
    for solid in above.chain(solids.iter().filter(is_ground)) {
        let q = p.to_vec3();
        if !solid.near(q, clearance) {
            continue;
        }
        let (d, n) = solid.distance_and_normal(q);
        if d < clearance && q.is_finite() {
            *p = V::from_vec3(q + n * (clearance - d));
            let w = v.to_vec3();
            let inward = w.dot(n).min(0.0);
            *v = V::from_vec3(w - n * inward);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_are_negative_inside_and_exact_outside() {
        let ball = Solid::Sphere {
            centre: Vec3::new(0.0, 10.0, 0.0),
            radius: 5.0,
        };
        assert_eq!(ball.distance(Vec3::new(0.0, 20.0, 0.0)), 5.0);
        assert_eq!(ball.distance(Vec3::new(0.0, 10.0, 0.0)), -5.0);
        let ground = Solid::Ground { height: -3.0 };
        assert_eq!(ground.distance(Vec3::new(4.0, 1.0, 9.0)), 4.0);
        let turned = Solid::Cuboid {
            centre: Vec3::ZERO,
            half: Vec3::new(5.0, 1.0, 1.0),
            yaw: std::f32::consts::FRAC_PI_2,
        };
        // Turned a quarter about the vertical, its long side runs along z.
        assert!((turned.distance(Vec3::new(0.0, 0.0, 7.0)) - 2.0).abs() < 1e-5);
        assert!((turned.distance(Vec3::new(3.0, 0.0, 0.0)) - 2.0).abs() < 1e-5);
        let (d, n) = turned.distance_and_normal(Vec3::new(0.0, 0.0, 4.5));
        assert!(
            (d + 0.5).abs() < 1e-5 && (n.z.abs() - 1.0).abs() < 1e-5,
            "{d} {n}"
        );
    }

    #[test]
    fn casts_find_the_first_touch_and_miss_what_is_not_ahead() {
        let ball = Solid::Sphere {
            centre: Vec3::new(10.0, 0.0, 0.0),
            radius: 2.0,
        };
        let (t, n) = ball.cast(Vec3::ZERO, Vec3::X, 1.0, 50.0).unwrap();
        assert!((t - 7.0).abs() < 1e-5 && (n + Vec3::X).length() < 1e-5);
        assert!(ball.cast(Vec3::ZERO, -Vec3::X, 1.0, 50.0).is_none());
        assert!(
            ball.cast(Vec3::ZERO, Vec3::X, 1.0, 5.0).is_none(),
            "beyond reach"
        );
        let ground = Solid::Ground { height: 0.0 };
        let (t, _) = ground
            .cast(
                Vec3::new(0.0, 10.0, 0.0),
                Vec3::new(0.0, -1.0, 0.0),
                1.0,
                50.0,
            )
            .unwrap();
        assert!((t - 9.0).abs() < 1e-5);
        let block = Solid::Cuboid {
            centre: Vec3::new(0.0, 0.0, -20.0),
            half: Vec3::splat(5.0),
            yaw: 0.3,
        };
        assert!(block.cast(Vec3::ZERO, Vec3::NEG_Z, 0.5, 100.0).is_some());
        assert!(block.cast(Vec3::ZERO, Vec3::Z, 0.5, 100.0).is_none());
    }

    #[test]
    fn a_bird_heading_for_the_ground_pulls_up_and_one_inside_is_put_out() {
        let solids = [Solid::Ground { height: 0.0 }];
        let a = Avoidance::default();
        let v = Vec3::new(2.0, -2.0, 0.0);
        let steer = avoid(
            &solids,
            &a,
            5.0,
            3.0,
            Vec3::new(0.0, 20.0, 0.0),
            v,
            Vec3::ZERO,
        );
        assert!(steer.y > 0.0, "{steer}");
        let (mut p, mut v) = (Vec3::new(0.0, -1.0, 0.0), Vec3::new(1.0, -3.0, 0.0));
        keep_out(&solids, a.clearance, &mut p, &mut v);
        assert_eq!(p.y, a.clearance);
        assert_eq!(v, Vec3::new(1.0, 0.0, 0.0));
        // A box standing on the ground, listed first: a bird at its foot, just inside it, is
        // never pushed out through its bottom face into the ground (the ground goes last).
        let column = Solid::Cuboid {
            centre: Vec3::new(0.0, 50.0, 0.0),
            half: Vec3::splat(50.0),
            yaw: 0.3,
        };
        let (mut p, mut v) = (Vec3::new(1.0, -3.0, 2.0), Vec3::new(0.5, -1.0, 0.0));
        keep_out(&[column, solids[0]], a.clearance, &mut p, &mut v);
        assert!(p.y >= a.clearance, "{p}");
        // Negative control: the ground first, as the list has it, lets the box push it under.
        let (mut q, mut w) = (Vec3::new(1.0, -3.0, 2.0), Vec3::new(0.5, -1.0, 0.0));
        keep_out(&[solids[0]], a.clearance, &mut q, &mut w);
        keep_out(&[column], a.clearance, &mut q, &mut w);
        assert!(q.y < 0.0, "{q}");
        // In 2D there are no solids to keep out of.
        let (mut p2, mut v2) = (Vec2::new(0.0, -1.0), Vec2::ONE);
        keep_out(&solids, 1.0, &mut p2, &mut v2);
        assert_eq!(p2, Vec2::new(0.0, -1.0));
    }
}
