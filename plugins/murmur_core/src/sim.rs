//! One flock's tick as its phases over plain columns in id order (`CollectNeighbours`, `Steer`,
//! `FollowLeader`, `AvoidObstacles` (a 3D flock's solids; a 2D flock's obstacles are the Bevy
//! plugins' physics), `TurnAtEdges`, `Integrate`), and [`FlockSim`], a flock that owns its
//! columns: the reference the benchmarks and tests hold the other layouts to
//! ([`crate::sorted::SortedFlock`]'s phases, which the Bevy plugins run, and
//! [`crate::fast::FastFlock`] give its bits).

use crate::disjoint::DisjointWrites;
use crate::edges::EdgeMode;
use crate::grid::{NeighbourGrid, NeighbourSums};
use crate::hash::state_hash;
use crate::lanes::{LANES, Lane};
use crate::leader::LeaderParams;
use crate::metrics::FlockMetrics;
use crate::models::{Model, SteerContext};
use crate::params::FlockParams;
use crate::predator::PredatorState;
use crate::solids::{Solid, avoid, keep_out};
use crate::space::Vector;
use crate::world::WorldBounds;
use glam::Vec2;
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;

/// A leader as the flock sees it this tick.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LeaderState<V: Vector = Vec2> {
    /// Where the leader is.
    pub pos: V,
    /// How the flock reacts to it.
    pub params: LeaderParams,
}

/// The box the grid covers: the world, or in an open world (`none` edges) wherever the flock
/// has flown (the finite positions of `pos`).
pub(crate) fn grid_bounds<V: Vector>(
    params: &FlockParams,
    pos: impl Iterator<Item = V>,
) -> WorldBounds<V> {
    let mut bounds = params.bounds_in::<V>();
    if params.edges.mode == EdgeMode::None {
        let (lo, hi) = pos
            .filter(|p| p.is_finite())
            .fold((bounds.min, bounds.max()), |(lo, hi), p| {
                (lo.min(p), hi.max(p))
            });
        bounds.min = lo;
        bounds.size = hi - lo;
    }
    bounds
}

/// `CollectNeighbours`: sorts the flock into `grid`. In an open world (`none` edges) the grid covers the
/// flock wherever it has flown.
pub fn collect_neighbours<V: Vector>(
    grid: &mut NeighbourGrid<V>,
    params: &FlockParams,
    pos: &[V],
    vel: &[V],
) {
    let bounds = grid_bounds(params, pos.iter().copied());
    grid.rebuild(&bounds, params.model.interaction_radius(), pos, vel);
}

/// `Steer`: every boid's acceleration from its model, and the number of neighbours it
/// considered (its local flock size), in input order.
pub fn steer<V: Vector>(
    grid: &NeighbourGrid<V>,
    params: &FlockParams,
    ctx: &SteerContext<V>,
    acc: &mut [V],
    neighbours: &mut [u32],
) {
    let n = grid.len();
    assert!(
        acc.len() == n && neighbours.len() == n && grid.order().len() == n,
        "one entry per boid"
    );
    let order = grid.order();
    let (acc, neighbours) = (DisjointWrites::new(acc), DisjointWrites::new(neighbours));
    // Cell by cell, so that each cell's boids are summed in one pass over its block; results
    // go to the boids' input indices.
    let request = params
        .model
        .sums_request()
        .filter(|_| ctx.cap == usize::MAX);
    (0..grid.layout().cell_count())
        .into_par_iter()
        .with_min_len(64)
        .for_each(|cell| {
            let ks = grid.cell_range(cell);
            if ks.is_empty() {
                return;
            }
            let block = grid.block(cell);
            let ctx = SteerContext {
                block: Some(&block),
                ..*ctx
            };
            let mut sums = [NeighbourSums::default(); SUMS_BATCH];
            for from in ks.clone().step_by(SUMS_BATCH) {
                let to = (from + SUMS_BATCH).min(ks.end);
                let batch = &mut sums[..to - from];
                if let Some(request) = request {
                    grid.cell_sums(&block, from..to, request, ctx.view_min_cos, batch);
                }
                for (k, s) in (from..to).zip(batch.iter()) {
                    let (a, count) = match request {
                        Some(_) => params.model.steer_by_sums(grid, k, s, &ctx),
                        None => params.model.steer(grid, k, &ctx),
                    };
                    let i = order[k] as usize;
                    assert!(i < n, "input indices within the flock");
                    // SAFETY: `order` is a permutation of 0..n (the grid's sort builds it), and
                    // each sorted index k is visited once, in one cell, so every input index i
                    // is written once, by one thread; both buffers hold n entries.
                    unsafe {
                        acc.write(i, a);
                        neighbours.write(i, count);
                    }
                }
            }
        });
}

/// Boids of one cell summed in one call (a buffer on the stack).
const SUMS_BATCH: usize = 64;

/// `FollowLeader`: adds each leader's pull (or push) to the accelerations.
pub fn follow_leaders<V: Vector>(
    params: &FlockParams,
    leaders: &[LeaderState<V>],
    pos: &[V],
    vel: &[V],
    acc: &mut [V],
) {
    if leaders.is_empty() {
        return;
    }
    let world = params.bounds_in::<V>();
    let speed = params.model.cruise_speed();
    acc.par_iter_mut().enumerate().for_each(|(i, a)| {
        for leader in leaders {
            *a += leader
                .params
                .steer(world.delta(pos[i], leader.pos), vel[i], speed);
        }
    });
}

/// `FollowLeader`, after the leaders: birds within a predator's range turn away from it.
pub fn flee_predators<V: Vector>(
    params: &FlockParams,
    predators: &[PredatorState<V>],
    pos: &[V],
    acc: &mut [V],
) {
    if predators.is_empty() {
        return;
    }
    let world = params.bounds_in::<V>();
    acc.par_iter_mut().enumerate().for_each(|(i, a)| {
        for predator in predators {
            *a += predator.params.flee(world.delta(predator.pos, pos[i]));
        }
    });
}

/// `AvoidObstacles` for a 3D flock: birds with a solid ahead steer for the nearest clear
/// heading (see [`crate::solids`]).
pub fn avoid_solids<V: Vector>(
    params: &FlockParams,
    solids: &[Solid],
    pos: &[V],
    vel: &[V],
    acc: &mut [V],
) {
    if solids.is_empty() || V::DIM != 3 {
        return;
    }
    let (near, cruise) = (params.model.near_radius(), params.model.cruise_speed());
    acc.par_iter_mut().enumerate().for_each(|(i, a)| {
        *a += avoid(solids, &params.avoidance, near, cruise, pos[i], vel[i], *a);
    });
}

/// `TurnAtEdges`: adds the edge-turning acceleration (`turn` mode).
pub fn turn_at_edges<V: Vector>(params: &FlockParams, pos: &[V], acc: &mut [V]) {
    if params.edges.mode != EdgeMode::Turn {
        return;
    }
    let world = params.bounds_in::<V>();
    acc.par_iter_mut()
        .zip(pos.par_iter())
        .for_each(|(a, &p)| *a += params.edges.turn_acceleration(&world, p));
}

/// Up to eight birds as the move takes them: their positions, velocities and accelerations,
/// one lane array per axis (the axes past the space's unused).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Group {
    pub(crate) p: [Lane; 3],
    pub(crate) v: [Lane; 3],
    pub(crate) a: [Lane; 3],
}

impl Group {
    /// Lane `l`'s position.
    #[inline(always)]
    pub(crate) fn pos<V: Vector>(&self, l: usize) -> V {
        V::from_axes([self.p[0][l], self.p[1][l], self.p[2][l]])
    }

    /// Lane `l`'s velocity.
    #[inline(always)]
    pub(crate) fn vel<V: Vector>(&self, l: usize) -> V {
        V::from_axes([self.v[0][l], self.v[1][l], self.v[2][l]])
    }

    /// Lane `l`'s acceleration.
    #[inline(always)]
    pub(crate) fn acc<V: Vector>(&self, l: usize) -> V {
        V::from_axes([self.a[0][l], self.a[1][l], self.a[2][l]])
    }

    /// Sets lane `l`'s position and velocity.
    #[inline(always)]
    pub(crate) fn set<V: Vector>(&mut self, l: usize, p: V, v: V) {
        for a in 0..V::DIM {
            self.p[a][l] = p.axis(a);
            self.v[a][l] = v.axis(a);
        }
    }

    /// Sets lane `l`'s acceleration.
    #[inline(always)]
    pub(crate) fn set_acc<V: Vector>(&mut self, l: usize, a: V) {
        for axis in 0..V::DIM {
            self.a[axis][l] = a.axis(axis);
        }
    }
}

/// `Integrate`: velocity from acceleration (the model's speed rules), then position, then the
/// world's topology (and, in 3D, out of the solids). Boids for which `skip` is true (moved by
/// something else, like the player) keep their state.
pub fn integrate<V: Vector>(
    params: &FlockParams,
    solids: &[Solid],
    pos: &mut [V],
    vel: &mut [V],
    acc: &[V],
    skip: Option<&[bool]>,
) {
    let world = params.bounds_in::<V>();
    const PART: usize = 1024;
    pos.par_chunks_mut(PART)
        .zip(vel.par_chunks_mut(PART))
        .enumerate()
        .for_each(|(part, (pos, vel))| {
            // Eight boids at a time (see `crate::lanes`): the same bits as one at a time.
            for (group, (pos, vel)) in pos.chunks_mut(LANES).zip(vel.chunks_mut(LANES)).enumerate()
            {
                let first = part * PART + group * LANES;
                let mut lanes = Group::default();
                for (l, (p, v)) in pos.iter().zip(vel.iter()).enumerate() {
                    lanes.set(l, *p, *v);
                    lanes.set_acc(l, acc[first + l]);
                }
                integrate_lanes(params, &world, solids, pos.len(), &mut lanes);
                for (l, (p, v)) in pos.iter_mut().zip(vel.iter_mut()).enumerate() {
                    if !skip.is_some_and(|s| s[first + l]) {
                        (*p, *v) = (lanes.pos(l), lanes.vel(l));
                    }
                }
            }
        });
}

/// [`integrate`] for a group of boids, its first `m` lanes real: positions, velocities and
/// accelerations in, the new positions and velocities out (eight at a time; the same bits as
/// one at a time).
#[inline]
pub(crate) fn integrate_lanes<V: Vector>(
    params: &FlockParams,
    world: &WorldBounds<V>,
    solids: &[Solid],
    m: usize,
    g: &mut Group,
) {
    params.model.integrate_lanes::<V>(&mut g.v, &g.a);
    for l in 0..LANES {
        for a in 0..V::DIM {
            g.p[a][l] += g.v[a][l];
        }
    }
    if params.edges.mode == EdgeMode::Wrap {
        world.wrap_lanes(&mut g.p);
    } else {
        for l in 0..m {
            let (mut p, mut v) = (g.pos::<V>(l), g.vel::<V>(l));
            params.edges.confine(world, &mut p, &mut v);
            g.set(l, p, v);
        }
    }
    if !solids.is_empty() {
        for l in 0..m {
            let (mut p, mut v) = (g.pos::<V>(l), g.vel::<V>(l));
            keep_out(solids, params.avoidance.clearance, &mut p, &mut v);
            g.set(l, world.wrap(p), v);
        }
    }
}

/// Random starting positions (uniform over the world) and headings (uniform over the circle or
/// the sphere), with speeds between half and all of the model's cruising speed. Same seed, same
/// flock.
///
/// The birds come numbered in the neighbour grid's cell order (row by row of cells the size of
/// the interaction radius), so that birds near each other in the sky have nearby ids: whatever
/// is kept by id (a Bevy app's entities, stored in spawn order) then lies in memory roughly as
/// the flock lies in the sky, and handing state between the two stays cache-friendly.
pub fn initial_boids<V: Vector>(params: &FlockParams, n: usize, seed: u64) -> (Vec<V>, Vec<V>) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let world = params.bounds_in::<V>();
    let speed = params.model.cruise_speed();
    let mut birds = Vec::with_capacity(n);
    for _ in 0..n {
        let mut u = V::ZERO;
        for a in 0..V::DIM {
            *u.axis_mut(a) = rng.random::<f32>();
        }
        let p = world.wrap(world.min + world.size * u);
        let turn = rng.random::<f32>();
        let tilt = if V::DIM == 3 {
            rng.random::<f32>()
        } else {
            0.0
        };
        let s = speed * (0.5 + 0.5 * rng.random::<f32>());
        let direction = match &params.model {
            // A formed flock: headings within a cone about +x, from the same two draws.
            Model::Starlings(m) => V::deflect(
                V::X,
                (0.5 * m.start_spread.min(360.0)).to_radians() * turn,
                std::f32::consts::TAU * tilt,
            ),
            _ => V::first_direction(turn, tilt),
        };
        birds.push((p, direction * s));
    }
    let layout = crate::grid::GridLayout::new(&world, params.model.interaction_radius(), n);
    // Stable: birds of one cell keep the order they were drawn in.
    birds.sort_by_key(|(p, _)| layout.cell_index(*p));
    birds.into_iter().unzip()
}

/// A flock that owns its columns: the phases in order, without Bevy. `V` is its space: `Vec2`
/// (the default) or `Vec3`.
#[derive(Clone, Debug)]
pub struct FlockSim<V: Vector = Vec2> {
    /// How the flock behaves.
    pub params: FlockParams,
    /// Positions, by boid.
    pub pos: Vec<V>,
    /// Velocities, by boid.
    pub vel: Vec<V>,
    /// Leaders this flock reacts to.
    pub leaders: Vec<LeaderState<V>>,
    /// Predators this flock flees.
    pub predators: Vec<PredatorState<V>>,
    /// Solids a 3D flock flies round and never enters.
    pub solids: Vec<Solid>,
    /// Neighbours each boid considered in its last step.
    pub neighbours: Vec<u32>,
    acc: Vec<V>,
    ids: Vec<u32>,
    grid: NeighbourGrid<V>,
    tick: u64,
    seed: u64,
}

impl<V: Vector> FlockSim<V> {
    /// `n` boids placed by [`initial_boids`] with `seed`.
    pub fn new(params: FlockParams, n: usize, seed: u64) -> Self {
        let (pos, vel) = initial_boids(&params, n, seed);
        Self::from_state(params, pos, vel, seed)
    }

    /// A flock from given positions and velocities.
    pub fn from_state(params: FlockParams, pos: Vec<V>, vel: Vec<V>, seed: u64) -> Self {
        assert_eq!(pos.len(), vel.len(), "one velocity per position");
        let n = pos.len();
        Self {
            params,
            pos,
            vel,
            leaders: Vec::new(),
            predators: Vec::new(),
            solids: Vec::new(),
            neighbours: vec![0; n],
            acc: vec![V::ZERO; n],
            ids: (0..n as u32).collect(),
            grid: NeighbourGrid::new(),
            tick: 0,
            seed,
        }
    }

    /// Number of boids.
    pub fn len(&self) -> usize {
        self.pos.len()
    }

    /// True when the flock is empty.
    pub fn is_empty(&self) -> bool {
        self.pos.is_empty()
    }

    /// Ticks taken so far.
    pub fn tick(&self) -> u64 {
        self.tick
    }

    /// Advances one tick.
    pub fn step(&mut self) {
        V::sim_step(self)
    }

    /// The body of [`Self::step`], compiled in this crate for each space (see
    /// [`crate::space::Compiled`]).
    pub(crate) fn step_here(&mut self) {
        collect_neighbours(&mut self.grid, &self.params, &self.pos, &self.vel);
        let ctx = SteerContext {
            tick: self.tick,
            seed: self.seed,
            cap: self.params.cap(),
            view_min_cos: self.params.view_min_cos(),
            ids: &self.ids,
            block: None,
        };
        steer(
            &self.grid,
            &self.params,
            &ctx,
            &mut self.acc,
            &mut self.neighbours,
        );
        follow_leaders(
            &self.params,
            &self.leaders,
            &self.pos,
            &self.vel,
            &mut self.acc,
        );
        flee_predators(&self.params, &self.predators, &self.pos, &mut self.acc);
        avoid_solids(
            &self.params,
            &self.solids,
            &self.pos,
            &self.vel,
            &mut self.acc,
        );
        turn_at_edges(&self.params, &self.pos, &mut self.acc);
        integrate(
            &self.params,
            &self.solids,
            &mut self.pos,
            &mut self.vel,
            &self.acc,
            None,
        );
        self.tick += 1;
    }

    /// Figures of the flock as it is now.
    pub fn metrics(&mut self) -> FlockMetrics {
        collect_neighbours(&mut self.grid, &self.params, &self.pos, &self.vel);
        FlockMetrics::measure(&self.grid, &self.params)
    }

    /// Polarization and angular momentum now, without a neighbour search.
    pub fn order_parameters(&self) -> (f64, f64) {
        crate::metrics::order_parameters(&self.pos, &self.vel)
    }

    /// Fingerprint of positions and velocities, for determinism checks.
    pub fn state_hash(&self) -> u64 {
        state_hash(&self.pos, &self.vel)
    }
}
