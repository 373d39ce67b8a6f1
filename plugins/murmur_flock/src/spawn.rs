//! Spawning flocks: a flock entity and its birds, placed by the seed.

use crate::components::{Boid, Flock, FlockMember, Position, Velocity};
use bevy_ecs::bundle::NoBundleEffect;
use bevy_ecs::prelude::*;
use murmur_core::params::FlockParams;
use murmur_core::sim::initial_boids;

/// The components of `n` birds of `flock`, placed as [`initial_boids`] places them.
pub fn boid_bundles(
    flock: Entity,
    params: &FlockParams,
    n: usize,
    seed: u64,
) -> impl Iterator<Item = (Boid, FlockMember, Position, Velocity)> + use<> {
    let (pos, vel) = initial_boids(params, n, seed);
    pos.into_iter()
        .zip(vel)
        .enumerate()
        .map(move |(i, (p, v))| {
            (
                Boid { id: i as u32 },
                FlockMember(flock),
                Position(p),
                Velocity(v),
            )
        })
}

/// Spawns flocks from `Commands` or a `World`.
pub trait SpawnFlockExt {
    /// Spawns a flock with `params` and `n` birds placed by `seed`; returns the flock entity.
    fn spawn_flock(&mut self, params: FlockParams, n: usize, seed: u64) -> Entity {
        self.spawn_flock_with(params, n, seed, |_| ())
    }

    /// [`SpawnFlockExt::spawn_flock`], each bird also given `extra(id)`: the game's own
    /// components (a marker, a health, a sprite).
    fn spawn_flock_with<B: Bundle<Effect: NoBundleEffect>>(
        &mut self,
        params: FlockParams,
        n: usize,
        seed: u64,
        extra: impl FnMut(u32) -> B + Send + Sync + 'static,
    ) -> Entity;
}

impl SpawnFlockExt for Commands<'_, '_> {
    fn spawn_flock_with<B: Bundle<Effect: NoBundleEffect>>(
        &mut self,
        params: FlockParams,
        n: usize,
        seed: u64,
        mut extra: impl FnMut(u32) -> B + Send + Sync + 'static,
    ) -> Entity {
        let birds: Vec<_> = boid_bundles(Entity::PLACEHOLDER, &params, n, seed).collect();
        let flock = self.spawn(Flock { params, seed }).id();
        self.spawn_batch(
            birds
                .into_iter()
                .map(move |(b, _, p, v)| (b, FlockMember(flock), p, v, extra(b.id))),
        );
        flock
    }
}

impl SpawnFlockExt for World {
    fn spawn_flock_with<B: Bundle<Effect: NoBundleEffect>>(
        &mut self,
        params: FlockParams,
        n: usize,
        seed: u64,
        mut extra: impl FnMut(u32) -> B + Send + Sync + 'static,
    ) -> Entity {
        let flock = self
            .spawn(Flock {
                params: params.clone(),
                seed,
            })
            .id();
        self.spawn_batch(
            boid_bundles(flock, &params, n, seed)
                .map(move |(b, m, p, v)| (b, m, p, v, extra(b.id))),
        );
        flock
    }
}
