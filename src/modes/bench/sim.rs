//! `sim`: FastFlock in 2D and 3D at each size, on one thread and all.

use super::*;

/// The `sim` lines at each size.
pub(super) fn speed(bench: &mut Bench, preset: &Preset, sizes: &[usize]) {
    let all = rayon::current_num_threads();
    for &n in sizes {
        let mut threads = vec![1, all];
        threads.dedup();
        for t in threads {
            let flat = params_for(preset, n, bench.args.neighbours);
            let line = sim_line::<Vec2>(bench, &flat, n, t);
            bench.emit(line);
            bench.progress.advance(1);
            let deep = params_for_3d(preset, n, bench.args.neighbours);
            let line = sim_line::<Vec3>(bench, &deep, n, t);
            bench.emit(line);
            bench.progress.advance(1);
        }
    }
}

/// A `sim` line: FastFlock in space `V` at `n` birds on `threads` threads, the window of steps
/// after a random start (two steps in: sorted, buffers warm).
fn sim_line<V: Vector>(
    bench: &Bench,
    params: &FlockParams,
    n: usize,
    threads: usize,
) -> serde_json::Value {
    let (window, time) = (bench.window(), bench.measure_time());
    pool(threads).install(|| {
        let mut start = AnyFastFlock::<V>::new(params.clone(), n, 1);
        start.step();
        start.step();
        let (steps_per_s, end) = window_rate(&start, window, time);
        let radius = params.model.interaction_radius();
        let before = mean_neighbours(start.grid(), radius);
        let after = mean_neighbours(end.grid(), radius);
        let pairs = 0.5 * (start.grid().candidate_pairs() + end.grid().candidate_pairs()) as f64;
        json!({
            "kind": "sim", "space": if V::DIM == 3 { "3d" } else { "2d" },
            "boids": n, "threads": threads, "steps_per_s": steps_per_s,
            "boid_steps_per_s": steps_per_s * n as f64,
            "boid_steps_per_s_per_core": steps_per_s * n as f64 / threads as f64,
            "pair_tests_per_s_per_core": steps_per_s * pairs / threads as f64,
            "mean_neighbours": 0.5 * (before + after),
            "neighbours_first": before, "neighbours_last": after,
            "steps": window, "bytes_per_boid": end.bytes_per_boid(),
            "preset": bench.args.preset,
        })
    })
}
