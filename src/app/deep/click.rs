//! Clicks in the 3D scene. A left click (a press and release without dragging: a drag orbits)
//! sends the cursor's ray to the ground and places the leader above the point it meets, at the
//! flock's height: the flock streams to it, gathers, then orbits it. The leader shows as a
//! crimson orb with a thin line down to its shadow on the ground, so its height reads. Right
//! click (the flat scene's handler) removes it. Shift + click puts a column on the ground there,
//! Shift + right click takes a clicked column away.

use super::Space;
use super::scenery::{PlacedSolid, SceneFrame, Scenery, solid_mesh};
use super::view::DeepCamera;
use crate::app::camera::WORLD_LAYER;
use crate::app::leader::{CRIMSON, ClickLeader};
use crate::app::obstacles::editing_obstacles;
use crate::app::render::SpecialBird;
use crate::app::scene::SceneConfig;
use bevy::camera::visibility::RenderLayers;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::input::EguiWantsInput;
use murmur_flock::pointer::centre_of_3d_flock;
use murmur_flock::prelude::*;

/// A press that moves less than this (pixels) before its release is a click, not a drag.
pub const CLICK_SLOP: f32 = 5.0;

/// A clicked column's half width, as a part of the world's span.
const COLUMN_HALF_WIDTH: f32 = 0.025;

/// The orb marking a 3D leader.
#[derive(Component)]
pub struct LeaderOrb;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<EguiWantsInput>()
        .add_systems(Update, (click, dress_leader).chain().run_if(super::deep));
}

/// Where the cursor's ray meets the ground, if it does (within the sky's reach).
pub fn ground_under_cursor(
    window: &Window,
    camera: (&Camera, &GlobalTransform),
    ground: f32,
) -> Option<Vec3> {
    let cursor = window.cursor_position()?;
    ground_under(camera, cursor, ground)
}

/// Where the ray through window point `at` (logical pixels) meets the ground.
pub fn ground_under(camera: (&Camera, &GlobalTransform), at: Vec2, ground: f32) -> Option<Vec3> {
    // The camera's picture may start away from the window's corner (beside the panel).
    let corner = camera
        .0
        .logical_viewport_rect()
        .map_or(Vec2::ZERO, |r| r.min);
    let ray = camera.0.viewport_to_world(camera.1, at - corner).ok()?;
    let distance = ray.intersect_plane(Vec3::Y * ground, InfinitePlane3d::new(Vec3::Y))?;
    Some(ray.get_point(distance))
}

/// The leader's place for a click on the ground at `on_ground`: above it, at the flock's height
/// (kept inside the world's box and above the ground).
pub fn leader_above(on_ground: Vec3, flock_height: f32, frame: &SceneFrame) -> Vec3 {
    let inside = frame.half * 0.95;
    let low = (frame.ground + 0.05 * frame.span).max(-inside.y);
    Vec3::new(
        on_ground.x.clamp(-inside.x, inside.x),
        flock_height.clamp(low, inside.y.max(low)),
        on_ground.z.clamp(-inside.z, inside.z),
    )
}

/// Places the leader above the ground point `hit`, at the flock's height (a click's or a tap's).
pub fn place_leader_over(
    commands: &mut Commands,
    hit: Vec3,
    flocks: &Query<&FlockColumns<Vec3>>,
    frame: &SceneFrame,
    config: &SceneConfig,
) {
    let height = centre_of_3d_flock(flocks.iter()).map_or(0.0, |c| c.y);
    let leader = leader_above(hit, height, frame);
    commands.place_leader(leader, config.preset.leader);
    info!(
        "leader placed at ({:.0}, {:.0}, {:.0})",
        leader.x, leader.y, leader.z
    );
}

#[allow(clippy::too_many_arguments)]
fn click(
    mut commands: Commands,
    mouse: Res<ButtonInput<MouseButton>>,
    keys: Res<ButtonInput<KeyCode>>,
    wants: Res<EguiWantsInput>,
    config: Res<SceneConfig>,
    frame: Option<Res<SceneFrame>>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Query<(&Camera, &GlobalTransform), With<DeepCamera>>,
    flocks: Query<&FlockColumns<Vec3>>,
    placed: Query<(Entity, &FlockSolid), With<PlacedSolid>>,
    mut pressed_at: Local<Option<Vec2>>,
    mut meshes: Option<ResMut<Assets<Mesh>>>,
    mut materials: Option<ResMut<Assets<StandardMaterial>>>,
) {
    let Some(frame) = frame else { return };
    let Ok(camera) = camera.single() else { return };
    let cursor = window.cursor_position();
    if mouse.just_pressed(MouseButton::Left) {
        *pressed_at = cursor.filter(|_| !wants.wants_any_pointer_input());
    }
    let over_ui = wants.wants_any_pointer_input();
    let editing = editing_obstacles(&keys);
    if mouse.just_released(MouseButton::Left) {
        let start = pressed_at.take();
        let clicked = start
            .zip(cursor)
            .filter(|(a, b)| a.distance(*b) < CLICK_SLOP)
            .map(|(_, b)| b);
        if let Some(at) = clicked.filter(|_| !over_ui)
            && let Some(hit) = ground_under(camera, at, frame.ground)
        {
            if editing {
                place_column(&mut commands, hit, &frame, &mut meshes, &mut materials);
            } else {
                place_leader_over(&mut commands, hit, &flocks, &frame, &config);
            }
        }
    }
    if editing
        && mouse.just_pressed(MouseButton::Right)
        && !over_ui
        && let Some(hit) = cursor.and_then(|c| ground_under(camera, c, frame.ground))
    {
        let nearest = placed.iter().min_by(|a, b| {
            footprint_distance(&a.1.0, hit).total_cmp(&footprint_distance(&b.1.0, hit))
        });
        if let Some((entity, solid)) = nearest
            && footprint_distance(&solid.0, hit) < COLUMN_HALF_WIDTH * frame.span
        {
            commands.entity(entity).despawn();
            info!("column removed");
        }
    }
}

/// How far a ground point is from a solid's centre, seen from above.
fn footprint_distance(solid: &Solid, at: Vec3) -> f32 {
    let centre = match *solid {
        Solid::Sphere { centre, .. } | Solid::Cuboid { centre, .. } => centre,
        Solid::Ground { .. } => return f32::INFINITY,
    };
    Vec2::new(centre.x - at.x, centre.z - at.z).length()
}

/// A column standing on the ground at `at`, as tall as the world's top.
fn place_column(
    commands: &mut Commands,
    at: Vec3,
    frame: &SceneFrame,
    meshes: &mut Option<ResMut<Assets<Mesh>>>,
    materials: &mut Option<ResMut<Assets<StandardMaterial>>>,
) {
    let width = COLUMN_HALF_WIDTH * frame.span;
    let height = ((frame.half.y - frame.ground) * 0.5).max(width);
    let solid = Solid::Cuboid {
        centre: Vec3::new(at.x, frame.ground + height, at.z),
        half: Vec3::new(width, height, width),
        yaw: 0.0,
    };
    let mut entity = commands.spawn((
        Scenery,
        PlacedSolid,
        FlockSolid(solid),
        DespawnOnExit(Space::Deep),
        RenderLayers::layer(WORLD_LAYER),
    ));
    if let (Some(meshes), Some(materials)) = (meshes.as_mut(), materials.as_mut())
        && let Some(shape) = solid_mesh(&solid, meshes)
    {
        entity.insert((
            shape,
            MeshMaterial3d(materials.add(Color::srgb(0.56, 0.52, 0.47))),
        ));
    }
    info!("column placed at ({:.0}, {:.0})", at.x, at.z);
}

/// A 3D leader is a crimson orb (not a bird: it does not fly).
fn dress_leader(
    mut commands: Commands,
    leaders: Query<(Entity, &Position<Vec3>), (With<ClickLeader>, Without<LeaderOrb>)>,
    frame: Option<Res<SceneFrame>>,
    meshes: Option<ResMut<Assets<Mesh>>>,
    materials: Option<ResMut<Assets<StandardMaterial>>>,
) {
    let (Some(frame), Some(mut meshes), Some(mut materials)) = (frame, meshes, materials) else {
        return;
    };
    for (entity, at) in &leaders {
        commands
            .entity(entity)
            .remove::<(SpecialBird, Highlight)>()
            .insert((
                LeaderOrb,
                Mesh3d(meshes.add(Sphere::new(0.012 * frame.span).mesh().ico(3).unwrap())),
                MeshMaterial3d(materials.add(StandardMaterial {
                    base_color: CRIMSON,
                    emissive: LinearRgba::from(CRIMSON) * 2.0,
                    ..default()
                })),
                Transform::from_translation(at.0),
                RenderLayers::layer(WORLD_LAYER),
            ));
    }
}

/// The orb follows its leader (placed again, or moved by a game); a thin line runs down from it
/// to a dark disc on the ground.
pub(super) fn mark_leader(
    mut gizmos: Gizmos,
    frame: Option<Res<SceneFrame>>,
    mut leaders: Query<(&Position<Vec3>, &mut Transform), With<LeaderOrb>>,
) {
    let Some(frame) = frame else { return };
    for (at, mut transform) in &mut leaders {
        if transform.translation != at.0 {
            transform.translation = at.0;
        }
        let shadow = Vec3::new(at.0.x, frame.ground + 0.002 * frame.span, at.0.z);
        gizmos.line(at.0, shadow, CRIMSON.with_alpha(0.8));
        gizmos.circle(
            Isometry3d::new(shadow, Quat::from_rotation_x(std::f32::consts::FRAC_PI_2)),
            0.012 * frame.span,
            Color::srgba(0.1, 0.1, 0.1, 0.7),
        );
    }
}
