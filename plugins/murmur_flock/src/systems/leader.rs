//! The `FollowLeader` phase: leaders pull (seek, arrive, orbit) or push (flee) the birds that
//! react to them.

use crate::components::{Flock, FlockColumns, Leader, Position};
use bevy_ecs::prelude::*;
use murmur_core::sim::LeaderState;

/// Adds every leader's steering to the birds of the flocks it leads.
pub fn follow_leaders(
    leaders: Query<(&Leader, &Position)>,
    mut flocks: Query<(Entity, &Flock, &mut FlockColumns)>,
    mut scratch: Local<Vec<LeaderState>>,
) {
    if leaders.is_empty() {
        return;
    }
    for (entity, flock, mut c) in &mut flocks {
        scratch.clear();
        scratch.extend(
            leaders
                .iter()
                .filter(|(leader, _)| leader.only.is_none_or(|only| only == entity))
                .map(|(leader, pos)| LeaderState {
                    pos: pos.0,
                    params: leader.params,
                }),
        );
        c.birds.follow_leaders(&flock.params, &scratch);
    }
}
