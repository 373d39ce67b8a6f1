//! [`SortedFlock`]: a flock's birds kept in the neighbour grid's cell order from tick to tick,
//! each cell's birds by id, with the tick's phases as passes over them. [`crate::fast::FastFlock`]
//! runs the phases fused into one pass; the Bevy plugins run them one system at a time, so that
//! other systems (obstacle avoidance, a game's own) can sit between them, and the steering works
//! the move out in the same pass for the move to take when none of them changed anything. Both
//! give the bits of [`crate::sim::FlockSim`], which sorts columns kept in id order afresh every
//! tick: the order in which a bird's neighbours are summed is the same in all three (cells in a
//! fixed order, each cell's birds by id).

use crate::edges::EdgeMode;
use crate::grid::{Columns, NeighbourGrid, NeighbourSums};
use crate::hash::state_hash;
use crate::lanes::LANES;
use crate::models::SteerContext;
use crate::params::FlockParams;
use crate::predator::PredatorState;
use crate::sim::LeaderState;
use crate::world::WorldBounds;
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

/// One chunk of the four state columns and the cells, with its index.
type ChunkOfColumns<'a> = (usize, ChunkOfState<'a>);

/// The four state columns and the cells of one chunk of birds.
type ChunkOfState<'a> = (
    (
        ((&'a mut [f32], &'a mut [f32]), &'a mut [f32]),
        &'a mut [f32],
    ),
    &'a mut [u32],
);

/// Calls `f` on `(chunk index, nested tuple of the slices' chunks)` for every chunk of
/// [`CHUNK`] slots of the given columns, on all threads or on this one.
macro_rules! for_each_chunk {
    ($parallel:expr, $f:expr, $first:expr $(, $rest:expr)*) => {
        if $parallel {
            $first.par_chunks_mut(CHUNK)$(.zip($rest.par_chunks_mut(CHUNK)))*.enumerate().for_each($f)
        } else {
            $first.chunks_mut(CHUNK)$(.zip($rest.chunks_mut(CHUNK)))*.enumerate().for_each($f)
        }
    };
}

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
/// a bird's id does not.
#[derive(Clone, Debug, Default)]
pub struct SortedFlock {
    grid: NeighbourGrid,
    /// Bird id by slot.
    ids: Vec<u32>,
    /// The ids as they were before the last sort (what [`SteerContext::ids`] wants, with the
    /// grid's order).
    ids_before: Vec<u32>,
    flags: Vec<BirdFlags>,
    spare_flags: Vec<BirdFlags>,
    acc: Vec<Vec2>,
    neighbours: Vec<u32>,
    /// Nothing was added, removed or moved since the last sort, so slots are in cell order and
    /// the grid's order relates them to `ids_before`.
    sorted: bool,
    /// See [`SortedFlock::changed_since_integrate`].
    changed_since_integrate: bool,
    /// The move worked out with the steering (see [`SortedFlock::steer`]), for
    /// [`SortedFlock::integrate`] to take.
    ahead: Option<Ahead>,
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
struct Ahead {
    columns: Columns,
    cells: Vec<u32>,
    /// The parameters it was worked out with.
    params: FlockParams,
}

impl SortedFlock {
    /// An empty flock whose randomness (wandering directions) follows `seed`.
    pub fn new(seed: u64) -> Self {
        Self {
            seed,
            ..Self::default()
        }
    }

    /// Birds with ids `0..n` at the given positions and velocities.
    pub fn from_state(pos: &[Vec2], vel: &[Vec2], seed: u64) -> Self {
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
    pub fn grid(&self) -> &NeighbourGrid {
        &self.grid
    }

    /// The birds' positions and velocities, by slot.
    pub fn columns(&self) -> &Columns {
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
    pub fn acc(&self) -> &[Vec2] {
        &self.acc
    }

    /// This tick's accelerations, to add to (obstacle avoidance and other steering).
    pub fn acc_mut(&mut self) -> &mut [Vec2] {
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
    pub fn pos(&self, slot: usize) -> Vec2 {
        self.grid.pos(slot)
    }

    /// Velocity of the bird in `slot`.
    #[inline]
    pub fn vel(&self, slot: usize) -> Vec2 {
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
    pub fn push(&mut self, id: u32, pos: Vec2, vel: Vec2, flags: BirdFlags) {
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
    pub fn set_state(&mut self, slot: usize, pos: Vec2, vel: Vec2) {
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

    /// The bounds the grid covers: the world, or in an open world (`none` edges) wherever the
    /// flock has flown.
    fn grid_bounds(&self, params: &FlockParams) -> WorldBounds {
        let mut bounds = params.bounds();
        if params.edges.mode == EdgeMode::None {
            let c = self.grid.columns();
            let (mut lo, mut hi) = (bounds.min, bounds.max());
            for (&x, &y) in c.px.iter().zip(&c.py) {
                let p = Vec2::new(x, y);
                if p.is_finite() {
                    lo = lo.min(p);
                    hi = hi.max(p);
                }
            }
            bounds.min = lo;
            bounds.size = hi - lo;
        }
        bounds
    }

    /// The first phase, `CollectNeighbours`: sorts the birds into cells (each cell's birds by
    /// id); slots change, ids and flags go with their birds.
    pub fn sort(&mut self, params: &FlockParams) {
        self.sort_with(params, |_, _| {});
    }

    /// [`SortedFlock::sort`], calling `on_slot(slot, id)` for every bird's new slot as the ids
    /// are moved (an index of slots by id kept up to date in the same pass).
    pub fn sort_with(&mut self, params: &FlockParams, on_slot: impl Fn(usize, u32) + Sync) {
        // A move worked out but never taken (the tick ended without one) is dropped.
        if let Some(ahead) = self.ahead.take() {
            self.grid.return_spare(ahead.columns, ahead.cells);
        }
        let bounds = self.grid_bounds(params);
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
        for_each_chunk!(n >= PARALLEL_FROM, &one, self.ids, self.flags);
        // (The accelerations are sized by `steer`: the fused step keeps them on the stack.)
        self.neighbours.resize(n, 0);
        self.sorted = true;
        self.changed_since_integrate = true;
    }

    /// What the models need besides the neighbourhood; the flock must be sorted.
    fn context<'a>(&self, ids_before: &'a [u32], params: &FlockParams) -> SteerContext<'a> {
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
        if let Some(ahead) = self.ahead.take() {
            self.grid.return_spare(ahead.columns, ahead.cells);
        }
        self.changed_after_steering = false;
        self.acc.resize(self.len(), Vec2::ZERO);
        if !self.changed_after_steering_last_tick && params.edges.mode != EdgeMode::Turn {
            self.steer_and_move(params);
            return;
        }
        let ctx = self.context(&self.ids_before, params);
        let grid = &self.grid;
        let one = |(chunk, (acc, neighbours)): (usize, (&mut [Vec2], &mut [u32]))| {
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
        for_each_chunk!(grid.len() >= PARALLEL_FROM, &one, self.acc, self.neighbours);
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
            flags: &self.flags,
        };
        let parallel = self.grid.len() >= PARALLEL_FROM;
        let Columns { px, py, vx, vy } = &mut spare;
        let one = |(chunk, ((((((px, py), vx), vy), cells), neighbours), acc)): (
            usize,
            ((ChunkOfState<'_>, &mut [u32]), &mut [Vec2]),
        )| {
            // SAFETY: `MaybeUninit<Vec2>` has `Vec2`'s layout, and only initialised values are
            // written through it (the steering of every bird of the chunk).
            let steering = unsafe { &mut *(acc as *mut [Vec2] as *mut [MaybeUninit<Vec2>]) };
            let out = ChunkOut {
                first: chunk * CHUNK,
                px,
                py,
                vx,
                vy,
                cells,
                neighbours,
            };
            steer_and_move_chunk(&shared, out, steering);
        };
        for_each_chunk!(
            parallel,
            &one,
            px,
            py,
            vx,
            vy,
            cells,
            self.neighbours,
            self.acc
        );
        self.ahead = Some(Ahead {
            columns: spare,
            cells,
            // (No allocation: the parameters hold no heap memory.)
            params: params.clone(),
        });
    }

    /// Part of the `FollowLeader` phase: adds each leader's pull (or push).
    pub fn follow_leaders(&mut self, params: &FlockParams, leaders: &[LeaderState]) {
        if leaders.is_empty() {
            return;
        }
        self.change_after_steering();
        let world = params.bounds();
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
    pub fn flee_predators(&mut self, params: &FlockParams, predators: &[PredatorState]) {
        if predators.is_empty() {
            return;
        }
        self.change_after_steering();
        let world = params.bounds();
        let grid = &self.grid;
        for_each_acc(&mut self.acc, |k, a| {
            let p = grid.pos(k);
            for predator in predators {
                *a += predator.params.flee(world.delta(predator.pos, p));
            }
        });
    }

    /// The `TurnAtEdges` phase: birds inside the margin turn back (`turn` edges only).
    pub fn turn_at_edges(&mut self, params: &FlockParams) {
        if params.edges.mode != EdgeMode::Turn {
            return;
        }
        self.change_after_steering();
        let world = params.bounds();
        let grid = &self.grid;
        for_each_acc(&mut self.acc, |k, a| {
            *a += params.edges.turn_acceleration(&world, grid.pos(k))
        });
    }

    /// The `Integrate` phase: velocity from acceleration (the model's speed rules), position,
    /// then the world's edges, in place; piloted birds keep their state. Slots stay as they are
    /// (the next sort moves birds into their new cells, worked out here); the tick ends.
    pub fn integrate(&mut self, params: &FlockParams) {
        self.integrate_with(params, |_, _, _, _, _| {});
    }

    /// [`SortedFlock::integrate`], calling `on_bird(slot, id, position, velocity, neighbours)`
    /// with every bird's new state as it is written (handing it on in the same pass).
    pub fn integrate_with(
        &mut self,
        params: &FlockParams,
        on_bird: impl Fn(usize, u32, Vec2, Vec2, u32) + Sync,
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
        let world = params.bounds();
        let layout = *self.grid.layout();
        let (acc, flags, ids, neighbours) = (&self.acc, &self.flags, &self.ids, &self.neighbours);
        let parallel = acc.len() >= PARALLEL_FROM;
        // Every bird's new cell is written below, so the next sort can skip working them out.
        let (cols, cells) = self.grid.columns_and_cells_mut();
        let Columns { px, py, vx, vy } = cols;
        let one = |(chunk, ((((px, py), vx), vy), cells)): ChunkOfColumns| {
            let first = chunk * CHUNK;
            for at in (0..px.len()).step_by(LANES) {
                let m = (px.len() - at).min(LANES);
                let mut lane = lanes_of(
                    [&*px, &*py, &*vx, &*vy],
                    at..at + m,
                    &acc[first + at..first + at + m],
                );
                crate::sim::integrate_lanes(params, &world, m, &mut lane);
                let [x, y, u, w, ..] = &lane;
                let cell = layout.cell_indices(x, y);
                for l in 0..m {
                    let k = at + l;
                    let slot = first + k;
                    if flags[slot].piloted() {
                        // Left as it is; its cell is that of where it stays.
                        let p = world.wrap(Vec2::new(px[k], py[k]));
                        cells[k] = layout.cell_index(p) as u32;
                    } else {
                        (px[k], py[k], vx[k], vy[k]) = (x[l], y[l], u[l], w[l]);
                        cells[k] = cell[l];
                    }
                    on_bird(
                        slot,
                        ids[slot],
                        Vec2::new(px[k], py[k]),
                        Vec2::new(vx[k], vy[k]),
                        neighbours[slot],
                    );
                }
            }
        };
        for_each_chunk!(parallel, &one, px, py, vx, vy, cells);
        self.tick += 1;
        self.changed_since_integrate = false;
    }

    /// True when birds were added, removed, sorted or moved by [`SortedFlock::set_state`] since
    /// the last [`SortedFlock::integrate`] (so what it handed on is out of date).
    pub fn changed_since_integrate(&self) -> bool {
        self.changed_since_integrate
    }

    /// One whole tick, the phases fused into one pass over the sorted birds (steering, leaders,
    /// predators, edges, then the move, a chunk of birds at a time): the same bits as
    /// [`SortedFlock::sort`], [`SortedFlock::steer`], [`SortedFlock::follow_leaders`],
    /// [`SortedFlock::flee_predators`], [`SortedFlock::turn_at_edges`] and
    /// [`SortedFlock::integrate`] one after the other.
    pub fn step(
        &mut self,
        params: &FlockParams,
        leaders: &[LeaderState],
        predators: &[PredatorState],
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
            flags: &self.flags,
        };
        let parallel = self.grid.len() >= PARALLEL_FROM;
        let Columns { px, py, vx, vy } = &mut spare;
        let one = |(chunk, (((((px, py), vx), vy), cells), neighbours)): (
            usize,
            (ChunkOfState<'_>, &mut [u32]),
        )| {
            // Not cleared (8 KiB a chunk, a good part of a small flock's tick): the steering
            // writes every entry of the chunk before the move reads it.
            let mut steering = [std::mem::MaybeUninit::<Vec2>::uninit(); CHUNK];
            let out = ChunkOut {
                first: chunk * CHUNK,
                px,
                py,
                vx,
                vy,
                cells,
                neighbours,
            };
            steer_and_move_chunk(&shared, out, &mut steering);
        };
        for_each_chunk!(parallel, &one, px, py, vx, vy, cells, self.neighbours);
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
    pub fn state_by_id(&self) -> (Vec<Vec2>, Vec<Vec2>) {
        let c = self.grid.columns();
        let mut by_id: Vec<(u32, Vec2, Vec2)> = (0..self.len())
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
struct StepShared<'a> {
    ctx: SteerContext<'a>,
    grid: &'a NeighbourGrid,
    params: &'a FlockParams,
    leaders: &'a [LeaderState],
    predators: &'a [PredatorState],
    flags: &'a [BirdFlags],
}

/// Where one chunk of a steering-and-move pass writes: the new state, cells and neighbour
/// counts of the sorted birds from `first` on.
struct ChunkOut<'a> {
    first: usize,
    px: &'a mut [f32],
    py: &'a mut [f32],
    vx: &'a mut [f32],
    vy: &'a mut [f32],
    cells: &'a mut [u32],
    neighbours: &'a mut [u32],
}

/// One chunk of the tick's phases fused: the steering of every bird of the chunk into
/// `steering` first, then the leaders', predators' and edges' pulls and the move, eight birds
/// at a time, whose square roots and divisions then overlap from bird to bird.
#[inline(always)]
fn steer_and_move_chunk(s: &StepShared, out: ChunkOut, steering: &mut [MaybeUninit<Vec2>]) {
    let ChunkOut {
        first,
        px,
        py,
        vx,
        vy,
        cells,
        neighbours,
    } = out;
    let (grid, params, flags) = (s.grid, s.params, s.flags);
    let layout = *grid.layout();
    let world = params.bounds();
    let speed = params.model.cruise_speed();
    let turn = params.edges.mode == EdgeMode::Turn;
    let extra_steering = !s.leaders.is_empty() || !s.predators.is_empty() || turn;
    let end = first + px.len();
    steer_run(grid, params, &s.ctx, first, end, |k, a, count| {
        steering[k - first].write(a);
        neighbours[k - first] = count;
    });
    // SAFETY: `steer_run` hands over every slot of `first..end` (it walks the range cell
    // run by cell run to its end), so the first `px.len()` entries are written.
    let steering: &[Vec2] =
        unsafe { std::slice::from_raw_parts(steering.as_ptr().cast(), px.len()) };
    let c = grid.columns();
    for at in (0..px.len()).step_by(LANES) {
        let m = (px.len() - at).min(LANES);
        let (from, to) = (first + at, first + at + m);
        let mut lane = lanes_of(
            [&c.px, &c.py, &c.vx, &c.vy],
            from..to,
            &steering[at..at + m],
        );
        let [x, y, u, w, ax, ay] = &mut lane;
        if extra_steering {
            for l in 0..m {
                let (p, v) = (Vec2::new(x[l], y[l]), Vec2::new(u[l], w[l]));
                let mut a = Vec2::new(ax[l], ay[l]);
                // In the order of the phases.
                for leader in s.leaders {
                    a += leader.params.steer(world.delta(p, leader.pos), v, speed);
                }
                for predator in s.predators {
                    a += predator.params.flee(world.delta(predator.pos, p));
                }
                if turn {
                    a += params.edges.turn_acceleration(&world, p);
                }
                (ax[l], ay[l]) = (a.x, a.y);
            }
        }
        crate::sim::integrate_lanes(params, &world, m, &mut lane);
        let [x, y, u, w, ..] = &lane;
        // The next sort's work, done while the birds are at hand: their cells, should
        // the grid keep its layout (positions on a torus are wrapped already).
        let cell = layout.cell_indices(x, y);
        for l in 0..m {
            let k = at + l;
            if flags[from + l].piloted() {
                let p = world.wrap(Vec2::new(c.px[from + l], c.py[from + l]));
                (px[k], py[k]) = (c.px[from + l], c.py[from + l]);
                (vx[k], vy[k]) = (c.vx[from + l], c.vy[from + l]);
                cells[k] = layout.cell_index(p) as u32;
                continue;
            }
            (px[k], py[k], vx[k], vy[k]) = (x[l], y[l], u[l], w[l]);
            cells[k] = cell[l];
        }
    }
}

/// Up to eight birds as the move takes them: lanes of x, y, vx, vy (`columns[birds]`) and the
/// acceleration's x and y (`acc`, one per bird, at most [`LANES`]); the lanes beyond them zero.
#[inline(always)]
fn lanes_of(
    columns: [&[f32]; 4],
    birds: std::ops::Range<usize>,
    acc: &[Vec2],
) -> [[f32; LANES]; 6] {
    let m = acc.len();
    let mut lane = [[0.0f32; LANES]; 6];
    for (lane, column) in lane.iter_mut().zip(columns) {
        lane[..m].copy_from_slice(&column[birds.clone()]);
    }
    let [.., ax, ay] = &mut lane;
    for (l, a) in acc.iter().enumerate() {
        (ax[l], ay[l]) = (a.x, a.y);
    }
    lane
}

/// Calls `f(slot, acceleration)` for every bird, on all threads or on this one.
fn for_each_acc(acc: &mut [Vec2], f: impl Fn(usize, &mut Vec2) + Sync) {
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
fn steer_run(
    grid: &NeighbourGrid,
    params: &FlockParams,
    ctx: &SteerContext,
    first: usize,
    end: usize,
    mut out: impl FnMut(usize, Vec2, u32),
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
