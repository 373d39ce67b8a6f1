//! `gpu`: the flock in compute shaders beside FastFlock on all threads, flat or (for a 3D
//! preset) in 3D.

use super::*;
use murmur_flock::murmur_core::Vec3;

/// The GPU path's ticks per second at each size, beside FastFlock's on all threads, from the same
/// start after two warm-up ticks; each window of ticks from a fresh upload of that start, so
/// both run the same densities. A 3D preset runs in 3D (a cubic 3-torus at the bench density).
/// Without a GPU that runs compute shaders, says why and gives the CPU's figures alone.
pub(super) fn speed(bench: &mut Bench, preset: &Preset, sizes: &[usize]) {
    if preset.world.depth > 0.0 {
        speed_in::<Vec3>(bench, preset, sizes, params_for_3d);
    } else {
        speed_in::<Vec2>(bench, preset, sizes, params_for);
    }
}

fn speed_in<V: Vector>(
    bench: &mut Bench,
    preset: &Preset,
    sizes: &[usize],
    params_at: fn(&Preset, usize, f64) -> FlockParams,
) {
    use murmur_gpu::{GpuContext, GpuFlock};
    let gpu = murmur_gpu::uniform::check(&preset.flock_params())
        .and_then(|()| GpuContext::new())
        .map_err(|e| e.to_string());
    if let Err(why) = &gpu {
        eprintln!("murmur: --gpu: {why}; the CPU's figures only");
    }
    let all = rayon::current_num_threads();
    for &n in sizes {
        let params = params_at(preset, n, bench.args.neighbours);
        let (window, time) = (bench.window(), bench.measure_time());
        let mut start = AnyFastFlock::<V>::new(params.clone(), n, 1);
        start.step();
        start.step();
        let (cpu_steps_per_s, _) = window_rate(&start, window, time);
        let (pos, vel) = start.birds().state_by_id();
        let on_gpu = gpu.as_ref().ok().map(|gpu| {
            let mut timed = Timed::default();
            while timed.time < time {
                let mut flock = GpuFlock::<V>::new(gpu, params.clone(), &pos, &vel)
                    .expect("checked: the model runs on the GPU");
                flock.step_many(2);
                flock.finish();
                let started = Instant::now();
                flock.step_many(window as u32);
                flock.finish();
                timed.time += started.elapsed();
                timed.steps += window;
            }
            (timed.rate(), gpu.describe())
        });
        let line = match on_gpu {
            Some((gpu_steps_per_s, adapter)) => json!({
                "kind": "gpu", "space": V::NAME, "boids": n, "gpu": adapter, "steps": window,
                "gpu_steps_per_s": gpu_steps_per_s, "gpu_ms_per_tick": 1e3 / gpu_steps_per_s,
                "cpu_steps_per_s": cpu_steps_per_s, "cpu_threads": all,
                "gpu_over_cpu": gpu_steps_per_s / cpu_steps_per_s, "preset": bench.args.preset,
            }),
            None => json!({
                "kind": "gpu", "space": V::NAME, "boids": n, "gpu": null, "steps": window,
                "cpu_steps_per_s": cpu_steps_per_s, "cpu_threads": all,
                "preset": bench.args.preset,
            }),
        };
        bench.emit(line);
        bench.progress.advance(1);
    }
}
