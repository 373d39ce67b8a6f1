//! The `Steer` phase: each bird's model turns its neighbourhood into an acceleration.

use crate::components::{Flock, FlockColumns};
use bevy_ecs::prelude::*;
use murmur_core::Vector;

/// Sets every bird's acceleration from its flock's model (the flocks of space `V`).
pub fn steer<V: Vector>(mut flocks: Query<(&Flock, &mut FlockColumns<V>)>) {
    for (flock, mut c) in &mut flocks {
        c.birds.steer(&flock.params);
    }
}
