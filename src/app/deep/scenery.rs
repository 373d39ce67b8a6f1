//! The 3D scene's world: a gradient sky, a ground, a sun that casts shadows, the world's bounds
//! drawn faintly, and the preset's solids (a hill, a column) as meshes the flock flies round.
//! Built again whenever the preset's world or solids change; Shift + click adds a column on the
//! ground, Shift + right click removes the one clicked.

use super::Space;
use crate::app::camera::WORLD_LAYER;
use crate::app::scene::{ResetScene, SceneConfig};
use bevy::camera::visibility::RenderLayers;
use bevy::light::CascadeShadowConfigBuilder;
use bevy::prelude::*;
use murmur_flock::prelude::*;

/// The sky at the horizon (and the fog's colour, so that far things fade into it).
pub const HORIZON: Color = Color::srgb(0.78, 0.86, 0.93);
/// The ground's green.
const GRASS: Color = Color::srgb(0.36, 0.5, 0.3);

/// A starling flock is watched from this far below its preferred height, metres.
const WATCH_FROM_BELOW: f32 = 80.0;

/// The colours and light of a 3D scene.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sky {
    /// The sky at the horizon, and the fog.
    pub horizon: Color,
    /// The sky overhead.
    pub zenith: Color,
    /// The ground.
    pub ground: Color,
    /// The sun's light, lux, and its colour.
    pub sun: (f32, Color),
    /// Where the sun shines from (towards the scene's centre).
    pub sun_from: Vec3,
    /// The light from the whole sky.
    pub ambient: f32,
}

impl Sky {
    /// A clear day.
    pub const DAY: Self = Self {
        horizon: HORIZON,
        zenith: Color::srgb(0.32, 0.55, 0.86),
        ground: GRASS,
        sun: (9000.0, Color::WHITE),
        sun_from: Vec3::new(0.6, 1.0, 0.45),
        ambient: 900.0,
    };
    /// Dusk over a roost: a warm horizon under a darkening sky, the sun low, the ground dark.
    pub const DUSK: Self = Self {
        horizon: Color::srgb(0.96, 0.62, 0.38),
        zenith: Color::srgb(0.2, 0.24, 0.42),
        ground: Color::srgb(0.1, 0.1, 0.09),
        sun: (2500.0, Color::srgb(1.0, 0.62, 0.36)),
        sun_from: Vec3::new(0.9, 0.12, -0.4),
        ambient: 350.0,
    };

    /// The sky of a scene's frame.
    pub fn of(frame: &SceneFrame) -> Self {
        if frame.dusk { Self::DUSK } else { Self::DAY }
    }
}
/// Stone, for columns.
const STONE: Color = Color::srgb(0.56, 0.52, 0.47);

/// Part of the 3D scene's world (rebuilt with it).
#[derive(Component, Clone, Copy)]
pub struct Scenery;

/// The sky's dome, kept about the camera.
#[derive(Component)]
pub struct SkyDome;

/// A solid placed by a click (kept when the scene is rebuilt by a reset).
#[derive(Component)]
pub struct PlacedSolid;

/// The scene's size and ground, worked out from the preset.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct SceneFrame {
    /// The world box's half sizes.
    pub half: Vec3,
    /// The ground's height: the preset's ground where it has one, else a little below the
    /// world's floor (drawn only: a flock without a ground solid does not meet it).
    pub ground: f32,
    /// The world's largest side: distances in the scene are parts of it.
    pub span: f32,
    /// A murmuration at dusk (the starling model's scene): ranging round its roost far beyond
    /// the box it starts in, watched from the ground well below it.
    pub dusk: bool,
}

impl SceneFrame {
    /// The frame of a scene's preset.
    pub fn of(config: &SceneConfig) -> Self {
        let w = &config.preset.world;
        let half = Vec3::new(w.width, w.height, w.depth.max(0.0)) * 0.5;
        let mut span = w.width.max(w.height).max(w.depth).max(1e-3);
        let mut floor = -half.y - 0.05 * span;
        let starlings = match config.preset.model() {
            Model::Starlings(m) => Some(m),
            _ => None,
        };
        if let Some(m) = &starlings {
            span = span.max(2.0 * m.roost_radius);
            floor = m.roost_height - WATCH_FROM_BELOW;
        }
        let ground = solids_of(config)
            .iter()
            .find_map(|s| match s {
                Solid::Ground { height } => Some(*height),
                _ => None,
            })
            .unwrap_or(floor);
        Self {
            half,
            ground,
            span,
            dusk: starlings.is_some(),
        }
    }
}

/// The preset's obstacles that are solids in 3D.
pub fn solids_of(config: &SceneConfig) -> Vec<Solid> {
    config
        .preset
        .scene()
        .obstacles
        .iter()
        .filter_map(|o| o.solid())
        .collect()
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, (build, keep_sky_about_camera).run_if(super::deep));
}

/// What the scenery was built from: rebuilt when it changes or the flock is reset.
#[derive(Default)]
struct Built(Option<(SceneFrame, Vec<Solid>)>);

#[allow(clippy::too_many_arguments)]
fn build(
    mut commands: Commands,
    config: Res<SceneConfig>,
    mut resets: MessageReader<ResetScene>,
    mut built: Local<Built>,
    existing: Query<Entity, (With<Scenery>, Without<PlacedSolid>)>,
    meshes: Option<ResMut<Assets<Mesh>>>,
    materials: Option<ResMut<Assets<StandardMaterial>>>,
) {
    let reset = resets.read().count() > 0;
    let frame = SceneFrame::of(&config);
    let solids = solids_of(&config);
    let current = Some((frame, solids.clone()));
    // After the 3D scene was left and entered again its entities are gone: build anew.
    let gone = existing.is_empty();
    if built.0 == current && !reset && !gone {
        return;
    }
    built.0 = current;
    for entity in &existing {
        commands.entity(entity).despawn();
    }
    commands.insert_resource(frame);
    let (Some(mut meshes), Some(mut materials)) = (meshes, materials) else {
        // Without rendering (a test): the solids only.
        for solid in solids {
            commands.spawn((Scenery, FlockSolid(solid), DespawnOnExit(Space::Deep)));
        }
        return;
    };
    let in_scene = (
        Scenery,
        DespawnOnExit(Space::Deep),
        RenderLayers::layer(WORLD_LAYER),
    );
    let span = frame.span;
    let sky = Sky::of(&frame);

    // The sun, high and to one side, its shadows covering the world and a little beyond.
    commands.spawn((
        in_scene.clone(),
        DirectionalLight {
            illuminance: sky.sun.0,
            color: sky.sun.1,
            shadow_maps_enabled: true,
            ..default()
        },
        CascadeShadowConfigBuilder {
            num_cascades: 2,
            minimum_distance: 0.01 * span,
            first_cascade_far_bound: 1.5 * span,
            maximum_distance: 5.0 * span,
            ..default()
        }
        .build(),
        Transform::from_translation(sky.sun_from).looking_at(Vec3::ZERO, Vec3::Y),
    ));
    commands.insert_resource(GlobalAmbientLight {
        color: sky.horizon,
        brightness: sky.ambient,
        ..default()
    });

    // The ground, far wider than the world so that its edge lies in the fog.
    commands.spawn((
        in_scene.clone(),
        Mesh3d(meshes.add(Plane3d::default().mesh().size(30.0 * span, 30.0 * span))),
        MeshMaterial3d(materials.add(StandardMaterial {
            base_color: sky.ground,
            perceptual_roughness: 0.95,
            ..default()
        })),
        Transform::from_xyz(0.0, frame.ground, 0.0),
    ));

    // The sky: a dome of vertex colours from the horizon up, unlit and free of fog.
    commands.spawn((
        in_scene.clone(),
        SkyDome,
        Mesh3d(meshes.add(sky_mesh(&sky))),
        MeshMaterial3d(materials.add(StandardMaterial {
            base_color: Color::WHITE,
            unlit: true,
            fog_enabled: false,
            cull_mode: None,
            ..default()
        })),
        Transform::from_scale(Vec3::splat(40.0 * span)),
        bevy::light::NotShadowCaster,
    ));

    let stone = materials.add(StandardMaterial {
        base_color: STONE,
        perceptual_roughness: 0.9,
        ..default()
    });
    let grass = materials.add(StandardMaterial {
        base_color: GRASS,
        perceptual_roughness: 0.95,
        ..default()
    });
    for solid in solids {
        // A ball touching the ground is a hill: grass; the rest stone.
        let material = match solid {
            Solid::Sphere { centre, radius } if centre.y - radius <= frame.ground => grass.clone(),
            _ => stone.clone(),
        };
        if let Some(shape) = solid_mesh(&solid, &mut meshes) {
            commands.spawn((
                in_scene.clone(),
                FlockSolid(solid),
                shape,
                MeshMaterial3d(material),
            ));
        } else {
            commands.spawn((Scenery, FlockSolid(solid), DespawnOnExit(Space::Deep)));
        }
    }
}

/// A solid's mesh and place (none for the ground: the scene's ground is drawn already).
pub fn solid_mesh(solid: &Solid, meshes: &mut Assets<Mesh>) -> Option<(Mesh3d, Transform)> {
    match *solid {
        Solid::Sphere { centre, radius } => Some((
            Mesh3d(meshes.add(Sphere::new(radius).mesh().uv(48, 24))),
            Transform::from_translation(centre),
        )),
        Solid::Cuboid { centre, half, yaw } => Some((
            Mesh3d(meshes.add(Cuboid::from_size(half * 2.0))),
            Transform::from_translation(centre).with_rotation(Quat::from_rotation_y(yaw)),
        )),
        Solid::Ground { .. } => None,
    }
}

/// A unit sphere whose vertices shade from the horizon's colour (and below) to the zenith's.
fn sky_mesh(sky: &Sky) -> Mesh {
    let mut mesh = Sphere::new(1.0).mesh().uv(32, 18);
    let horizon = LinearRgba::from(sky.horizon);
    let zenith = LinearRgba::from(sky.zenith);
    let colours: Vec<[f32; 4]> = match mesh.attribute(Mesh::ATTRIBUTE_POSITION) {
        Some(bevy::mesh::VertexAttributeValues::Float32x3(points)) => points
            .iter()
            .map(|p| {
                // Most of the change near the horizon, as a real sky's.
                let up = p[1].max(0.0).powf(0.6);
                horizon.mix(&zenith, up).to_f32_array()
            })
            .collect(),
        _ => Vec::new(),
    };
    mesh.insert_attribute(Mesh::ATTRIBUTE_COLOR, colours);
    mesh
}

/// The sky's dome stays centred on the camera, so that its horizon is always the far one.
fn keep_sky_about_camera(
    camera: Query<&GlobalTransform, With<super::view::DeepCamera>>,
    mut sky: Query<&mut Transform, With<SkyDome>>,
) {
    let Ok(camera) = camera.single() else { return };
    for mut sky in &mut sky {
        sky.translation = camera.translation();
    }
}

/// The world's box, faintly (where the flock turns or wraps); in an open sky (`none` edges)
/// the box is only where the flock started: not drawn.
pub(super) fn draw_bounds(
    mut gizmos: Gizmos,
    frame: Option<Res<SceneFrame>>,
    config: Res<SceneConfig>,
) {
    let Some(frame) = frame else { return };
    if config.preset.edges.mode == EdgeMode::None {
        return;
    }
    gizmos.cube(
        Transform::from_scale(frame.half * 2.0),
        Color::srgba(1.0, 1.0, 1.0, 0.22),
    );
}
