//! Hunting predators, in the `Hunt` phase after the birds moved, chase the nearest bird and
//! catch it (birds flee predators in the `FollowLeader` phase, see [`super::leader`]).

use crate::components::{Boid, Flock, FlockColumns, Hunter, Piloted, Position, Predator, Velocity};
use crate::messages::HunterCaught;
use bevy_ecs::entity::EntityHashMap;
use bevy_ecs::prelude::*;
use bevy_reflect::{Reflect, TypePath};
use murmur_core::Vector;
use murmur_core::predator::nearest;

/// Each hunting predator turns towards the nearest bird of any flock (as the birds are after
/// this tick's move) and flies on, kept in the world by that flock's edges. A hunter that was
/// within one tick's flight of that bird (its `hunt_speed`) caught it: a [`HunterCaught`]
/// message, written once per bird reached (`caught` remembers each hunter's last catch).
pub fn hunt<V: Vector + Reflect + TypePath>(
    mut hunters: Query<
        (Entity, &Predator, &mut Position<V>, &mut Velocity<V>),
        (With<Hunter>, Without<Piloted>, Without<Boid>),
    >,
    flocks: Query<(Entity, &Flock, &FlockColumns<V>)>,
    mut messages: MessageWriter<HunterCaught>,
    mut caught: Local<EntityHashMap<(Entity, u32)>>,
) {
    for (hunter, predator, mut pos, mut vel) in &mut hunters {
        let mut best: Option<(f32, &Flock, V, Entity, &FlockColumns<V>, usize)> = None;
        for (entity, flock, c) in &flocks {
            let world = flock.params.bounds_in::<V>();
            let birds = c.birds();
            if let Some(i) = nearest(&world, pos.0, birds.columns()) {
                let d = world.delta(pos.0, birds.pos(i));
                if best.is_none_or(|(b, ..)| d.length_squared() < b) {
                    best = Some((d.length_squared(), flock, d, entity, c, i));
                }
            }
        }
        let Some((d2, flock, to_prey, flock_entity, c, slot)) = best else {
            caught.remove(&hunter);
            continue;
        };
        let reach = predator.params.hunt_speed;
        if d2 <= reach * reach {
            let id = c.birds().ids()[slot];
            if caught.insert(hunter, (flock_entity, id)) != Some((flock_entity, id)) {
                messages.write(HunterCaught {
                    hunter,
                    flock: flock_entity,
                    bird: c.entity_of(id),
                    id,
                });
            }
        } else {
            caught.remove(&hunter);
        }
        vel.0 = predator.params.chase(vel.0, Some(to_prey));
        let (mut p, mut v) = (pos.0 + vel.0, vel.0);
        flock
            .params
            .edges
            .confine(&flock.params.bounds_in::<V>(), &mut p, &mut v);
        pos.0 = p;
        vel.0 = v;
    }
}
