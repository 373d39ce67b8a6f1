//! The `TurnAtEdges` phase: birds inside a margin turn back towards the middle (`turn` edges).

use crate::components::{Flock, FlockColumns};
use bevy_ecs::prelude::*;

/// Adds the edge-turning acceleration of every flock in `turn` mode.
pub fn turn_at_edges(mut flocks: Query<(&Flock, &mut FlockColumns)>) {
    for (flock, mut c) in &mut flocks {
        c.birds.turn_at_edges(&flock.params);
    }
}
