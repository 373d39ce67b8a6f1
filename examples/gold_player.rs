//! SpaceBoids: fly the gold bird with WASD or the arrow keys. It is a rapier body pushed by
//! forces; the flock counts it as one of its own and follows it (`F`: flee it instead).
//!
//! `cargo run --example gold_player`

use bevy::prelude::*;
use murmur::app::{self, SceneConfig, camera, controls, hud, player, render, scene};

fn main() -> AppExit {
    let scene_config = SceneConfig::load("spaceboids", 1).expect("a built-in preset");
    let mut app = app::engine((1280, 720));
    app.insert_resource(scene_config).add_plugins((
        scene::plugin,
        camera::plugin,
        player::plugin,
        render::plugin,
        controls::plugin,
        hud::plugin,
    ));
    app.run()
}
