//! Flies the `starlings` preset (or another) and prints its field-study figures once a
//! simulated second: `cargo run --release -p murmur_core --example murmuration -- BIRDS
//! SECONDS [SEED] [NAME=VALUE ...]`. A quick bench for the model's parameters; the app's
//! `murmur headless --preset starlings` reports the same figures.

use murmur_core::Vec3;
use murmur_core::metrics::FlockMetrics;
use murmur_core::models::Model;
use murmur_core::murmuration::MurmurationFigures;
use murmur_core::preset::Preset;
use murmur_core::sim::FlockSim;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number =
        |i: usize, default: f64| args.get(i).and_then(|s| s.parse().ok()).unwrap_or(default);
    let (birds, seconds, seed) = (
        number(0, 2000.0) as usize,
        number(1, 30.0),
        number(2, 1.0) as u64,
    );
    let overrides: Vec<&String> = args.iter().skip(3).collect();
    let mut preset = Preset::load("starlings").expect("built in");
    preset
        .apply_overrides(&overrides)
        .unwrap_or_else(|e| panic!("{e}"));
    let params = preset.flock_params();
    let dt = match &params.model {
        Model::Starlings(m) => m.time_step as f64,
        _ => 1.0,
    };
    let mut sim = FlockSim::<Vec3>::new(params.clone(), birds, seed);
    let per_second = (1.0 / dt).round() as u64;
    let ids: Vec<u32> = (0..birds as u32).collect();
    let started = std::time::Instant::now();
    for second in 1..=seconds as u64 {
        for _ in 0..per_second {
            sim.step();
        }
        let mut grid = murmur_core::grid::NeighbourGrid::new();
        murmur_core::sim::collect_neighbours(&mut grid, &params, &sim.pos, &sim.vel);
        let m = FlockMetrics::measure(&grid, &params);
        let f = MurmurationFigures::measure(&params, &sim.pos, &sim.vel, &ids);
        let shape = m.shape.unwrap_or_default();
        println!(
            "t {second:3} s  pol {:.3}  nn {:.2} m  speed {:.1} m/s  shape {:.1} : {:.1} : {:.1} m ({:.1}:{:.1})  heeded {:.2}  border {:.2}  xi {:.1} m  L {:.0} m  xi/L {:.2}  mill {:.2}",
            m.polarization,
            m.mean_nn_distance.unwrap_or(0.0),
            m.mean_speed / dt,
            shape[0],
            shape[1],
            shape[2],
            shape[1] / shape[0].max(1e-9),
            shape[2] / shape[0].max(1e-9),
            f.interaction_neighbours,
            f.border_density_ratio.unwrap_or(f64::NAN),
            f.correlation_length.unwrap_or(f64::NAN),
            f.flock_size,
            f.correlation_length.unwrap_or(f64::NAN) / f.flock_size,
            m.angular_momentum,
        );
    }
    eprintln!(
        "{:.2} s wall for {seconds} s simulated",
        started.elapsed().as_secs_f64()
    );
}
