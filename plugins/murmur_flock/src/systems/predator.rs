//! Hunting predators, in the `Integrate` phase after the birds moved, chase the nearest bird
//! (birds flee predators in the `FollowLeader` phase, see [`super::leader`]).

use crate::components::{Boid, Flock, FlockColumns, Hunter, Piloted, Position, Predator, Velocity};
use bevy_ecs::prelude::*;
use bevy_reflect::{Reflect, TypePath};
use murmur_core::Vector;
use murmur_core::predator::nearest;

/// Each hunting predator turns towards the nearest bird of any flock (as the birds are after
/// this tick's move) and flies on, kept in the world by that flock's edges.
pub fn hunt<V: Vector + Reflect + TypePath>(
    mut hunters: Query<
        (&Predator, &mut Position<V>, &mut Velocity<V>),
        (With<Hunter>, Without<Piloted>, Without<Boid>),
    >,
    flocks: Query<(&Flock, &FlockColumns<V>)>,
) {
    for (predator, mut pos, mut vel) in &mut hunters {
        let mut best: Option<(f32, &Flock, V)> = None;
        for (flock, c) in &flocks {
            let world = flock.params.bounds_in::<V>();
            let birds = c.birds();
            if let Some(i) = nearest(&world, pos.0, birds.columns()) {
                let d = world.delta(pos.0, birds.pos(i));
                if best.is_none_or(|(b, _, _)| d.length_squared() < b) {
                    best = Some((d.length_squared(), flock, d));
                }
            }
        }
        let Some((_, flock, to_prey)) = best else {
            continue;
        };
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
