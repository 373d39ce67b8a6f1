//! The `FollowLeader` phase: leaders pull (seek, arrive, orbit) or push (flee) the birds that
//! react to them; then birds within a predator's range turn away from it.

use crate::components::{Flock, FlockColumns, Leader, Position, Predator};
use bevy_ecs::prelude::*;
use murmur_core::predator::PredatorState;
use murmur_core::sim::LeaderState;

/// Adds every leader's steering to the birds of the flocks it leads, then every predator's push
/// to the birds of every flock (the DE1-SoC rule). One system for both: the phase's order is
/// fixed, and each system in a tick costs a dispatch.
pub fn follow_leaders(
    leaders: Query<(&Leader, &Position)>,
    predators: Query<(&Predator, &Position)>,
    mut flocks: Query<(Entity, &Flock, &mut FlockColumns)>,
    mut scratch: Local<(Vec<LeaderState>, Vec<PredatorState>)>,
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
