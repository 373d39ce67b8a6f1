//! `abm` and `peers`: the ABM frameworks comparison's Flocking model at its own sizes and at
//! the sizes of krABMaga's Flockers table.

use super::*;

/// The `abm` lines: the comparison's small and large cases, the median of seeded runs.
pub(super) fn comparison(bench: &mut Bench) {
    for (size, boids, side, vision) in [("small", 200, 100.0, 5.0), ("large", 400, 150.0, 15.0)] {
        let mut p = Preset::load("abm").expect("built in");
        p.set("vision", &vision.to_string())
            .expect("a valid vision");
        p.world.width = side;
        p.world.height = side;
        let runs = if bench.args.quick {
            bench.args.abm_runs.min(20)
        } else {
            bench.args.abm_runs
        }
        .max(1);
        let params = p.flock_params();
        let mut times: Vec<f64> = pool(1).install(|| {
            (0..runs as u64)
                .map(|seed| {
                    let started = Instant::now();
                    let mut flock = FastFlock::new(params.clone(), boids, seed + 1);
                    for _ in 0..100 {
                        flock.step();
                    }
                    std::hint::black_box(flock.state_hash());
                    started.elapsed().as_secs_f64() * 1e3
                })
                .collect()
        });
        times.sort_by(f64::total_cmp);
        bench.emit(json!({"kind": "abm", "size": size, "boids": boids, "runs": runs, "median_ms": times[times.len() / 2], "threads": 1}));
        bench.progress.advance(1);
    }
}

/// The `peers` lines, one per size of krABMaga's table.
pub(super) fn peers(bench: &mut Bench) {
    for &boids in &PEER_SIZES {
        let line = peer_line(bench, boids);
        bench.emit(line);
        bench.progress.advance(1);
    }
}

/// The flock sizes of krABMaga's published Flockers table.
pub(super) const PEER_SIZES: [usize; 3] = [1_000, 16_000, 128_000];

/// Steps a run of the peers' comparison takes (krABMaga's table: 200).
const PEER_STEPS: usize = 200;

/// A `peers` line: the ABM model (the `abm` preset: vision 5) on a torus of side
/// 100 sqrt(n / 200), the density of the comparison's small case, one thread; the best of a few
/// runs from different seeds (one run at 128,000), each run from a fresh random start, its setup
/// not timed.
fn peer_line(bench: &Bench, boids: usize) -> serde_json::Value {
    let mut p = Preset::load("abm").expect("built in");
    let side = 100.0 * (boids as f64 / 200.0).sqrt();
    (p.world.width, p.world.height) = (side as f32, side as f32);
    let params = p.flock_params();
    let runs = match (bench.args.quick, boids) {
        (true, _) | (_, 100_000..) => 1,
        _ => 3,
    };
    let (mut best, mut last) = (f64::INFINITY, None);
    pool(1).install(|| {
        for seed in 1..=runs as u64 {
            let mut flock = FastFlock::new(params.clone(), boids, seed);
            let started = Instant::now();
            for _ in 0..PEER_STEPS {
                flock.step();
            }
            best = best.min(started.elapsed().as_secs_f64() * 1e3);
            last = Some(flock);
        }
    });
    let flock = last.expect("at least one run");
    let radius = params.model.interaction_radius();
    json!({
        "kind": "peers", "model": "abm", "boids": boids, "steps": PEER_STEPS, "side": side,
        "vision": radius, "runs": runs, "ms": best, "threads": 1,
        "mean_neighbours": mean_neighbours(flock.grid(), radius),
    })
}
