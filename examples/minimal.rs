//! The smallest game with a flock: a camera, the flock plugins, 1,500 birds on the Cornell
//! preset, drawn in one draw call. Left click places a leader, right click removes it.
//!
//! `cargo run --example minimal`

use bevy::prelude::*;
use murmur_flock::prelude::*;

fn main() -> AppExit {
    App::new()
        .add_plugins((DefaultPlugins, FlockPlugins::default()))
        .add_systems(Startup, setup)
        .run()
}

fn setup(mut commands: Commands) {
    commands.spawn(Camera2d);
    let cornell = Preset::load("cornell").expect("a built-in preset");
    commands.spawn_flock(cornell.flock_params(), 1500, 42);
}
