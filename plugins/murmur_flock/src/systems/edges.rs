//! The `TurnAtEdges` phase: birds inside a margin turn back towards the middle (`turn` edges).

use crate::components::{Flock, FlockColumns};
use bevy_ecs::prelude::*;
use murmur_core::Vector;

/// Adds the edge-turning acceleration of every flock of space `V` in `turn` mode.
pub fn turn_at_edges<V: Vector>(mut flocks: Query<(&Flock, &mut FlockColumns<V>)>) {
    for (flock, mut c) in &mut flocks {
        c.birds.turn_at_edges(&flock.params);
    }
}
