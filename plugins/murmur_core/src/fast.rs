//! [`FastFlock`]: the tick of [`crate::sim::FlockSim`], laid out for speed. The birds live in a
//! [`SortedFlock`], kept in cell order from tick to tick; each tick re-sorts them in place
//! (nearly sequential memory traffic, since birds move little) and then one parallel pass over
//! the sorted birds steers (a cell's birds summed together), follows leaders, turns at edges and
//! integrates (eight birds at a time), writing the new state and next tick's cells into the
//! grid's spare columns. About 60 bytes per bird; no allocation after the first tick. Each
//! cell's birds are kept in id order, so the results are the very bits of `FlockSim`'s, and
//! independent of the thread count.

use crate::grid::NeighbourGrid;
use crate::metrics::FlockMetrics;
use crate::params::FlockParams;
use crate::predator::PredatorState;
use crate::sim::{LeaderState, initial_boids};
use crate::solids::Solid;
use crate::sorted::SortedFlock;
use crate::space::Vector;
use glam::Vec2;

/// A flock stored in cell order for throughput. `V` is its space: `Vec2` (the default) or
/// `Vec3`.
#[derive(Clone, Debug)]
pub struct FastFlock<V: Vector = Vec2> {
    /// How the flock behaves.
    pub params: FlockParams,
    /// Leaders the flock reacts to.
    pub leaders: Vec<LeaderState<V>>,
    /// Predators the flock flees.
    pub predators: Vec<PredatorState<V>>,
    birds: SortedFlock<V>,
}

impl<V: Vector> FastFlock<V> {
    /// `n` boids placed as [`initial_boids`] places them with `seed`.
    pub fn new(params: FlockParams, n: usize, seed: u64) -> Self {
        let (pos, vel) = initial_boids(&params, n, seed);
        Self::from_state(params, &pos, &vel, seed)
    }

    /// A flock from given positions and velocities (bird ids by index).
    pub fn from_state(params: FlockParams, pos: &[V], vel: &[V], seed: u64) -> Self {
        Self {
            params,
            leaders: Vec::new(),
            predators: Vec::new(),
            birds: SortedFlock::from_state(pos, vel, seed),
        }
    }

    /// Number of boids.
    pub fn len(&self) -> usize {
        self.birds.len()
    }

    /// True without boids.
    pub fn is_empty(&self) -> bool {
        self.birds.is_empty()
    }

    /// Ticks taken.
    pub fn tick(&self) -> u64 {
        self.birds.tick()
    }

    /// The grid holding the boids (in cell order as of the last tick).
    pub fn grid(&self) -> &NeighbourGrid<V> {
        self.birds.grid()
    }

    /// The birds, in cell order.
    pub fn birds(&self) -> &SortedFlock<V> {
        &self.birds
    }

    /// The solids a 3D flock flies round and never enters.
    pub fn solids(&self) -> &[Solid] {
        self.birds.solids()
    }

    /// Sets the solids a 3D flock flies round and never enters (a 2D flock ignores them).
    pub fn set_solids(&mut self, solids: &[Solid]) {
        self.birds.set_solids(solids);
    }

    /// Bytes per boid held by the flock's arrays (capacity).
    pub fn bytes_per_boid(&self) -> f64 {
        self.birds.bytes_per_boid()
    }

    /// Advances one tick.
    pub fn step(&mut self) {
        self.birds
            .step(&self.params, &self.leaders, &self.predators);
    }

    /// Figures of the flock as it is now.
    pub fn metrics(&self) -> FlockMetrics {
        let (pos, vel) = self.birds.state_by_id();
        let mut grid = NeighbourGrid::new();
        crate::sim::collect_neighbours(&mut grid, &self.params, &pos, &vel);
        FlockMetrics::measure(&grid, &self.params)
    }

    /// Fingerprint of positions and velocities ordered by boid id.
    pub fn state_hash(&self) -> u64 {
        self.birds.state_hash()
    }
}
