//! All birds as one triangle mesh rebuilt each frame: a body and two wings per bird.

use super::Looks;
use crate::app::camera::WORLD_LAYER;
use bevy::asset::RenderAssetUsages;
use bevy::camera::visibility::{NoFrustumCulling, RenderLayers};
use bevy::diagnostic::FrameCount;
use bevy::mesh::{PrimitiveTopology, VertexAttributeValues};
use bevy::prelude::*;
use murmur_flock::prelude::*;
use rayon::prelude::*;

/// A bird drawn apart from the flock's colours: the player, the leader.
#[derive(Component, Clone, Copy, Debug)]
pub struct SpecialBird {
    /// Its colour.
    pub colour: Color,
    /// Its size relative to a flock bird.
    pub scale: f32,
}

/// Vertices per bird: body, left wing, right wing.
const VERTS_PER_BIRD: usize = 9;

/// Flock-bird colours from a small local flock to a large one (sRGB).
const SMALL_FLOCK: Color = Color::srgb_u8(40, 90, 210);
const LARGE_FLOCK: Color = Color::srgb_u8(70, 20, 110);
const PLAIN: Color = Color::srgb_u8(25, 35, 80);
/// Neighbours at which a bird takes the large-flock colour.
const LARGE_FLOCK_SIZE: f32 = 24.0;

#[derive(Resource)]
struct BirdMesh(Handle<Mesh>);

/// One bird to draw.
#[derive(Clone, Copy)]
struct Instance {
    pos: Vec2,
    heading: Vec2,
    scale: f32,
    colour: [f32; 4],
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_mesh)
        .add_systems(PostUpdate, draw_birds);
}

fn spawn_mesh(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    let mut mesh = Mesh::new(
        PrimitiveTopology::TriangleList,
        RenderAssetUsages::default(),
    );
    mesh.insert_attribute(Mesh::ATTRIBUTE_POSITION, vec![[0.0f32; 3]; 3]);
    mesh.insert_attribute(Mesh::ATTRIBUTE_COLOR, vec![[0.0f32; 4]; 3]);
    let handle = meshes.add(mesh);
    commands.spawn((
        Mesh2d(handle.clone()),
        MeshMaterial2d(materials.add(ColorMaterial::default())),
        NoFrustumCulling,
        Transform::default(),
        RenderLayers::layer(WORLD_LAYER),
    ));
    commands.insert_resource(BirdMesh(handle));
}

fn linear(c: Color) -> [f32; 4] {
    c.to_linear().to_f32_array()
}

fn draw_birds(
    mut meshes: ResMut<Assets<Mesh>>,
    mesh: Res<BirdMesh>,
    looks: Res<Looks>,
    frame: Res<FrameCount>,
    birds: Query<
        (
            &Position,
            &murmur_flock::components::Velocity,
            &NeighbourCount,
        ),
        (With<Boid>, Without<SpecialBird>),
    >,
    specials: Query<(
        &Position,
        Option<&murmur_flock::components::Velocity>,
        &SpecialBird,
    )>,
    mut instances: Local<Vec<Instance>>,
) {
    let (small, large, plain) = (linear(SMALL_FLOCK), linear(LARGE_FLOCK), linear(PLAIN));
    instances.clear();
    instances.extend(birds.iter().map(|(pos, vel, count)| Instance {
        pos: pos.0,
        heading: vel.0.normalize_or(Vec2::Y),
        scale: 1.0,
        colour: if looks.colour_by_flock_size {
            let t = (count.0 as f32 / LARGE_FLOCK_SIZE).min(1.0);
            std::array::from_fn(|i| small[i] + (large[i] - small[i]) * t)
        } else {
            plain
        },
    }));
    // Special birds last, so they are drawn on top.
    instances.extend(specials.iter().map(|(pos, vel, special)| Instance {
        pos: pos.0,
        heading: vel.map_or(Vec2::Y, |v| v.0.normalize_or(Vec2::Y)),
        scale: special.scale,
        colour: linear(special.colour),
    }));

    let Some(mut mesh) = meshes.get_mut(&mesh.0) else {
        return;
    };
    let mut positions = match mesh.remove_attribute(Mesh::ATTRIBUTE_POSITION) {
        Some(VertexAttributeValues::Float32x3(v)) => v,
        _ => Vec::new(),
    };
    let mut colours = match mesh.remove_attribute(Mesh::ATTRIBUTE_COLOR) {
        Some(VertexAttributeValues::Float32x4(v)) => v,
        _ => Vec::new(),
    };
    // At least one (degenerate) triangle keeps the mesh valid with no birds.
    let n = instances.len().max(1);
    positions.resize(n * VERTS_PER_BIRD, [0.0; 3]);
    colours.resize(n * VERTS_PER_BIRD, [0.0; 4]);
    if instances.is_empty() {
        positions.fill([0.0; 3]);
    }
    let frame = frame.0 as f32;
    let (size, flapping) = (looks.bird_size, looks.flapping);
    positions
        .par_chunks_mut(VERTS_PER_BIRD)
        .zip(colours.par_chunks_mut(VERTS_PER_BIRD))
        .zip(instances.par_iter())
        .for_each(|((p, c), bird)| {
            let flap = if flapping {
                (frame * 0.2 + bird.pos.x * 0.05).sin() * 0.4
            } else {
                0.0
            };
            bird_vertices(bird, size, flap, p);
            c.fill(bird.colour);
        });
    mesh.insert_attribute(Mesh::ATTRIBUTE_POSITION, positions);
    mesh.insert_attribute(Mesh::ATTRIBUTE_COLOR, colours);
}

/// Body and wings of one bird, in the bird's frame (forward +x, left +y) scaled by `size`, the
/// wings rotated by -flap and +flap about the bird's centre (opposite phases).
fn bird_vertices(bird: &Instance, size: f32, flap: f32, out: &mut [[f32; 3]]) {
    const BODY: [Vec2; 3] = [
        Vec2::new(0.6, 0.0),
        Vec2::new(-0.45, 0.13),
        Vec2::new(-0.45, -0.13),
    ];
    const WING: [Vec2; 3] = [
        Vec2::new(0.3, 0.06),
        Vec2::new(-0.45, 0.08),
        Vec2::new(-0.2, 0.55),
    ];
    let s = size * bird.scale;
    let to_world = |local: Vec2| {
        let w = bird.pos + bird.heading.rotate(local * s);
        [w.x, w.y, 0.0]
    };
    let (left, right) = (Vec2::from_angle(flap), Vec2::from_angle(-flap));
    for i in 0..3 {
        out[i] = to_world(BODY[i]);
        out[3 + i] = to_world(left.rotate(WING[i]));
        let mirrored = Vec2::new(WING[i].x, -WING[i].y);
        out[6 + i] = to_world(right.rotate(mirrored));
    }
}
