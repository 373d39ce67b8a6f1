//! The DE1-SoC scene, from the library alone: 3,000 boids on a 640x480 screen with the published
//! Cornell parameters, turning back inside 100 px margins (drawn as the inner rectangle).
//!
//! `cargo run --example cornell`

use bevy::prelude::*;
use murmur_flock::prelude::*;

fn main() -> AppExit {
    App::new()
        .add_plugins((DefaultPlugins, FlockPlugins::default()))
        .add_systems(Startup, setup)
        .add_systems(Update, outline_margins)
        .run()
}

#[derive(Resource)]
struct Margins(Vec2);

fn setup(mut commands: Commands) {
    let cornell = Preset::load("cornell").expect("a built-in preset");
    let params = cornell.flock_params();
    // The 640x480 world fills most of the window.
    commands.spawn((
        Camera2d,
        Projection::Orthographic(OrthographicProjection {
            scale: 0.6,
            ..OrthographicProjection::default_2d()
        }),
    ));
    commands.insert_resource(Margins(
        params.world_size - Vec2::splat(2.0 * params.edges.margin),
    ));
    commands.spawn_flock(params, 3000, 1);
}

/// The margins inside which boids start turning back.
fn outline_margins(mut gizmos: Gizmos, margins: Res<Margins>) {
    gizmos.rect_2d(
        Isometry2d::IDENTITY,
        margins.0,
        Color::srgba(0.6, 0.7, 0.9, 0.35),
    );
}
