//! The flock plugins in an `App` with `MinimalPlugins` and a manual clock: the system order is
//! unambiguous, the ECS pipeline matches the Bevy-free one bit for bit, leaders, predators,
//! piloted birds and several flocks behave.

use bevy::ecs::schedule::{LogLevel, ScheduleBuildSettings};
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use murmur_core::prelude::FlockSim;
use murmur_core::sim::LeaderState;
use murmur_flock::prelude::*;
use std::time::Duration;

const TICK: f64 = 1.0 / 60.0;

fn app() -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, FlockPlugins::default()))
        .insert_resource(Time::<Fixed>::from_duration(Duration::from_secs_f64(TICK)))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
            TICK,
        )))
        .edit_schedule(FixedUpdate, |schedule| {
            schedule.set_build_settings(ScheduleBuildSettings {
                ambiguity_detection: LogLevel::Error,
                ..default()
            });
        });
    app
}

fn params(preset: &str) -> FlockParams {
    Preset::load(preset).unwrap().flock_params()
}

#[test]
fn the_tick_runs_without_ambiguities_and_moves_the_birds() {
    let mut app = app();
    let flock = app.world_mut().spawn_flock(params("cornell"), 100, 1);
    let before = murmur_flock::measure::flock_state::<Vec2>(app.world_mut(), flock);
    // Ambiguity detection is an error: a schedule with conflicting unordered systems panics here.
    assert_eq!(advance_ticks(&mut app, flock, 5), 5);
    let after = murmur_flock::measure::flock_state::<Vec2>(app.world_mut(), flock);
    assert_eq!(after.0.len(), 100);
    assert!(
        before.0.iter().zip(&after.0).all(|(a, b)| a != b),
        "every bird moved"
    );
}

#[test]
fn ecs_pipeline_matches_the_core_pipeline_bit_for_bit() {
    for preset in ["reynolds", "cornell", "spaceboids"] {
        let p = params(preset);
        let leader = LeaderParams::default();
        let mut app = app();
        let flock = app.world_mut().spawn_flock(p.clone(), 500, 7);
        app.world_mut()
            .spawn((Leader::new(leader), Position(Vec2::new(30.0, 20.0))));
        advance_ticks(&mut app, flock, 120);
        let mut core = FlockSim::new(p, 500, 7);
        core.leaders.push(LeaderState {
            pos: Vec2::new(30.0, 20.0),
            params: leader,
        });
        for _ in 0..120 {
            core.step();
        }
        assert_eq!(
            flock_state_hash(app.world_mut(), flock),
            core.state_hash(),
            "{preset}: ECS and core differ after 120 ticks"
        );
    }
}

#[test]
fn a_flock_written_back_on_all_threads_matches_the_core_bit_for_bit() {
    // Enough birds for the write-back to cut the table into runs for the threads (a small
    // flock is written back on one thread, as in the test above).
    let mut p = params("cornell");
    let n = 40_000;
    let r = p.model.interaction_radius();
    p.world_size = Vec2::splat((n as f32 * std::f32::consts::PI * r * r / 20.0).sqrt());
    let mut app = app();
    let flock = app.world_mut().spawn_flock(p.clone(), n, 3);
    advance_ticks(&mut app, flock, 10);
    let mut core = FlockSim::new(p, n, 3);
    for _ in 0..10 {
        core.step();
    }
    assert_eq!(
        flock_state_hash(app.world_mut(), flock),
        core.state_hash(),
        "ECS and core differ after 10 ticks of {n} birds"
    );
}

#[test]
fn same_seed_same_flock_whatever_the_thread_count() {
    let hash_with = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let mut app = app();
            let flock = app.world_mut().spawn_flock(params("spaceboids"), 3000, 11);
            advance_ticks(&mut app, flock, 100);
            flock_state_hash(app.world_mut(), flock)
        })
    };
    let one = hash_with(1);
    assert_eq!(one, hash_with(3));
    assert_eq!(one, hash_with(1));
}

#[test]
fn the_flock_gathers_round_a_leader_entity_and_circles_it() {
    let mut app = app();
    let flock = app.world_mut().spawn_flock(params("reynolds"), 200, 3);
    let centre = Vec2::new(-200.0, 100.0);
    let leader = LeaderParams::default();
    app.world_mut()
        .spawn((Leader::new(leader), Position(centre)));
    advance_ticks(&mut app, flock, 1200);
    let world = params("reynolds").bounds();
    let (pos, vel) = murmur_flock::measure::flock_state::<Vec2>(app.world_mut(), flock);
    let (dist, spin) = murmur_core::metrics::orbit_about(&world, centre, &pos, &vel);
    let (dist, spin) = (dist as f32, spin as f32);
    assert!(
        dist < 2.0 * leader.orbit_radius && dist > 0.5 * leader.orbit_radius,
        "{dist}"
    );
    assert!(spin > 0.5, "circling counter-clockwise: {spin}");
}

#[test]
fn a_piloted_bird_is_seen_by_the_flock_but_never_moved_by_it() {
    let mut app = app();
    let p = params("reynolds");
    let flock = app.world_mut().spawn(Flock { params: p, seed: 1 }).id();
    let pilot = app
        .world_mut()
        .spawn((
            Boid { id: 0 },
            FlockMember(flock),
            Piloted,
            Position(Vec2::ZERO),
            Velocity(Vec2::new(2.0, 0.0)),
        ))
        .id();
    let follower = app
        .world_mut()
        .spawn((
            Boid { id: 1 },
            FlockMember(flock),
            Position(Vec2::new(0.0, 30.0)),
            Velocity(Vec2::ZERO),
        ))
        .id();
    advance_ticks(&mut app, flock, 30);
    assert_eq!(
        app.world().get::<Position>(pilot).unwrap().0,
        Vec2::ZERO,
        "not moved by the flock"
    );
    let v = app.world().get::<Velocity>(follower).unwrap().0;
    // Alignment with the pilot's (2, 0) velocity and cohesion towards it.
    assert!(v.x > 0.5, "the follower matches the pilot's heading: {v}");
    assert!(
        app.world().get::<Position>(follower).unwrap().0.y < 30.0,
        "and closes in"
    );
}

#[test]
fn flocks_keep_their_own_parameters_and_ignore_each_other() {
    let mut app = app();
    let mut slow = params("reynolds");
    slow.edges.mode = EdgeMode::Wrap;
    if let Model::Reynolds(m) = &mut slow.model {
        m.max_speed = 1.0;
    }
    let fast = params("cornell");
    let a = app.world_mut().spawn_flock(slow, 300, 1);
    let b = app.world_mut().spawn_flock(fast, 300, 2);
    // A lone bird of a third flock in the middle of the others: nobody to steer by.
    let lone = app
        .world_mut()
        .spawn(Flock {
            params: params("reynolds"),
            seed: 3,
        })
        .id();
    let bird = app
        .world_mut()
        .spawn((
            Boid { id: 0 },
            FlockMember(lone),
            Position(Vec2::ZERO),
            Velocity(Vec2::new(1.0, 0.0)),
        ))
        .id();
    advance_ticks(&mut app, a, 100);
    let (_, va) = murmur_flock::measure::flock_state::<Vec2>(app.world_mut(), a);
    let (_, vb) = murmur_flock::measure::flock_state::<Vec2>(app.world_mut(), b);
    assert!(
        va.iter().all(|v| v.length() <= 1.0 + 1e-5),
        "flock a keeps max_speed 1"
    );
    assert!(
        vb.iter().all(|v| v.length() >= 3.0 - 1e-4),
        "flock b keeps min_speed 3"
    );
    assert_eq!(
        app.world().get::<Velocity>(bird).unwrap().0,
        Vec2::new(1.0, 0.0),
        "lone bird unsteered"
    );
}

#[test]
fn transforms_follow_positions_and_headings() {
    let mut app = app();
    let flock = app
        .world_mut()
        .spawn(Flock {
            params: params("reynolds"),
            seed: 1,
        })
        .id();
    let bird = app
        .world_mut()
        .spawn((
            Boid { id: 0 },
            FlockMember(flock),
            Position(Vec2::ZERO),
            Velocity(Vec2::new(0.0, 2.0)),
            Transform::default(),
        ))
        .id();
    advance_ticks(&mut app, flock, 3);
    app.update();
    let t = app.world().get::<Transform>(bird).unwrap();
    let p = app.world().get::<Position>(bird).unwrap().0;
    assert_eq!(t.translation.truncate(), p);
    let heading = t.rotation * Vec3::X;
    assert!((heading - Vec3::Y).length() < 1e-4, "{heading}");
}

/// What a hunter does to a flock circling a leader, against a control: an identical flock
/// chased by a hunter it ignores (no flee), over the same ticks.
struct Hunt {
    /// Closest the hunter came to a bird.
    closest: f32,
    /// Birds within [`CROWD`] of the hunter, averaged over the attack.
    crowd_at_hunter: f32,
    /// The same round the ignored hunter of the control.
    crowd_at_ignored: f32,
    /// Birds within [`CROWD`] of a bird, averaged over the birds and 100 ticks, long after the
    /// hunters left: the attacked flock and the control.
    crowd_after: f32,
    crowd_after_control: f32,
}

/// The radius of the crowd counts.
const CROWD: f32 = 50.0;

fn hunt(seed: u64) -> Hunt {
    let p = params("reynolds");
    let world = p.bounds();
    let mut apps = [app(), app()];
    let flocks = apps.each_mut().map(|app| {
        let flock = app.world_mut().spawn_flock(p.clone(), 200, seed);
        app.world_mut()
            .spawn((Leader::new(LeaderParams::default()), Position(Vec2::ZERO)));
        advance_ticks(app, flock, 900);
        flock
    });
    let hunters = [
        PredatorParams::default(),
        PredatorParams {
            flee_factor: 0.0,
            ..default()
        },
    ]
    .iter()
    .zip(&mut apps)
    .map(|(&params, app)| {
        app.world_mut()
            .spawn((
                Predator { params },
                Hunter,
                Position(Vec2::new(-500.0, 0.0)),
                Velocity(Vec2::new(4.0, 0.0)),
            ))
            .id()
    })
    .collect::<Vec<_>>();
    let within = |pos: &[Vec2], at: Vec2| {
        pos.iter()
            .filter(|b| world.delta(at, **b).length() < CROWD)
            .count() as f32
    };
    let mut closest = f32::MAX;
    let mut crowd = [0.0f32; 2];
    for _ in 0..300 {
        for (i, app) in apps.iter_mut().enumerate() {
            advance_ticks(app, flocks[i], 1);
            let (pos, _) = murmur_flock::measure::flock_state::<Vec2>(app.world_mut(), flocks[i]);
            let at = app.world().get::<Position>(hunters[i]).unwrap().0;
            crowd[i] += within(&pos, at) / 300.0;
            if i == 0 {
                closest = closest.min(
                    pos.iter()
                        .map(|b| world.delta(at, *b).length())
                        .fold(f32::MAX, f32::min),
                );
            }
        }
    }
    let mut after = [0.0f32; 2];
    for (i, app) in apps.iter_mut().enumerate() {
        app.world_mut().despawn(hunters[i]);
        advance_ticks(app, flocks[i], 600);
        for _ in 0..100 {
            advance_ticks(app, flocks[i], 1);
            let (pos, _) = murmur_flock::measure::flock_state::<Vec2>(app.world_mut(), flocks[i]);
            let n = pos.len() as f32;
            after[i] += pos.iter().map(|&b| within(&pos, b) - 1.0).sum::<f32>() / n / 100.0;
        }
    }
    Hunt {
        closest,
        crowd_at_hunter: crowd[0],
        crowd_at_ignored: crowd[1],
        crowd_after: after[0],
        crowd_after_control: after[1],
    }
}

#[test]
fn a_flock_opens_round_a_hunting_predator_and_closes_when_it_leaves() {
    // (An earlier version of this test counted ticks with the flock split in two; over 30
    // starts an attacked flock split no more often than an undisturbed one, so that measure
    // said nothing. Birds fleeing the hunter show as an empty ring round it instead.)
    for seed in 1..=3 {
        let h = hunt(seed);
        assert!(
            h.closest < 100.0,
            "seed {seed}: the hunter reached the flock: {}",
            h.closest
        );
        assert!(
            h.crowd_at_hunter < 0.6 * h.crowd_at_ignored,
            "seed {seed}: {} birds within {CROWD} of the hunter, {} round one they ignore",
            h.crowd_at_hunter,
            h.crowd_at_ignored
        );
        // Closed up again: a bird has company again, far more than the hunter had, and about
        // as much as in the control (whose own figure wanders by a fifth from start to start).
        assert!(
            h.crowd_after > 2.0 * h.crowd_at_hunter && h.crowd_after > 0.6 * h.crowd_after_control,
            "seed {seed}: closed up again: {} birds within {CROWD} of a bird, {} in the control",
            h.crowd_after,
            h.crowd_after_control
        );
    }
}
