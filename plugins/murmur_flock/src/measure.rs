//! Figures and fingerprints of a flock in a `World`, independent of storage order.

use crate::components::{Boid, Flock, FlockMember, Position, Velocity};
use bevy_ecs::prelude::*;
use bevy_math::Vec2;
use murmur_core::grid::NeighbourGrid;
use murmur_core::hash::state_hash;
use murmur_core::metrics::FlockMetrics;

/// Positions and velocities of `flock`'s birds (as their entities hold them), ordered by bird
/// id.
pub fn flock_state(world: &mut World, flock: Entity) -> (Vec<Vec2>, Vec<Vec2>) {
    let mut birds: Vec<(u32, Vec2, Vec2)> = world
        .query::<(&Boid, &FlockMember, &Position, &Velocity)>()
        .iter(world)
        .filter(|(_, member, _, _)| member.0 == flock)
        .map(|(boid, _, p, v)| (boid.id, p.0, v.0))
        .collect();
    birds.sort_unstable_by_key(|b| b.0);
    birds.into_iter().map(|(_, p, v)| (p, v)).unzip()
}

/// Measures `flock` as it is now; `None` when the entity is not a flock.
pub fn flock_metrics(world: &mut World, flock: Entity) -> Option<FlockMetrics> {
    let params = world.get::<Flock>(flock)?.params.clone();
    let (pos, vel) = flock_state(world, flock);
    let mut grid = NeighbourGrid::new();
    murmur_core::sim::collect_neighbours(&mut grid, &params, &pos, &vel);
    Some(FlockMetrics::measure(&grid, &params))
}

/// Fingerprint of `flock`'s positions and velocities (ordered by bird id).
pub fn flock_state_hash(world: &mut World, flock: Entity) -> u64 {
    let (pos, vel) = flock_state(world, flock);
    state_hash(&pos, &vel)
}
