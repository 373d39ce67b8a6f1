//! An obstacle entity: a fixed rapier collider in the [`OBSTACLES`] group, built from a preset's
//! [`Obstacle`] shape.

use crate::groups::OBSTACLES;
use bevy::prelude::*;
use bevy_rapier2d::prelude::{Collider, CollisionGroups, Group, RigidBody};
use murmur_core::obstacles::Obstacle;

/// An obstacle, with the shape it was made from (for drawing and for saving).
#[derive(Component, Clone, Debug, PartialEq)]
pub struct ObstacleBody(pub Obstacle);

/// The collider and pose of `obstacle`: a ball, a cuboid turned about its centre, or the convex
/// hull of a polygon's points (centred on their mean, so the pose says where it is).
pub fn collider(obstacle: &Obstacle) -> (Collider, Transform) {
    match obstacle {
        Obstacle::Circle { x, y, radius } => {
            (Collider::ball(*radius), Transform::from_xyz(*x, *y, 0.0))
        }
        Obstacle::Box {
            x,
            y,
            width,
            height,
            angle,
            ..
        } => (
            Collider::cuboid(width * 0.5, height * 0.5),
            Transform::from_xyz(*x, *y, 0.0)
                .with_rotation(Quat::from_rotation_z(angle.to_radians())),
        ),
        Obstacle::Polygon { points } => {
            let pts: Vec<Vec2> = points.iter().map(|p| Vec2::new(p[0], p[1])).collect();
            let centre = pts.iter().copied().sum::<Vec2>() / pts.len().max(1) as f32;
            let local: Vec<Vec2> = pts.iter().map(|&p| p - centre).collect();
            // Validated presets have a proper hull; a degenerate one falls back to a dot.
            let shape = Collider::convex_hull(&local).unwrap_or_else(|| Collider::ball(0.5));
            (shape, Transform::from_xyz(centre.x, centre.y, 0.0))
        }
        // 3D shapes (refused in a flat preset) in the plane: a sphere's section, the ground as
        // a floor a world wide.
        Obstacle::Sphere { x, y, radius, .. } => {
            (Collider::ball(*radius), Transform::from_xyz(*x, *y, 0.0))
        }
        Obstacle::Ground { height } => (
            Collider::cuboid(GROUND_HALF_WIDTH, 1.0),
            Transform::from_xyz(0.0, height - 1.0, 0.0),
        ),
    }
}

/// Half the width of the ground's floor in the plane.
const GROUND_HALF_WIDTH: f32 = 1.0e6;

/// Spawns `obstacle` as a fixed collider that birds see and avoid; returns its entity.
pub fn spawn_obstacle(commands: &mut Commands, obstacle: Obstacle) -> Entity {
    let (shape, transform) = collider(&obstacle);
    commands
        .spawn((
            ObstacleBody(obstacle),
            RigidBody::Fixed,
            shape,
            CollisionGroups::new(OBSTACLES, Group::ALL),
            transform,
        ))
        .id()
}
