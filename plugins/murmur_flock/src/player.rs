//! A game's own entity as a bird of a flock: the flock sees it as one of its own and, within a
//! range, follows it (or flees it); its place comes from the entity's `Transform`.

use crate::components::{Boid, Flock, FlockMember, Leader, Piloted, Position, Velocity};
use crate::plugin::FlockSystems;
use bevy_app::{App, FixedUpdate, Plugin};
use bevy_ecs::intern::Interned;
use bevy_ecs::prelude::*;
use bevy_ecs::schedule::ScheduleLabel;
use bevy_math::{Vec2, Vec3};
use bevy_reflect::{Reflect, TypePath};
use bevy_transform::components::Transform;
use murmur_core::Vector;
use murmur_core::leader::LeaderParams;

/// The bird id a [`FlockPlayer`] takes in its flock (another id is given if it is taken).
pub const PLAYER_ID: u32 = u32::MAX;

/// Makes this entity (the game's player, a physics body, anything with a `Transform`) a bird of
/// `flock`: the flock sees it as a flock mate, and with `lead` it follows (or flees) it too. Each
/// tick, before the flock collects its birds, its [`Position`] is taken from its `Transform` (its
/// translation's x and y for a flat flock, all of it for a 3D one) and its [`Velocity`] from how
/// far it moved since the last tick; the flock never moves it.
///
/// Adding it gives the entity a [`Boid`] (id [`PLAYER_ID`]), a [`FlockMember`], [`Piloted`], a
/// [`Position`], a [`Velocity`] and, with `lead`, a [`Leader`] that only `flock` reacts to.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq)]
#[require(Transform)]
#[reflect(Component)]
pub struct FlockPlayer {
    /// The flock it flies with.
    pub flock: Entity,
    /// How the flock reacts to it (`None`: only as a flock mate).
    pub lead: Option<LeaderParams>,
}

impl FlockPlayer {
    /// A player `flock` follows with `lead`.
    pub fn leading(flock: Entity, lead: LeaderParams) -> Self {
        Self {
            flock,
            lead: Some(lead),
        }
    }
}

/// Where a player was at the last tick (its velocity is the move since).
#[derive(Component, Clone, Copy, Debug)]
struct LastPlace<V>(Option<V>);

/// Runs [`FlockPlayer`]s: their birds follow their `Transform`s.
#[derive(Clone, Debug)]
pub struct PlayerPlugin {
    schedule: Interned<dyn ScheduleLabel>,
}

impl PlayerPlugin {
    /// Players are taken in, in `schedule` (the flock's), before `CollectNeighbours`.
    pub fn new(schedule: impl ScheduleLabel) -> Self {
        Self {
            schedule: schedule.intern(),
        }
    }
}

impl Default for PlayerPlugin {
    fn default() -> Self {
        Self::new(FixedUpdate)
    }
}

impl Plugin for PlayerPlugin {
    fn build(&self, app: &mut App) {
        app.register_type::<FlockPlayer>();
        app.add_observer(join_player).add_systems(
            self.schedule,
            (follow_transforms::<Vec2>, follow_transforms::<Vec3>)
                .in_set(PlayerSystems)
                .before(FlockSystems::CollectNeighbours),
        );
    }
}

/// The system that takes players' `Transform`s into their birds, before `CollectNeighbours`.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PlayerSystems;

/// Gives a new [`FlockPlayer`] the components of a bird of its flock.
fn join_player(
    event: On<Insert, FlockPlayer>,
    players: Query<(&FlockPlayer, &Transform)>,
    flocks: Query<&Flock>,
    mut commands: Commands,
) {
    let Ok((player, transform)) = players.get(event.entity) else {
        return;
    };
    let deep = flocks
        .get(player.flock)
        .is_ok_and(|flock| flock.params.is_3d());
    let mut entity = commands.entity(event.entity);
    entity.insert((Boid { id: PLAYER_ID }, FlockMember(player.flock), Piloted));
    if deep {
        let at = transform.translation;
        entity.remove::<(Position, Velocity, LastPlace<Vec2>)>();
        entity.insert((Position(at), Velocity(Vec3::ZERO), LastPlace::<Vec3>(None)));
    } else {
        let at = transform.translation.truncate();
        entity.remove::<(Position<Vec3>, Velocity<Vec3>, LastPlace<Vec3>)>();
        entity.insert((Position(at), Velocity(Vec2::ZERO), LastPlace::<Vec2>(None)));
    }
    match player.lead {
        Some(params) => entity.insert(Leader {
            params,
            only: Some(player.flock),
        }),
        None => entity.remove::<Leader>(),
    };
}

/// Takes each player's place from its `Transform`, and its velocity from the move since the
/// last tick (the short way round in a wrapped world, so that a player put back across the
/// seam keeps its heading). A non-finite place (a physics body thrown out of the world) is
/// ignored.
fn follow_transforms<V: Vector + Reflect + TypePath>(
    mut players: Query<(
        &FlockPlayer,
        &Transform,
        &mut Position<V>,
        &mut Velocity<V>,
        &mut LastPlace<V>,
    )>,
    flocks: Query<&Flock>,
) {
    for (player, transform, mut pos, mut vel, mut last) in &mut players {
        let at = V::from_vec3(transform.translation);
        if !at.is_finite() {
            continue;
        }
        let moved = last
            .0
            .map_or(V::ZERO, |before| match flocks.get(player.flock) {
                Ok(flock) => flock.params.bounds_in::<V>().delta(before, at),
                Err(_) => at - before,
            });
        last.0 = Some(at);
        if pos.0 != at {
            pos.0 = at;
        }
        if vel.0 != moved {
            vel.0 = moved;
        }
    }
}
