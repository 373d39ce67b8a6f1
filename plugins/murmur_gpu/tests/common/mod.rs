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
