use flock_core::prelude::*;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mut preset = Preset::load(&args[1]).unwrap();
    preset.apply_overrides(&args[3..]).unwrap();
    let n: usize = args[2].parse().unwrap();
    let mut sim = FlockSim::new(preset.flock_params(), n, 1);
    sim.step();
    let t = std::time::Instant::now();
    for _ in 0..10 {
        sim.step();
    }
    let ms = t.elapsed().as_secs_f64() * 100.0;
    let m = sim.metrics();
    println!(
        "{n} boids: {ms:.2} ms/step, mean neighbours {:.1}",
        m.mean_neighbours
    );
}
