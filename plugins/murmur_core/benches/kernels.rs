//! Criterion benches of the hot kernels at 100,000 boids and about 20 neighbours each (Cornell,
//! torus): sorting into the grid, the neighbour sums (boid by boid, and a cell's boids at a
//! time as the flocks take them), and whole ticks of both flock layouts.
//! `cargo bench -p murmur_core` (or `murmur bench` for the figures in docs/benchmarks.md).

// `criterion_group!` makes a public function without docs.
#![allow(missing_docs)]

use criterion::{Criterion, criterion_group, criterion_main};
use murmur_core::grid::{NeighbourGrid, NeighbourSums, SumsRequest};
use murmur_core::params::FlockParams;
use murmur_core::prelude::*;
use murmur_core::sim::initial_boids;
use std::hint::black_box;

const BOIDS: usize = 100_000;

fn params() -> FlockParams {
    let mut p = Preset::load("cornell").expect("built in").flock_params();
    let r = p.model.interaction_radius();
    // About 20 neighbours within the radius.
    p.world_size = Vec2::splat((BOIDS as f32 * std::f32::consts::PI * r * r / 20.0).sqrt());
    p.edges.mode = EdgeMode::Wrap;
    p
}

fn kernels(c: &mut Criterion) {
    let params = params();
    let (pos, vel) = initial_boids(&params, BOIDS, 1);
    let bounds = params.bounds();
    let r = params.model.interaction_radius();
    let mut grid = NeighbourGrid::new();
    c.bench_function("grid rebuild (counting sort), 100k", |b| {
        b.iter(|| grid.rebuild(&bounds, r, black_box(&pos), &vel))
    });
    grid.rebuild(&bounds, r, &pos, &vel);
    c.bench_function("neighbour sums, all 100k boids, one thread", |b| {
        b.iter(|| {
            (0..BOIDS).fold(0u32, |n, k| {
                n + grid
                    .neighbour_sums::<true, false>(k, 40.0, 8.0, usize::MAX, -1.0)
                    .seen
            })
        })
    });
    let request = SumsRequest {
        sight: 40.0,
        near: 8.0,
        near_offsets: true,
        inverse: false,
    };
    let mut sums = vec![NeighbourSums::default(); BOIDS];
    c.bench_function(
        "neighbour sums, cell by cell, 100k boids, one thread",
        |b| {
            b.iter(|| {
                for cell in 0..grid.layout().cell_count() {
                    let ks = grid.cell_range(cell);
                    let block = grid.block(cell);
                    grid.cell_sums(&block, ks.clone(), request, -1.0, &mut sums[ks]);
                }
                black_box(&sums);
            })
        },
    );
    let mut fast = FastFlock::new(params.clone(), BOIDS, 1);
    c.bench_function("FastFlock tick, 100k", |b| b.iter(|| fast.step()));
    let mut sim = FlockSim::new(params, BOIDS, 1);
    c.bench_function("FlockSim tick, 100k", |b| b.iter(|| sim.step()));
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = kernels
}
criterion_main!(benches);
