//! Phase 2: each bird's model turns its neighbourhood into an acceleration.

use crate::components::{Flock, FlockColumns};
use bevy_ecs::prelude::*;
use flock_core::models::SteerContext;

/// Sets every bird's acceleration from its flock's model.
pub fn steer(mut flocks: Query<(&Flock, &mut FlockColumns)>) {
    for (flock, mut c) in &mut flocks {
        let c = &mut *c;
        let ctx = SteerContext {
            tick: c.tick,
            seed: flock.seed,
            cap: flock.params.cap(),
            view_min_cos: flock.params.view_min_cos(),
            ids: &c.ids,
            block: None,
        };
        flock_core::sim::steer(&c.grid, &flock.params, &ctx, &mut c.acc, &mut c.neighbours);
    }
}
