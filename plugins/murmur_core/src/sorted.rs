//! [`SortedFlock`]: a flock's birds kept in the neighbour grid's cell order from tick to tick,
//! each cell's birds by id, with the tick's phases as passes over them. [`crate::fast::FastFlock`]
//! runs the phases fused into one pass; the Bevy plugins run them one system at a time, so that
//! other systems (obstacle avoidance, a game's own) can sit between them, and the steering works
//! the move out in the same pass for the move to take when none of them changed anything. Both
//! give the bits of [`crate::sim::FlockSim`], which sorts columns kept in id order afresh every
//! tick: the order in which a bird's neighbours are summed is the same in all three (cells in a
//! fixed order, each cell's birds by id).

// Loops over a space's axes index several per-axis arrays at once (`for a in 0..DIM`).
#![allow(clippy::needless_range_loop)]

use crate::chunks::{ChunkColumns, ColumnParts, Parts, for_each_chunk};
use crate::edges::EdgeMode;
use crate::grid::{Columns, NeighbourGrid, NeighbourSums};
use crate::hash::state_hash;
use crate::lanes::LANES;
use crate::models::SteerContext;
use crate::params::FlockParams;
use crate::predator::PredatorState;
use crate::sim::{Group, LeaderState, grid_bounds};
use crate::solids::{Solid, avoid};
use crate::space::Vector;
use glam::Vec2;
use rayon::prelude::*;
use std::mem::MaybeUninit;

/// Sorted birds per parallel work item: large enough to amortise scheduling, small enough to
/// balance.
const CHUNK: usize = 1024;

/// Birds whose sums are taken before they are steered (a buffer on the stack).
const BATCH: usize = 64;

/// Below this many birds a tick runs on the calling thread alone: for a few hundred birds,
/// handing work to other threads costs more than the work.
const PARALLEL_FROM: usize = 4096;

/// What moves a bird besides its flock.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct BirdFlags(u8);

impl BirdFlags {
    /// Moved by the flock alone.
    pub const NONE: Self = Self(0);
    /// Seen by the flock but moved by someone else (the player): the tick leaves its state.
    pub const PILOTED: Self = Self(1);
    /// Steered by the flock but moved by a physics body: the tick works out its velocity and
    /// position as for any bird; the body's place is read back before the next tick.
    pub const BODY_DRIVEN: Self = Self(2);

    /// Both sets of flags.
    pub const fn union(self, other: Self) -> Self {
        Self(self.0 | other.0)
    }

    /// True when every flag of `other` is set here.
    pub const fn contains(self, other: Self) -> bool {
        self.0 & other.0 == other.0
    }

    /// True for a piloted bird.
    pub const fn piloted(self) -> bool {
        self.contains(Self::PILOTED)
    }

    /// True for a body-driven bird.
    pub const fn body_driven(self) -> bool {
        self.contains(Self::BODY_DRIVEN)
    }
}

/// A flock's birds in cell order. Indices into it ("slots") change at every [`SortedFlock::sort`];
/// a bird's id does not. `V` is its space: `Vec2` (the default) or `Vec3`.
#[derive(Clone, Debug)]
pub struct SortedFlock<V: Vector = Vec2> {
    grid: NeighbourGrid<V>,
    /// Bird id by slot.
    ids: Vec<u32>,
    /// The ids as they were before the last sort (what [`SteerContext::ids`] wants, with the
    /// grid's order).
    ids_before: Vec<u32>,
    flags: Vec<BirdFlags>,
    spare_flags: Vec<BirdFlags>,
    acc: Vec<V>,
    neighbours: Vec<u32>,
    /// Solids a 3D flock flies round (see [`SortedFlock::set_solids`]).
    solids: Vec<Solid>,
    /// Nothing was added, removed or moved since the last sort, so slots are in cell order and
    /// the grid's order relates them to `ids_before`.
    sorted: bool,
    /// See [`SortedFlock::changed_since_integrate`].
    changed_since_integrate: bool,
    /// The move worked out with the steering (see [`SortedFlock::steer`]), for
    /// [`SortedFlock::integrate`] to take.
    ahead: Option<Ahead<V>>,
    /// Something changed the accelerations (or the birds) between this tick's steering and its
    /// move.
    changed_after_steering: bool,
    /// ... and so it did last tick: this tick's steering does not work the move out.
    changed_after_steering_last_tick: bool,
    tick: u64,
    seed: u64,
}

/// The birds' next state, worked out with their steering: what [`SortedFlock::integrate`] would
/// compute, should nothing change the accelerations before it.
#[derive(Clone, Debug)]
struct Ahead<V: Vector> {
    columns: Columns<V>,
    cells: Vec<u32>,
    /// The parameters it was worked out with.
    params: FlockParams,
}

impl<V: Vector> Default for SortedFlock<V> {
    fn default() -> Self {
        Self {
            grid: NeighbourGrid::new(),
            ids: Vec::new(),
            ids_before: Vec::new(),
            flags: Vec::new(),
            spare_flags: Vec::new(),
            acc: Vec::new(),
            neighbours: Vec::new(),
            solids: Vec::new(),
            sorted: false,
            changed_since_integrate: false,
            ahead: None,
            changed_after_steering: false,
            changed_after_steering_last_tick: false,
            tick: 0,
            seed: 0,
        }
    }
}

impl<V: Vector> SortedFlock<V> {
    /// An empty flock whose randomness (wandering directions) follows `seed`.
    pub fn new(seed: u64) -> Self {
        Self {
            seed,
            ..Self::default()
        }
    }

    /// Birds with ids `0..n` at the given positions and velocities.
    pub fn from_state(pos: &[V], vel: &[V], seed: u64) -> Self {
        assert_eq!(pos.len(), vel.len(), "one velocity per position");
        let mut flock = Self::new(seed);
        flock.grid.load(pos, vel);
        flock.ids = (0..pos.len() as u32).collect();
        flock.flags = vec![BirdFlags::NONE; pos.len()];
        flock
    }

    /// Number of birds.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// True without birds.
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// Ticks taken.
    pub fn tick(&self) -> u64 {
        self.tick
    }

    /// The seed of the flock's randomness.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Sets the seed of the flock's randomness.
    pub fn set_seed(&mut self, seed: u64) {
        self.seed = seed;
    }

    /// The grid holding the birds (in cell order as of the last sort).
    pub fn grid(&self) -> &NeighbourGrid<V> {
        &self.grid
    }

    /// The birds' positions and velocities, by slot.
    pub fn columns(&self) -> &Columns<V> {
        self.grid.columns()
    }

    /// Bird ids, by slot.
    pub fn ids(&self) -> &[u32] {
        &self.ids
    }

    /// What moves each bird besides the flock, by slot.
    pub fn flags(&self) -> &[BirdFlags] {
        &self.flags
    }

    /// This tick's accelerations, by slot (after [`SortedFlock::steer`]).
    pub fn acc(&self) -> &[V] {
        &self.acc
    }

    /// This tick's accelerations, to add to (obstacle avoidance and other steering).
    pub fn acc_mut(&mut self) -> &mut [V] {
        self.change_after_steering();
        &mut self.acc
    }

    /// True when the last [`SortedFlock::steer`] worked the move out too and nothing has
    /// changed since: [`SortedFlock::integrate`] will take it rather than move the birds afresh.
    pub fn move_worked_out(&self) -> bool {
        self.ahead.is_some()
    }

    /// Notes that the accelerations or the birds changed after the steering: the move worked
    /// out with it, if any, no longer holds (its columns go back to the grid).
    fn change_after_steering(&mut self) {
        self.changed_after_steering = true;
        if let Some(ahead) = self.ahead.take() {
            self.grid.return_spare(ahead.columns, ahead.cells);
        }
    }

    /// Neighbours each bird considered in its last steering (its local flock size), by slot.
    pub fn neighbours(&self) -> &[u32] {
        &self.neighbours
    }

    /// Position of the bird in `slot`.
    #[inline]
    pub fn pos(&self, slot: usize) -> V {
        self.grid.pos(slot)
    }

    /// Velocity of the bird in `slot`.
    #[inline]
    pub fn vel(&self, slot: usize) -> V {
        self.grid.vel(slot)
    }

    /// Bytes per bird held by the flock's arrays (capacity).
    pub fn bytes_per_boid(&self) -> f64 {
        let n = self.len().max(1) as f64;
        let words = self.ids.capacity()
            + self.ids_before.capacity()
            + self.neighbours.capacity()
            + 2 * self.acc.capacity();
        let bytes = self.flags.capacity() + self.spare_flags.capacity();
        self.grid.bytes_per_boid() + (4 * words + bytes) as f64 / n
    }

    /// Adds a bird in the last slot (sorted in at the next [`SortedFlock::sort`]).
    pub fn push(&mut self, id: u32, pos: V, vel: V, flags: BirdFlags) {
        self.change_after_steering();
        self.grid.push(pos, vel);
        self.ids.push(id);
        self.flags.push(flags);
        self.sorted = false;
        self.changed_since_integrate = true;
    }

    /// Removes the bird in `slot`, moving the last bird into its place; returns its id.
    pub fn swap_remove(&mut self, slot: usize) -> u32 {
        self.change_after_steering();
        self.grid.swap_remove(slot);
        self.flags.swap_remove(slot);
        self.sorted = false;
        self.changed_since_integrate = true;
        self.ids.swap_remove(slot)
    }

    /// Sets the position and velocity of the bird in `slot` (a bird moved by something else).
    pub fn set_state(&mut self, slot: usize, pos: V, vel: V) {
        self.change_after_steering();
        self.grid.set(slot, pos, vel);
        self.sorted = false;
        self.changed_since_integrate = true;
    }

    /// Sets what moves the bird in `slot` besides the flock.
    pub fn set_flags(&mut self, slot: usize, flags: BirdFlags) {
        self.change_after_steering();
        self.flags[slot] = flags;
    }

    /// The solids a 3D flock flies round and never enters (ignored by a 2D flock); the flock
    /// keeps its own copy, replaced only when they differ.
    pub fn set_solids(&mut self, solids: &[Solid]) {
        if self.solids != solids {
            self.change_after_steering();
            self.solids.clear();
            self.solids.extend_from_slice(solids);
        }
    }

    /// The solids the flock flies round.
    pub fn solids(&self) -> &[Solid] {
        &self.solids
    }

    /// The first phase, `CollectNeighbours`: sorts the birds into cells (each cell's birds by
    /// id); slots change, ids and flags go with their birds.
    pub fn sort(&mut self, params: &FlockParams) {
        V::sorted_sort(self, params)
    }

    /// The body of [`Self::sort`], compiled in this crate for each space (see
    /// [`crate::space::Compiled`]).
    pub(crate) fn sort_here(&mut self, params: &FlockParams) {
        self.sort_with(params, |_, _| {});
    }

    /// [`SortedFlock::sort`], calling `on_slot(slot, id)` for every bird's new slot as the ids
    /// are moved (an index of slots by id kept up to date in the same pass).
    pub fn sort_with(&mut self, params: &FlockParams, on_slot: impl Fn(usize, u32) + Sync) {
        // A move worked out but never taken (the tick ended without one) is dropped.
        if let Some(ahead) = self.ahead.take() {
            self.grid.return_spare(ahead.columns, ahead.cells);
        }
        let c = self.grid.columns();
        let bounds = grid_bounds(params, (0..c.len()).map(|k| c.pos_of(k)));
        self.grid
            .resort(&bounds, params.model.interaction_radius(), &self.ids);
        let order = self.grid.order();
        let n = order.len();
        std::mem::swap(&mut self.ids, &mut self.ids_before);
        std::mem::swap(&mut self.flags, &mut self.spare_flags);
        let (before, old_flags) = (&self.ids_before, &self.spare_flags);
        self.ids.resize(n, 0);
        self.flags.resize(n, BirdFlags::NONE);
        let one = |(chunk, (ids, flags)): (usize, (&mut [u32], &mut [BirdFlags]))| {
            let first = chunk * CHUNK;
            for (i, (id, flag)) in ids.iter_mut().zip(flags.iter_mut()).enumerate() {
                let from = order[first + i] as usize;
                (*id, *flag) = (before[from], old_flags[from]);
                on_slot(first + i, *id);
            }
        };
        if n >= PARALLEL_FROM {
            self.ids
                .par_chunks_mut(CHUNK)
                .zip(self.flags.par_chunks_mut(CHUNK))
                .enumerate()
                .for_each(one);
        } else {
            self.ids
                .chunks_mut(CHUNK)
                .zip(self.flags.chunks_mut(CHUNK))
                .enumerate()
                .for_each(one);
        }
        // (The accelerations are sized by `steer`: the fused step keeps them on the stack.)
        self.neighbours.resize(n, 0);
        self.sorted = true;
        self.changed_since_integrate = true;
    }

    /// What the models need besides the neighbourhood; the flock must be sorted.
    fn context<'a>(&self, ids_before: &'a [u32], params: &FlockParams) -> SteerContext<'a, V> {
        assert!(self.sorted, "sort the flock before steering it");
        SteerContext {
            tick: self.tick,
            seed: self.seed,
            cap: params.cap(),
            view_min_cos: params.view_min_cos(),
            // The models look ids up through the grid's order, by the index before the sort.
            ids: ids_before,
            block: None,
        }
    }

    /// The `Steer` phase: every bird's acceleration from its model (replacing the last tick's)
    /// and the number of neighbours it considered.
    ///
    /// Unless the accelerations were changed between the steering and the move last tick (by
    /// [`SortedFlock::acc_mut`], leaders, predators, turning edges or birds changed), the move
    /// is worked out here too, bird by bird in the same pass, as [`SortedFlock::step`] does it;
    /// [`SortedFlock::integrate`] then takes it, should nothing change in between (else it is
    /// dropped and the move done afresh). The same bits either way; a pass over the birds and
    /// their accelerations saved.
    pub fn steer(&mut self, params: &FlockParams) {
        V::sorted_steer(self, params)
    }

    /// The body of [`Self::steer`], compiled in this crate for each space (see
    /// [`crate::space::Compiled`]).
    pub(crate) fn steer_here(&mut self, params: &FlockParams) {
        if let Some(ahead) = self.ahead.take() {
            self.grid.return_spare(ahead.columns, ahead.cells);
        }
        self.changed_after_steering = false;
        self.acc.resize(self.len(), V::ZERO);
        if !self.changed_after_steering_last_tick
            && params.edges.mode != EdgeMode::Turn
            && self.solids.is_empty()
        {
            self.steer_and_move(params);
            return;
        }
        let ctx = self.context(&self.ids_before, params);
        let grid = &self.grid;
        let one = |(chunk, (acc, neighbours)): (usize, (&mut [V], &mut [u32]))| {
            let first = chunk * CHUNK;
            steer_run(
                grid,
                params,
                &ctx,
                first,
                first + acc.len(),
                |k, a, count| {
                    acc[k - first] = a;
                    neighbours[k - first] = count;
                },
            );
        };
        if grid.len() >= PARALLEL_FROM {
            self.acc
                .par_chunks_mut(CHUNK)
                .zip(self.neighbours.par_chunks_mut(CHUNK))
                .enumerate()
                .for_each(one);
        } else {
            self.acc
                .chunks_mut(CHUNK)
                .zip(self.neighbours.chunks_mut(CHUNK))
                .enumerate()
                .for_each(one);
        }
    }

    /// [`SortedFlock::steer`] with the move worked out in the same pass, kept for
    /// [`SortedFlock::integrate`].
    fn steer_and_move(&mut self, params: &FlockParams) {
        let mut spare = self.grid.take_spare();
        let mut cells = self.grid.take_spare_cells();
        let shared = StepShared {
            ctx: self.context(&self.ids_before, params),
            grid: &self.grid,
            params,
            leaders: &[],
            predators: &[],
            solids: &[],
            flags: &self.flags,
        };
        let n = self.grid.len();
        let parallel = n >= PARALLEL_FROM;
        let columns = ColumnParts::new(&mut spare);
        let (cell_parts, neighbour_parts) =
            (Parts::new(&mut cells), Parts::new(&mut self.neighbours));
        // SAFETY: `MaybeUninit<V>` has `V`'s layout, and only initialised values are written
        // through it (the steering of every bird of each chunk).
        let acc_parts = Parts::new(unsafe {
            &mut *(self.acc.as_mut_slice() as *mut [V] as *mut [MaybeUninit<V>])
        });
        for_each_chunk(parallel, n, CHUNK, |chunk| {
            // SAFETY: each chunk index comes once, so every chunk's slices are its own.
            let out = unsafe {
                ChunkOut {
                    first: chunk * CHUNK,
                    columns: columns.chunk(chunk, CHUNK),
                    cells: cell_parts.chunk(chunk, CHUNK),
                    neighbours: neighbour_parts.chunk(chunk, CHUNK),
                }
            };
            // SAFETY: as above.
            let steering = unsafe { acc_parts.chunk(chunk, CHUNK) };
            steer_and_move_chunk(&shared, out, steering);
        });
        self.ahead = Some(Ahead {
            columns: spare,
            cells,
            // (No allocation: the parameters hold no heap memory.)
            params: params.clone(),
        });
    }

    /// Part of the `FollowLeader` phase: adds each leader's pull (or push).
    pub fn follow_leaders(&mut self, params: &FlockParams, leaders: &[LeaderState<V>]) {
        V::sorted_follow_leaders(self, params, leaders)
    }

    /// The body of [`Self::follow_leaders`], compiled in this crate for each space (see
    /// [`crate::space::Compiled`]).
    pub(crate) fn follow_leaders_here(&mut self, params: &FlockParams, leaders: &[LeaderState<V>]) {
        if leaders.is_empty() {
            return;
        }
        self.change_after_steering();
        let world = params.bounds_in::<V>();
        let speed = params.model.cruise_speed();
        let grid = &self.grid;
        for_each_acc(&mut self.acc, |k, a| {
            let (p, v) = (grid.pos(k), grid.vel(k));
            for leader in leaders {
                *a += leader.params.steer(world.delta(p, leader.pos), v, speed);
            }
        });
    }

    /// Part of the `FollowLeader` phase, after the leaders: birds within a predator's range
    /// turn away from it.
    pub fn flee_predators(&mut self, params: &FlockParams, predators: &[PredatorState<V>]) {
        V::sorted_flee_predators(self, params, predators)
    }

    /// The body of [`Self::flee_predators`], compiled in this crate for each space (see
    /// [`crate::space::Compiled`]).
    pub(crate) fn flee_predators_here(
        &mut self,
        params: &FlockParams,
        predators: &[PredatorState<V>],
    ) {
        if predators.is_empty() {
            return;
        }
        self.change_after_steering();
        let world = params.bounds_in::<V>();
        let grid = &self.grid;
        for_each_acc(&mut self.acc, |k, a| {
            let p = grid.pos(k);
            for predator in predators {
                *a += predator.params.flee(world.delta(predator.pos, p));
            }
        });
    }

    /// The `AvoidObstacles` phase of a 3D flock: birds with a solid ahead (see
    /// [`SortedFlock::set_solids`]) steer for the nearest clear heading. Piloted birds are left
    /// alone.
    pub fn avoid_solids(&mut self, params: &FlockParams) {
        V::sorted_avoid_solids(self, params)
    }

    /// The body of [`Self::avoid_solids`], compiled in this crate for each space (see
    /// [`crate::space::Compiled`]).
    pub(crate) fn avoid_solids_here(&mut self, params: &FlockParams) {
        if self.solids.is_empty() || V::DIM != 3 {
            return;
        }
        self.change_after_steering();
        let (near, cruise) = (params.model.near_radius(), params.model.cruise_speed());
        let (grid, solids, flags) = (&self.grid, &self.solids, &self.flags);
        for_each_acc(&mut self.acc, |k, a| {
            if !flags[k].piloted() {
                let (p, v) = (grid.pos(k), grid.vel(k));
                *a += avoid(solids, &params.avoidance, near, cruise, p, v, *a);
            }
        });
    }

    /// The `TurnAtEdges` phase: birds inside the margin turn back (`turn` edges only).
    pub fn turn_at_edges(&mut self, params: &FlockParams) {
        V::sorted_turn_at_edges(self, params)
    }

    /// The body of [`Self::turn_at_edges`], compiled in this crate for each space (see
    /// [`crate::space::Compiled`]).
    pub(crate) fn turn_at_edges_here(&mut self, params: &FlockParams) {
        if params.edges.mode != EdgeMode::Turn {
            return;
        }
        self.change_after_steering();
        let world = params.bounds_in::<V>();
        let grid = &self.grid;
        for_each_acc(&mut self.acc, |k, a| {
            *a += params.edges.turn_acceleration(&world, grid.pos(k))
        });
    }

    /// The `Integrate` phase: velocity from acceleration (the model's speed rules), position,
    /// then the world's edges, in place; piloted birds keep their state. Slots stay as they are
    /// (the next sort moves birds into their new cells, worked out here); the tick ends.
    pub fn integrate(&mut self, params: &FlockParams) {
        V::sorted_integrate(self, params)
    }

    /// The body of [`Self::integrate`], compiled in this crate for each space (see
    /// [`crate::space::Compiled`]).
    pub(crate) fn integrate_here(&mut self, params: &FlockParams) {
        self.integrate_with(params, |_, _, _, _, _| {});
    }

    /// [`SortedFlock::integrate`], calling `on_bird(slot, id, position, velocity, neighbours)`
    /// with every bird's new state as it is written (handing it on in the same pass).
    pub fn integrate_with(
        &mut self,
        params: &FlockParams,
        on_bird: impl Fn(usize, u32, V, V, u32) + Sync,
    ) {
        assert_eq!(
            self.acc.len(),
            self.len(),
            "steer the flock before moving it"
        );
        self.changed_after_steering_last_tick = self.changed_after_steering;
        if let Some(ahead) = self.ahead.take() {
            if ahead.params == *params {
                // The move worked out with the steering holds: nothing changed since.
                self.grid
                    .replace_columns_with_cells(ahead.columns, ahead.cells);
                let c = self.grid.columns();
                for (k, (&id, &count)) in self.ids.iter().zip(&self.neighbours).enumerate() {
                    let (pos, vel) = c.get(k);
                    on_bird(k, id, pos, vel, count);
                }
                self.tick += 1;
                self.changed_since_integrate = false;
                return;
            }
            // Other parameters than the steering's: moved afresh below.
            self.grid.return_spare(ahead.columns, ahead.cells);
            self.changed_after_steering_last_tick = true;
        }
        let world = params.bounds_in::<V>();
        let layout = *self.grid.layout();
        let (acc, flags, ids, neighbours) = (&self.acc, &self.flags, &self.ids, &self.neighbours);
        let solids = &self.solids;
        let n = acc.len();
        let parallel = n >= PARALLEL_FROM;
        // Every bird's new cell is written below, so the next sort can skip working them out.
        let (cols, cells) = self.grid.columns_and_cells_mut();
        let columns = ColumnParts::new(cols);
        let cell_parts = Parts::new(cells);
        for_each_chunk(parallel, n, CHUNK, |chunk| {
            let first = chunk * CHUNK;
            // SAFETY: each chunk index comes once, so every chunk's slices are its own.
            let (ChunkColumns { pos, vel }, cells) =
                unsafe { (columns.chunk(chunk, CHUNK), cell_parts.chunk(chunk, CHUNK)) };
            let len = cells.len();
            for at in (0..len).step_by(LANES) {
                let m = (len - at).min(LANES);
                let mut lanes =
                    lanes_of::<V>(&pos, &vel, at..at + m, &acc[first + at..first + at + m]);
                crate::sim::integrate_lanes(params, &world, solids, m, &mut lanes);
                let cell = layout.cell_indices(&lanes.p);
                for l in 0..m {
                    let k = at + l;
                    let slot = first + k;
                    let mut p = V::ZERO;
                    let mut v = V::ZERO;
                    if flags[slot].piloted() {
                        // Left as it is; its cell is that of where it stays.
                        for a in 0..V::DIM {
                            *p.axis_mut(a) = pos[a][k];
                            *v.axis_mut(a) = vel[a][k];
                        }
                        cells[k] = layout.cell_index(world.wrap(p)) as u32;
                    } else {
                        for a in 0..V::DIM {
                            (pos[a][k], vel[a][k]) = (lanes.p[a][l], lanes.v[a][l]);
                        }
                        (p, v) = (lanes.pos(l), lanes.vel(l));
                        cells[k] = cell[l];
                    }
                    on_bird(slot, ids[slot], p, v, neighbours[slot]);
                }
            }
        });
        self.tick += 1;
        self.changed_since_integrate = false;
    }

    /// True when birds were added, removed, sorted or moved by [`SortedFlock::set_state`] since
    /// the last [`SortedFlock::integrate`] (so what it handed on is out of date).
    pub fn changed_since_integrate(&self) -> bool {
        self.changed_since_integrate
    }

    /// One whole tick, the phases fused into one pass over the sorted birds (steering, leaders,
    /// predators, solids, edges, then the move, a chunk of birds at a time): the same bits as
    /// [`SortedFlock::sort`], [`SortedFlock::steer`], [`SortedFlock::follow_leaders`],
    /// [`SortedFlock::flee_predators`], [`SortedFlock::avoid_solids`],
    /// [`SortedFlock::turn_at_edges`] and [`SortedFlock::integrate`] one after the other.
    pub fn step(
        &mut self,
        params: &FlockParams,
        leaders: &[LeaderState<V>],
        predators: &[PredatorState<V>],
    ) {
        V::sorted_step(self, params, leaders, predators)
    }

    /// The body of [`Self::step`], compiled in this crate for each space (see
    /// [`crate::space::Compiled`]).
    pub(crate) fn step_here(
        &mut self,
        params: &FlockParams,
        leaders: &[LeaderState<V>],
        predators: &[PredatorState<V>],
    ) {
        self.sort(params);
        let mut spare = self.grid.take_spare();
        let mut cells = self.grid.take_spare_cells();
        let shared = StepShared {
            ctx: self.context(&self.ids_before, params),
            grid: &self.grid,
            params,
            leaders,
            predators,
            solids: &self.solids,
            flags: &self.flags,
        };
        let n = self.grid.len();
        let parallel = n >= PARALLEL_FROM;
        let columns = ColumnParts::new(&mut spare);
        let (cell_parts, neighbour_parts) =
            (Parts::new(&mut cells), Parts::new(&mut self.neighbours));
        for_each_chunk(parallel, n, CHUNK, |chunk| {
            // Not cleared (a good part of a small flock's tick): the steering writes every entry
            // of the chunk before the move reads it.
            let mut steering = [std::mem::MaybeUninit::<V>::uninit(); CHUNK];
            // SAFETY: each chunk index comes once, so every chunk's slices are its own.
            let out = unsafe {
                ChunkOut {
                    first: chunk * CHUNK,
                    columns: columns.chunk(chunk, CHUNK),
                    cells: cell_parts.chunk(chunk, CHUNK),
                    neighbours: neighbour_parts.chunk(chunk, CHUNK),
                }
            };
            steer_and_move_chunk(&shared, out, &mut steering);
        });
        self.grid.replace_columns_with_cells(spare, cells);
        self.tick += 1;
        self.changed_since_integrate = true;
    }

    /// Fingerprint of positions and velocities ordered by bird id.
    pub fn state_hash(&self) -> u64 {
        let (pos, vel) = self.state_by_id();
        state_hash(&pos, &vel)
    }

    /// Positions and velocities ordered by bird id.
    pub fn state_by_id(&self) -> (Vec<V>, Vec<V>) {
        let c = self.grid.columns();
        let mut by_id: Vec<(u32, V, V)> = (0..self.len())
            .map(|k| {
                let (p, v) = c.get(k);
                (self.ids[k], p, v)
            })
            .collect();
        by_id.sort_unstable_by_key(|b| b.0);
        by_id.into_iter().map(|(_, p, v)| (p, v)).unzip()
    }
}

/// What every chunk of a steering-and-move pass reads.
struct StepShared<'a, V: Vector> {
    ctx: SteerContext<'a, V>,
    grid: &'a NeighbourGrid<V>,
    params: &'a FlockParams,
    leaders: &'a [LeaderState<V>],
    predators: &'a [PredatorState<V>],
    solids: &'a [Solid],
    flags: &'a [BirdFlags],
}

/// Where one chunk of a steering-and-move pass writes: the new state, cells and neighbour
/// counts of the sorted birds from `first` on.
struct ChunkOut<'a> {
    first: usize,
    columns: ChunkColumns<'a>,
    cells: &'a mut [u32],
    neighbours: &'a mut [u32],
}

/// One chunk of the tick's phases fused: the steering of every bird of the chunk into
/// `steering` first, then the leaders', predators', solids' and edges' pulls and the move,
/// eight birds at a time, whose square roots and divisions then overlap from bird to bird.
#[inline(always)]
fn steer_and_move_chunk<V: Vector>(
    s: &StepShared<V>,
    out: ChunkOut,
    steering: &mut [MaybeUninit<V>],
) {
    let ChunkOut {
        first,
        columns: ChunkColumns { pos, vel },
        cells,
        neighbours,
    } = out;
    let (grid, params, flags) = (s.grid, s.params, s.flags);
    let layout = *grid.layout();
    let world = params.bounds_in::<V>();
    let speed = params.model.cruise_speed();
    let turn = params.edges.mode == EdgeMode::Turn;
    let (near, solids) = (params.model.near_radius(), s.solids);
    let extra_steering =
        !s.leaders.is_empty() || !s.predators.is_empty() || !solids.is_empty() || turn;
    let len = cells.len();
    let end = first + len;
    steer_run(grid, params, &s.ctx, first, end, |k, a, count| {
        steering[k - first].write(a);
        neighbours[k - first] = count;
    });
    // SAFETY: `steer_run` hands over every slot of `first..end` (it walks the range cell
    // run by cell run to its end), so the first `len` entries are written.
    let steering: &[V] = unsafe { std::slice::from_raw_parts(steering.as_ptr().cast(), len) };
    let c = grid.columns();
    let source_pos: [&[f32]; 3] = std::array::from_fn(|a| c.pos[a].as_slice());
    let source_vel: [&[f32]; 3] = std::array::from_fn(|a| c.vel[a].as_slice());
    for at in (0..len).step_by(LANES) {
        let m = (len - at).min(LANES);
        let (from, to) = (first + at, first + at + m);
        let mut lanes = lanes_of::<V>(&source_pos, &source_vel, from..to, &steering[at..at + m]);
        if extra_steering {
            for l in 0..m {
                let (p, v) = (lanes.pos::<V>(l), lanes.vel::<V>(l));
                let mut a = lanes.acc::<V>(l);
                // In the order of the phases.
                for leader in s.leaders {
                    a += leader.params.steer(world.delta(p, leader.pos), v, speed);
                }
                for predator in s.predators {
                    a += predator.params.flee(world.delta(predator.pos, p));
                }
                if !solids.is_empty() && !flags[from + l].piloted() {
                    a += avoid(solids, &params.avoidance, near, speed, p, v, a);
                }
                if turn {
                    a += params.edges.turn_acceleration(&world, p);
                }
                lanes.set_acc(l, a);
            }
        }
        crate::sim::integrate_lanes(params, &world, solids, m, &mut lanes);
        // The next sort's work, done while the birds are at hand: their cells, should
        // the grid keep its layout (positions on a torus are wrapped already).
        let cell = layout.cell_indices(&lanes.p);
        for l in 0..m {
            let k = at + l;
            if flags[from + l].piloted() {
                let (p, v) = c.get(from + l);
                for a in 0..V::DIM {
                    (pos[a][k], vel[a][k]) = (p.axis(a), v.axis(a));
                }
                cells[k] = layout.cell_index(world.wrap(p)) as u32;
                continue;
            }
            for a in 0..V::DIM {
                (pos[a][k], vel[a][k]) = (lanes.p[a][l], lanes.v[a][l]);
            }
            cells[k] = cell[l];
        }
    }
}

/// Up to eight birds as the move takes them: lanes of their positions and velocities
/// (`pos[a][birds]`, `vel[a][birds]`) and accelerations (`acc`, one per bird, at most
/// [`LANES`]); the lanes beyond them zero.
#[inline(always)]
fn lanes_of<V: Vector>(
    pos: &[impl AsRef<[f32]>; 3],
    vel: &[impl AsRef<[f32]>; 3],
    birds: std::ops::Range<usize>,
    acc: &[V],
) -> Group {
    let m = acc.len();
    let mut lanes = Group::default();
    for a in 0..V::DIM {
        lanes.p[a][..m].copy_from_slice(&pos[a].as_ref()[birds.clone()]);
    }
    for a in 0..V::DIM {
        lanes.v[a][..m].copy_from_slice(&vel[a].as_ref()[birds.clone()]);
    }
    for (l, a) in acc.iter().enumerate() {
        lanes.set_acc(l, *a);
    }
    lanes
}

/// Calls `f(slot, acceleration)` for every bird, on all threads or on this one.
fn for_each_acc<V: Vector>(acc: &mut [V], f: impl Fn(usize, &mut V) + Sync) {
    if acc.len() < PARALLEL_FROM {
        acc.iter_mut().enumerate().for_each(|(k, a)| f(k, a));
    } else {
        acc.par_iter_mut()
            .with_min_len(CHUNK)
            .enumerate()
            .for_each(|(k, a)| f(k, a));
    }
}

/// Steers the sorted birds `first..end` (cells in order; a cell may start before `first` or
/// end after `end`), handing each slot's acceleration and neighbour count to `out`.
#[inline]
fn steer_run<V: Vector>(
    grid: &NeighbourGrid<V>,
    params: &FlockParams,
    ctx: &SteerContext<V>,
    first: usize,
    end: usize,
    mut out: impl FnMut(usize, V, u32),
) {
    // Models that steer by sums have them taken a cell at a time (not under a cap, which counts
    // neighbours in visiting order, bird by bird).
    let request = params
        .model
        .sums_request()
        .filter(|_| ctx.cap == usize::MAX);
    let Some(request) = request else {
        let mut k = first;
        while k < end {
            // Birds arrive in cell order: each cell's block is built once for its birds.
            let cell = grid.cell_of(k);
            let block = grid.block(cell);
            let run_end = grid.cell_range(cell).end.clamp(k + 1, end);
            let ctx = SteerContext {
                block: Some(&block),
                ..*ctx
            };
            for i in k..run_end {
                let (a, count) = params.model.steer(grid, i, &ctx);
                out(i, a, count);
            }
            k = run_end;
        }
        return;
    };
    let mut sums = [NeighbourSums::default(); BATCH];
    let mut k = first;
    while k < end {
        // The sums of a batch of birds first, a cell's birds in one pass over its block (built
        // once), then their steering: each bird's divisions and square roots no longer wait
        // for its sums, so consecutive birds' overlap.
        let batch_end = (k + BATCH).min(end);
        grid.sums_in_order(
            k..batch_end,
            request,
            ctx.view_min_cos,
            &mut sums[..batch_end - k],
        );
        params
            .model
            .steer_run_by_sums(grid, k, &sums[..batch_end - k], ctx, &mut out);
        k = batch_end;
    }
}
