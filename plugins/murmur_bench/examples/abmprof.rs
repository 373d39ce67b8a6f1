//! Times the ABM frameworks comparison's "Flocking" benchmark as `murmur bench --only abm` does
//! (a fresh FastFlock per run, 100 steps, one thread), and splits a run into set-up and steps:
//! `cargo run --release --manifest-path plugins/murmur_bench/Cargo.toml --example abmprof -- small 200` (size, runs).

use murmur_core::prelude::*;
use std::time::Instant;

fn main() {
    let size = std::env::args().nth(1).unwrap_or_else(|| "small".into());
    let runs: usize = std::env::args()
        .nth(2)
        .map_or(200, |a| a.parse().expect("a run count"));
    let (boids, side, vision) = match size.as_str() {
        "small" => (200, 100.0, 5.0),
        "large" => (400, 150.0, 15.0),
        other => panic!("size is small or large, not {other}"),
    };
    let mut preset = Preset::load("abm").expect("built in");
    preset.set("vision", &vision.to_string()).expect("a vision");
    preset.world.width = side;
    preset.world.height = side;
    let params = preset.flock_params();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a pool");
    let mut whole = Vec::with_capacity(runs);
    let mut setup = Vec::with_capacity(runs);
    pool.install(|| {
        for seed in 1..=runs as u64 {
            let started = Instant::now();
            let mut flock = FastFlock::new(params.clone(), boids, seed);
            let built = started.elapsed();
            for _ in 0..100 {
                flock.step();
            }
            std::hint::black_box(flock.state_hash());
            whole.push(started.elapsed().as_secs_f64() * 1e3);
            setup.push(built.as_secs_f64() * 1e3);
        }
    });
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let fastest = whole.iter().copied().fold(f64::INFINITY, f64::min);
    println!(
        "{size}: median {:.3} ms a run (fastest {fastest:.3} ms), of which set-up {:.3} ms",
        median(&mut whole),
        median(&mut setup)
    );
}
