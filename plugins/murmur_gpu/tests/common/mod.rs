//! What the GPU tests share: the device, presets, CPU references.
#![allow(dead_code)]

use murmur_core::Vec2;
use murmur_core::params::FlockParams;
use murmur_core::preset::Preset;
use murmur_core::sim::FlockSim;
use murmur_gpu::GpuContext;

/// The GPU (any wgpu adapter that runs compute shaders; Mesa's lavapipe will do), or the test
/// fails naming what is missing. Every test that takes it is `#[ignore = "needs a GPU …"]`: a
/// plain `cargo test` lists it as ignored (not run), `--include-ignored` runs it.
pub fn gpu() -> GpuContext {
    match GpuContext::new() {
        Ok(gpu) => {
            eprintln!("GPU: {}", gpu.describe());
            gpu
        }
        Err(e) => panic!(
            "this test needs a GPU that runs compute shaders, which this machine lacks ({e}); \
             a plain `cargo test` leaves it out as ignored"
        ),
    }
}

/// A built-in preset's parameters.
pub fn preset(name: &str) -> FlockParams {
    Preset::load(name)
        .expect("a built-in preset")
        .flock_params()
}

/// A preset's leader parameters.
pub fn leader_params(name: &str) -> murmur_core::leader::LeaderParams {
    Preset::load(name).expect("a built-in preset").leader
}

/// The CPU flock's figures for a state: polarization and mean nearest-neighbour distance.
pub fn figures(params: &FlockParams, pos: &[Vec2], vel: &[Vec2]) -> (f64, f64) {
    let m = FlockSim::from_state(params.clone(), pos.to_vec(), vel.to_vec(), 0).metrics();
    (
        m.polarization,
        m.mean_nn_distance.expect("a flock of more than one"),
    )
}

/// Sorts `pos` (a crowd put on every ninth bird, so cells hold many birds and the atomics'
/// order matters) on the GPU and on the CPU grid, and holds the GPU to the CPU's cell starts and
/// cell order, twice; returns the CPU's grid layout.
pub fn compare_cells<V: murmur_core::Vector>(
    gpu: &GpuContext,
    params: FlockParams,
    mut pos: Vec<V>,
    vel: Vec<V>,
) -> murmur_core::grid::GridLayout<V> {
    let crowd = pos[0];
    for p in pos.iter_mut().step_by(9) {
        *p = crowd;
    }
    let mut cpu = murmur_core::grid::NeighbourGrid::<V>::new();
    cpu.rebuild(
        &params.bounds_in(),
        params.model.interaction_radius(),
        &pos,
        &vel,
    );
    let mut flock = murmur_gpu::GpuFlock::new(gpu, params, &pos, &vel).unwrap();
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
    *cpu.layout()
}
