//! What the GPU tests share: the device (or a skip), presets, CPU references.
#![allow(dead_code)]

use murmur_core::Vec2;
use murmur_core::params::FlockParams;
use murmur_core::preset::Preset;
use murmur_core::sim::FlockSim;
use murmur_gpu::GpuContext;

/// The GPU, or `None` (and a note) where there is none; with `MURMUR_REQUIRE_GPU=1` (CI, which
/// installs Mesa's lavapipe) no GPU is a failure.
pub fn gpu() -> Option<GpuContext> {
    match GpuContext::new() {
        Ok(gpu) => {
            eprintln!("GPU: {}", gpu.describe());
            Some(gpu)
        }
        Err(e) if std::env::var_os("MURMUR_REQUIRE_GPU").is_some_and(|v| v == "1") => {
            panic!("MURMUR_REQUIRE_GPU=1 but {e}")
        }
        Err(e) => {
            eprintln!("skipped: {e}");
            None
        }
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
