//! The same seed gives the same state on the GPU, although its atomics order birds differently
//! each run; another seed gives another.

mod common;

use murmur_core::sim::initial_boids;
use murmur_gpu::GpuFlock;

fn hash_after(gpu: &murmur_gpu::GpuContext, name: &str, seed: u64, ticks: u32) -> u64 {
    let params = common::preset(name);
    let (mut pos, vel) = initial_boids::<murmur_core::Vec2>(&params, 8_000, seed);
    // Crowds of coincident birds, where arrival order within a cell varies most.
    let crowd = pos[0];
    for p in pos.iter_mut().step_by(20) {
        *p = crowd;
    }
    let mut flock = GpuFlock::new(gpu, params, &pos, &vel).unwrap();
    flock.step_many(ticks);
    flock.state_hash()
}

#[test]
#[ignore = "needs a GPU (Vulkan; lavapipe will do)"]
fn same_seed_same_state() {
    let gpu = common::gpu();
    for name in ["reynolds", "cornell"] {
        let first = hash_after(&gpu, name, 42, 120);
        for _ in 0..1 {
            assert_eq!(hash_after(&gpu, name, 42, 120), first, "{name}");
        }
        assert_ne!(
            hash_after(&gpu, name, 43, 120),
            first,
            "{name}: another seed"
        );
    }
}
