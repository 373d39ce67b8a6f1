//! A faint outline of the world's rectangle, so one sees where the edges are.

use crate::app::SceneConfig;
use crate::app::camera::WORLD_LAYER;
use bevy::camera::visibility::RenderLayers;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, gizmos_on_world_layer)
        .add_systems(Update, outline_world.run_if(crate::app::deep::flat));
}

fn gizmos_on_world_layer(mut store: ResMut<GizmoConfigStore>) {
    store
        .config_mut::<DefaultGizmoConfigGroup>()
        .0
        .render_layers = RenderLayers::layer(WORLD_LAYER);
}

fn outline_world(mut gizmos: Gizmos, config: Res<SceneConfig>) {
    let world = Vec2::new(config.preset.world.width, config.preset.world.height);
    gizmos.rect_2d(
        Isometry2d::IDENTITY,
        world,
        Color::srgba(0.05, 0.15, 0.35, 0.35),
    );
}
