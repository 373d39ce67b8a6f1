//! The flock plugins in an `App` with `MinimalPlugins` and a manual clock: the system order is
//! unambiguous, the ECS pipeline matches the Bevy-free one bit for bit, leaders, predators,
//! piloted birds and several flocks behave.

use bevy::ecs::schedule::{LogLevel, ScheduleBuildSettings};
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use flock::prelude::*;
use flock_core::sim::{FlockSim, LeaderState};
use std::time::Duration;

const TICK: f64 = 1.0 / 60.0;

fn app() -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, FlockPlugins))
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
    let before = flock::measure::flock_state(app.world_mut(), flock);
    // Ambiguity detection is an error: a schedule with conflicting unordered systems panics here.
    assert_eq!(advance_ticks(&mut app, flock, 5), 5);
    let after = flock::measure::flock_state(app.world_mut(), flock);
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
    let (pos, vel) = flock::measure::flock_state(app.world_mut(), flock);
    let n = pos.len() as f32;
    let dist: f32 = pos
        .iter()
        .map(|p| world.delta(centre, *p).length())
        .sum::<f32>()
        / n;
    let spin: f32 = pos
        .iter()
        .zip(&vel)
        .map(|(p, v)| {
            let r = world.delta(centre, *p);
            r.perp_dot(*v) / (r.length() * v.length()).max(1e-6)
        })
        .sum::<f32>()
        / n;
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
    let (_, va) = flock::measure::flock_state(app.world_mut(), a);
    let (_, vb) = flock::measure::flock_state(app.world_mut(), b);
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

/// Shares of the flock in its two largest groups, birds linked when closer than `link`.
fn two_largest_groups(pos: &[Vec2], world: &WorldBounds, link: f32) -> (f32, f32) {
    let n = pos.len();
    let mut group: Vec<usize> = (0..n).collect();
    fn root(group: &mut [usize], mut i: usize) -> usize {
        while group[i] != i {
            group[i] = group[group[i]];
            i = group[i];
        }
        i
    }
    for i in 0..n {
        for j in i + 1..n {
            if world.delta(pos[i], pos[j]).length() < link {
                let (a, b) = (root(&mut group, i), root(&mut group, j));
                group[a] = b;
            }
        }
    }
    let mut sizes = vec![0usize; n];
    for i in 0..n {
        sizes[root(&mut group, i)] += 1;
    }
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    let share = |k: usize| sizes.get(k).copied().unwrap_or(0) as f32 / n as f32;
    (share(0), share(1))
}

#[test]
fn a_flock_splits_round_a_hunting_predator_and_re_forms_when_it_leaves() {
    // Two identical flocks circling a leader; a hunter attacks one of them. Circling flocks
    // pinch in two now and then by themselves, so the attacked flock is compared with the
    // untouched one over the same ticks.
    let p = params("reynolds");
    let world = p.bounds();
    let link = 50.0;
    let mut apps = [app(), app()];
    let flocks = apps.each_mut().map(|app| {
        let flock = app.world_mut().spawn_flock(p.clone(), 200, 9);
        app.world_mut()
            .spawn((Leader::new(LeaderParams::default()), Position(Vec2::ZERO)));
        advance_ticks(app, flock, 900);
        flock
    });
    let [attacked, calm] = &mut apps;
    let hunter = attacked
        .world_mut()
        .spawn((
            Predator {
                params: PredatorParams::default(),
            },
            Hunter,
            Position(Vec2::new(-500.0, 0.0)),
            Velocity(Vec2::new(4.0, 0.0)),
        ))
        .id();
    let split = |app: &mut App, flock| {
        let (pos, _) = flock::measure::flock_state(app.world_mut(), flock);
        two_largest_groups(&pos, &world, link).1 >= 0.2
    };
    let (mut split_attacked, mut split_calm, mut closest) = (0, 0, f32::MAX);
    for _ in 0..300 {
        advance_ticks(attacked, flocks[0], 1);
        advance_ticks(calm, flocks[1], 1);
        split_attacked += split(attacked, flocks[0]) as u32;
        split_calm += split(calm, flocks[1]) as u32;
        let (pos, _) = flock::measure::flock_state(attacked.world_mut(), flocks[0]);
        let at = attacked.world().get::<Position>(hunter).unwrap().0;
        closest = closest.min(
            pos.iter()
                .map(|b| world.delta(at, *b).length())
                .fold(f32::MAX, f32::min),
        );
    }
    assert!(closest < 100.0, "the hunter reached the flock: {closest}");
    assert!(
        split_attacked >= split_calm + 60,
        "split for {split_attacked} of 300 ticks under attack, {split_calm} when calm"
    );

    // The hunter leaves; a while later the flock is back to its usual self.
    attacked.world_mut().despawn(hunter);
    advance_ticks(attacked, flocks[0], 600);
    advance_ticks(calm, flocks[1], 600);
    let (mut split_after, mut split_calm) = (0, 0);
    for _ in 0..300 {
        advance_ticks(attacked, flocks[0], 1);
        advance_ticks(calm, flocks[1], 1);
        split_after += split(attacked, flocks[0]) as u32;
        split_calm += split(calm, flocks[1]) as u32;
    }
    assert!(
        split_after <= split_calm + 30,
        "re-formed: split for {split_after} of 300 ticks, {split_calm} for the calm flock"
    );
}

#[test]
fn birds_in_a_predators_range_turn_away_and_the_rest_do_not() {
    let mut app = app();
    let mut p = params("cornell");
    p.edges.mode = EdgeMode::Wrap;
    let flock = app.world_mut().spawn_flock(p.clone(), 300, 4);
    let mut reference = FlockSim::new(p, 300, 4);
    let at = Vec2::new(30.0, -20.0);
    let predator = PredatorParams::default();
    app.world_mut()
        .spawn((Predator { params: predator }, Position(at)));
    reference
        .predators
        .push(flock_core::predator::PredatorState {
            pos: at,
            params: predator,
        });
    let mut unthreatened = reference.clone();
    unthreatened.predators.clear();
    let start = reference.pos.clone();
    advance_ticks(&mut app, flock, 1);
    reference.step();
    unthreatened.step();
    let (pos, vel) = flock::measure::flock_state(app.world_mut(), flock);
    assert_eq!(pos, reference.pos, "the ECS flee matches the core's");
    assert_eq!(vel, reference.vel);
    let world = reference.params.bounds();
    let (mut in_range, mut turned_away) = (0, 0);
    for i in 0..start.len() {
        let away = world.delta(at, start[i]);
        if away.length() < predator.range {
            in_range += 1;
            turned_away += ((vel[i] - unthreatened.vel[i]).dot(away) > 0.0) as u32;
        } else {
            assert_eq!(vel[i], unthreatened.vel[i], "bird {i} is out of range");
        }
    }
    assert!(in_range >= 5, "some birds are in range: {in_range}");
    assert!(
        turned_away as f32 >= 0.9 * in_range as f32,
        "{turned_away} of {in_range} in range turned away"
    );
}
