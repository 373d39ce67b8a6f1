//! The smallest 3D game with a flock: a 3D camera, a sun, the flock plugins and 2,000 birds on
//! the reynolds3d preset, drawn as lit, instanced birds. Left click places a leader on the
//! horizontal plane through the flock, right click removes it.
//!
//! `cargo run --example minimal3d`

use bevy::core_pipeline::tonemapping::Tonemapping;
use bevy::prelude::*;
use murmur_flock::prelude3d::*;

fn main() -> AppExit {
    App::new()
        .add_plugins((DefaultPlugins, FlockPlugins::default()))
        .add_systems(Startup, setup)
        .run()
}

fn setup(mut commands: Commands) {
    commands.spawn((
        Camera3d::default(),
        // A tonemapping without a lookup table (this workspace's Bevy leaves the tables out).
        Tonemapping::AcesFitted,
        Transform::from_xyz(0.0, 250.0, 900.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
    commands.spawn((
        DirectionalLight::default(),
        Transform::from_xyz(1.0, 3.0, 2.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
    let reynolds = Preset::load("reynolds3d").expect("a built-in preset");
    commands.spawn_flock(reynolds.flock_params(), 2000, 42);
}
