//! Times FastFlock ticks at the bench density (about 20 neighbours within the interaction
//! radius, torus): `cargo run --release --manifest-path plugins/murmur_bench/Cargo.toml --example fastprof -- cornell 100000 200`.
//! Set `RAYON_NUM_THREADS` to fix the thread count.

use murmur_core::prelude::*;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 4 {
        eprintln!("usage: fastprof PRESET BOIDS STEPS [field=value ...]");
        std::process::exit(2);
    }
    let mut preset = Preset::load(&args[1]).unwrap_or_else(|e| panic!("{e}"));
    preset
        .apply_overrides(&args[4..])
        .unwrap_or_else(|e| panic!("{e}"));
    let n: usize = args[2].parse().expect("a boid count");
    let steps: usize = args[3].parse().expect("a step count");
    let mut params = preset.flock_params();
    let r = params.model.interaction_radius();
    params.edges.mode = EdgeMode::Wrap;
    if params.is_3d() {
        let side = (n as f32 * 4.0 / 3.0 * std::f32::consts::PI * r.powi(3) / 20.0).cbrt();
        (params.world_size, params.world_depth) = (Vec2::splat(side), side);
        run(
            murmur_core::fast::FastFlock::<murmur_core::Vec3>::new(params, n, 1),
            steps,
        );
    } else {
        params.world_size = Vec2::splat((n as f32 * std::f32::consts::PI * r * r / 20.0).sqrt());
        run(FastFlock::new(params, n, 1), steps);
    }
}

fn run<V: Vector>(mut fast: murmur_core::fast::FastFlock<V>, steps: usize) {
    let t = std::time::Instant::now();
    for _ in 0..steps {
        fast.step();
    }
    println!(
        "{:.3} ms/step over {steps} steps, mean neighbours at the end {:.1}",
        t.elapsed().as_secs_f64() * 1e3 / steps as f64,
        fast.metrics().mean_neighbours
    );
    // The same state stepped again and again: a steady figure for comparing kernels.
    let mut best = f64::INFINITY;
    for _ in 0..20 {
        let mut again = fast.clone();
        let t = std::time::Instant::now();
        again.step();
        best = best.min(t.elapsed().as_secs_f64() * 1e3);
    }
    println!("{best:.3} ms for one more step from that state (best of 20)");
}
