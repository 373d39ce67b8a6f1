//! `neighbours`: every bird's neighbours by the grid, by brute force and (feature `baselines`)
//! by a k-d tree and an R-tree.

use super::*;

/// Largest flock the brute-force pass is run on.
const BRUTE_MAX: usize = 20_000;

/// Every bird's neighbours within the radius, by each method, single-threaded, in a bounded
/// world (the trees know no torus). All methods must find the same pairs.
pub(super) fn methods(bench: &mut Bench, preset: &Preset, n: usize) {
    let mut params = params_for(preset, n, bench.args.neighbours);
    params.edges.mode = murmur_flock::murmur_core::edges::EdgeMode::Bounce;
    let r = params.model.interaction_radius();
    let (pos, vel) = initial_boids(&params, n, 1);
    #[cfg(feature = "baselines")]
    let points: Vec<[f32; 2]> = pos.iter().map(|p| [p.x, p.y]).collect();
    let bounds = params.bounds();
    let time = |f: &mut dyn FnMut() -> u64| -> (f64, u64) {
        let started = Instant::now();
        let found = f();
        (started.elapsed().as_secs_f64() * 1e3, found)
    };
    let one = pool(1);
    let mut results = Vec::new();
    one.install(|| {
        let mut grid = NeighbourGrid::new();
        // As the flock collects them: sort, then one pass per cell over its block of cells,
        // eight candidates at a time, summing what the steering needs.
        let request = SumsRequest {
            sight: r,
            near: 0.0,
            near_offsets: false,
            inverse: false,
        };
        let mut sums = Vec::new();
        results.push((
            "grid",
            time(&mut || {
                grid.rebuild(&bounds, r, &pos, &vel);
                sums.clear();
                sums.resize(n, NeighbourSums::default());
                for cell in 0..grid.layout().cell_count() {
                    let ks = grid.cell_range(cell);
                    let block = grid.block(cell);
                    grid.cell_sums(&block, ks.clone(), request, -1.0, &mut sums[ks]);
                }
                sums.iter().map(|s| s.seen as u64).sum()
            }),
        ));
        // The same grid visiting each neighbour with a callback (what a caller who wants the
        // neighbours themselves gets).
        results.push((
            "grid_visit",
            time(&mut || {
                grid.rebuild(&bounds, r, &pos, &vel);
                (0..n)
                    .map(|k| grid.for_each_neighbour(k, r, usize::MAX, |_, _, _| ()) as u64)
                    .sum()
            }),
        ));
        #[cfg(feature = "baselines")]
        results.push((
            "kiddo",
            time(&mut || {
                let tree: kiddo::ImmutableKdTree<f32, 2> =
                    kiddo::ImmutableKdTree::new_from_slice(&points);
                points
                    .iter()
                    .map(|p| {
                        tree.within_unsorted::<kiddo::SquaredEuclidean>(p, r * r)
                            .into_iter()
                            .filter(|nb| nb.distance < r * r)
                            .count() as u64
                            - 1
                    })
                    .sum()
            }),
        ));
        #[cfg(feature = "baselines")]
        results.push((
            "rstar",
            time(&mut || {
                let tree = rstar::RTree::bulk_load(points.clone());
                points
                    .iter()
                    .map(|p| {
                        tree.locate_within_distance(*p, r * r)
                            .filter(|q| {
                                let (dx, dy) = (q[0] - p[0], q[1] - p[1]);
                                dx * dx + dy * dy < r * r
                            })
                            .count() as u64
                            - 1
                    })
                    .sum()
            }),
        ));
        if n <= BRUTE_MAX {
            results.push((
                "brute",
                time(&mut || {
                    let r2 = r * r;
                    (0..n)
                        .map(|i| {
                            let p = pos[i];
                            pos.iter()
                                .filter(|q| (**q - p).length_squared() < r2)
                                .count() as u64
                                - 1
                        })
                        .sum()
                }),
            ));
        }
    });
    let pairs = results[0].1.1;
    for (method, (ms, found)) in results {
        bench.emit(json!({"kind": "neighbours", "method": method, "boids": n, "ms": ms, "pairs_found": found, "same_pairs_as_grid": found == pairs}));
    }
}
