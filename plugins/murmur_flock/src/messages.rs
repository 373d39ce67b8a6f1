//! Messages a game reacts to: a hunter caught a bird, a flock reached its leader.

use crate::components::{Flock, FlockColumns, Leader, Position};
use bevy_ecs::entity::EntityHashMap;
use bevy_ecs::prelude::*;
use bevy_reflect::{Reflect, TypePath};
use murmur_core::Vector;
use murmur_core::leader::LeaderMode;
use murmur_core::predator::nearest;

#[cfg(doc)]
use crate::components::Boid;

/// A hunting predator came within one tick's flight (its `hunt_speed`) of the nearest bird:
/// written once when it reaches a bird, not again while that bird stays the one within reach.
/// The bird flies on; what a catch does (despawn the bird, keep a score) is the game's to say.
/// Written in the flock's `Hunt` phase; read it in any later system with a `MessageReader`.
#[derive(Message, Reflect, Clone, Copy, Debug, PartialEq, Eq)]
pub struct HunterCaught {
    /// The hunter.
    pub hunter: Entity,
    /// The caught bird's flock.
    pub flock: Entity,
    /// The caught bird's entity (`None` for a bird without one: a flock spawned as columns).
    pub bird: Option<Entity>,
    /// The caught bird's id in its flock ([`Boid::id`]).
    pub id: u32,
}

/// A bird of a flock came within a following leader's ring (its `orbit_radius` plus its
/// `slowing_radius`, where the birds turn from seeking to circling): written for the first bird
/// that gets there, once per leader and flock, and again after the leader moves. Written in the
/// flock's `Hunt` phase, after the birds moved.
#[derive(Message, Reflect, Clone, Copy, Debug, PartialEq, Eq)]
pub struct LeaderReached {
    /// The leader.
    pub leader: Entity,
    /// The flock that reached it.
    pub flock: Entity,
    /// The first bird there (`None` for a bird without an entity).
    pub bird: Option<Entity>,
    /// That bird's id in its flock ([`Boid::id`]).
    pub id: u32,
}

/// Writes [`LeaderReached`] the first time a bird of a flock that follows a leader is within its
/// ring; a leader that moves (or a new one) is watched again. A pass over the flock's birds
/// while it has not arrived, nothing once it has.
pub fn flocks_reach_leaders<V: Vector + Reflect + TypePath>(
    leaders: Query<(Entity, &Leader, &Position<V>)>,
    flocks: Query<(Entity, &Flock, &FlockColumns<V>)>,
    mut reached: MessageWriter<LeaderReached>,
    mut arrived: Local<EntityHashMap<Vec<(Entity, V)>>>,
) {
    arrived.retain(|leader, _| leaders.contains(*leader));
    for (leader_entity, leader, pos) in &leaders {
        if leader.params.mode != LeaderMode::Follow {
            continue;
        }
        let done = arrived.entry(leader_entity).or_default();
        // Arrivals at an earlier place of the leader no longer count.
        done.retain(|&(_, at)| at == pos.0);
        let ring = leader.params.orbit_radius + leader.params.slowing_radius;
        for (flock_entity, flock, c) in &flocks {
            if leader.only.is_some_and(|only| only != flock_entity)
                || done.iter().any(|&(f, _)| f == flock_entity)
            {
                continue;
            }
            let world = flock.params.bounds_in::<V>();
            let Some(slot) = nearest(&world, pos.0, c.birds().columns()) else {
                continue;
            };
            if world.delta(pos.0, c.birds().pos(slot)).length_squared() <= ring * ring {
                let id = c.birds().ids()[slot];
                done.push((flock_entity, pos.0));
                reached.write(LeaderReached {
                    leader: leader_entity,
                    flock: flock_entity,
                    bird: c.entity_of(id),
                    id,
                });
            }
        }
    }
}
