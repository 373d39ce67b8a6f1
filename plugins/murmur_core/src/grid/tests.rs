use super::*;
use glam::Vec3;
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

/// Pairs this close to the radius may fall either side of it through rounding; skip them.
const BORDER_TOLERANCE: f32 = 1e-3;

fn random_points<V: Vector>(n: usize, bounds: &WorldBounds<V>, seed: u64) -> Vec<V> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    (0..n)
        .map(|_| {
            let mut u = V::ZERO;
            for a in 0..V::DIM {
                *u.axis_mut(a) = rng.random::<f32>();
            }
            bounds.min + bounds.size * u
        })
        .collect()
}

/// A 3D box of `w` x `h` x `d`.
fn box3(w: f32, h: f32, d: f32, wrapped: bool) -> WorldBounds<Vec3> {
    WorldBounds::centred3(w, h, d, wrapped)
}

/// Velocities of every direction and a few speeds.
fn spread_velocities<V: Vector>(n: usize, turn: f32) -> Vec<V> {
    (0..n)
        .map(|i| {
            let u = (i as f32 * turn).fract();
            let w = (i as f32 * 0.618_034).fract();
            V::direction_from(u, w) * (0.5 + (i % 4) as f32)
        })
        .collect()
}

fn brute_neighbours<V: Vector>(
    points: &[V],
    bounds: &WorldBounds<V>,
    i: usize,
    r: f32,
) -> Vec<u32> {
    let mut out: Vec<u32> = (0..points.len())
        .filter(|&j| j != i && bounds.delta(points[i], points[j]).length() < r)
        .map(|j| j as u32)
        .collect();
    out.sort_unstable();
    out
}

fn near_border<V: Vector>(
    points: &[V],
    bounds: &WorldBounds<V>,
    i: usize,
    j: usize,
    r: f32,
) -> bool {
    (bounds.delta(points[i], points[j]).length() - r).abs() < BORDER_TOLERANCE * r
}

/// Checks every boid's neighbour set and offsets against the brute-force answer.
fn check_against_brute_force<V: Vector>(points: &[V], bounds: &WorldBounds<V>, r: f32) {
    let vel = vec![V::ZERO; points.len()];
    let mut grid = NeighbourGrid::new();
    grid.rebuild(bounds, r, points, &vel);
    let mut rank = vec![0usize; points.len()];
    for (k, &i) in grid.order().iter().enumerate() {
        rank[i as usize] = k;
    }
    for i in 0..points.len() {
        let mut got = Vec::new();
        grid.for_each_neighbour(rank[i], r, usize::MAX, |j, d, d2| {
            let input = grid.order()[j];
            let expected = bounds.delta(points[i], points[input as usize]);
            assert!(
                (d - expected).length() < 1e-3,
                "offset {d:?} vs {expected:?}"
            );
            assert!((d2 - d.length_squared()).abs() < 1e-3);
            got.push(input);
        });
        got.sort_unstable();
        let want = brute_neighbours(points, bounds, i, r);
        let differ: Vec<u32> = got
            .iter()
            .filter(|j| !want.contains(j))
            .chain(want.iter().filter(|j| !got.contains(j)))
            .copied()
            .filter(|&j| !near_border(points, bounds, i, j as usize, r))
            .collect();
        assert!(
            differ.is_empty(),
            "boid {i} at {:?}: grid and brute force disagree on {differ:?}",
            points[i]
        );
    }
}

#[test]
fn bounded_random_sets_match_brute_force() {
    for (seed, (w, h, r, n)) in [
        (100.0, 80.0, 10.0, 400),
        (100.0, 80.0, 33.0, 200),
        (50.0, 50.0, 100.0, 50),
        (640.0, 480.0, 40.0, 1000),
    ]
    .into_iter()
    .enumerate()
    {
        let bounds = WorldBounds::centred(w, h, false);
        check_against_brute_force(&random_points(n, &bounds, seed as u64), &bounds, r);
    }
}

#[test]
fn wrapped_random_sets_match_brute_force_across_the_seam() {
    for (seed, (w, h, r, n)) in [
        (100.0, 80.0, 10.0, 400),
        (100.0, 80.0, 30.0, 300), // 3 x 2 cells: one axis narrower than a 3x3 block
        (100.0, 100.0, 60.0, 100), // a single cell per axis
        (10.0, 10.0, 1.0, 500),
    ]
    .into_iter()
    .enumerate()
    {
        let bounds = WorldBounds::centred(w, h, true);
        check_against_brute_force(&random_points(n, &bounds, 10 + seed as u64), &bounds, r);
    }
}

#[test]
fn random_sets_in_3d_match_brute_force_on_a_torus_and_in_a_box() {
    for (seed, (w, h, d, r, n)) in [
        (100.0, 80.0, 60.0, 10.0, 800),
        (100.0, 80.0, 60.0, 33.0, 300), // 3 x 2 x 1 cells on a torus: pairs by nearest image
        (40.0, 40.0, 40.0, 7.0, 600),   // cells along x narrower than the radius, seams each way
        (50.0, 50.0, 50.0, 100.0, 60),  // a single cell
    ]
    .into_iter()
    .enumerate()
    {
        for wrapped in [false, true] {
            let bounds = box3(w, h, d, wrapped);
            let points = random_points(n, &bounds, 30 + seed as u64);
            check_against_brute_force(&points, &bounds, r);
        }
    }
}

#[test]
fn boids_on_seams_and_cell_borders_find_each_other_in_3d() {
    let r = 10.0;
    for wrapped in [false, true] {
        let bounds = box3(60.0, 60.0, 60.0, wrapped);
        let mut points = Vec::new();
        for i in 0..=12 {
            for j in 0..=12 {
                for k in 0..=6 {
                    let at = |c: usize, step: f32| -30.0 + step * c as f32;
                    points.push(Vec3::new(at(i, 5.0), at(j, 5.0), at(k, 10.0)));
                }
            }
        }
        points.push(Vec3::new(29.999, 0.0, -30.0));
        check_against_brute_force(&points, &bounds, r);
    }
}

#[test]
fn boids_on_seams_and_cell_borders_find_each_other() {
    let r = 10.0;
    for wrapped in [false, true] {
        let bounds = WorldBounds::centred(100.0, 100.0, wrapped);
        let mut points = Vec::new();
        // A lattice at exactly the cell borders (multiples of the radius) and half-way, including
        // the world's edges: -50 and +50 are the same line on a torus.
        for i in 0..=20 {
            for j in 0..=20 {
                points.push(Vec2::new(-50.0 + 5.0 * i as f32, -50.0 + 5.0 * j as f32));
            }
        }
        points.push(Vec2::new(-50.0, -50.0)); // coincident with a lattice point
        points.push(Vec2::new(49.999, 0.0));
        check_against_brute_force(&points, &bounds, r);
    }
}

#[test]
fn neighbours_across_the_seam_are_seen_with_their_short_offset() {
    let bounds = WorldBounds::centred(100.0, 100.0, true);
    let points = [
        Vec2::new(-49.0, 0.0),
        Vec2::new(49.0, 0.0),
        Vec2::new(0.0, 49.5),
    ];
    let mut grid = NeighbourGrid::new();
    grid.rebuild(&bounds, 5.0, &points, &[Vec2::ZERO; 3]);
    let k = grid.order().iter().position(|&i| i == 0).unwrap();
    let mut seen = Vec::new();
    grid.for_each_neighbour(k, 5.0, usize::MAX, |j, d, _| {
        seen.push((grid.order()[j], d))
    });
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].0, 1);
    assert!((seen[0].1 - Vec2::new(-2.0, 0.0)).length() < 1e-4);
}

#[test]
fn cap_limits_the_neighbours_visited() {
    let bounds = WorldBounds::centred(10.0, 10.0, false);
    let points = vec![Vec2::ZERO; 20];
    let mut grid = NeighbourGrid::new();
    grid.rebuild(&bounds, 1.0, &points, &[Vec2::ZERO; 20]);
    let mut count = 0;
    assert_eq!(grid.for_each_neighbour(0, 1.0, 7, |_, _, _| count += 1), 7);
    assert_eq!(count, 7);
    assert_eq!(
        grid.for_each_neighbour(0, 1.0, usize::MAX, |_, _, _| ()),
        19
    );
}

#[test]
fn rebuild_is_a_stable_counting_sort() {
    let bounds = WorldBounds::centred(100.0, 100.0, false);
    let points = random_points(1000, &bounds, 7);
    let vel: Vec<Vec2> = (0..1000).map(|i| Vec2::new(i as f32, 0.0)).collect();
    let mut grid = NeighbourGrid::new();
    grid.rebuild(&bounds, 7.0, &points, &vel);
    let layout = *grid.layout();
    let mut previous = (0usize, 0u32);
    for (k, &i) in grid.order().iter().enumerate() {
        let cell = layout.cell_index(points[i as usize]);
        assert!(grid.cell_range(cell).contains(&k));
        assert_eq!(grid.vel(k).x, i as f32, "velocity travels with its boid");
        if k > 0 && cell == previous.0 {
            assert!(i > previous.1, "input order kept within a cell");
        }
        previous = (cell, i);
    }
}

fn check_nearest_distance<V: Vector>(bounds: &WorldBounds<V>, n: usize, r: f32) {
    // Sparse: most nearest neighbours lie several cells away.
    let points = random_points(n, bounds, 3);
    let mut grid = NeighbourGrid::new();
    grid.rebuild(bounds, r, &points, &vec![V::ZERO; n]);
    for (k, &i) in grid.order().iter().enumerate() {
        let want = (0..points.len())
            .filter(|&j| j != i as usize)
            .map(|j| bounds.delta(points[i as usize], points[j]).length())
            .fold(f32::INFINITY, f32::min);
        let got = grid.nearest_distance(k).unwrap();
        assert!((got - want).abs() < 1e-3, "boid {i}: {got} vs {want}");
    }
}

#[test]
fn nearest_distance_is_exact() {
    for wrapped in [false, true] {
        check_nearest_distance(&WorldBounds::centred(200.0, 120.0, wrapped), 60, 5.0);
        check_nearest_distance(&box3(200.0, 120.0, 90.0, wrapped), 80, 5.0);
    }
}

#[test]
fn degenerate_inputs_do_not_panic() {
    let bounds = WorldBounds::centred(100.0, 100.0, false);
    let mut grid = NeighbourGrid::new();
    grid.rebuild(&bounds, 10.0, &[], &[]);
    assert!(grid.is_empty());
    let far = [Vec2::new(1e9, -1e9), Vec2::new(f32::NAN, 0.0), Vec2::ZERO];
    grid.rebuild(&bounds, 10.0, &far, &[Vec2::ZERO; 3]);
    assert_eq!(grid.len(), 3);
    grid.rebuild(&bounds, 0.0, &far, &[Vec2::ZERO; 3]);
    grid.rebuild(&bounds, f32::NAN, &far, &[Vec2::ZERO; 3]);
    assert!(grid.nearest_distance(0).is_some());
    let one = [Vec2::ZERO];
    grid.rebuild(&bounds, 10.0, &one, &[Vec2::ZERO]);
    assert_eq!(grid.nearest_distance(0), None);
    assert_eq!(
        grid.for_each_neighbour(0, 10.0, usize::MAX, |_, _, _| ()),
        0
    );
}

fn check_sums_against_brute_force<V: Vector>(bounds: &WorldBounds<V>, n: usize) {
    let points = random_points(n, bounds, 21);
    let vel: Vec<V> = (0..n)
        .map(|i| {
            V::from_axes([
                (i % 7) as f32 - 3.0,
                (i % 5) as f32 - 2.0,
                (i % 3) as f32 - 1.0,
            ])
        })
        .collect();
    let (sight, near) = (9.0, 4.0);
    let mut grid = NeighbourGrid::new();
    grid.rebuild(bounds, sight, &points, &vel);
    for (k, &i) in grid.order().iter().enumerate() {
        let i = i as usize;
        let mut want = NeighbourSums::<V>::default();
        for j in (0..points.len()).filter(|&j| j != i) {
            let d = bounds.delta(points[i], points[j]);
            let d2 = d.length_squared();
            if d2 < sight * sight {
                want.seen += 1;
                want.seen_offset += d;
                want.seen_velocity += vel[j];
            }
            if d2 < near * near {
                want.near_offset += d;
                if d2 > 0.0 {
                    want.near_inverse += d / d2;
                    want.near_apart += 1;
                }
            }
        }
        for got in [
            grid.neighbour_sums::<true, true>(k, sight, near, usize::MAX, -1.0),
            grid.neighbour_sums::<true, true>(k, sight, near, 10_000, -1.0),
        ] {
            assert_eq!(got.seen, want.seen, "boid {i}");
            assert_eq!(got.near_apart, want.near_apart, "boid {i}");
            for (a, b) in [
                (got.seen_offset, want.seen_offset),
                (got.seen_velocity, want.seen_velocity),
                (got.near_offset, want.near_offset),
                (got.near_inverse, want.near_inverse),
            ] {
                assert!(
                    (a - b).length() < 1e-3 * (1.0 + b.length()),
                    "boid {i}: {a:?} vs {b:?}"
                );
            }
        }
    }
}

#[test]
fn neighbour_sums_match_brute_force_sums() {
    for wrapped in [false, true] {
        check_sums_against_brute_force(&WorldBounds::centred(120.0, 90.0, wrapped), 700);
        check_sums_against_brute_force(&box3(60.0, 45.0, 50.0, wrapped), 1200);
    }
}

fn check_blind_angle<V: Vector>(bounds: &WorldBounds<V>, n: usize) {
    let points = random_points(n, bounds, 11);
    let vel: Vec<V> = spread_velocities(n, 0.1226);
    let (sight, near) = (9.0, 4.0);
    let mut grid = NeighbourGrid::new();
    grid.rebuild(bounds, sight, &points, &vel);
    for blind_degrees in [90.0f32, 180.0, 300.0] {
        let min_cos = -(blind_degrees.to_radians() * 0.5).cos();
        let mut fewer = 0;
        for (k, &i) in grid.order().iter().enumerate() {
            let i = i as usize;
            let heading = vel[i].normalize_or_zero();
            let (mut seen, mut all_round, mut near_seen) = (0, 0, 0);
            for j in (0..points.len()).filter(|&j| j != i) {
                let d = bounds.delta(points[i], points[j]);
                let dist = d.length();
                if dist >= sight {
                    continue;
                }
                all_round += 1;
                let cos = heading.dot(d) / dist;
                if (cos - min_cos).abs() < 1e-4 {
                    // On the edge of the view: rounding may put it either side.
                    seen = u32::MAX;
                    break;
                }
                if cos >= min_cos {
                    seen += 1;
                    near_seen += (dist < near) as u32;
                }
            }
            if seen == u32::MAX {
                continue;
            }
            for got in [
                grid.neighbour_sums::<true, true>(k, sight, near, usize::MAX, min_cos),
                grid.neighbour_sums::<true, true>(k, sight, near, 10_000, min_cos),
            ] {
                assert_eq!(got.seen, seen, "boid {i}, blind {blind_degrees}");
                assert_eq!(got.near_apart, near_seen, "boid {i}, blind {blind_degrees}");
            }
            fewer += (seen < all_round) as u32;
        }
        assert!(fewer > 100, "the blind angle hides someone: {fewer}");
    }
}

#[test]
fn a_blind_angle_hides_the_birds_behind() {
    check_blind_angle(&WorldBounds::centred(60.0, 60.0, true), 800);
    check_blind_angle(&box3(30.0, 30.0, 30.0, true), 1500);
}

/// Every sum bit for bit, so that a flock's future cannot depend on which lanes computed it.
fn same_bits<V: Vector>(a: &NeighbourSums<V>, b: &NeighbourSums<V>) -> bool {
    let bits = |s: &NeighbourSums<V>| {
        [
            s.seen_offset,
            s.seen_velocity,
            s.near_offset,
            s.near_inverse,
        ]
        .map(|v| v.to_axes().map(f32::to_bits))
    };
    a.seen == b.seen && a.near_apart == b.near_apart && bits(a) == bits(b)
}

fn check_lane_forms<V: Vector>(bounds: &WorldBounds<V>, clump: &WorldBounds<V>, min_cos: f32) {
    use super::sums::LaneForm;
    let forms = LaneForm::available();
    // Not Plain alone where the build has a vector form: the comparison would be vacuous.
    #[cfg(target_arch = "x86_64")]
    assert!(forms.contains(&LaneForm::Sse), "{forms:?}");
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    assert!(forms.contains(&LaneForm::Simd128), "{forms:?}");
    #[cfg(any(
        target_arch = "x86_64",
        all(target_arch = "wasm32", target_feature = "simd128")
    ))]
    assert_ne!(
        LaneForm::best(),
        LaneForm::Plain,
        "the build has a vector form"
    );
    // Clumps and spread-out birds: short and long spans, tails at the columns' end.
    let mut points = random_points(900, bounds, 5);
    points.extend(random_points(300, clump, 6));
    let n = points.len();
    let mut vel: Vec<V> = spread_velocities(n, 0.0589);
    vel[7] = V::ZERO; // a still bird sees all round
    let request = SumsRequest {
        sight: 9.0,
        near: 4.0,
        near_offsets: true,
        inverse: true,
    };
    let mut grid = NeighbourGrid::new();
    grid.rebuild(bounds, request.sight, &points, &vel);
    let mut tested = 0;
    for cell in 0..grid.layout().cell_count() {
        let ks = grid.cell_range(cell);
        let block = grid.block(cell);
        let mut per_form = Vec::new();
        for &form in &forms {
            let mut out = vec![NeighbourSums::default(); ks.len()];
            grid.cell_sums_in(form, &block, ks.clone(), request, min_cos, &mut out);
            per_form.push(out);
        }
        for (i, k) in ks.clone().enumerate() {
            let one = grid.neighbour_sums::<true, true>(k, 9.0, 4.0, usize::MAX, min_cos);
            for (form, out) in forms.iter().zip(&per_form) {
                assert!(
                    same_bits(&out[i], &one),
                    "{} {form:?}, boid {k}: {:?} vs {one:?}",
                    V::NAME,
                    out[i]
                );
            }
            tested += 1;
        }
    }
    assert_eq!(tested, n);
}

#[test]
fn every_lane_form_and_batch_gives_the_same_bits() {
    for (wrapped, min_cos) in [(false, -1.0), (true, -1.0), (true, 0.3)] {
        check_lane_forms(
            &WorldBounds::centred(140.0, 100.0, wrapped),
            &WorldBounds::centred(12.0, 12.0, false),
            min_cos,
        );
        check_lane_forms(
            &box3(60.0, 40.0, 50.0, wrapped),
            &box3(12.0, 12.0, 12.0, false),
            min_cos,
        );
    }
}

#[test]
fn the_parallel_sort_is_the_one_thread_sort() {
    let bounds = WorldBounds::centred(3000.0, 2000.0, true);
    // Outside the world too: the sort wraps them in.
    let points = random_points(50_000, &WorldBounds::centred(4000.0, 2600.0, false), 8);
    let vel: Vec<Vec2> = (0..points.len())
        .map(|i| Vec2::new(i as f32, -(i as f32)))
        .collect();
    let sorted = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let mut grid = NeighbourGrid::new();
            grid.load(&points, &vel);
            let keys: Vec<u32> = (0..points.len() as u32).collect();
            grid.resort(&bounds, 25.0, &keys);
            let c = grid.columns().clone();
            let starts: Vec<_> = (0..grid.layout().cell_count())
                .map(|cell| grid.cell_range(cell))
                .collect();
            (grid.order().to_vec(), c.pos, c.vel, starts)
        })
    };
    let one = sorted(1);
    // Stable: within a cell, boids keep their input order.
    for range in &one.3 {
        assert!(one.0[range.clone()].is_sorted());
    }
    assert!(one == sorted(2), "1 vs 2 threads");
    assert!(one == sorted(7), "1 vs 7 threads");
}

#[test]
fn resort_puts_each_cells_boids_in_key_order_as_a_rebuild_in_key_order_does() {
    let bounds = WorldBounds::centred(900.0, 700.0, true);
    let n = 30_000;
    let points = random_points(n, &bounds, 21);
    let vel: Vec<Vec2> = (0..n).map(|i| Vec2::new(i as f32, 0.5)).collect();
    // Keys: a shuffled permutation (ids of birds stored in no particular order).
    let mut keys: Vec<u32> = (0..n as u32).collect();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    for i in (1..n).rev() {
        keys.swap(i, rng.random_range(0..=i));
    }
    // The reference: columns laid out in key order, rebuilt (stable in input order).
    let mut by_key = vec![(Vec2::ZERO, Vec2::ZERO); n];
    for i in 0..n {
        by_key[keys[i] as usize] = (points[i], vel[i]);
    }
    let (kp, kv): (Vec<Vec2>, Vec<Vec2>) = by_key.into_iter().unzip();
    let mut reference = NeighbourGrid::new();
    reference.rebuild(&bounds, 25.0, &kp, &kv);
    for threads in [1, 3] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let grid = pool.install(|| {
            let mut grid = NeighbourGrid::new();
            grid.load(&points, &vel);
            grid.resort(&bounds, 25.0, &keys);
            grid
        });
        assert_eq!(
            grid.columns().pos,
            reference.columns().pos,
            "{threads} threads"
        );
        assert_eq!(grid.columns().vel, reference.columns().vel);
        let sorted_keys: Vec<u32> = grid.order().iter().map(|&i| keys[i as usize]).collect();
        let expected: Vec<u32> = reference.order().to_vec();
        assert_eq!(sorted_keys, expected, "the same birds in the same slots");
    }
}

#[test]
fn a_crowded_cell_in_shuffled_order_is_sorted_by_key_too() {
    // Every boid in one cell: the sort's large-cell path.
    let bounds = WorldBounds::centred(100.0, 100.0, false);
    let n = 500;
    let points: Vec<Vec2> = (0..n)
        .map(|i| Vec2::new((i % 7) as f32, (i % 5) as f32))
        .collect();
    let vel = vec![Vec2::ZERO; n];
    let keys: Vec<u32> = (0..n as u32).map(|i| (i * 7919) % n as u32).collect();
    let mut grid = NeighbourGrid::new();
    grid.load(&points, &vel);
    grid.resort(&bounds, 1000.0, &keys);
    let sorted: Vec<u32> = grid.order().iter().map(|&i| keys[i as usize]).collect();
    assert!(sorted.is_sorted(), "by key");
    for (k, &i) in grid.order().iter().enumerate() {
        assert_eq!(
            grid.pos(k),
            points[i as usize],
            "columns move with their boids"
        );
    }
}

fn check_fast_blocks<V: Vector>(bounds: &WorldBounds<V>, r: f32, interior_spans: usize) {
    let vel = vec![V::ZERO; 400];
    let mut grid = NeighbourGrid::new();
    grid.rebuild(bounds, r, &random_points(400, bounds, 3), &vel);
    let (mut fast, mut by_runs) = (grid.block(0), grid.block(0));
    let mut interior = 0;
    for cell in 0..grid.layout().cell_count() {
        grid.fill_block(cell, &mut fast);
        grid.fill_block_by_runs(cell, &mut by_runs);
        let spans = |b: &CellBlock<V>| {
            b.spans().map(|s| {
                s.iter()
                    .map(|s| (s.start, s.end, s.shift))
                    .collect::<Vec<_>>()
            })
        };
        assert_eq!(
            spans(&fast),
            spans(&by_runs),
            "cell {cell}, {bounds:?}, r {r}"
        );
        interior += usize::from(spans(&fast).is_some_and(|s| s.len() == interior_spans));
    }
    // Negative control: the comparison covered cells of the fast path.
    assert!(interior > 0, "{bounds:?}: no cell away from the edges");
}

#[test]
fn a_block_away_from_the_edges_is_the_one_its_runs_give() {
    for wrapped in [false, true] {
        for (w, h, r) in [(100.0, 100.0, 5.0), (150.0, 90.0, 15.0), (30.0, 200.0, 9.0)] {
            check_fast_blocks(&WorldBounds::centred(w, h, wrapped), r, 3);
            check_fast_blocks(&box3(w, h, 0.5 * w.max(h), wrapped), r, 9);
        }
    }
}

#[test]
fn a_resort_by_ids_without_gaps_is_the_general_resort() {
    for n in [1, 200, 3000] {
        let bounds = WorldBounds::centred(100.0, 100.0, true);
        // Half the birds in a clump, so that cells hold several birds out of key order.
        let mut points = random_points(n - n / 2, &bounds, 9);
        points.extend(random_points(
            n / 2,
            &WorldBounds::centred(8.0, 8.0, false),
            10,
        ));
        let vel: Vec<Vec2> = (0..n).map(|i| Vec2::new(i as f32, 1.0)).collect();
        let mut ids: Vec<u32> = (0..n as u32).collect();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(n as u64);
        for i in (1..n).rev() {
            ids.swap(i, rng.random_range(0..=i));
        }
        let sorted = |keys: &[u32]| {
            let mut grid = NeighbourGrid::new();
            grid.load(&points, &vel);
            grid.resort(&bounds, 5.0, keys);
            let starts: Vec<_> = (0..grid.layout().cell_count())
                .map(|cell| grid.cell_range(cell))
                .collect();
            let c = grid.columns().clone();
            (grid.order().to_vec(), c.pos, c.vel, starts)
        };
        let dense = sorted(&ids);
        // The same order of keys with gaps between them takes the general path.
        let spread: Vec<u32> = ids.iter().map(|&k| 3 * k + 1).collect();
        assert!(
            dense == sorted(&spread),
            "{n} birds: ids without gaps vs with gaps"
        );
        for range in &dense.3 {
            let keys: Vec<u32> = dense.0[range.clone()]
                .iter()
                .map(|&i| ids[i as usize])
                .collect();
            assert!(keys.is_sorted(), "each cell by key");
        }
        if n > 1 {
            // A key twice is no permutation: the general path, still each cell by key.
            let mut twice = ids.clone();
            twice[0] = twice[1];
            let (order, .., starts) = sorted(&twice);
            for range in &starts {
                let keys: Vec<u32> = order[range.clone()]
                    .iter()
                    .map(|&i| twice[i as usize])
                    .collect();
                assert!(keys.is_sorted(), "{n} birds, a key twice: each cell by key");
            }
        }
    }
}

/// Every bird's sums in the plain lane form, a cell at a time over the cell's block: the
/// reference the faster paths must match bit for bit.
fn plain_sums_cell_by_cell<V: Vector>(
    grid: &NeighbourGrid<V>,
    request: SumsRequest,
    min_cos: f32,
) -> Vec<NeighbourSums<V>> {
    let mut sums = vec![NeighbourSums::default(); grid.len()];
    for cell in 0..grid.layout().cell_count() {
        let ks = grid.cell_range(cell);
        let block = grid.block(cell);
        let out = &mut sums[ks.clone()];
        grid.cell_sums_in(
            super::sums::LaneForm::Plain,
            &block,
            ks,
            request,
            min_cos,
            out,
        );
    }
    sums
}

fn check_sums_in_order<V: Vector>(
    bounds: &WorldBounds<V>,
    clump: &WorldBounds<V>,
    min_cos: f32,
    inverse: bool,
    narrow: bool,
) {
    use super::sums::LaneForm;
    // Sparse birds (spans of a few birds, the short-span path) and a clump (long spans).
    let mut points = random_points(300, bounds, 12);
    points.extend(random_points(150, clump, 13));
    let vel: Vec<V> = spread_velocities(points.len(), 0.0971);
    let request = SumsRequest {
        sight: 5.0,
        near: 1.5,
        near_offsets: true,
        inverse,
    };
    let mut grid = NeighbourGrid::new();
    grid.rebuild(bounds, request.sight, &points, &vel);
    let n = grid.len();
    let each_cell = plain_sums_cell_by_cell(&grid, request, min_cos);
    assert!(each_cell.iter().any(|s| s.seen > 0), "birds see each other");
    assert_eq!(
        grid.block(0).spans().is_none(),
        narrow,
        "the narrow torus takes pairs"
    );
    for form in LaneForm::available() {
        // The whole flock, and a range that starts and ends inside cells.
        for ks in [0..n, 101..n - 57] {
            let mut out = vec![NeighbourSums::default(); ks.len()];
            grid.sums_in_order_in(form, ks.clone(), request, min_cos, &mut out);
            for (k, got) in ks.zip(&out) {
                assert!(
                    same_bits(got, &each_cell[k]),
                    "{} {form:?}, boid {k}: {got:?} vs {:?}",
                    V::NAME,
                    each_cell[k]
                );
            }
        }
    }
}

#[test]
fn sums_in_cell_order_are_each_cells_sums_on_every_lane_form() {
    // The last: a torus two cells wide, whose cells have no spans (pairs by nearest image).
    for (width, wrapped, min_cos, inverse) in [
        (100.0, true, -1.0, false),
        (100.0, false, -1.0, true),
        (100.0, true, 0.3, false),
        (12.0, true, -1.0, false),
    ] {
        let narrow = width < 15.0;
        check_sums_in_order(
            &WorldBounds::centred(width, 100.0, wrapped),
            &WorldBounds::centred(10.0, 10.0, false),
            min_cos,
            inverse,
            narrow,
        );
        check_sums_in_order(
            &box3(width * 0.4, 40.0, 30.0, wrapped),
            &box3(10.0, 10.0, 10.0, false),
            min_cos,
            inverse,
            narrow,
        );
    }
}

#[cfg(target_arch = "x86_64")]
#[test]
fn birds_of_different_cells_summed_two_at_a_time_give_each_cells_bits() {
    use super::pairs::{ShortRows, sum_short_rows_avx512};
    use super::sums::LaneForm;
    if !LaneForm::available().contains(&LaneForm::Avx512) {
        eprintln!("no AVX-512 here: the pairs are not built for this CPU");
        return;
    }
    let bounds = WorldBounds::centred(100.0, 100.0, false);
    let points = random_points(400, &bounds, 21);
    let vel: Vec<Vec2> = (0..points.len())
        .map(|i| Vec2::from_angle(i as f32 * 0.43) * (0.5 + (i % 5) as f32))
        .collect();
    for (near_offsets, inverse, min_cos) in [(true, false, -1.0), (true, true, 0.2)] {
        let request = SumsRequest {
            sight: 5.0,
            near: 2.0,
            near_offsets,
            inverse,
        };
        let mut grid = NeighbourGrid::new();
        grid.rebuild(&bounds, request.sight, &points, &vel);
        let n = grid.len();
        let expected = plain_sums_cell_by_cell(&grid, request, min_cos);
        // The birds of cells away from the edges whose three rows hold at most eight birds.
        let (nx, ny) = (grid.layout().nx, grid.layout().ny);
        let mut birds = Vec::new();
        for cell in 0..grid.layout().cell_count() {
            let (cx, cy) = (cell % nx, cell / nx);
            if !(1..nx - 1).contains(&cx) || !(1..ny - 1).contains(&cy) {
                continue;
            }
            let rows = [0, 1, 2].map(|r| {
                let first = (cy + r - 1) * nx + cx - 1;
                (grid.cell_start[first], grid.cell_start[first + 3])
            });
            if rows.iter().all(|&(s, e)| e - s <= 8) {
                for k in grid.cell_range(cell) {
                    birds.push(ShortRows {
                        k: k as u32,
                        start: rows.map(|(s, _)| s),
                        mask: rows.map(|(s, e)| ((1u32 << (e - s)) - 1) as u8),
                    });
                }
            }
        }
        assert!(birds.len() > 150, "most birds: {}", birds.len());
        let cell_of = |b: &ShortRows| grid.cell_of(b.k as usize);
        assert!(
            birds
                .chunks(2)
                .any(|p| p.len() == 2 && cell_of(&p[0]) != cell_of(&p[1])),
            "some pairs join birds of two cells"
        );
        // All of them (pairs), and an odd number (the last bird alone in its register).
        let odd = birds.len() - 1 - birds.len() % 2;
        for some in [&birds[..], &birds[..odd]] {
            let radii = super::sums::Radii {
                sight2: request.sight * request.sight,
                near2: request.near * request.near,
                heading: Vec2::ZERO,
                min_cos,
            };
            let mut got = vec![NeighbourSums::default(); n];
            // SAFETY: AVX-512 was found above; the rows are the grid's own.
            unsafe {
                match (inverse, min_cos > -1.0) {
                    (false, false) => {
                        sum_short_rows_avx512::<true, false, false>(&grid, some, 0, radii, &mut got)
                    }
                    _ => sum_short_rows_avx512::<true, true, true>(&grid, some, 0, radii, &mut got),
                }
            }
            for b in some {
                let k = b.k as usize;
                assert!(
                    same_bits(&got[k], &expected[k]),
                    "bird {k}: {:?} vs {:?}",
                    got[k],
                    expected[k]
                );
            }
        }
    }
}
