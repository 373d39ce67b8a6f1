//! The three ways to run a flock give the very same bits: `FlockSim` (columns in id order,
//! sorted afresh each tick), `FastFlock` (kept in cell order, the phases fused into one pass)
//! and `SortedFlock`'s phases one at a time (what the Bevy plugins run), in 2D and in 3D.

use murmur_core::fast::FastFlock as AnyFastFlock;
use murmur_core::leader::{LeaderMode, LeaderParams};
use murmur_core::predator::{PredatorParams, PredatorState};
use murmur_core::prelude::*;
use murmur_core::sim::{FlockSim as AnyFlockSim, LeaderState};
use murmur_core::sorted::SortedFlock as AnySortedFlock;
use murmur_core::{Vec3, Vector};

fn params(preset: &str, overrides: &[&str]) -> murmur_core::params::FlockParams {
    let mut p = Preset::load(preset).unwrap();
    p.apply_overrides(overrides).unwrap();
    p.flock_params()
}

fn leader<V: Vector>() -> LeaderState<V> {
    LeaderState {
        pos: V::from_axes([40.0, -30.0, 20.0]),
        params: LeaderParams {
            mode: LeaderMode::Follow,
            ..LeaderParams::default()
        },
    }
}

fn predator<V: Vector>() -> PredatorState<V> {
    PredatorState {
        pos: V::from_axes([-120.0, 60.0, -40.0]),
        params: PredatorParams::default(),
    }
}

/// Hashes after `ticks` ticks of the three paths, and whether the flock moved at all.
fn three_paths<V: Vector>(
    p: &murmur_core::params::FlockParams,
    n: usize,
    ticks: usize,
    with_others: bool,
    solids: &[Solid],
) -> [u64; 4] {
    let leaders: Vec<_> = with_others.then(leader::<V>).into_iter().collect();
    let predators: Vec<_> = with_others.then(predator::<V>).into_iter().collect();
    let mut sim = AnyFlockSim::<V>::new(p.clone(), n, 3);
    sim.leaders = leaders.clone();
    sim.predators = predators.clone();
    sim.solids = solids.to_vec();
    let start = sim.state_hash();
    let mut fast = AnyFastFlock::<V>::new(p.clone(), n, 3);
    fast.leaders = leaders.clone();
    fast.predators = predators.clone();
    fast.set_solids(solids);
    let (pos, vel) = murmur_core::sim::initial_boids::<V>(p, n, 3);
    let mut phased = AnySortedFlock::from_state(&pos, &vel, 3);
    phased.set_solids(solids);
    for _ in 0..ticks {
        sim.step();
        fast.step();
        phased.sort(p);
        phased.steer(p);
        phased.follow_leaders(p, &leaders);
        phased.flee_predators(p, &predators);
        phased.avoid_solids(p);
        phased.turn_at_edges(p);
        phased.integrate(p);
    }
    [
        start,
        sim.state_hash(),
        fast.state_hash(),
        phased.state_hash(),
    ]
}

#[test]
fn every_model_and_edge_gives_the_same_bits_on_all_three_paths() {
    for preset in [
        "reynolds",
        "cornell",
        "spaceboids",
        "vicsek",
        "couzin",
        "abm",
    ] {
        for edges in ["wrap", "turn", "bounce", "none"] {
            let p = params(preset, &[&format!("edges.mode={edges}")]);
            for with_others in [false, true] {
                let [start, sim, fast, phased] = three_paths::<Vec2>(&p, 700, 60, with_others, &[]);
                let what = format!("{preset}, {edges} edges, leader and predator: {with_others}");
                assert_ne!(start, sim, "{what}: the flock moved");
                assert_eq!(sim, fast, "{what}: FlockSim vs FastFlock");
                assert_eq!(sim, phased, "{what}: FlockSim vs the phases one by one");
            }
        }
    }
}

#[test]
fn every_model_and_edge_gives_the_same_bits_on_all_three_paths_in_3d() {
    for preset in [
        "reynolds3d",
        "cornell3d",
        "spaceboids3d",
        "vicsek3d",
        "couzin3d",
        "abm3d",
        "starlings",
    ] {
        let solids: Vec<Solid> = Preset::load(preset)
            .unwrap()
            .obstacles
            .iter()
            .filter_map(Obstacle::solid)
            .collect();
        for edges in ["wrap", "turn", "bounce", "none"] {
            let p = params(preset, &[&format!("edges.mode={edges}")]);
            for with_others in [false, true] {
                let [start, sim, fast, phased] =
                    three_paths::<Vec3>(&p, 900, 40, with_others, &solids);
                let what = format!("{preset}, {edges} edges, leader and predator: {with_others}");
                assert_ne!(start, sim, "{what}: the flock moved");
                assert_eq!(sim, fast, "{what}: FlockSim vs FastFlock");
                assert_eq!(sim, phased, "{what}: FlockSim vs the phases one by one");
            }
        }
    }
}

#[test]
fn large_flocks_on_many_threads_give_the_same_bits_too() {
    // Enough birds for the parallel sort and passes.
    let p = params("cornell", &["edges.mode=wrap", "width=4000", "height=4000"]);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(3)
        .build()
        .unwrap();
    let [start, sim, fast, phased] =
        pool.install(|| three_paths::<Vec2>(&p, 40_000, 20, true, &[]));
    assert_ne!(start, sim);
    assert_eq!(sim, fast);
    assert_eq!(sim, phased);
    // And in 3D, with solids.
    let p = params(
        "reynolds3d",
        &["edges.mode=wrap", "width=1500", "height=600", "depth=1500"],
    );
    let solids = [Solid::Sphere {
        centre: Vec3::new(100.0, 0.0, -200.0),
        radius: 120.0,
    }];
    let [start, sim, fast, phased] =
        pool.install(|| three_paths::<Vec3>(&p, 40_000, 15, true, &solids));
    assert_ne!(start, sim);
    assert_eq!(sim, fast, "3D: FlockSim vs FastFlock");
    assert_eq!(sim, phased, "3D: FlockSim vs the phases");
}

#[test]
fn a_capped_neighbourhood_gives_the_same_bits_too() {
    // Under a cap birds are steered one by one, in the order the grid visits them.
    let p = params("spaceboids", &["max_neighbours=7"]);
    let [start, sim, fast, phased] = three_paths::<Vec2>(&p, 900, 40, false, &[]);
    assert_ne!(start, sim);
    assert_eq!(sim, fast);
    assert_eq!(sim, phased);
    let p = params("reynolds3d", &["max_neighbours=7", "blind_angle=60"]);
    let [start, sim, fast, phased] = three_paths::<Vec3>(&p, 900, 40, false, &[]);
    assert_ne!(start, sim);
    assert_eq!(sim, fast, "3D");
    assert_eq!(sim, phased, "3D");
}

#[test]
fn the_order_birds_are_stored_in_does_not_change_the_result() {
    // The same birds pushed in reverse: the sort puts each cell's birds by id, so the sums run
    // in the same order (a negative control: without that order the sums' rounding differs).
    let p = params("reynolds", &[]);
    let n = 600;
    let (pos, vel) = murmur_core::sim::initial_boids(&p, n, 9);
    let mut forward = SortedFlock::from_state(&pos, &vel, 9);
    let mut backward = SortedFlock::new(9);
    for i in (0..n).rev() {
        backward.push(i as u32, pos[i], vel[i], BirdFlags::NONE);
    }
    for _ in 0..50 {
        forward.step(&p, &[], &[]);
        backward.step(&p, &[], &[]);
    }
    assert_eq!(forward.state_hash(), backward.state_hash());
}

#[test]
fn a_piloted_bird_keeps_its_state_and_is_seen() {
    let p = params("reynolds", &[]);
    let n = 300;
    let (pos, vel) = murmur_core::sim::initial_boids(&p, n, 2);
    let mut fused = SortedFlock::from_state(&pos, &vel, 2);
    let mut phased = SortedFlock::from_state(&pos, &vel, 2);
    for flock in [&mut fused, &mut phased] {
        let slot = flock.ids().iter().position(|&id| id == 17).unwrap();
        flock.set_flags(slot, BirdFlags::PILOTED);
    }
    for _ in 0..30 {
        fused.step(&p, &[], &[]);
        phased.sort(&p);
        phased.steer(&p);
        phased.turn_at_edges(&p);
        phased.integrate(&p);
    }
    assert_eq!(fused.state_hash(), phased.state_hash());
    let (p17, v17) = fused.state_by_id();
    assert_eq!(
        (p17[17], v17[17]),
        (pos[17], vel[17]),
        "untouched by the flock"
    );
    let slot = fused.ids().iter().position(|&id| id == 17).unwrap();
    assert!(fused.neighbours()[slot] > 0, "but it sees its flock mates");
}

/// One tick of the phases, with `between` run between the steering and the move.
fn phases(
    flock: &mut SortedFlock,
    p: &murmur_core::params::FlockParams,
    between: impl FnOnce(&mut SortedFlock),
) {
    flock.sort(p);
    flock.steer(p);
    between(flock);
    flock.integrate(p);
}

#[test]
fn the_move_worked_out_with_the_steering_is_the_move_done_afresh() {
    let p = params("reynolds", &[]);
    let (pos, vel) = murmur_core::sim::initial_boids(&p, 500, 4);
    let mut ahead = SortedFlock::from_state(&pos, &vel, 4);
    let mut afresh = SortedFlock::from_state(&pos, &vel, 4);
    let mut worked_out = 0;
    assert_ne!(
        p.edges.mode,
        EdgeMode::Turn,
        "turning edges change the accelerations"
    );
    for _ in 0..40 {
        phases(&mut ahead, &p, |f| worked_out += f.move_worked_out() as u32);
        // Touching the accelerations (without changing them) drops the move worked out.
        phases(&mut afresh, &p, |f| {
            f.acc_mut();
            assert!(!f.move_worked_out());
        });
        assert_eq!(ahead.state_hash(), afresh.state_hash());
    }
    assert_eq!(
        worked_out, 40,
        "every tick of the untouched flock worked its move out"
    );
}

#[test]
fn a_flock_whose_accelerations_change_every_tick_moves_afresh_without_waste() {
    let p = params("cornell", &["edges.mode=wrap"]);
    let (pos, vel) = murmur_core::sim::initial_boids(&p, 400, 6);
    let mut flock = SortedFlock::from_state(&pos, &vel, 6);
    let mut phased = SortedFlock::from_state(&pos, &vel, 6);
    for tick in 0..20 {
        let push = |f: &mut SortedFlock| {
            for a in f.acc_mut() {
                *a += Vec2::new(0.01, -0.02);
            }
        };
        phases(&mut flock, &p, |f| {
            // Worked out on the first tick only: after a tick whose accelerations changed, the
            // steering no longer works the move out.
            assert_eq!(f.move_worked_out(), tick == 0, "tick {tick}");
            push(f);
        });
        phases(&mut phased, &p, push);
        assert_eq!(flock.state_hash(), phased.state_hash());
    }
}

#[test]
fn parameters_changed_between_the_steering_and_the_move_are_the_moves() {
    // The move worked out with the steering's parameters is not taken with others.
    let p = params("cornell", &["edges.mode=wrap"]);
    let mut faster = p.clone();
    faster.model = params("cornell", &["max_speed=9"]).model;
    let (pos, vel) = murmur_core::sim::initial_boids(&p, 300, 8);
    let mut flock = SortedFlock::from_state(&pos, &vel, 8);
    let mut afresh = SortedFlock::from_state(&pos, &vel, 8);
    for tick in 0..20u32 {
        // Every other tick moved with other parameters than it steered with.
        let moved_with = if tick.is_multiple_of(2) { &faster } else { &p };
        flock.sort(&p);
        flock.steer(&p);
        if tick == 0 {
            assert!(flock.move_worked_out());
        }
        flock.integrate(moved_with);
        afresh.sort(&p);
        afresh.steer(&p);
        afresh.acc_mut();
        afresh.integrate(moved_with);
        assert_eq!(flock.state_hash(), afresh.state_hash(), "tick {tick}");
    }
}
