//! The windowed app: a scene (flock, player, leader), a camera, one-draw-call birds with trails,
//! keyboard and mouse controls, and a help line; for a 3D preset, the 3D scene of [`deep`]. Each
//! module is a small plugin.

pub mod bodies;
pub mod camera;
pub mod capture;
pub mod controls;
pub mod deep;
#[cfg(target_arch = "wasm32")]
pub mod fonts;
pub mod hud;
pub mod keys;
pub mod leader;
pub mod meter;
pub mod obstacles;
pub mod oled;
pub mod panel;
pub mod path;
pub mod player;
pub mod predators;
pub mod render;
pub mod scene;
pub mod touch;

use bevy::log::{Level, LogPlugin};
use bevy::prelude::*;
use bevy::window::{PresentMode, WindowResolution};
use bevy_egui::{EguiGlobalSettings, EguiPlugin};
use murmur_flock::prelude::*;
use murmur_physics::{FlockPhysicsPlugin, FlockRapierPlugin};
pub use scene::SceneConfig;

/// How the app starts.
pub struct AppOptions {
    /// The flock to fly.
    pub scene: SceneConfig,
    /// Window size in pixels.
    pub window: (u32, u32),
}

/// The whole app, ready to `run()`: [`engine`] plus every murmur plugin.
pub fn build(options: AppOptions) -> App {
    let mut app = engine(options.window);
    app.insert_resource(options.scene).add_plugins(plugin);
    app
}

/// Every part of the murmur app: scene, camera, player, leader, drawing, controls, help line
/// and the frame meter. Needs [`engine`] and a [`SceneConfig`] resource.
pub fn plugin(app: &mut App) {
    app.add_plugins((
        scene::plugin,
        camera::plugin,
        player::plugin,
        leader::plugin,
        render::plugin,
        controls::plugin,
        hud::plugin,
        meter::plugin,
        oled::plugin,
        panel::plugin,
        obstacles::plugin,
        predators::plugin,
        predators::rings_plugin,
        bodies::plugin,
        capture::plugin,
    ))
    .add_plugins((
        touch::plugin,
        deep::plugin,
        deep::lines_plugin,
        path::plugin,
    ));
}

/// What the murmur plugins run on: Bevy's default plugins with a window of `window` pixels,
/// the fixed 60 Hz tick, rapier (stepped once per tick, no gravity), egui and the flock
/// plugin. Add a [`SceneConfig`] and the parts you want (see the examples).
pub fn engine(window: (u32, u32)) -> App {
    let mut app = App::new();
    let (width, height) = window;
    app.add_plugins(
        DefaultPlugins
            .set(WindowPlugin {
                primary_window: Some(Window {
                    title: "murmur".into(),
                    resolution: WindowResolution::new(width, height)
                        .with_scale_factor_override(1.0),
                    present_mode: PresentMode::AutoVsync,
                    // In the browser: the page's canvas, sized by the page.
                    canvas: Some("#murmur".into()),
                    fit_canvas_to_parent: true,
                    ..default()
                }),
                ..default()
            })
            .set(LogPlugin {
                filter: "wgpu=error,naga=warn,bevy_render=warn,bevy_winit=warn".into(),
                level: Level::INFO,
                ..default()
            }),
    )
    .insert_resource(Time::<Fixed>::from_duration(TICK))
    // When a frame runs long, slow the flock down instead of spiralling into ever more ticks
    // per frame: at most four ticks catch up in one frame.
    .insert_resource({
        let mut time = Time::<Virtual>::default();
        time.set_max_delta(TICK * 4);
        time
    })
    // Rapier once per tick, four substeps (crowded physical birds do not sink into each other),
    // 50 px a metre, no gravity.
    .add_plugins(FlockRapierPlugin::default())
    .insert_resource(EguiGlobalSettings {
        auto_create_primary_context: false,
        ..default()
    })
    .add_plugins(EguiPlugin::default());
    #[cfg(target_arch = "wasm32")]
    app.add_observer(fonts::page_fonts);
    app
        // The library's flock plugins, but the app's own click handling (it knows its UI and the
        // obstacle editing; it places the library's leader).
        .add_plugins((
            FlockPlugins::default()
                .build()
                .disable::<ClickLeaderPlugin>(),
            FlockPhysicsPlugin::default(),
        ));
    app
}
