//! Obstacles: the preset's are placed with the flock (and again on reset); Shift + left click
//! adds a round one at the cursor, Shift + right click removes the one under it. Each is a
//! rapier collider the birds see ahead and steer round, drawn as a filled shape.

use super::camera::{CursorWorld, TrackCursor, WORLD_LAYER};
use super::scene::{ResetScene, SceneConfig, SpawnScene};
use bevy::camera::visibility::RenderLayers;
use bevy::prelude::*;
use bevy_egui::input::EguiWantsInput;
use murmur_flock::murmur_core::obstacles::{Obstacle, convex_hull};
use murmur_physics::prelude::*;

/// An obstacle that came with the preset (replaced on reset; clicked ones stay).
#[derive(Component)]
pub struct FromPreset;

/// Radius of a clicked obstacle, as a fraction of the world's width.
const CLICKED_RADIUS: f32 = 0.03;
/// Slate, dark against the sky.
pub const OBSTACLE_COLOUR: Color = Color::srgb_u8(55, 65, 80);

/// Adds this module's systems.
pub fn plugin(app: &mut App) {
    app.init_resource::<CursorWorld>()
        .init_resource::<EguiWantsInput>()
        .add_systems(Startup, spawn_from_preset.after(SpawnScene))
        .add_systems(
            Update,
            (
                respawn_on_reset,
                place_and_remove.after(TrackCursor),
                dress_new_obstacles,
            ),
        );
}

/// True while a Shift key is held: clicks then edit obstacles instead of the leader.
pub fn editing_obstacles(keys: &ButtonInput<KeyCode>) -> bool {
    keys.pressed(KeyCode::ShiftLeft) || keys.pressed(KeyCode::ShiftRight)
}

fn spawn_from_preset(mut commands: Commands, config: Res<SceneConfig>) {
    // A 3D world's obstacles are solids, placed by the 3D scene.
    if config.preset.world.depth > 0.0 {
        return;
    }
    for obstacle in config.preset.scene().obstacles {
        let entity = spawn_obstacle(&mut commands, obstacle.clone());
        commands.entity(entity).insert(FromPreset);
    }
}

fn respawn_on_reset(
    mut requests: MessageReader<ResetScene>,
    mut commands: Commands,
    config: Res<SceneConfig>,
    old: Query<Entity, With<FromPreset>>,
) {
    if requests.read().last().is_none() {
        return;
    }
    for entity in &old {
        commands.entity(entity).despawn();
    }
    spawn_from_preset(commands, config);
}

fn place_and_remove(
    mut commands: Commands,
    mouse: Res<ButtonInput<MouseButton>>,
    keys: Res<ButtonInput<KeyCode>>,
    cursor: Res<CursorWorld>,
    wants: Res<EguiWantsInput>,
    config: Res<SceneConfig>,
    obstacles: Query<(Entity, &ObstacleBody)>,
) {
    if !editing_obstacles(&keys) || wants.wants_any_pointer_input() {
        return;
    }
    let Some(at) = cursor.0 else {
        return;
    };
    if mouse.just_pressed(MouseButton::Left) {
        let radius = CLICKED_RADIUS * config.preset.world.width;
        spawn_obstacle(&mut commands, Obstacle::circle(at, radius));
        info!("obstacle placed at ({:.0}, {:.0})", at.x, at.y);
    }
    if mouse.just_pressed(MouseButton::Right)
        && let Some((entity, _)) = obstacles
            .iter()
            .filter(|(_, o)| o.0.distance(at) <= 0.0)
            .min_by(|a, b| a.1.0.distance(at).total_cmp(&b.1.0.distance(at)))
    {
        commands.entity(entity).despawn();
        info!("obstacle removed");
    }
}

/// The filled shape of an obstacle, in its collider's frame (see
/// [`murmur_physics::obstacle::collider`]).
fn shape_mesh(obstacle: &Obstacle) -> Mesh {
    match obstacle {
        Obstacle::Circle { radius, .. } => Circle::new(*radius).mesh().resolution(48).build(),
        Obstacle::Box { width, height, .. } => Rectangle::new(*width, *height).into(),
        // 3D shapes are refused in a flat world; their section, should one come.
        Obstacle::Sphere { radius, .. } => Circle::new(*radius).mesh().resolution(48).build(),
        Obstacle::Ground { .. } => Rectangle::new(2.0e6, 2.0).into(),
        Obstacle::Polygon { points } => {
            let centre = points.iter().map(|p| Vec2::new(p[0], p[1])).sum::<Vec2>()
                / points.len().max(1) as f32;
            let hull = convex_hull(points);
            let corners: Vec<[f32; 3]> = hull
                .iter()
                .map(|&p| (p - centre).extend(0.0).into())
                .collect();
            // A fan from the first corner: the hull is convex.
            let indices: Vec<u32> = (1..hull.len().saturating_sub(1) as u32)
                .flat_map(|i| [0, i, i + 1])
                .collect();
            Mesh::new(
                bevy::mesh::PrimitiveTopology::TriangleList,
                bevy::asset::RenderAssetUsages::default(),
            )
            .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, corners)
            .with_inserted_indices(bevy::mesh::Indices::U32(indices))
        }
    }
}

/// Gives each new obstacle its mesh, under the birds.
fn dress_new_obstacles(
    mut commands: Commands,
    new: Query<(Entity, &ObstacleBody), Added<ObstacleBody>>,
    meshes: Option<ResMut<Assets<Mesh>>>,
    materials: Option<ResMut<Assets<ColorMaterial>>>,
    mut material: Local<Option<Handle<ColorMaterial>>>,
) {
    // Without rendering (a headless app, a test) obstacles stay undrawn.
    let (Some(mut meshes), Some(mut materials)) = (meshes, materials) else {
        return;
    };
    for (entity, obstacle) in &new {
        let colour = material
            .get_or_insert_with(|| materials.add(OBSTACLE_COLOUR))
            .clone();
        commands.entity(entity).insert((
            Mesh2d(meshes.add(shape_mesh(&obstacle.0))),
            MeshMaterial2d(colour),
            RenderLayers::layer(WORLD_LAYER),
        ));
    }
}
