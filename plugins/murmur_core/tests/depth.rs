//! How 3D flocks behave: order emerges and birds keep apart, leaders gather them on a ring about
//! an axis, the box and the 3-torus hold, solids and the ground are never entered, the science
//! models reach their regimes, nothing turns NaN, results do not depend on threads, and the
//! flock's shape is measured.

use murmur_core::edges::EdgeMode;
use murmur_core::leader::{LeaderMode, LeaderParams};
use murmur_core::metrics::{Regime, orbit_about, shape};
use murmur_core::models::ModelKind;
use murmur_core::prelude3d::*;
use murmur_core::sim::LeaderState;

fn sim(preset: &str, n: usize, seed: u64, overrides: &[&str]) -> FlockSim {
    let mut p = Preset::load(preset).unwrap();
    p.apply_overrides(overrides).unwrap();
    let mut s = FlockSim::new(p.flock_params(), n, seed);
    s.solids = p.obstacles.iter().filter_map(Obstacle::solid).collect();
    s
}

fn assert_finite(s: &FlockSim, what: &str) {
    assert!(
        s.pos.iter().chain(&s.vel).all(|v| v.is_finite()),
        "{what}: non-finite state"
    );
}

#[test]
fn flocks_order_in_3d_and_keep_their_spacing() {
    for preset in ["reynolds3d", "cornell3d", "spaceboids3d"] {
        let mut s = sim(preset, 600, 1, &["width=300", "height=300", "depth=300"]);
        s.solids.clear();
        let start = s.metrics();
        assert!(
            start.polarization < 0.15,
            "{preset}: random start {start:?}"
        );
        let (mut pol, mut samples) = (0.0, 0);
        let (mut lowest_min, mut lowest_mean) = (f64::INFINITY, f64::INFINITY);
        for t in 0..1500 {
            s.step();
            if t >= 1000 && t % 25 == 0 {
                let m = s.metrics();
                pol += m.polarization;
                samples += 1;
                lowest_min = lowest_min.min(m.min_nn_distance.unwrap());
                lowest_mean = lowest_mean.min(m.mean_nn_distance.unwrap());
            }
        }
        let pol = pol / samples as f64;
        let near = s.params.model.near_radius() as f64;
        eprintln!(
            "{preset}: polarization {pol:.3}, closest pair {lowest_min:.2}, mean {lowest_mean:.2}"
        );
        assert!(
            pol > 0.35 && pol > 5.0 * start.polarization,
            "{preset}: ordered ({pol} from {})",
            start.polarization
        );
        // Birds are points and may cross close by, but never merge, and the flock keeps its
        // spacing near the near radius rather than collapsing.
        assert!(lowest_min > 0.0, "{preset}: closest pair {lowest_min}");
        assert!(
            lowest_mean > 0.25 * near,
            "{preset}: mean spacing {lowest_mean}"
        );
        assert!(
            s.metrics().mean_neighbours > start.mean_neighbours,
            "{preset}: flocks form"
        );
        assert_finite(&s, preset);
    }
}

#[test]
fn a_flock_gathers_on_a_ring_about_the_leaders_axis_and_circles_it() {
    for (axis, preset) in [
        ([0.0, 1.0, 0.0], "reynolds3d"),
        ([1.0, 1.0, 0.0], "cornell3d"),
    ] {
        let mut s = sim(preset, 300, 4, &["edges.mode=none"]);
        s.solids.clear();
        let leader = Vec3::new(60.0, 20.0, -40.0);
        let params = LeaderParams {
            orbit_axis: axis,
            ..Preset::load(preset).unwrap().leader
        };
        s.leaders.push(LeaderState {
            pos: leader,
            params,
        });
        let axis = params.axis();
        // Distance from the ring's plane and from the axis, and the rotation about the axis.
        let figures = |s: &FlockSim| {
            let n = s.len() as f32;
            let (mut off_plane, mut radius, mut spin) = (0.0, 0.0, 0.0);
            for (p, v) in s.pos.iter().zip(&s.vel) {
                let r = *p - leader;
                let along = r.dot(axis);
                off_plane += along.abs() / n;
                radius += (r - axis * along).length() / n;
                spin += r.cross(*v).dot(axis) / (r.length() * v.length()).max(1e-6) / n;
            }
            (off_plane, radius, spin)
        };
        let (start_off, start_radius, _) = figures(&s);
        for _ in 0..1500 {
            s.step();
        }
        let (mut off, mut radius, mut spin) = (0.0, 0.0, 0.0);
        for _ in 0..20 {
            for _ in 0..10 {
                s.step();
            }
            let (o, r, w) = figures(&s);
            (off, radius, spin) = (off + o / 20.0, radius + r / 20.0, spin + w / 20.0);
        }
        let r = params.orbit_radius;
        assert!(
            start_radius > 2.0 * r,
            "{preset}: started spread out ({start_radius})"
        );
        assert!(
            radius < 2.5 * r && radius > 0.5 * r,
            "{preset}: on the ring ({radius} vs {r}, from {start_radius})"
        );
        assert!(
            off < 0.5 * start_off.max(r),
            "{preset}: near its plane ({off} from {start_off})"
        );
        assert!(
            spin > 0.4,
            "{preset}: circles counter-clockwise about {axis} ({spin})"
        );
        // The figure the metrics module gives about the vertical agrees in sign.
        if axis == Vec3::Y {
            let (_, about) = orbit_about(&s.params.bounds_in(), leader, &s.pos, &s.vel);
            assert!(about > 0.3, "orbit_about: {about}");
        }
    }
}

#[test]
fn a_flock_flees_a_fleeing_leader_in_3d() {
    let mut s = sim("reynolds3d", 600, 5, &["edges.mode=wrap"]);
    s.solids.clear();
    let params = LeaderParams {
        mode: LeaderMode::Flee,
        flee_force: 0.5,
        ..LeaderParams::default()
    };
    let leader = Vec3::ZERO;
    let core = 0.5 * params.flee_radius;
    let inside = |s: &FlockSim| s.pos.iter().filter(|p| p.distance(leader) < core).count();
    let size = s.params.world_size3();
    let uniform =
        s.len() as f32 * 4.0 / 3.0 * std::f32::consts::PI * core.powi(3) / size.element_product();
    s.leaders.push(LeaderState {
        pos: leader,
        params,
    });
    let (mut total, mut samples) = (0usize, 0usize);
    for t in 0..600 {
        s.step();
        if t >= 300 {
            total += inside(&s);
            samples += 1;
        }
    }
    let mean = total as f32 / samples as f32;
    assert!(
        uniform > 3.0,
        "a ball that ignoring birds would fill ({uniform})"
    );
    assert!(mean < 0.2 * uniform, "they keep away: {mean} vs {uniform}");
}

#[test]
fn no_bird_leaves_a_bounded_box_and_the_torus_holds() {
    for preset in ["reynolds3d", "cornell3d", "spaceboids3d"] {
        for mode in ["turn", "bounce"] {
            let mut s = sim(
                preset,
                300,
                6,
                &[
                    &format!("edges.mode={mode}"),
                    "margin=5",
                    "turn_factor=0.01",
                ],
            );
            s.solids.clear();
            let world = s.params.bounds_in();
            for t in 0..600 {
                s.step();
                if let Some(p) = s.pos.iter().find(|p| !world.contains(**p)) {
                    panic!("{preset}/{mode}: a bird left the box at tick {t}: {p}");
                }
            }
        }
    }
    let mut s = sim("cornell3d", 300, 7, &["edges.mode=wrap"]);
    let world = s.params.bounds_in::<Vec3>();
    for _ in 0..300 {
        s.step();
        assert!(
            s.pos
                .iter()
                .all(|p| p.cmpge(world.min).all() && p.cmplt(world.max()).all())
        );
    }
}

/// The least of every bird's distance to every solid over `ticks` ticks, and how many birds
/// came within `reach` of one (that the check is not vacuous).
fn closest_approach(s: &mut FlockSim, solids: &[Solid], ticks: usize, reach: f32) -> (f32, usize) {
    let (mut least, mut close) = (f32::INFINITY, 0);
    for _ in 0..ticks {
        s.step();
        for p in &s.pos {
            let d = solids
                .iter()
                .map(|o| o.distance(*p))
                .fold(f32::INFINITY, f32::min);
            least = least.min(d);
            close += (d < reach) as usize;
        }
    }
    (least, close)
}

#[test]
fn birds_fly_round_solids_and_never_enter_them_or_the_ground() {
    let solids = vec![
        Solid::Sphere {
            centre: Vec3::new(0.0, 0.0, 0.0),
            radius: 60.0,
        },
        Solid::Cuboid {
            centre: Vec3::new(-150.0, -50.0, 120.0),
            half: Vec3::new(30.0, 120.0, 20.0),
            yaw: 0.4,
        },
        Solid::Ground { height: -120.0 },
    ];
    for preset in ["reynolds3d", "cornell3d"] {
        // A leader behind the sphere pulls the flock through where the solids stand, and the
        // ground lies inside the box, above its floor: only avoidance keeps them out.
        let overrides = ["edges.mode=turn", "width=500", "height=300", "depth=500"];
        let leader = LeaderState {
            pos: Vec3::new(0.0, -60.0, 0.0),
            params: LeaderParams {
                orbit_radius: 40.0,
                ..LeaderParams::default()
            },
        };
        let mut with = sim(preset, 800, 3, &overrides);
        with.solids = solids.clone();
        with.leaders.push(leader);
        let clearance = with.params.avoidance.clearance;
        let (least, close) = closest_approach(&mut with, &solids, 600, 20.0);
        assert!(
            least >= clearance - 1e-3,
            "{preset}: a bird came within {least} of a solid"
        );
        assert!(
            close > 1000,
            "{preset}: birds flew close to the solids ({close})"
        );
        assert_finite(&with, preset);
        // Negative control: without the solids, the same flock flies right through them.
        let mut without = sim(preset, 800, 3, &overrides);
        without.solids.clear();
        without.leaders.push(leader);
        let (least, _) = closest_approach(&mut without, &solids, 600, 20.0);
        assert!(
            least < -10.0,
            "{preset}: without solids birds fly inside them ({least})"
        );
    }
}

#[test]
fn a_flock_over_the_ground_never_flies_into_it() {
    // An open world: no edge turns the birds, only the ground, and a leader below it.
    let mut s = sim("reynolds3d", 400, 9, &["edges.mode=none"]);
    let ground = -200.0;
    s.solids = vec![Solid::Ground { height: ground }];
    s.leaders.push(LeaderState {
        pos: Vec3::new(0.0, ground - 100.0, 0.0),
        params: LeaderParams::default(),
    });
    let clearance = s.params.avoidance.clearance;
    for t in 0..800 {
        s.step();
        let lowest = s.pos.iter().map(|p| p.y).fold(f32::INFINITY, f32::min);
        assert!(
            lowest >= ground + clearance - 1e-3,
            "tick {t}: a bird at {lowest}"
        );
    }
    let low = s.pos.iter().filter(|p| p.y < ground + 30.0).count();
    assert!(low > 100, "the leader drew them down to the ground ({low})");
}

#[test]
fn degenerate_3d_flocks_never_produce_nan() {
    for kind in ModelKind::ALL {
        for mode in EdgeMode::ALL {
            let mut preset = Preset::defaults_for(kind);
            preset.edges.mode = mode;
            preset.world.depth = 300.0;
            let params = preset.flock_params();
            let what = format!("{}/{}", kind.name(), mode.name());
            let mut s = FlockSim::from_state(
                params.clone(),
                vec![Vec3::ZERO; 50],
                vec![Vec3::ZERO; 50],
                1,
            );
            s.leaders.push(LeaderState {
                pos: Vec3::ZERO,
                params: LeaderParams::default(),
            });
            s.solids = vec![Solid::Sphere {
                centre: Vec3::ZERO,
                radius: 5.0,
            }];
            for _ in 0..50 {
                s.step();
            }
            assert_finite(&s, &what);
            let mut one = FlockSim::new(params.clone(), 1, 1);
            let mut none = FlockSim::new(params, 0, 1);
            for _ in 0..50 {
                one.step();
                none.step();
            }
            assert_finite(&one, &what);
            assert_eq!(one.metrics().mean_nn_distance, None);
            assert_eq!(none.metrics().boids, 0);
        }
    }
}

#[test]
fn a_million_birds_in_3d_step_without_nan() {
    let mut s = sim(
        "cornell3d",
        1_000_000,
        8,
        &["width=4000", "height=4000", "depth=4000", "edges.mode=wrap"],
    );
    for _ in 0..2 {
        s.step();
    }
    assert_finite(&s, "1M cornell3d");
    assert!(s.neighbours.iter().any(|&n| n > 0));
}

#[test]
fn results_in_3d_do_not_depend_on_the_thread_count() {
    let hash_with = |threads: usize, preset: &str| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            // Couzin's group starts in a small volume, where every bird sees every other.
            let n = if preset == "couzin3d" { 300 } else { 2000 };
            let mut s = sim(preset, n, 9, &[]);
            s.leaders.push(LeaderState {
                pos: Vec3::ZERO,
                params: LeaderParams::default(),
            });
            // Enough birds for the parallel passes, in a world sized for them.
            let mut big = s.params.clone();
            let side =
                (20_000.0 * 4.0 * std::f32::consts::PI * big.model.interaction_radius().powi(3)
                    / (3.0 * 20.0))
                    .cbrt();
            (big.world_size, big.world_depth) = (glam::Vec2::splat(side), side);
            big.edges.mode = EdgeMode::Wrap;
            let mut f = FastFlock::new(big, 20_000, 4);
            f.set_solids(&s.solids);
            for _ in 0..100 {
                s.step();
            }
            for _ in 0..20 {
                f.step();
            }
            (s.state_hash(), s.metrics(), f.state_hash())
        })
    };
    for preset in ["reynolds3d", "couzin3d", "vicsek3d", "starlings"] {
        let one = hash_with(1, preset);
        assert_eq!(one, hash_with(2, preset), "{preset}: 1 vs 2 threads");
        assert_eq!(one, hash_with(5, preset), "{preset}: 1 vs 5 threads");
        assert_eq!(one, hash_with(1, preset), "{preset}: run to run");
    }
}

/// Mean polarization and angular momentum over the last `last` of `steps` ticks.
fn order(
    preset: &str,
    n: usize,
    steps: usize,
    last: usize,
    seeds: u64,
    set: &[&str],
) -> (f64, f64) {
    let (mut pol, mut mom, mut samples) = (0.0, 0.0, 0);
    for seed in 1..=seeds {
        let mut s = sim(preset, n, seed, set);
        for t in 0..steps {
            s.step();
            if t >= steps - last {
                let (p, m) = s.order_parameters();
                pol += p;
                mom += m;
                samples += 1;
            }
        }
    }
    (pol / samples as f64, mom / samples as f64)
}

#[test]
fn vicsek_in_3d_orders_at_low_noise_and_not_at_full_noise() {
    let (va, _) = order("vicsek3d", 500, 1000, 200, 1, &["eta=0.1"]);
    assert!(va > 0.9, "ordered: v_a {va}");
    // At full noise every new heading is uniform over the sphere: v_a is the length of the
    // mean of N random unit vectors, sqrt(8 / (3 pi N)) in expectation.
    let n = 500;
    let (va, _) = order("vicsek3d", n, 300, 200, 2, &["eta=6.283185"]);
    let expected = (8.0 / (3.0 * std::f64::consts::PI * n as f64)).sqrt();
    assert!(
        (va - expected).abs() < 0.25 * expected,
        "v_a {va} vs {expected}"
    );
}

/// Couzin et al. (2002) in their own space: the swarm, the torus and the highly parallel group
/// at the widths of the orientation zone the paper gives for them (delta_r_a = 14).
#[test]
fn couzin_in_3d_reaches_the_papers_regimes() {
    let run = |o: &str| order("couzin3d", 100, 3000, 1000, 2, &[o, "delta_r_a=14"]);
    let (p, m) = run("delta_r_o=0");
    assert_eq!(Regime::classify(p, m), Regime::Swarm, "swarm: p {p} m {m}");
    let (p, m) = run("delta_r_o=2");
    assert_eq!(Regime::classify(p, m), Regime::Torus, "torus: p {p} m {m}");
    let (p, m) = run("delta_r_o=15");
    assert_eq!(
        Regime::classify(p, m),
        Regime::HighlyParallel,
        "parallel: p {p} m {m}"
    );
}

#[test]
fn the_shape_of_a_slab_is_its_three_sides() {
    // A uniform slab 10 thick, 40 wide and 90 long, turned: sqrt(12 var) gives back its sides.
    let turn = glam::Quat::from_euler(glam::EulerRot::XYZ, 0.4, 1.1, -0.3);
    let mut points = Vec::new();
    let steps = [10, 20, 45];
    for i in 0..steps[0] {
        for j in 0..steps[1] {
            for k in 0..steps[2] {
                let p = Vec3::new(
                    (i as f32 + 0.5) / steps[0] as f32 * 10.0,
                    (j as f32 + 0.5) / steps[1] as f32 * 40.0,
                    (k as f32 + 0.5) / steps[2] as f32 * 90.0,
                );
                points.push(turn * p + Vec3::splat(500.0));
            }
        }
    }
    let [t, w, l] = shape(&points);
    for (got, want) in [(t, 10.0), (w, 40.0), (l, 90.0)] {
        assert!((got - want).abs() < 0.02 * want, "{got} vs {want}");
    }
    // In the metrics: a 3D flock has a shape, a flat one none.
    let s = sim("reynolds3d", 300, 1, &[]);
    let mut s = s;
    assert!(s.metrics().shape.is_some());
}
