//! Drawing (feature `draw`): every bird of every flat flock in one triangle mesh, rebuilt each
//! frame straight from the flocks' columns — one draw call, a body and two wings per bird,
//! turned along its heading, coloured by its flock's look — on whatever camera the game has.
//! (3D flocks: [`crate::draw3d`].)
//!
//! What is drawn is interpolated between the flock's fixed ticks: a bird is drawn where it was
//! at its last tick plus the fraction of its last move that the clock has run since
//! ([`drawn_position`]), so a display faster than the tick sees every bird move every frame, by
//! even steps.

use crate::components::{FlockColumns, Position, Velocity};
use crate::systems::collect;
use bevy_app::{App, Plugin, PostUpdate, Startup};
use bevy_asset::{Assets, Handle, RenderAssetUsages};
use bevy_camera::visibility::NoFrustumCulling;
use bevy_color::{Color, ColorToComponents, LinearRgba};
use bevy_diagnostic::FrameCount;
use bevy_ecs::prelude::*;
use bevy_math::{Vec2, Vec3};
use bevy_mesh::{Mesh, Mesh2d, PrimitiveTopology, VertexAttributeValues};
use bevy_reflect::Reflect;
use bevy_sprite_render::{ColorMaterial, MeshMaterial2d};
use bevy_transform::components::Transform;
use murmur_core::Vector;
use murmur_core::world::WorldBounds;
use rayon::prelude::*;

/// Draws every flat flock as one mesh (see the module docs) and, with the feature `draw3d` (on
/// by default), every 3D flock as lit instanced birds ([`crate::draw3d`]). Part of
/// [`FlockPlugins`](crate::FlockPlugins); needs Bevy's renderer (`DefaultPlugins`).
#[derive(Default, Clone, Debug)]
pub struct FlockDrawPlugin;

impl Plugin for FlockDrawPlugin {
    fn build(&self, app: &mut App) {
        app.register_type::<FlockLook>()
            .register_type::<Highlight>()
            .register_type::<Bank>()
            .register_type::<BirdMesh>()
            .init_resource::<BirdDrawing>()
            .add_systems(Startup, spawn_mesh)
            .init_resource::<crate::tick::TickFraction>()
            .add_systems(
                PostUpdate,
                draw_birds
                    .in_set(DrawBirdsSystems)
                    .after(crate::tick::TickFractionSystems),
            )
            // A flock's birds are drawn from its columns, which its first tick fills: a flock
            // spawned paused, or a recording's first frame, would show none until then.
            .add_systems(
                PostUpdate,
                (
                    collect::collect_neighbours::<Vec2>
                        .run_if(collect::a_flock_not_yet_collected::<Vec2>),
                    collect::collect_neighbours::<Vec3>
                        .run_if(collect::a_flock_not_yet_collected::<Vec3>),
                )
                    .before(DrawBirdsSystems),
            );
        #[cfg(feature = "draw3d")]
        crate::draw3d::build(app);
    }
}

/// The system that rebuilds the birds' mesh, in `PostUpdate`.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DrawBirdsSystems;

/// How all birds are drawn.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct BirdDrawing {
    /// Flap the wings (`sin(frame * 0.2 + x * 0.05) * 0.4`, opposite phases).
    pub flapping: bool,
    /// Colour each bird by the number of flock mates it sees (see [`FlockLook`]).
    pub colour_by_flock_size: bool,
    /// In a wrapped world, draw each bird (and each highlight) at its image nearest this point,
    /// such as the centre of a camera that follows a bird across the seam: the view then shows
    /// the birds beyond the seam where they are to the eye. `None`: where the flock keeps them.
    pub around: Option<Vec2>,
    /// Draw the birds between their ticks (see [`drawn_position`]): smooth motion on a display
    /// faster than the tick. Off: each bird where its last tick left it.
    pub interpolate: bool,
}

impl Default for BirdDrawing {
    fn default() -> Self {
        Self {
            flapping: true,
            colour_by_flock_size: true,
            around: None,
            interpolate: true,
        }
    }
}

/// Where a bird is drawn between ticks: at its place `pos` after its last tick, less the part
/// of that tick's move (its velocity `vel`, world units per tick) that the clock has not yet
/// run, `fraction` being how far the clock is towards the next tick (0 to 1; see
/// [`crate::tick::TickFraction`]). At 1, its place; at 0, where it was a tick before.
#[inline]
pub fn drawn_position<V: Vector>(pos: V, vel: V, fraction: f32) -> V {
    pos - vel * (1.0 - fraction)
}

/// The image of `p` nearest `around` in a wrapped world (`p` itself elsewhere).
#[inline]
fn nearest_image(bounds: Option<&WorldBounds>, around: Vec2, p: Vec2) -> Vec2 {
    match bounds {
        Some(b) => around + b.delta(around, p),
        None => p,
    }
}

/// How the birds of one flock look (put it on the flock's entity; without it, the flock takes
/// [`FlockLook::default`]).
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq)]
#[reflect(Component)]
pub struct FlockLook {
    /// Bird length in world units; 0: 60% of the model's personal space, at least 3.
    pub size: f32,
    /// The colour of a bird that sees no flock mate.
    pub small_flock: Color,
    /// The colour of a bird that sees `large_flock_size` or more.
    pub large_flock: Color,
    /// Neighbours at which a bird takes the large-flock colour.
    pub large_flock_size: f32,
    /// The colour of every bird when colouring by flock size is off.
    pub plain: Color,
}

impl Default for FlockLook {
    fn default() -> Self {
        Self {
            size: 0.0,
            // Light on Bevy's default dark background.
            small_flock: Color::srgb_u8(110, 170, 255),
            large_flock: Color::srgb_u8(245, 240, 255),
            large_flock_size: 24.0,
            plain: Color::srgb_u8(200, 210, 230),
        }
    }
}

/// A bird, leader or any entity with a [`Position`] drawn on top of the flocks in a colour and
/// size of its own (the player's gold, the leader's crimson). A highlighted bird of a flock is
/// drawn only this way.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq)]
#[reflect(Component)]
pub struct Highlight {
    /// Its colour.
    pub colour: Color,
    /// Its length in world units.
    pub size: f32,
}

/// How far a [`Highlight`]ed 3D bird rolls into its turn, in radians (positive: its wings tip
/// to its left, as in a left turn). The flock's own birds bank by themselves; a player's bird,
/// flown by the game, banks by this.
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq)]
#[reflect(Component)]
pub struct Bank(pub f32);

/// The entity holding the birds' mesh (for games that want it on a render layer of theirs).
#[derive(Component, Reflect, Clone, Copy, Debug, Default)]
#[reflect(Component)]
pub struct BirdMesh;

/// The birds' mesh.
#[derive(Resource)]
struct BirdMeshHandle(Handle<Mesh>);

/// Vertices per bird: body, left wing, right wing.
const VERTS_PER_BIRD: usize = 9;

/// Birds per parallel piece of the mesh.
const PIECE: usize = 2048;

fn spawn_mesh(
    mut commands: Commands,
    meshes: Option<ResMut<Assets<Mesh>>>,
    materials: Option<ResMut<Assets<ColorMaterial>>>,
) {
    let (Some(mut meshes), Some(mut materials)) = (meshes, materials) else {
        bevy_log::warn!(
            "FlockDrawPlugin needs Bevy's 2D rendering (DefaultPlugins): no birds are drawn"
        );
        return;
    };
    let mut mesh = Mesh::new(
        PrimitiveTopology::TriangleList,
        RenderAssetUsages::default(),
    );
    mesh.insert_attribute(Mesh::ATTRIBUTE_POSITION, vec![[0.0f32; 3]; 3]);
    mesh.insert_attribute(Mesh::ATTRIBUTE_COLOR, vec![[0.0f32; 4]; 3]);
    let handle = meshes.add(mesh);
    commands.spawn((
        BirdMesh,
        Mesh2d(handle.clone()),
        MeshMaterial2d(materials.add(ColorMaterial::default())),
        NoFrustumCulling,
        Transform::default(),
    ));
    commands.insert_resource(BirdMeshHandle(handle));
}

fn linear(c: Color) -> [f32; 4] {
    LinearRgba::from(c).to_f32_array()
}

/// One flock's part of the mesh.
struct Part<'a> {
    entity: Entity,
    columns: &'a FlockColumns,
    size: f32,
    small: [f32; 4],
    large: [f32; 4],
    large_at: f32,
    plain: [f32; 4],
    /// Ids of its highlighted birds (drawn with the highlights instead).
    skip: Vec<u32>,
    /// Its world, when it wraps and birds are drawn around a point.
    wrapped: Option<WorldBounds>,
}

/// Rebuilds the mesh from every flock's columns, then the highlights on top.
fn draw_birds(
    meshes: Option<ResMut<Assets<Mesh>>>,
    mesh: Option<Res<BirdMeshHandle>>,
    drawing: Res<BirdDrawing>,
    frame: Option<Res<FrameCount>>,
    tick: Res<crate::tick::TickFraction>,
    flocks: Query<(
        Entity,
        &FlockColumns,
        Option<&crate::components::Flock>,
        Option<&FlockLook>,
    )>,
    highlights: Query<(
        &Position,
        Option<&Velocity>,
        &Highlight,
        Option<&crate::components::Boid>,
        Option<&crate::components::FlockMember>,
    )>,
) {
    let (Some(mesh), Some(mut meshes)) = (mesh, meshes) else {
        return;
    };
    let Some(mut mesh) = meshes.get_mut(&mesh.0) else {
        return;
    };
    let default_look = FlockLook::default();
    let parts: Vec<Part> = flocks
        .iter()
        .map(|(entity, columns, flock, look)| {
            let look = look.unwrap_or(&default_look);
            let size = if look.size > 0.0 {
                look.size
            } else {
                flock.map_or(6.0, |f| (0.6 * f.params.model.near_radius()).max(3.0))
            };
            let skip = highlights
                .iter()
                .filter(|(.., boid, member)| {
                    member.is_some_and(|m| m.0 == entity) && boid.is_some()
                })
                .filter_map(|(.., boid, _)| boid.map(|b| b.id))
                .collect();
            Part {
                entity,
                columns,
                size,
                small: linear(look.small_flock),
                large: linear(look.large_flock),
                large_at: look.large_flock_size.max(f32::MIN_POSITIVE),
                plain: linear(look.plain),
                skip,
                wrapped: flock
                    .map(|f| f.params.bounds())
                    .filter(|b| b.wrapped && drawing.around.is_some()),
            }
        })
        .collect();
    let birds: usize = parts.iter().map(|p| p.columns.len()).sum();
    let n = (birds + highlights.iter().count()).max(1);
    let mut positions = match mesh.remove_attribute(Mesh::ATTRIBUTE_POSITION) {
        Some(VertexAttributeValues::Float32x3(v)) => v,
        _ => Vec::new(),
    };
    let mut colours = match mesh.remove_attribute(Mesh::ATTRIBUTE_COLOR) {
        Some(VertexAttributeValues::Float32x4(v)) => v,
        _ => Vec::new(),
    };
    positions.resize(n * VERTS_PER_BIRD, [0.0; 3]);
    colours.resize(n * VERTS_PER_BIRD, [0.0; 4]);
    let frame = frame.map_or(0.0, |f| f.0 as f32);
    let (flapping, by_size) = (drawing.flapping, drawing.colour_by_flock_size);
    let fraction = if drawing.interpolate { tick.0 } else { 1.0 };
    let around = drawing.around.unwrap_or(Vec2::ZERO);
    // A highlight outside any flock (a leader) is drawn around the point in the first wrapped
    // world, a flock's bird in its own.
    let any_wrapped = parts.iter().find_map(|p| p.wrapped);
    let world_of = |member: Option<&crate::components::FlockMember>| {
        member
            .and_then(|m| parts.iter().find(|p| p.entity == m.0))
            .map_or(any_wrapped, |p| p.wrapped)
    };
    let flap_at = |x: f32| {
        if flapping {
            (frame * 0.2 + x * 0.05).sin() * 0.4
        } else {
            0.0
        }
    };
    // The flocks, each in pieces for the threads.
    let mut at = 0;
    for part in &parts {
        let birds = part.columns.birds();
        let (cols, neighbours, ids) = (birds.columns(), birds.neighbours(), birds.ids());
        let len = birds.len();
        let range = at * VERTS_PER_BIRD..(at + len) * VERTS_PER_BIRD;
        positions[range.clone()]
            .par_chunks_mut(PIECE * VERTS_PER_BIRD)
            .zip(colours[range].par_chunks_mut(PIECE * VERTS_PER_BIRD))
            .enumerate()
            .for_each(|(piece, (p, c))| {
                let first = piece * PIECE;
                for (i, (p, c)) in p
                    .chunks_mut(VERTS_PER_BIRD)
                    .zip(c.chunks_mut(VERTS_PER_BIRD))
                    .enumerate()
                {
                    let k = first + i;
                    if !part.skip.is_empty() && part.skip.contains(&ids[k]) {
                        p.fill([0.0; 3]);
                        continue;
                    }
                    let (pos, vel) = cols.get(k);
                    let pos = nearest_image(
                        part.wrapped.as_ref(),
                        around,
                        drawn_position(pos, vel, fraction),
                    );
                    let heading = vel.normalize_or(Vec2::Y);
                    bird_vertices(pos, heading, part.size, flap_at(pos.x), p);
                    let colour = if by_size {
                        let t = (neighbours.get(k).copied().unwrap_or(0) as f32 / part.large_at)
                            .min(1.0);
                        std::array::from_fn(|j| part.small[j] + (part.large[j] - part.small[j]) * t)
                    } else {
                        part.plain
                    };
                    c.fill(colour);
                }
            });
        at += len;
    }
    // Highlights last, so they are drawn on top.
    for (pos, vel, highlight, _, member) in &highlights {
        let heading = vel.map_or(Vec2::Y, |v| v.0.normalize_or(Vec2::Y));
        let range = at * VERTS_PER_BIRD..(at + 1) * VERTS_PER_BIRD;
        // A flock's highlighted bird is drawn between its ticks as its flock mates are.
        let drawn = match (vel, member) {
            (Some(v), Some(_)) => drawn_position(pos.0, v.0, fraction),
            _ => pos.0,
        };
        let pos = nearest_image(world_of(member).as_ref(), around, drawn);
        bird_vertices(
            pos,
            heading,
            highlight.size,
            flap_at(pos.x),
            &mut positions[range.clone()],
        );
        colours[range].fill(linear(highlight.colour));
        at += 1;
    }
    // Nothing to draw: one degenerate bird keeps the mesh valid.
    if at == 0 {
        positions.fill([0.0; 3]);
    }
    mesh.insert_attribute(Mesh::ATTRIBUTE_POSITION, positions);
    mesh.insert_attribute(Mesh::ATTRIBUTE_COLOR, colours);
}

/// Body and wings of one bird at `pos` heading along `heading` (unit), `size` long, the wings
/// turned by -flap and +flap about the bird's centre (opposite phases).
fn bird_vertices(pos: Vec2, heading: Vec2, size: f32, flap: f32, out: &mut [[f32; 3]]) {
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
    let to_world = |local: Vec2| {
        let w = pos + heading.rotate(local * size);
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
