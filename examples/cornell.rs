//! The DE1-SoC scene: 3,000 boids on a 640x480 screen with the published Cornell parameters,
//! turning back inside 100 px margins (drawn as the inner rectangle).
//!
//! `cargo run --example cornell`

use bevy::prelude::*;
use murmur::app::{self, SceneConfig, camera, controls, hud, leader, render, scene};

fn main() -> AppExit {
    let scene_config = SceneConfig::load("cornell", 1).expect("a built-in preset");
    let mut app = app::engine((1280, 960));
    app.insert_resource(scene_config)
        .add_plugins((
            scene::plugin,
            camera::plugin,
            leader::plugin,
            render::plugin,
            controls::plugin,
            hud::plugin,
        ))
        .add_systems(Update, outline_margins);
    app.run()
}

/// The margins inside which boids start turning back.
fn outline_margins(mut gizmos: Gizmos, config: Res<SceneConfig>) {
    let world = Vec2::new(config.preset.world.width, config.preset.world.height);
    let inner = world - Vec2::splat(2.0 * config.preset.edges.margin);
    gizmos.rect_2d(
        Isometry2d::IDENTITY,
        inner,
        Color::srgba(0.1, 0.2, 0.4, 0.25),
    );
}
