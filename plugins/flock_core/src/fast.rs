//! [`FastFlock`]: the same five phases as [`crate::sim::FlockSim`], laid out for speed. The
//! boids live in the neighbour grid's own columns, kept in cell order from tick to tick; each
//! tick re-sorts them in place (nearly sequential memory traffic, since boids move little) and
//! then one parallel pass over the sorted boids steers (a cell's boids summed together),
//! follows leaders, turns at edges and integrates (eight boids at a time), writing the new state
//! and next tick's cells into the grid's spare columns. About 54 bytes per boid; no allocation
//! after the first tick. Within a cell boids keep their previous order, so results differ in
//! rounding from `FlockSim` (which keeps input order), but are just as deterministic and
//! independent of the thread count.

use crate::edges::EdgeMode;
use crate::grid::{Columns, NeighbourGrid, NeighbourSums};
use crate::hash::state_hash;
use crate::lanes::LANES;
use crate::metrics::FlockMetrics;
use crate::models::SteerContext;
use crate::sim::{FlockParams, LeaderState, initial_boids};
use glam::Vec2;
use rayon::prelude::*;

/// Boids per parallel work item: large enough to amortise scheduling, small enough to balance.
const CHUNK: usize = 1024;

/// Boids of one cell summed in one call (a buffer on the stack).
const BATCH: usize = 64;

/// A flock stored in cell order for throughput.
#[derive(Clone, Debug)]
pub struct FastFlock {
    /// How the flock behaves.
    pub params: FlockParams,
    /// Leaders the flock reacts to.
    pub leaders: Vec<LeaderState>,
    grid: NeighbourGrid,
    /// Stable ids in the grid's current order.
    ids: Vec<u32>,
    spare_ids: Vec<u32>,
    tick: u64,
    seed: u64,
}

impl FastFlock {
    /// `n` boids placed as [`initial_boids`] places them with `seed`.
    pub fn new(params: FlockParams, n: usize, seed: u64) -> Self {
        let (pos, vel) = initial_boids(&params, n, seed);
        let mut grid = NeighbourGrid::new();
        grid.load(&pos, &vel);
        Self {
            params,
            leaders: Vec::new(),
            grid,
            ids: (0..n as u32).collect(),
            spare_ids: Vec::with_capacity(n),
            tick: 0,
            seed,
        }
    }

    /// Number of boids.
    pub fn len(&self) -> usize {
        self.grid.len()
    }

    /// True without boids.
    pub fn is_empty(&self) -> bool {
        self.grid.is_empty()
    }

    /// Ticks taken.
    pub fn tick(&self) -> u64 {
        self.tick
    }

    /// The grid holding the boids (in cell order as of the last tick).
    pub fn grid(&self) -> &NeighbourGrid {
        &self.grid
    }

    /// Bytes per boid held by the flock's arrays (capacity).
    pub fn bytes_per_boid(&self) -> f64 {
        let n = self.len().max(1) as f64;
        self.grid.bytes_per_boid()
            + 4.0 * (self.ids.capacity() + self.spare_ids.capacity()) as f64 / n
    }

    /// Advances one tick.
    pub fn step(&mut self) {
        let mut bounds = self.params.bounds();
        if self.params.edges.mode == EdgeMode::None {
            // Open world: the grid covers the flock wherever it flew.
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
        self.grid
            .resort(&bounds, self.params.model.interaction_radius());
        let mut spare = self.grid.take_spare();
        let mut cells = self.grid.take_spare_cells();
        let grid = &self.grid;
        let layout = *grid.layout();
        let params = &self.params;
        let world = params.bounds();
        let ctx = SteerContext {
            tick: self.tick,
            seed: self.seed,
            cap: params.cap(),
            view_min_cos: params.view_min_cos(),
            // The models look ids up by the index before the sort.
            ids: &self.ids,
            block: None,
        };
        let speed = params.model.cruise_speed();
        let leaders = &self.leaders;
        // Models that steer by sums have them taken a cell at a time (not under a cap, which
        // counts neighbours in visiting order, boid by boid).
        let request = params
            .model
            .sums_request()
            .filter(|_| ctx.cap == usize::MAX);
        let Columns { px, py, vx, vy } = &mut spare;
        px.par_chunks_mut(CHUNK)
            .zip(py.par_chunks_mut(CHUNK))
            .zip(vx.par_chunks_mut(CHUNK))
            .zip(vy.par_chunks_mut(CHUNK))
            .zip(cells.par_chunks_mut(CHUNK))
            .enumerate()
            .for_each(|(chunk, ((((px, py), vx), vy), cells))| {
                let first = chunk * CHUNK;
                let end = first + px.len();
                // Two passes: the steering of every boid first, then the per-boid updates,
                // whose square roots and divisions then overlap from boid to boid.
                let mut steering = [Vec2::ZERO; CHUNK];
                let mut sums = [NeighbourSums::default(); BATCH];
                let mut k = first;
                while k < end {
                    // Boids arrive in cell order: each cell's block is built once, and the
                    // sums for a cell's boids taken in one pass over it.
                    let cell = grid.cell_of(k);
                    let block = grid.block(cell);
                    let run_end = grid.cell_range(cell).end.clamp(k + 1, end);
                    let ctx = SteerContext {
                        block: Some(&block),
                        ..ctx
                    };
                    match request {
                        Some(request) => {
                            for from in (k..run_end).step_by(BATCH) {
                                let to = (from + BATCH).min(run_end);
                                let batch = &mut sums[..to - from];
                                grid.cell_sums(&block, from..to, request, ctx.view_min_cos, batch);
                                for (i, s) in (from..to).zip(batch.iter()) {
                                    steering[i - first] =
                                        params.model.steer_by_sums(grid, i, s, &ctx).0;
                                }
                            }
                        }
                        None => {
                            for i in k..run_end {
                                steering[i - first] = params.model.steer(grid, i, &ctx).0;
                            }
                        }
                    }
                    k = run_end;
                }
                // The updates, a group of boids at a time (see `crate::lanes`).
                let c = grid.columns();
                let scalar_steering = !leaders.is_empty() || params.edges.mode == EdgeMode::Turn;
                for at in (0..px.len()).step_by(LANES) {
                    let m = (px.len() - at).min(LANES);
                    let (from, to) = (first + at, first + at + m);
                    let mut lane = [[0.0f32; LANES]; 6];
                    let [x, y, u, w, ax, ay] = &mut lane;
                    x[..m].copy_from_slice(&c.px[from..to]);
                    y[..m].copy_from_slice(&c.py[from..to]);
                    u[..m].copy_from_slice(&c.vx[from..to]);
                    w[..m].copy_from_slice(&c.vy[from..to]);
                    for (l, a) in steering[at..at + m].iter().enumerate() {
                        (ax[l], ay[l]) = (a.x, a.y);
                    }
                    if scalar_steering {
                        for l in 0..m {
                            let (p, v) = (Vec2::new(x[l], y[l]), Vec2::new(u[l], w[l]));
                            let mut a = Vec2::new(ax[l], ay[l]);
                            for leader in leaders {
                                a += leader.params.steer(world.delta(p, leader.pos), v, speed);
                            }
                            a += params.edges.turn_acceleration(&world, p);
                            (ax[l], ay[l]) = (a.x, a.y);
                        }
                    }
                    crate::sim::integrate_lanes(params, &world, m, &mut lane);
                    let [x, y, u, w, ..] = &lane;
                    // The next sort's work, done while the boids are at hand: their cells,
                    // should the grid keep its layout. (The sort wraps positions on a torus
                    // first: `confine` just did, with the same bounds; other bounds do not wrap.)
                    let cell = layout.cell_indices(x, y);
                    cells[at..at + m].copy_from_slice(&cell[..m]);
                    px[at..at + m].copy_from_slice(&x[..m]);
                    py[at..at + m].copy_from_slice(&y[..m]);
                    vx[at..at + m].copy_from_slice(&u[..m]);
                    vy[at..at + m].copy_from_slice(&w[..m]);
                }
            });
        self.grid.replace_columns_with_cells(spare, cells);
        // Ids follow their boids into the new order.
        self.spare_ids.clear();
        let ids = &self.ids;
        self.spare_ids
            .par_extend(self.grid.order().par_iter().map(|&i| ids[i as usize]));
        std::mem::swap(&mut self.ids, &mut self.spare_ids);
        self.tick += 1;
    }

    /// Figures of the flock as it is now.
    pub fn metrics(&self) -> FlockMetrics {
        let c = self.grid.columns();
        let pos: Vec<Vec2> =
            c.px.iter()
                .zip(&c.py)
                .map(|(&x, &y)| Vec2::new(x, y))
                .collect();
        let vel: Vec<Vec2> =
            c.vx.iter()
                .zip(&c.vy)
                .map(|(&x, &y)| Vec2::new(x, y))
                .collect();
        let mut grid = NeighbourGrid::new();
        crate::sim::collect_neighbours(&mut grid, &self.params, &pos, &vel);
        FlockMetrics::measure(&grid, &self.params)
    }

    /// Fingerprint of positions and velocities ordered by boid id.
    pub fn state_hash(&self) -> u64 {
        let c = self.grid.columns();
        let mut by_id: Vec<(u32, Vec2, Vec2)> = (0..self.len())
            .map(|k| {
                let (p, v) = c.get(k);
                (self.ids[k], p, v)
            })
            .collect();
        by_id.sort_unstable_by_key(|b| b.0);
        let (pos, vel): (Vec<Vec2>, Vec<Vec2>) = by_id.into_iter().map(|(_, p, v)| (p, v)).unzip();
        state_hash(&pos, &vel)
    }
}
