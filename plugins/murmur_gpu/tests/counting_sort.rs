//! The GPU's counting sort gives the CPU grid's cells: the same first places, the same birds in
//! each cell, in the same order, run after run.

mod common;

use murmur_core::Vec2;
use murmur_core::grid::NeighbourGrid;
use murmur_core::params::FlockParams;
use murmur_core::sim::initial_boids;
use murmur_gpu::GpuFlock;

fn compare(gpu: &murmur_gpu::GpuContext, params: FlockParams, mut pos: Vec<Vec2>, vel: Vec<Vec2>) {
    // A crowd in one spot, so that cells hold many birds and the atomics' order matters.
    let crowd = pos[0];
    for p in pos.iter_mut().step_by(9) {
        *p = crowd;
    }
    let mut cpu = NeighbourGrid::new();
    cpu.rebuild(
        &params.bounds(),
        params.model.interaction_radius(),
        &pos,
        &vel,
    );
    let mut flock = GpuFlock::new(gpu, params, &pos, &vel).unwrap();
    assert_eq!(flock.grid_layout(), cpu.layout());
    flock.collect_neighbours();
    let starts = flock.read_cell_starts();
    let cells = cpu.layout().cell_count();
    assert_eq!(starts.len(), cells + 1);
    for c in 0..cells {
        let range = cpu.cell_range(c);
        assert_eq!(starts[c] as usize, range.start, "cell {c}'s first place");
        assert_eq!(starts[c + 1] as usize, range.end, "cell {c}'s end");
    }
    let order = flock.read_cell_order();
    assert_eq!(order, cpu.order(), "the birds in cell order");
    let fullest = (0..cells).map(|c| cpu.cell_range(c).len()).max().unwrap();
    assert!(fullest > pos.len() / 10, "a crowded cell ({fullest} birds)");
    // Again: the atomics arrive in another order, the cells do not.
    flock.collect_neighbours();
    assert_eq!(flock.read_cell_order(), order);
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
