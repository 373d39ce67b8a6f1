//! The `Steer` phase: each bird's model turns its neighbourhood into an acceleration.

use crate::components::{Flock, FlockColumns};
use bevy_ecs::prelude::*;

/// Sets every bird's acceleration from its flock's model.
pub fn steer(mut flocks: Query<(&Flock, &mut FlockColumns)>) {
    for (flock, mut c) in &mut flocks {
        c.birds.steer(&flock.params);
    }
}
