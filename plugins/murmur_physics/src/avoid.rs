//! `AvoidObstacles`: each bird casts its disc ahead through rapier's query pipeline;
//! when an obstacle is in the way it looks for the nearest clear heading, alternating sides,
//! and steers towards it, harder the closer the obstacle is.

use crate::groups::OBSTACLES;
use crate::obstacle::ObstacleBody;
use bevy::prelude::*;
use bevy_rapier2d::parry::shape::Ball;
use bevy_rapier2d::prelude::{
    CollisionGroups, Group, QueryFilter, RapierQueryPipeline, ReadRapierContext, ShapeCastOptions,
};
use murmur_core::obstacles::Obstacle;
use murmur_flock::prelude::{Flock, FlockColumns};

/// Headings tried on each side, in steps of [`STEP_DEGREES`], before turning back.
const STEPS: u32 = 12;
/// Angle between two tried headings.
const STEP_DEGREES: f32 = 15.0;

/// The query filter that sees obstacles only.
pub fn obstacles_only() -> QueryFilter<'static> {
    QueryFilter::new().groups(CollisionGroups::new(Group::ALL, OBSTACLES))
}

/// The bounding box of an obstacle, as (min, max).
pub fn bounds(obstacle: &Obstacle) -> (Vec2, Vec2) {
    match obstacle {
        Obstacle::Circle { x, y, radius } => {
            let c = Vec2::new(*x, *y);
            (c - Vec2::splat(*radius), c + Vec2::splat(*radius))
        }
        Obstacle::Box {
            x,
            y,
            width,
            height,
            angle,
            ..
        } => {
            let (s, c) = angle.to_radians().sin_cos();
            let half = Vec2::new(
                (width * c).abs() + (height * s).abs(),
                (width * s).abs() + (height * c).abs(),
            ) * 0.5;
            let centre = Vec2::new(*x, *y);
            (centre - half, centre + half)
        }
        Obstacle::Sphere { x, y, radius, .. } => {
            let c = Vec2::new(*x, *y);
            (c - Vec2::splat(*radius), c + Vec2::splat(*radius))
        }
        Obstacle::Ground { height } => (
            Vec2::splat(f32::NEG_INFINITY),
            Vec2::new(f32::INFINITY, *height),
        ),
        Obstacle::Polygon { points } => points.iter().fold(
            (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY)),
            |(lo, hi), p| {
                let p = Vec2::new(p[0], p[1]);
                (lo.min(p), hi.max(p))
            },
        ),
    }
}

/// How far along unit heading `dir` a disc of `radius` at `from` travels before touching an
/// obstacle, if it does within `reach`.
pub fn clear_distance(
    pipeline: &RapierQueryPipeline<'_>,
    from: Vec2,
    dir: Vec2,
    radius: f32,
    reach: f32,
) -> Option<(f32, Vec2)> {
    let ball = Ball::new(radius.max(0.01));
    let options = ShapeCastOptions {
        max_time_of_impact: reach,
        target_distance: 0.0,
        stop_at_penetration: true,
        compute_impact_geometry_on_penetration: true,
    };
    pipeline
        .cast_shape(from, 0.0, dir, &ball, options)
        .map(|(_, hit)| {
            let normal = hit.details.map_or(-dir, |d| d.normal1);
            (hit.time_of_impact, normal)
        })
}

/// Adds obstacle avoidance to every bird that has an obstacle ahead.
pub fn steer_round_obstacles(
    mut flocks: Query<(&Flock, &mut FlockColumns)>,
    obstacles: Query<&ObstacleBody>,
    rapier: ReadRapierContext,
    mut boxes: Local<Vec<(Vec2, Vec2)>>,
) {
    if obstacles.is_empty() {
        return;
    }
    let Ok(context) = rapier.single() else {
        return;
    };
    boxes.clear();
    boxes.extend(obstacles.iter().map(|o| bounds(&o.0)));
    context.with_query_pipeline(obstacles_only(), |pipeline| {
        for (flock, mut c) in &mut flocks {
            let params = &flock.params;
            let a = params.avoidance;
            if a.force == 0.0 || a.look_ahead == 0.0 {
                continue;
            }
            let near = params.model.near_radius();
            let cruise = params.model.cruise_speed();
            let birds = c.birds_mut();
            for i in 0..birds.len() {
                if birds.flags()[i].piloted() {
                    continue;
                }
                let (p, v) = (birds.pos(i), birds.vel(i));
                // Look where the bird is about to go (its flock, leader and predators have had
                // their say), so a bird pressed against a wall by its leader finds the way round.
                let wish = v + birds.acc()[i];
                let Some(dir) = wish.try_normalize().or_else(|| v.try_normalize()) else {
                    continue;
                };
                let speed = v.length();
                if !p.is_finite() {
                    continue;
                }
                let reach = (speed.max(0.5 * cruise) * a.look_ahead).max(near) + a.clearance;
                // Most birds are nowhere near an obstacle: skip the cast for them.
                if !boxes.iter().any(|(lo, hi)| {
                    p.cmpge(*lo - Vec2::splat(reach)).all()
                        && p.cmple(*hi + Vec2::splat(reach)).all()
                }) {
                    continue;
                }
                let Some((distance, normal)) =
                    clear_distance(&pipeline, p, dir, a.clearance, reach)
                else {
                    continue;
                };
                // Turn first the way the surface slopes away (towards the tangent nearest the
                // heading); head-on, to the left.
                let side = if dir.perp_dot(normal) < 0.0 {
                    -1.0
                } else {
                    1.0
                };
                let mut chosen = None;
                'search: for step in 1..=STEPS {
                    for s in [side, -side] {
                        let angle = (s * step as f32 * STEP_DEGREES).to_radians();
                        let d = Vec2::from_angle(angle).rotate(dir);
                        // A slimmer disc for the search: a bird already at its clearance from
                        // a wall must still find the way along it clear.
                        if clear_distance(&pipeline, p, d, 0.5 * a.clearance, reach).is_none() {
                            chosen = Some(d);
                            break 'search;
                        }
                    }
                }
                // Boxed in: back away along the surface normal.
                let heading = chosen.unwrap_or(normal);
                let urgency = 1.0 - (distance / reach).clamp(0.0, 1.0);
                let desired = heading * speed.max(cruise);
                let steer = (desired - v).clamp_length_max(a.force * (0.5 + urgency));
                birds.acc_mut()[i] += steer;
            }
        }
    });
}
