//! Drawing 3D flocks (feature `draw3d`): every 3D flock as lit, instanced bird meshes — one draw
//! call a flock, one instance a bird (a body of eight faces and two flapping wings), turned
//! along its heading and banked into its turns, coloured by its flock's look — on every
//! `Camera3d`, lit by the scene's lights like any other object. Part of
//! [`FlockDrawPlugin`](crate::draw::FlockDrawPlugin).
//!
//! Each frame the birds' instances are worked out from the flock's columns, between the flock's
//! ticks as in 2D ([`drawn_position`]), into [`BirdInstances`] on the flock's entity, which the
//! render world draws; [`Highlight`]ed entities with a `Position<Vec3>` are drawn on top, in
//! their own colour and size.

pub(crate) mod render;

use crate::components::{Boid, Flock, FlockColumns, FlockMember, Position, Velocity};
use crate::draw::{Bank, BirdDrawing, FlockLook, Highlight, drawn_position};
use crate::tick::{TickFraction, TickFractionSystems};
use bevy_app::{App, PostUpdate};
use bevy_color::{ColorToComponents, LinearRgba};
use bevy_ecs::prelude::*;
use bevy_math::{Quat, Vec3};
use bevy_transform::components::Transform;
use bytemuck::{Pod, Zeroable};
use murmur_core::models::Model;
use rayon::prelude::*;

/// One bird as the 3D birds' shader draws it.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct BirdInstance {
    /// Where it is drawn.
    pub position: [f32; 3],
    /// Its length, in world units.
    pub size: f32,
    /// Its orientation (a quaternion `[x, y, z, w]`): its local -z forward, +y up.
    pub rotation: [f32; 4],
    /// Its colour (linear RGB) and how far its wings flap, in radians (0: held still).
    pub colour_flap: [f32; 4],
}

/// The birds of one 3D flock (or the highlights) as the renderer draws them this frame.
#[derive(Component, Clone, Debug, Default)]
pub struct BirdInstances(pub Vec<BirdInstance>);

/// The entity whose [`BirdInstances`] are the 3D highlights.
#[derive(Component, bevy_reflect::Reflect, Clone, Copy, Debug, Default)]
#[reflect(Component)]
pub struct Highlights3d;

/// How far the wings flap, in radians.
const FLAP: f32 = 0.5;

/// Most a bird banks into a turn.
const MAX_BANK: f32 = 1.0;

/// Registers the 3D drawing (called by [`FlockDrawPlugin`](crate::draw::FlockDrawPlugin)).
pub(crate) fn build(app: &mut App) {
    app.register_type::<Highlights3d>();
    app.add_systems(
        PostUpdate,
        (give_instances, instances_of_flocks, instances_of_highlights)
            .chain()
            .in_set(crate::draw::DrawBirdsSystems)
            .after(TickFractionSystems),
    );
    render::build(app);
}

/// Gives every 3D flock its instances, and the scene one highlights entity.
fn give_instances(
    mut commands: Commands,
    flocks: Query<Entity, (With<FlockColumns<Vec3>>, Without<BirdInstances>)>,
    highlights: Query<(), With<Highlights3d>>,
) {
    for flock in &flocks {
        commands.entity(flock).insert(BirdInstances::default());
    }
    if highlights.is_empty() {
        commands.spawn((Highlights3d, BirdInstances::default()));
    }
}

/// The orientation of a bird flying along `forward` (unit) that turns with the lateral
/// acceleration `turning`: its up tilted into the turn, by up to one radian, as much as the
/// turn is strong against `scale` (about the flock's strongest steering).
pub fn banked(forward: Vec3, turning: Vec3, scale: f32) -> Quat {
    let lateral = turning - forward * turning.dot(forward);
    let bank = (lateral.length() / scale.max(f32::MIN_POSITIVE))
        .atan()
        .min(MAX_BANK);
    let side = lateral.normalize_or_zero();
    let up = (Vec3::Y * bank.cos() + side * bank.sin()).normalize_or(Vec3::Y);
    let up = if up.cross(forward).length_squared() < 1e-6 {
        Vec3::Z
    } else {
        up
    };
    Transform::IDENTITY.looking_to(forward, up).rotation
}

/// The model's steering is the bird's new velocity, not an acceleration (nothing to bank by).
fn steers_velocity(model: &Model) -> bool {
    matches!(model, Model::Vicsek(_) | Model::Couzin(_) | Model::Abm(_))
}

/// Works out every 3D flock's instances from its columns.
fn instances_of_flocks(
    drawing: Res<BirdDrawing>,
    tick: Res<TickFraction>,
    mut flocks: Query<(
        Entity,
        &FlockColumns<Vec3>,
        &Flock,
        Option<&FlockLook>,
        &mut BirdInstances,
    )>,
    highlighted: Query<(&Boid, &FlockMember), With<Highlight>>,
) {
    let fraction = if drawing.interpolate { tick.0 } else { 1.0 };
    let flap = if drawing.flapping { FLAP } else { 0.0 };
    for (entity, columns, flock, look, mut instances) in &mut flocks {
        let look = look.copied().unwrap_or_default();
        let params = &flock.params;
        let size = if look.size > 0.0 {
            look.size
        } else {
            (0.6 * params.model.near_radius()).max(3.0)
        };
        let small = LinearRgba::from(look.small_flock).to_f32_array();
        let large = LinearRgba::from(look.large_flock).to_f32_array();
        let plain = LinearRgba::from(look.plain).to_f32_array();
        let large_at = look.large_flock_size.max(f32::MIN_POSITIVE);
        let skip: Vec<u32> = highlighted
            .iter()
            .filter(|(_, member)| member.0 == entity)
            .map(|(boid, _)| boid.id)
            .collect();
        let birds = columns.birds();
        let (cols, neighbours, ids) = (birds.columns(), birds.neighbours(), birds.ids());
        let acc = birds.acc();
        let bank_by = !steers_velocity(&params.model) && acc.len() == birds.len();
        let scale = 0.02 * params.model.cruise_speed().max(f32::MIN_POSITIVE);
        let by_size = drawing.colour_by_flock_size;
        let out = &mut instances.0;
        out.resize(birds.len(), BirdInstance::default());
        out.par_iter_mut()
            .with_min_len(2048)
            .enumerate()
            .for_each(|(k, bird)| {
                let (pos, vel) = cols.get(k);
                let forward = vel.normalize_or(Vec3::NEG_Z);
                let turning = if bank_by { acc[k] } else { Vec3::ZERO };
                let colour = if by_size {
                    let t = (neighbours.get(k).copied().unwrap_or(0) as f32 / large_at).min(1.0);
                    std::array::from_fn(|j| small[j] + (large[j] - small[j]) * t)
                } else {
                    plain
                };
                let hidden = !skip.is_empty() && skip.contains(&ids[k]);
                *bird = BirdInstance {
                    position: drawn_position(pos, vel, fraction).to_array(),
                    size: if hidden { 0.0 } else { size },
                    rotation: banked(forward, turning, scale).to_array(),
                    colour_flap: [colour[0], colour[1], colour[2], flap],
                };
            });
    }
}

/// Works out the highlights' instances: each highlighted 3D entity in its colour and size, a
/// flock's highlighted bird between its ticks as its flock mates are.
fn instances_of_highlights(
    drawing: Res<BirdDrawing>,
    tick: Res<TickFraction>,
    highlights: Query<(
        &Position<Vec3>,
        Option<&Velocity<Vec3>>,
        &Highlight,
        Option<&FlockMember>,
        Option<&Bank>,
    )>,
    mut out: Query<&mut BirdInstances, (With<Highlights3d>, Without<FlockColumns<Vec3>>)>,
) {
    let Ok(mut out) = out.single_mut() else {
        return;
    };
    let fraction = if drawing.interpolate { tick.0 } else { 1.0 };
    let flap = if drawing.flapping { FLAP } else { 0.0 };
    out.0.clear();
    for (pos, vel, highlight, member, bank) in &highlights {
        let vel = vel.map_or(Vec3::ZERO, |v| v.0);
        let at = match member {
            Some(_) => drawn_position(pos.0, vel, fraction),
            None => pos.0,
        };
        let colour = LinearRgba::from(highlight.colour).to_f32_array();
        out.0.push(BirdInstance {
            position: at.to_array(),
            size: highlight.size,
            rotation: (banked(vel.normalize_or(Vec3::NEG_Z), Vec3::ZERO, 1.0)
                * Quat::from_rotation_z(bank.map_or(0.0, |b| b.0)))
            .to_array(),
            colour_flap: [colour[0], colour[1], colour[2], flap],
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bird_points_along_its_heading_and_banks_into_its_turn() {
        let forward = Vec3::new(1.0, 0.0, 0.0);
        let level = banked(forward, Vec3::ZERO, 1.0);
        assert!((level * Vec3::NEG_Z - forward).length() < 1e-5);
        assert!((level * Vec3::Y - Vec3::Y).length() < 1e-5, "level flight");
        // Turning left (towards -z when flying along +x, seen from above): the up leans left.
        let turning = banked(forward, Vec3::new(0.0, 0.0, -2.0), 1.0);
        let up = turning * Vec3::Y;
        assert!(up.z < -0.5 && up.y > 0.3, "{up}");
        assert!((turning * Vec3::NEG_Z - forward).length() < 1e-5);
        // Straight up or down: still a valid turn.
        let climbing = banked(Vec3::Y, Vec3::ZERO, 1.0);
        assert!((climbing * Vec3::NEG_Z - Vec3::Y).length() < 1e-5);
    }
}
