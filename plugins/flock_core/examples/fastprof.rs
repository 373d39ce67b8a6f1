use flock_core::prelude::*;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mut preset = Preset::load(&args[1]).unwrap();
    preset.apply_overrides(&args[4..]).unwrap();
    let n: usize = args[2].parse().unwrap();
    let steps: usize = args[3].parse().unwrap();
    let mut fast = FastFlock::new(preset.flock_params(), n, 1);
    let t = std::time::Instant::now();
    for _ in 0..steps {
        fast.step();
    }
    println!(
        "{:.2} ms/step",
        t.elapsed().as_secs_f64() * 1e3 / steps as f64
    );
}
