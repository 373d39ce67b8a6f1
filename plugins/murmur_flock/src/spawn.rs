//! Spawning flocks: a flock entity and its birds, placed by the seed.

use crate::components::{Boid, Flock, FlockMember, Position, Velocity};
use bevy_ecs::bundle::NoBundleEffect;
use bevy_ecs::prelude::*;
use bevy_math::{Vec2, Vec3};
use bevy_reflect::{Reflect, TypePath};
use murmur_core::Vector;
use murmur_core::params::FlockParams;
use murmur_core::sim::initial_boids;

/// The components of `n` birds of `flock` in space `V`, placed as [`initial_boids`] places
/// them.
pub fn boid_bundles<V: Vector + Reflect + TypePath>(
    flock: Entity,
    params: &FlockParams,
    n: usize,
    seed: u64,
) -> impl Iterator<Item = (Boid, FlockMember, Position<V>, Velocity<V>)> + use<V> {
    let (pos, vel) = initial_boids::<V>(params, n, seed);
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
    /// Spawns a flock with `params` and `n` birds placed by `seed`; returns the flock entity. A
    /// world with a depth (`params.world_depth > 0`) makes a 3D flock: its birds get
    /// `Position<Vec3>` and `Velocity<Vec3>`, a flat one's `Position<Vec2>` and
    /// `Velocity<Vec2>`.
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
        if params.is_3d() {
            let birds: Vec<_> =
                boid_bundles::<Vec3>(Entity::PLACEHOLDER, &params, n, seed).collect();
            let flock = self.spawn(Flock { params, seed }).id();
            self.spawn_batch(
                birds
                    .into_iter()
                    .map(move |(b, _, p, v)| (b, FlockMember(flock), p, v, extra(b.id))),
            );
            return flock;
        }
        let birds: Vec<_> = boid_bundles::<Vec2>(Entity::PLACEHOLDER, &params, n, seed).collect();
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
        if params.is_3d() {
            self.spawn_batch(
                boid_bundles::<Vec3>(flock, &params, n, seed)
                    .map(move |(b, m, p, v)| (b, m, p, v, extra(b.id))),
            );
        } else {
            self.spawn_batch(
                boid_bundles::<Vec2>(flock, &params, n, seed)
                    .map(move |(b, m, p, v)| (b, m, p, v, extra(b.id))),
            );
        }
        flock
    }
}
