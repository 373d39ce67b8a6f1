//! Trails: the world camera stops clearing its image and a sky-coloured rectangle at alpha
//! 40/255 is painted over the view before the birds each frame, so the past fades. While the
//! view moves the image is cleared each frame instead (the gold bird keeps a trail of its own).

use super::Looks;
use crate::app::camera::{BACKGROUND, WORLD_LAYER, WorldCamera};
use bevy::camera::visibility::RenderLayers;
use bevy::prelude::*;
use bevy::window::{PrimaryWindow, WindowResized};

/// The p5 sketch's fade: alpha 40 of 255.
const FADE_ALPHA: f32 = 40.0 / 255.0;

#[derive(Component)]
struct FadeQuad;

/// Clear the view once more (after a toggle, a resize or at start) before fading again.
#[derive(Resource)]
pub struct ClearViewOnce(pub bool);

pub(super) fn plugin(app: &mut App) {
    app.insert_resource(ClearViewOnce(true))
        .add_systems(Startup, spawn_fade_quad)
        .add_systems(
            PostUpdate,
            (clear_after_resize, fade)
                .chain()
                .before(TransformSystems::Propagate),
        );
}

fn spawn_fade_quad(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    commands.spawn((
        FadeQuad,
        Mesh2d(meshes.add(Rectangle::new(1.0, 1.0))),
        MeshMaterial2d(materials.add(ColorMaterial::from_color(BACKGROUND.with_alpha(FADE_ALPHA)))),
        Transform::from_xyz(0.0, 0.0, -10.0),
        RenderLayers::layer(WORLD_LAYER),
    ));
}

fn clear_after_resize(mut resized: MessageReader<WindowResized>, mut clear: ResMut<ClearViewOnce>) {
    if resized.read().count() > 0 {
        clear.0 = true;
    }
}

/// Keeps the fade rectangle over the whole view and sets how the world camera clears.
fn fade(
    looks: Res<Looks>,
    mut clear: ResMut<ClearViewOnce>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&mut Camera, &Projection, &Transform), (With<WorldCamera>, Without<FadeQuad>)>,
    quad: Single<(&mut Transform, &mut Visibility), With<FadeQuad>>,
    mut was_on: Local<bool>,
    mut last_view: Local<Option<(Vec3, f32)>>,
) {
    let (mut camera, projection, cam_transform) = camera.into_inner();
    let (mut quad_transform, mut visibility) = quad.into_inner();
    if looks.trails && !*was_on {
        clear.0 = true;
    }
    let scale = match projection {
        Projection::Orthographic(o) => o.scale,
        _ => 1.0,
    };
    // The trails live in screen space: a view that moved or zoomed (the follow camera, a pan)
    // would smear them across the sky, so the image starts afresh.
    let view = (cam_transform.translation, scale);
    if last_view.replace(view).is_some_and(|before| before != view) {
        clear.0 = true;
    }
    *was_on = looks.trails;
    let clear_now = !looks.trails || clear.0;
    clear.0 = false;
    if !clears_as_asked(&camera.clear_color, clear_now) {
        camera.clear_color = if clear_now {
            ClearColorConfig::Custom(BACKGROUND)
        } else {
            ClearColorConfig::None
        };
    }
    *visibility = if looks.trails {
        Visibility::Visible
    } else {
        Visibility::Hidden
    };
    let view = Vec2::new(
        window.physical_width() as f32,
        window.physical_height() as f32,
    ) * scale;
    quad_transform.translation = cam_transform.translation.truncate().extend(-10.0);
    quad_transform.scale = (view * 1.02).extend(1.0);
}

/// True when the camera already clears the way `clear_now` asks (avoids needless change ticks).
fn clears_as_asked(current: &ClearColorConfig, clear_now: bool) -> bool {
    matches!(current, ClearColorConfig::Custom(_)) == clear_now
}
