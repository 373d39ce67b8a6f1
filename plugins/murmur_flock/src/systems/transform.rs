//! Mirrors bird positions and headings into `Transform`s for sprite- or mesh-drawn birds.

use crate::components::{Boid, Piloted, Position, Velocity};
use bevy_ecs::prelude::*;
use bevy_math::{Quat, Vec2, Vec3};
use bevy_transform::components::Transform;

/// Sets translation (x, y) and rotation (about z, along the velocity) of flat birds with a
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

/// Sets the translation of 3D birds with a `Transform`, and turns them to fly along their
/// velocity (their local -z forward, y kept up, as Bevy's `looking_to`); a standing bird keeps
/// its last rotation. Piloted birds are left alone.
pub fn sync_transforms_3d(
    mut birds: Query<
        (&Position<Vec3>, &Velocity<Vec3>, &mut Transform),
        (With<Boid>, Without<Piloted>),
    >,
) {
    birds.par_iter_mut().for_each(|(pos, vel, mut transform)| {
        transform.translation = pos.0;
        if let Some(forward) = vel.0.try_normalize() {
            let up = if forward.y.abs() > 0.999 {
                Vec3::Z
            } else {
                Vec3::Y
            };
            transform.rotation = Transform::IDENTITY.looking_to(forward, up).rotation;
        }
    });
}
