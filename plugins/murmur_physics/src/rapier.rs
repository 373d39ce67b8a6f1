//! Rapier set up for a flock: in the fixed schedule, stepped once per flock tick (with
//! substeps), in world units of pixels, without gravity (birds fly in a plane seen from above).

use bevy::prelude::*;
use bevy_rapier2d::prelude::{
    DefaultRapierContext, NoUserData, RapierConfiguration, RapierPhysicsPlugin, TimestepMode,
};
use murmur_flock::tick::TICK;

/// Adds rapier in `FixedUpdate`, stepped once per flock tick ([`TICK`]) in `substeps` substeps,
/// at `pixels_per_metre` world units a metre, with gravity off.
#[derive(Clone, Copy, Debug)]
pub struct FlockRapierPlugin {
    /// World units (pixels) per rapier metre.
    pub pixels_per_metre: f32,
    /// Substeps per tick: more keep crowded bodies from sinking into each other.
    pub substeps: usize,
}

impl Default for FlockRapierPlugin {
    fn default() -> Self {
        Self {
            pixels_per_metre: 50.0,
            substeps: 4,
        }
    }
}

impl Plugin for FlockRapierPlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins(
            RapierPhysicsPlugin::<NoUserData>::pixels_per_meter(self.pixels_per_metre)
                .in_fixed_schedule(),
        )
        .insert_resource(TimestepMode::Fixed {
            dt: TICK.as_secs_f32(),
            substeps: self.substeps,
        })
        .add_systems(Startup, no_gravity);
    }
}

fn no_gravity(mut config: Single<&mut RapierConfiguration, With<DefaultRapierContext>>) {
    config.gravity = Vec2::ZERO;
}
