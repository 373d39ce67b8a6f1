//! Mirrors bird positions and headings into `Transform`s for sprite- or mesh-drawn birds.

use crate::components::{Boid, Piloted, Position, Velocity};
use bevy_ecs::prelude::*;
use bevy_math::{Quat, Vec2};
use bevy_transform::components::Transform;

/// Sets translation (x, y) and rotation (about z, along the velocity) of birds with a
/// `Transform`; a standing bird keeps its last rotation. Piloted birds are left alone: their
/// `Transform` is where their place comes from.
pub fn sync_transforms(
    mut birds: Query<(&Position, &Velocity, &mut Transform), (With<Boid>, Without<Piloted>)>,
) {
    birds.par_iter_mut().for_each(|(pos, vel, mut transform)| {
        transform.translation.x = pos.0.x;
        transform.translation.y = pos.0.y;
        if vel.0 != Vec2::ZERO {
            transform.rotation = Quat::from_rotation_z(vel.0.to_angle());
        }
    });
}
