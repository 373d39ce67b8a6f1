//! Phase 5: move the birds and write their new state back to the entities.

use crate::components::{
    BodyDriven, Flock, FlockColumns, NeighbourCount, Piloted, Position, Velocity,
};
use bevy_ecs::prelude::*;

/// Integrates every flock (piloted birds excluded) and writes positions and velocities back
/// (only velocities for [`BodyDriven`] birds: their bodies move them).
pub fn integrate(
    mut flocks: Query<(&Flock, &mut FlockColumns)>,
    mut boids: Query<
        (
            &mut Position,
            &mut Velocity,
            &mut NeighbourCount,
            Has<BodyDriven>,
        ),
        Without<Piloted>,
    >,
) {
    for (flock, mut c) in &mut flocks {
        let c = &mut *c;
        flock_core::sim::integrate(
            &flock.params,
            &mut c.pos,
            &mut c.vel,
            &c.acc,
            Some(&c.piloted),
        );
        for (i, &entity) in c.entities.iter().enumerate() {
            if c.piloted[i] {
                continue;
            }
            // A bird despawned since the gather simply misses its write.
            if let Ok((mut pos, mut vel, mut count, body_driven)) = boids.get_mut(entity) {
                if !body_driven {
                    pos.0 = c.pos[i];
                }
                vel.0 = c.vel[i];
                count.0 = c.neighbours[i];
            }
        }
        c.tick += 1;
    }
}
