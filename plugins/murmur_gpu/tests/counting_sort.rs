//! The GPU's counting sort gives the CPU grid's cells: the same first places, the same birds in
//! each cell, in the same order, run after run.

mod common;

use murmur_core::Vec2;
use murmur_core::params::FlockParams;
use murmur_core::sim::initial_boids;

fn compare(gpu: &murmur_gpu::GpuContext, params: FlockParams, pos: Vec<Vec2>, vel: Vec<Vec2>) {
    common::compare_cells(gpu, params, pos, vel);
}

#[test]
#[ignore = "needs a GPU (Vulkan; lavapipe will do)"]
fn cells_match_the_cpu_grid_on_a_torus_and_in_a_box() {
    let gpu = common::gpu();
    for (name, n) in [("reynolds", 20_000), ("cornell", 7_000)] {
        let params = common::preset(name);
        let (pos, vel) = initial_boids::<murmur_core::Vec2>(&params, n, 11);
        compare(&gpu, params, pos, vel);
    }
}

#[test]
#[ignore = "needs a GPU (Vulkan; lavapipe will do)"]
fn birds_outside_a_box_go_to_its_border_cells() {
    let gpu = common::gpu();
    let params = common::preset("cornell");
    let (mut pos, vel) = initial_boids::<murmur_core::Vec2>(&params, 3_000, 5);
    for p in pos.iter_mut().step_by(7) {
        *p *= 1.8;
    }
    compare(&gpu, params, pos, vel);
}
