//! The p5.js leader sketch, from the library alone: click to place the leader bird; the flock
//! streams to it, gathers, then orbits it; click elsewhere and it streams there; right click
//! removes it.
//!
//! `cargo run --example leader_click`

use bevy::prelude::*;
use murmur_flock::prelude::*;

fn main() -> AppExit {
    App::new()
        .add_plugins((DefaultPlugins, FlockPlugins::default()))
        .insert_resource(ClearColor(Color::srgb_u8(112, 231, 255)))
        .add_observer(paint_leader)
        .add_systems(Startup, setup)
        .run()
}

fn setup(mut commands: Commands, mut settings: ResMut<ClickLeaderSettings>) {
    commands.spawn(Camera2d);
    let reynolds = Preset::load("reynolds").expect("a built-in preset");
    // The leader steers the flock as the preset says.
    settings.params = reynolds.leader;
    commands.spawn_flock(reynolds.flock_params(), 2000, 1);
}

/// The placed leader is drawn crimson, twice a bird's size, above the flock.
fn paint_leader(event: On<Add, ClickLeader>, mut commands: Commands) {
    commands.entity(event.entity).insert(Highlight {
        colour: Color::srgb_u8(220, 20, 60),
        size: 16.0,
    });
}
