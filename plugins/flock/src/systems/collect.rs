//! Phase 1: gather each flock's birds into columns and sort them into its neighbour grid.

use crate::components::{Boid, Flock, FlockColumns, FlockMember, Piloted, Position, Velocity};
use bevy_ecs::prelude::*;
use bevy_math::Vec2;

/// What the gather reads of each bird.
type BirdRow<'a> = (
    Entity,
    &'a Boid,
    &'a FlockMember,
    &'a Position,
    &'a Velocity,
    Has<Piloted>,
);

/// Fills every flock's [`FlockColumns`] from its birds and rebuilds its grid. Birds whose
/// [`FlockMember`] names no flock are left alone.
pub fn collect_neighbours(
    mut flocks: Query<(Entity, &Flock, &mut FlockColumns)>,
    boids: Query<BirdRow>,
) {
    let mut columns: Vec<(Entity, &Flock, Mut<FlockColumns>)> = flocks.iter_mut().collect();
    for (_, _, c) in &mut columns {
        c.clear();
    }
    // Birds of one flock are usually stored together: remember the last flock looked up.
    let mut last: Option<(Entity, usize)> = None;
    for (entity, boid, member, pos, vel, piloted) in &boids {
        let index = match last {
            Some((flock, index)) if flock == member.0 => index,
            _ => match columns.iter().position(|(e, _, _)| *e == member.0) {
                Some(index) => {
                    last = Some((member.0, index));
                    index
                }
                None => continue,
            },
        };
        let c = &mut columns[index].2;
        c.entities.push(entity);
        c.ids.push(boid.id);
        c.pos.push(pos.0);
        c.vel.push(vel.0);
        c.piloted.push(piloted);
    }
    for (_, flock, c) in &mut columns {
        let c = &mut **c;
        c.acc.resize(c.pos.len(), Vec2::ZERO);
        c.neighbours.resize(c.pos.len(), 0);
        flock_core::sim::collect_neighbours(&mut c.grid, &flock.params, &c.pos, &c.vel);
    }
}
