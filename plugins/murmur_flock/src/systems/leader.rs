//! The `FollowLeader` phase: leaders pull (seek, arrive, orbit) or push (flee) the birds that
//! react to them; then birds within a predator's range turn away from it.

use crate::components::{Flock, FlockColumns, FlockSolid, Leader, Position, Predator};
use bevy_ecs::prelude::*;
use bevy_reflect::{Reflect, TypePath};
use murmur_core::Vector;
use murmur_core::predator::PredatorState;
use murmur_core::sim::LeaderState;
use murmur_core::solids::Solid;

/// Adds every leader's steering to the birds of the flocks it leads, then every predator's push
/// to the birds of every flock (the DE1-SoC rule). One system for both: the phase's order is
/// fixed, and each system in a tick costs a dispatch.
pub fn follow_leaders<V: Vector + Reflect + TypePath>(
    leaders: Query<(&Leader, &Position<V>)>,
    predators: Query<(&Predator, &Position<V>)>,
    mut flocks: Query<(Entity, &Flock, &mut FlockColumns<V>)>,
    mut scratch: Local<(Vec<LeaderState<V>>, Vec<PredatorState<V>>)>,
) {
    if leaders.is_empty() && predators.is_empty() {
        return;
    }
    let (leading, hunting) = &mut *scratch;
    hunting.clear();
    hunting.extend(predators.iter().map(|(p, pos)| PredatorState {
        pos: pos.0,
        params: p.params,
    }));
    for (entity, flock, mut c) in &mut flocks {
        leading.clear();
        leading.extend(
            leaders
                .iter()
                .filter(|(leader, _)| leader.only.is_none_or(|only| only == entity))
                .map(|(leader, pos)| LeaderState {
                    pos: pos.0,
                    params: leader.params,
                }),
        );
        c.birds.follow_leaders(&flock.params, leading);
        c.birds.flee_predators(&flock.params, hunting);
    }
}

/// The `AvoidObstacles` phase of 3D flocks: every [`FlockSolid`] is handed to every 3D flock
/// (kept by the flock until they change), and birds with one ahead steer for a clear heading;
/// after the move none is ever inside one (see `murmur_core::solids`). 2D flocks' obstacles are
/// physics colliders (`murmur_physics`), which this leaves alone.
pub fn avoid_solids<V: Vector>(
    solids: Query<&FlockSolid>,
    mut flocks: Query<(&Flock, &mut FlockColumns<V>)>,
    mut scratch: Local<Vec<Solid>>,
) {
    if V::DIM != 3 {
        return;
    }
    scratch.clear();
    scratch.extend(solids.iter().map(|s| s.0));
    for (flock, mut c) in &mut flocks {
        if c.birds.solids() != scratch.as_slice() {
            c.birds.set_solids(&scratch);
        }
        if !scratch.is_empty() {
            c.birds.avoid_solids(&flock.params);
        }
    }
}
