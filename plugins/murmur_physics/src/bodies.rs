//! Physical birds (SpaceBoids' rigid bodies): each bird becomes a rapier ball that collides
//! with the others, the obstacles and the walls. The flock still steers it and sets its
//! velocity; rapier moves it; its position and velocity are read back after the step. Off by
//! default: for small flocks and games, the flock's own integration is far faster.

use crate::groups::BIRD_BODIES;
use bevy::prelude::*;
use bevy_rapier2d::prelude::{
    Ccd, Collider, CollisionGroups, Damping, Friction, GravityScale, Group, LockedAxes,
    Restitution, RigidBody, Sleeping, Velocity as BodyVelocity,
};
use murmur_flock::prelude::{BodyDriven, Boid, Flock, FlockMember, Piloted, Position, Velocity};

/// Whether birds are physical, and how big a bird's body is.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct BirdBodies {
    /// Every (unpiloted) bird is a rigid body.
    pub enabled: bool,
    /// A bird body's radius, in world units.
    pub radius: f32,
}

impl Default for BirdBodies {
    fn default() -> Self {
        Self {
            enabled: false,
            radius: 4.0,
        }
    }
}

impl From<murmur_flock::murmur_core::preset::BodiesSection> for BirdBodies {
    /// A preset's `[bodies]` table.
    fn from(section: murmur_flock::murmur_core::preset::BodiesSection) -> Self {
        Self {
            enabled: section.enabled,
            radius: section.bird_radius,
        }
    }
}

/// A bird this plugin gave a body.
#[derive(Component, Clone, Copy, Debug)]
pub struct BirdBody;

type BodyParts = (
    BirdBody,
    BodyDriven,
    RigidBody,
    Collider,
    CollisionGroups,
    BodyVelocity,
    LockedAxes,
    GravityScale,
    Ccd,
    Friction,
    Restitution,
    Damping,
    Sleeping,
);

/// Gives every bird a body while [`BirdBodies`] is on (new birds too), takes them away when it
/// goes off, and resizes them when the radius changes.
pub fn attach_bodies(
    mut commands: Commands,
    bodies: Res<BirdBodies>,
    bare: Query<(Entity, &Position, &Velocity), (With<Boid>, Without<Piloted>, Without<BirdBody>)>,
    mut dressed: Query<(Entity, &mut Collider), With<BirdBody>>,
    time: Res<Time>,
) {
    if !bodies.enabled {
        for (entity, _) in &dressed {
            commands.entity(entity).remove::<BodyParts>();
        }
        return;
    }
    let per_second = 1.0 / time.delta_secs().max(1e-6);
    for (entity, pos, vel) in &bare {
        commands.entity(entity).insert((
            (
                BirdBody,
                BodyDriven,
                RigidBody::Dynamic,
                Collider::ball(bodies.radius),
                CollisionGroups::new(BIRD_BODIES, Group::ALL),
                BodyVelocity::linear(vel.0 * per_second),
                LockedAxes::ROTATION_LOCKED,
            ),
            (
                GravityScale(0.0),
                Ccd::enabled(),
                Friction::coefficient(0.0),
                Restitution::coefficient(0.0),
                Damping::default(),
                Sleeping::disabled(),
                Transform::from_translation(pos.0.extend(0.0)),
            ),
        ));
    }
    if bodies.is_changed() {
        for (_, mut collider) in &mut dressed {
            *collider = Collider::ball(bodies.radius);
        }
    }
}

/// Hands each body the velocity the flock chose for this tick (world units per tick, as
/// rapier's per second).
pub fn push_velocities(
    mut birds: Query<(&Velocity, &mut BodyVelocity), With<BirdBody>>,
    time: Res<Time>,
) {
    let per_second = 1.0 / time.delta_secs().max(1e-6);
    for (vel, mut body) in &mut birds {
        body.linear = vel.0 * per_second;
        body.angular = 0.0;
    }
}

/// Reads each body's place and velocity back into the bird, applying its flock's edges (a bird
/// that wraps round the torus is moved there).
pub fn read_back(
    mut birds: Query<
        (
            &mut Transform,
            &mut BodyVelocity,
            &mut Position,
            &mut Velocity,
            &FlockMember,
        ),
        With<BirdBody>,
    >,
    flocks: Query<&Flock>,
    time: Res<Time>,
) {
    let dt = time.delta_secs();
    for (mut transform, mut body, mut pos, mut vel, member) in &mut birds {
        let mut p = transform.translation.truncate();
        let mut v = body.linear * dt;
        if let Ok(flock) = flocks.get(member.0) {
            let before = p;
            flock
                .params
                .edges
                .confine(&flock.params.bounds(), &mut p, &mut v);
            if p != before {
                transform.translation = p.extend(transform.translation.z);
                body.linear = v / dt.max(1e-6);
            }
        }
        pos.0 = p;
        vel.0 = v;
    }
}
