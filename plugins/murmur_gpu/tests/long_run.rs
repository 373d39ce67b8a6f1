//! 600 ticks on the GPU beside 600 on the CPU: the same flock by its figures, with no NaN, no
//! bird out of a bounded world, and a leader that gathers the flock.

mod common;

use murmur_core::Vec2;
use murmur_core::sim::{FlockSim, LeaderState, initial_boids};
use murmur_gpu::GpuFlock;

const TICKS: u32 = 600;

/// Polarization and mean nearest-neighbour distance, each averaged over the last 100 ticks
/// (sampled every 20): on the GPU, on the CPU from the same start, and on the CPU from a start
/// nudged by a rounding error (the run's own chaos, for scale).
fn three_runs(params: &murmur_core::params::FlockParams, n: usize, seed: u64) -> [(f64, f64); 3] {
    let gpu = common::gpu();
    let name = params.model.kind().name();
    let params = params.clone();
    let (pos, vel) = initial_boids::<murmur_core::Vec2>(&params, n, seed);
    let mut cpu = FlockSim::from_state(params.clone(), pos.clone(), vel.clone(), seed);
    let nudged_pos = pos.iter().map(|p| *p * (1.0 + 1e-6)).collect();
    let mut nudged = FlockSim::from_state(params.clone(), nudged_pos, vel.clone(), seed);
    let mut flock = GpuFlock::new(&gpu, params.clone(), &pos, &vel).unwrap();
    let mut sums = [(0.0, 0.0); 3];
    let mut samples = 0.0;
    for t in (20..=TICKS).step_by(20) {
        flock.step_many(20);
        for _ in 0..20 {
            cpu.step();
            nudged.step();
        }
        let (gpos, gvel) = flock.read_state();
        assert!(
            gpos.iter().chain(&gvel).all(|v| v.is_finite()),
            "{name}: a NaN by tick {t}"
        );
        if params.edges.is_bounded() {
            let world = params.bounds();
            assert!(
                gpos.iter().all(|&p| world.contains(p)),
                "{name}: a bird left the world"
            );
        }
        if t > TICKS - 100 {
            let states = [
                (&gpos, &gvel),
                (&cpu.pos, &cpu.vel),
                (&nudged.pos, &nudged.vel),
            ];
            for (sum, (p, v)) in sums.iter_mut().zip(states) {
                let f = common::figures(&params, p, v);
                *sum = (sum.0 + f.0, sum.1 + f.1);
            }
            samples += 1.0;
        }
    }
    sums.map(|(a, b)| (a / samples, b / samples))
}

/// Each figure averaged over eight seeds: the GPU's distance from the CPU's is held to twice
/// the CPU's own distance from a run started a rounding error away (what chaos alone gives),
/// plus 3%. (One seed's figures after 600 ticks carry the run's chaos: a flock that has merged
/// into one on one path may still be two on the other, so no seed is held on its own.)
fn flies_as_on_the_cpu(params: murmur_core::params::FlockParams, n: usize) {
    const WHAT: [&str; 2] = ["polarization", "nearest-neighbour distance"];
    let name = params.model.kind().name();
    let seeds = [1, 2, 3, 4, 5, 6, 7, 8];
    let share = 1.0 / seeds.len() as f64;
    let (mut gpu_off, mut chaos, mut cpu) = ([0.0; 2], [0.0; 2], [0.0; 2]);
    for seed in seeds {
        let runs = three_runs(&params, n, seed);
        let [g, c, c2] = runs.map(|(a, b)| [a, b]);
        eprintln!(
            "{name} seed {seed}: polarization GPU {:.4} CPU {:.4} CPU nudged {:.4}; \
             mean NN distance GPU {:.3} CPU {:.3} CPU nudged {:.3}",
            g[0], c[0], c2[0], g[1], c[1], c2[1]
        );
        for a in 0..2 {
            gpu_off[a] += (g[a] - c[a]) * share;
            chaos[a] += (c2[a] - c[a]).abs() * share;
            cpu[a] += c[a] * share;
        }
    }
    for a in 0..2 {
        let allowed = 2.0 * chaos[a] + 0.03 * cpu[a].abs();
        eprintln!(
            "{name}: {}: GPU - CPU {:+.4} (mean CPU {:.3}); chaos {:.4}; allowed {:.4}",
            WHAT[a], gpu_off[a], cpu[a], chaos[a], allowed
        );
        assert!(
            gpu_off[a].abs() <= allowed,
            "{name}: {}: the GPU is {} from the CPU, over {allowed}",
            WHAT[a],
            gpu_off[a]
        );
    }
}

/// A preset on a torus of `width` x `height`.
fn on_a_torus(name: &str, width: f32, height: f32) -> murmur_core::params::FlockParams {
    let mut params = common::preset(name);
    params.edges.mode = murmur_core::edges::EdgeMode::Wrap;
    params.world_size = Vec2::new(width, height);
    params
}

#[test]
#[ignore = "needs a GPU (Vulkan; lavapipe will do)"]
fn cornell_flies_as_on_the_cpu() {
    flies_as_on_the_cpu(on_a_torus("cornell", 640.0, 480.0), 3_000);
}

#[test]
#[ignore = "needs a GPU (Vulkan; lavapipe will do)"]
fn reynolds_flies_as_on_the_cpu() {
    flies_as_on_the_cpu(on_a_torus("reynolds", 640.0, 400.0), 2_500);
}

#[test]
#[ignore = "needs a GPU (Vulkan; lavapipe will do)"]
fn coincident_birds_give_no_nan() {
    let gpu = common::gpu();
    for name in ["cornell", "reynolds"] {
        let params = common::preset(name);
        // Every bird on one point, half of them still.
        let pos = vec![Vec2::new(3.0, -2.0); 500];
        let vel: Vec<Vec2> = (0..500)
            .map(|i| {
                if i % 2 == 0 {
                    Vec2::ZERO
                } else {
                    Vec2::new(1.0, 0.5)
                }
            })
            .collect();
        let mut flock = GpuFlock::new(&gpu, params, &pos, &vel).unwrap();
        flock.step_many(50);
        let (pos, vel) = flock.read_state();
        assert!(pos.iter().chain(&vel).all(|v| v.is_finite()), "{name}");
        // They spread out.
        assert!(
            pos.iter().any(|&p| p.distance(Vec2::new(3.0, -2.0)) > 5.0),
            "{name}"
        );
    }
}

#[test]
#[ignore = "needs a GPU (Vulkan; lavapipe will do)"]
fn a_leader_gathers_the_flock() {
    let gpu = common::gpu();
    let params = common::preset("reynolds");
    let (pos, vel) = initial_boids::<murmur_core::Vec2>(&params, 1_500, 9);
    let target = Vec2::new(200.0, 100.0);
    let leader = LeaderState {
        pos: target,
        params: common::leader_params("reynolds"),
    };
    let world = params.bounds();
    // Birds within twice the orbit radius of the leader.
    let gathered = |pos: &[Vec2]| {
        let near = pos
            .iter()
            .filter(|&&p| world.delta(p, target).length() < 2.0 * leader.params.orbit_radius)
            .count();
        near as f64 / pos.len() as f64
    };
    let ticks = 900;
    // Negative control: without the leader the flock does not come to that point.
    let mut alone = GpuFlock::new(&gpu, params.clone(), &pos, &vel).unwrap();
    alone.step_many(ticks);
    let mut led = GpuFlock::new(&gpu, params.clone(), &pos, &vel).unwrap();
    led.set_leaders(&[leader]);
    led.step_many(ticks);
    let mut cpu = FlockSim::from_state(params, pos.clone(), vel.clone(), 9);
    cpu.leaders = vec![leader];
    for _ in 0..ticks {
        cpu.step();
    }
    let (start, alone, led, cpu) = (
        gathered(&pos),
        gathered(&alone.read_state().0),
        gathered(&led.read_state().0),
        gathered(&cpu.pos),
    );
    eprintln!(
        "within two orbit radii of the leader: start {start:.3}, alone {alone:.3}, led on the GPU {led:.3}, led on the CPU {cpu:.3}"
    );
    assert!(
        led > 0.3 && led > 3.0 * alone.max(start),
        "led {led}, alone {alone}"
    );
    assert!((led - cpu).abs() < 0.15, "GPU {led} vs CPU {cpu}");
}
