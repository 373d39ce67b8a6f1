//! Two species in one sky: starlings, from a preset file of the game's own (loaded by path),
//! and swifts, from a built-in preset. Each flock steers by its own kind only and has its own
//! colours; one leader (left click) leads both.
//!
//! `cargo run --example two_species`

use bevy::prelude::*;
use murmur_flock::prelude::*;

fn main() -> AppExit {
    App::new()
        .add_plugins((DefaultPlugins, FlockPlugins::default()))
        .insert_resource(ClearColor(Color::srgb_u8(250, 214, 165)))
        .add_systems(Startup, setup)
        .run()
}

fn setup(mut commands: Commands) {
    commands.spawn(Camera2d);
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/assets/presets/quick_flock.toml"
    );
    let starlings = Preset::load(path).unwrap_or_else(|e| panic!("{e}"));
    let swifts = Preset::load("spaceboids").expect("a built-in preset");
    let dark = commands.spawn_flock(starlings.flock_params(), 1200, 1);
    commands.entity(dark).insert(FlockLook {
        small_flock: Color::srgb_u8(60, 60, 70),
        large_flock: Color::srgb_u8(15, 10, 25),
        ..FlockLook::default()
    });
    let light = commands.spawn_flock(swifts.flock_params(), 300, 2);
    commands.entity(light).insert(FlockLook {
        size: 11.0,
        small_flock: Color::srgb_u8(200, 60, 40),
        large_flock: Color::srgb_u8(150, 20, 20),
        ..FlockLook::default()
    });
}
