//! The p5.js leader sketch: click to place the leader bird; the flock streams to it, gathers,
//! then orbits it; click elsewhere and it streams there. Trails fade like the sketch's.
//!
//! `cargo run --example leader_click`

use bevy::prelude::*;
use murmur::app::{self, SceneConfig, camera, controls, hud, leader, render, scene};

fn main() -> AppExit {
    let scene_config = SceneConfig::load("reynolds", 1).expect("a built-in preset");
    let mut app = app::engine((1280, 720));
    app.insert_resource(scene_config).add_plugins((
        scene::plugin,
        camera::plugin,
        leader::plugin,
        render::plugin,
        controls::plugin,
        hud::plugin,
    ));
    app.run()
}
