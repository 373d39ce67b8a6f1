use murmur_core::prelude::*;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mut preset = Preset::load(&args[1]).unwrap();
    preset.apply_overrides(&args[3..]).unwrap();
    let n: usize = args[2].parse().unwrap();
    let mut sim = FlockSim::new(preset.flock_params(), n, 1);
    let mut fast = FastFlock::new(preset.flock_params(), n, 1);
    sim.step();
    fast.step();
    let t = std::time::Instant::now();
    for _ in 0..10 {
        sim.step();
    }
    let a = t.elapsed().as_secs_f64() * 100.0;
    let t = std::time::Instant::now();
    for _ in 0..10 {
        fast.step();
    }
    let b = t.elapsed().as_secs_f64() * 100.0;
    println!(
        "{n} boids: FlockSim {a:.2} ms/step, FastFlock {b:.2} ms/step, {:.1} B/boid, mean neighbours {:.1}",
        fast.bytes_per_boid(),
        fast.metrics().mean_neighbours
    );
}
