//! The starling model held to the field figures of real murmurations (the table in
//! docs/starlings.md), at a size CI affords: 1,000 birds for half a minute of their time.

use murmur_core::Vec3;
use murmur_core::grid::NeighbourGrid;
use murmur_core::metrics::FlockMetrics;
use murmur_core::models::{Model, Starlings};
use murmur_core::murmuration::MurmurationFigures;
use murmur_core::preset::Preset;
use murmur_core::sim::{FlockSim, collect_neighbours};

/// The `starlings` preset for `birds`, its start box scaled to keep its density, with overrides.
fn flock(birds: usize, seed: u64, overrides: &[&str]) -> FlockSim<Vec3> {
    let mut preset = Preset::load("starlings").unwrap();
    let scale = (birds as f32 / preset.world.boids as f32).cbrt();
    preset.world.width *= scale;
    preset.world.height *= scale;
    preset.world.depth *= scale;
    preset.apply_overrides(overrides).unwrap();
    FlockSim::new(preset.flock_params(), birds, seed)
}

/// Figures averaged over one sample a second from `from` to `to` seconds of the birds' time.
#[derive(Debug, Default)]
struct Watched {
    polarization: f64,
    nn: f64,
    thickness: f64,
    width: f64,
    length: f64,
    heeded: f64,
    border: f64,
    xi: f64,
    size: f64,
}

fn watch(sim: &mut FlockSim<Vec3>, from: u32, to: u32) -> Watched {
    let Model::Starlings(m) = &sim.params.model else {
        panic!("a starling flock")
    };
    let per_second = (1.0 / m.time_step).round() as u32;
    let ids: Vec<u32> = (0..sim.len() as u32).collect();
    let mut w = Watched::default();
    let mut samples = 0.0;
    for second in 1..=to {
        for _ in 0..per_second {
            sim.step();
        }
        if second < from {
            continue;
        }
        let mut grid = NeighbourGrid::new();
        collect_neighbours(&mut grid, &sim.params, &sim.pos, &sim.vel);
        let metrics = FlockMetrics::measure(&grid, &sim.params);
        let f = MurmurationFigures::measure(&sim.params, &sim.pos, &sim.vel, &ids);
        let [t, wd, l] = metrics.shape.expect("3D");
        w.polarization += metrics.polarization;
        w.nn += metrics.mean_nn_distance.expect("birds");
        (w.thickness, w.width, w.length) = (w.thickness + t, w.width + wd, w.length + l);
        w.heeded += f.interaction_neighbours;
        w.border += f.border_density_ratio.expect("an inside and a border");
        w.xi += f.correlation_length.expect("correlations fall to zero");
        w.size += f.flock_size;
        samples += 1.0;
    }
    for x in [
        &mut w.polarization,
        &mut w.nn,
        &mut w.thickness,
        &mut w.width,
        &mut w.length,
        &mut w.heeded,
        &mut w.border,
        &mut w.xi,
        &mut w.size,
    ] {
        *x /= samples;
    }
    w
}

#[test]
fn a_murmuration_holds_to_the_field_figures() {
    for seed in [1, 2] {
        let w = watch(&mut flock(1000, seed, &[]), 5, 20);
        let what = format!("seed {seed}: {w:?}");
        assert!(
            (0.84..=0.995).contains(&w.polarization),
            "polarization: {what}"
        );
        assert!((0.68..=1.51).contains(&w.nn), "nearest neighbour: {what}");
        assert!((5.0..=19.0).contains(&w.thickness), "thickness: {what}");
        assert!(w.thickness < 0.4 * w.length, "a sheet, not a ball: {what}");
        assert!((6.0..=7.0).contains(&w.heeded), "neighbours heeded: {what}");
        assert!(w.border > 1.0, "denser at the border: {what}");
        assert!(
            (0.1..=0.4).contains(&(w.xi / w.size)),
            "correlation length over size: {what}"
        );
    }
}

#[test]
fn a_flock_started_as_a_ball_without_the_height_pull_is_no_sheet() {
    // The negative control of the shape row: the same birds in a cube, nothing flattening them.
    let w = watch(
        &mut flock(
            1000,
            1,
            &[
                "world.width=20",
                "world.height=20",
                "world.depth=20",
                "starlings.height_pull=0",
            ],
        ),
        5,
        20,
    );
    assert!(w.thickness > 0.5 * w.length, "{w:?}");
}

#[test]
fn the_heeded_count_stays_whatever_the_density_and_a_metric_radius_does_not() {
    // Two flocks, the second spaced wider by a stronger separation; each read by the model's
    // own rule and by a metric one (every bird within 2.5 m, up to 32) on the same birds.
    let read = |separation: &str| {
        let mut sim = flock(1000, 3, &[separation]);
        let w = watch(&mut sim, 8, 12);
        let mut metric = Preset::load("starlings").unwrap();
        metric
            .apply_overrides(&["starlings.topological_range=32", "starlings.max_radius=2.5"])
            .unwrap();
        let ids: Vec<u32> = (0..sim.len() as u32).collect();
        let by_radius =
            MurmurationFigures::measure(&metric.flock_params(), &sim.pos, &sim.vel, &ids);
        (w.nn, w.heeded, by_radius.interaction_neighbours)
    };
    let (nn_dense, heeded_dense, metric_dense) = read("starlings.separation_weight=0.25");
    let (nn_sparse, heeded_sparse, metric_sparse) = read("starlings.separation_weight=0.45");
    // The premise: the density (1 / spacing^3) at least halves.
    assert!(
        (nn_sparse / nn_dense).powi(3) > 1.8,
        "spacing {nn_dense} -> {nn_sparse}"
    );
    assert!(
        (heeded_dense - heeded_sparse).abs() < 0.05 && (6.0..=7.0).contains(&heeded_dense),
        "topological: {heeded_dense} -> {heeded_sparse}"
    );
    assert!(
        metric_dense > 1.5 * metric_sparse,
        "a metric radius's count follows the density: {metric_dense} -> {metric_sparse}"
    );
}

#[test]
fn the_correlation_length_grows_with_the_flock() {
    let small = watch(&mut flock(400, 1, &[]), 6, 12);
    let large = watch(&mut flock(2000, 1, &[]), 6, 12);
    assert!(large.size > 1.4 * small.size, "{small:?} {large:?}");
    assert!(large.xi > 1.3 * small.xi, "{small:?} {large:?}");
}

#[test]
fn the_nearest_neighbours_are_those_a_brute_force_finds() {
    for (edges, seed) in [("none", 1), ("wrap", 2), ("bounce", 3)] {
        let mut preset = Preset::load("starlings").unwrap();
        preset.set("edges.mode", edges).unwrap();
        let params = preset.flock_params();
        let sim = FlockSim::<Vec3>::new(params.clone(), 600, seed);
        let mut grid = NeighbourGrid::new();
        collect_neighbours(&mut grid, &params, &sim.pos, &sim.vel);
        let world = params.bounds_in::<Vec3>();
        let wrapped = edges == "wrap";
        let Model::Starlings(m) = &params.model else {
            panic!()
        };
        for k in 0..grid.len() {
            let mut brute: Vec<(f32, u32)> = (0..grid.len())
                .filter(|&j| j != k)
                .map(|j| {
                    let d = if wrapped {
                        world.delta(grid.pos(k), grid.pos(j))
                    } else {
                        grid.pos(j) - grid.pos(k)
                    };
                    (d.length_squared(), j as u32)
                })
                .collect();
            brute.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            let mut out = [(0.0, 0u32, Vec3::ZERO); 13];
            let found = grid.nearest_where(k, f32::INFINITY, &mut out, |_, _| true);
            assert_eq!(found, 13);
            for (got, want) in out.iter().zip(&brute) {
                assert_eq!(
                    (got.1, got.0.to_bits()),
                    (want.1, want.0.to_bits()),
                    "{edges} bird {k}"
                );
            }
            // The heeded: the nearest outside the blind cone.
            let heading = grid.vel(k).normalize();
            let min_cos = -(m.blind_angle.to_radians() * 0.5).cos();
            let seen: Vec<u32> = brute
                .iter()
                .filter(|(d2, j)| {
                    let d = if wrapped {
                        world.delta(grid.pos(k), grid.pos(*j as usize))
                    } else {
                        grid.pos(*j as usize) - grid.pos(k)
                    };
                    d.dot(heading) >= min_cos * d2.sqrt()
                })
                .map(|b| b.1)
                .take(7)
                .collect();
            let mut near = [(0.0, 0u32, Vec3::ZERO); murmur_core::grid::MAX_NEAREST];
            let n = Starlings::heeded(m, &grid, k, 7, &mut near);
            let got: Vec<u32> = near[..n].iter().map(|h| h.1).collect();
            assert_eq!(got, seen, "{edges} bird {k}: heeded");
        }
    }
}
