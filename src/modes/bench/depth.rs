//! `3d`: FastFlock and the plugins in 3D beside 2D, then a million birds in each space.

use super::ecs::{ecs_start, plugin_phases};
use super::*;

/// One start of FastFlock in space `V` for `params` (two ticks in: sorted, buffers warm), and
/// its state by id.
fn fast_start<V: Vector>(params: &FlockParams, n: usize) -> (AnyFastFlock<V>, Vec<V>, Vec<V>) {
    let mut start = AnyFastFlock::<V>::new(params.clone(), n, 1);
    start.step();
    start.step();
    let (pos, vel) = start.birds().state_by_id();
    (start, pos, vel)
}

/// 3D beside 2D: FastFlock and the plugins in each space, the same model, at the largest size
/// up to 100,000 (windows taken in turns, on all threads); then FastFlock at a million birds in
/// each space.
pub(super) fn speed(bench: &mut Bench, preset: &Preset, sizes: &[usize]) {
    let all = rayon::current_num_threads();
    let n = sizes
        .iter()
        .copied()
        .filter(|&n| n <= 100_000)
        .max()
        .unwrap_or(100_000);
    let (window, time) = (bench.window(), bench.measure_time());
    let (flat, deep) = (
        params_for(preset, n, bench.args.neighbours),
        params_for_3d(preset, n, bench.args.neighbours),
    );
    let (flat_fast, flat_pos, flat_vel) = fast_start::<Vec2>(&flat, n);
    let (deep_fast, deep_pos, deep_vel) = fast_start::<Vec3>(&deep, n);
    let fast = |start: &AnyFastFlock<Vec2>| {
        let start = start.clone();
        move || {
            let mut flock = start.clone();
            Box::new(move || flock.step()) as Box<dyn FnMut()>
        }
    };
    let fast3 = |start: &AnyFastFlock<Vec3>| {
        let start = start.clone();
        move || {
            let mut flock = start.clone();
            Box::new(move || flock.step()) as Box<dyn FnMut()>
        }
    };
    let mut starts: [Box<dyn FnMut() -> Box<dyn FnMut()>>; 4] = [
        Box::new(fast(&flat_fast)),
        Box::new(fast3(&deep_fast)),
        Box::new(ecs_start(&flat, &flat_pos, &flat_vel)),
        Box::new(ecs_start(&deep, &deep_pos, &deep_vel)),
    ];
    let mut timed: [Timed; 4] = Default::default();
    while timed.iter().any(|t| t.time < time) {
        for (t, start) in timed.iter_mut().zip(starts.iter_mut()) {
            t.window(window, start);
        }
    }
    let [fast2, fast3, ecs2, ecs3] = timed.map(|t| t.rate());
    let radius = flat.model.interaction_radius();
    let phases = plugin_phases(&deep, &deep_pos, &deep_vel, 2, window as u64);
    bench.emit(json!({
        "kind": "3d", "boids": n, "threads": all, "steps": window,
        "preset": bench.args.preset,
        "mean_neighbours_2d": mean_neighbours(flat_fast.grid(), radius),
        "mean_neighbours_3d": mean_neighbours(deep_fast.grid(), radius),
        "fast_2d_steps_per_s": fast2, "fast_3d_steps_per_s": fast3,
        "fast_3d_over_2d": fast3 / fast2,
        "ecs_2d_steps_per_s": ecs2, "ecs_3d_steps_per_s": ecs3,
        "ecs_3d_over_fast_3d": ecs3 / fast3, "ecs_2d_over_fast_2d": ecs2 / fast2,
        "world_3d": deep.world_size3().to_array(),
        "ecs_3d_phase_ms": phases.to_json(),
    }));
    bench.progress.advance(1);
    // A million birds in each space: fewer, shorter windows.
    let big = 1_000_000;
    let (flat, deep) = (
        params_for(preset, big, bench.args.neighbours),
        params_for_3d(preset, big, bench.args.neighbours),
    );
    let steps = (window / 10).max(3);
    let (flat_start, ..) = fast_start::<Vec2>(&flat, big);
    let (deep_start, ..) = fast_start::<Vec3>(&deep, big);
    let (flat_rate, _) = window_rate(&flat_start, steps, time);
    let (deep_rate, _) = window_rate(&deep_start, steps, time);
    bench.emit(json!({
        "kind": "3d", "boids": big, "threads": all, "steps": steps,
        "preset": bench.args.preset,
        "mean_neighbours_3d": mean_neighbours(deep_start.grid(), radius),
        "fast_2d_steps_per_s": flat_rate, "fast_3d_steps_per_s": deep_rate,
        "fast_3d_over_2d": deep_rate / flat_rate,
        "fast_3d_boid_steps_per_s_per_core": deep_rate * big as f64 / all as f64,
    }));
    bench.progress.advance(1);
}
