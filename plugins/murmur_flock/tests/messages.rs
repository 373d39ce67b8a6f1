//! The flock's messages, through the public API: a hunter that reaches a bird writes
//! `HunterCaught` once for it, a flock that reaches its leader writes `LeaderReached` once per
//! place of the leader; a hunter too slow to reach the flock and a leader the flock ignores
//! write none (the negative controls).

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
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
        .init_resource::<Seen>()
        .add_systems(FixedUpdate, watch.after(FlockSystems::WriteBack));
    app
}

/// What the watching system saw, tick by tick.
#[derive(Resource, Default)]
struct Seen {
    ticks: u32,
    caught: Vec<(u32, HunterCaught)>,
    reached: Vec<(u32, LeaderReached)>,
    /// Ticks at which a bird was within the leader's ring with no message yet for that place.
    within_unannounced: u32,
    /// A message naming a bird that was not within the ring (or not the bird's id).
    wrong: Vec<String>,
}

/// Reads the messages as a game would, after the tick, and checks them against the birds'
/// own components.
fn watch(
    mut seen: ResMut<Seen>,
    mut caught: MessageReader<HunterCaught>,
    mut reached: MessageReader<LeaderReached>,
    birds: Query<(&Boid, &Position)>,
    leaders: Query<(&Leader, &Position), Without<Boid>>,
    mut announced_at: Local<Option<Vec2>>,
) {
    seen.ticks += 1;
    let tick = seen.ticks;
    for m in caught.read() {
        seen.caught.push((tick, *m));
    }
    let ring = |l: &Leader| l.params.orbit_radius + l.params.slowing_radius;
    for m in reached.read() {
        let (leader, at) = leaders.get(m.leader).expect("the leader");
        match m.bird.and_then(|b| birds.get(b).ok()) {
            Some((boid, pos)) if boid.id == m.id && pos.0.distance(at.0) <= ring(leader) => {}
            other => seen.wrong.push(format!("{m:?}: {other:?}")),
        }
        *announced_at = Some(at.0);
        seen.reached.push((tick, *m));
    }
    for (leader, at) in &leaders {
        let inside = birds
            .iter()
            .any(|(_, p)| p.0.distance(at.0) <= ring(leader));
        if inside && leader.params.mode == LeaderMode::Follow && *announced_at != Some(at.0) {
            seen.within_unannounced += 1;
        }
    }
}

fn reynolds() -> FlockParams {
    Preset::load("reynolds").unwrap().flock_params()
}

fn hunter(app: &mut App, hunt_speed: f32) -> Entity {
    let params = PredatorParams {
        hunt_speed,
        // The birds do not flee: the hunter's speed alone decides whether it reaches them.
        flee_factor: 0.0,
        ..default()
    };
    app.world_mut()
        .spawn((
            Predator { params },
            Hunter,
            Position(Vec2::new(-500.0, 0.0)),
            Velocity(Vec2::new(hunt_speed, 0.0)),
        ))
        .id()
}

#[test]
fn a_hunter_that_reaches_a_bird_says_so_once_per_bird() {
    let mut app = app();
    let flock = app.world_mut().spawn_flock(reynolds(), 200, 3);
    app.world_mut()
        .spawn((Leader::new(LeaderParams::default()), Position(Vec2::ZERO)));
    let hawk = hunter(&mut app, 8.0);
    advance_ticks(&mut app, flock, 600);
    let seen = app.world().resource::<Seen>();
    assert!(!seen.caught.is_empty(), "a fast hunter caught nothing");
    // Not written tick after tick while the hunter stays on the same bird.
    for pair in seen.caught.windows(2) {
        let same = (pair[0].1.flock, pair[0].1.id) == (pair[1].1.flock, pair[1].1.id);
        assert!(!same || pair[1].0 > pair[0].0 + 1, "{pair:?}");
    }
    for (_, m) in &seen.caught {
        assert_eq!((m.hunter, m.flock), (hawk, flock));
        let bird = m.bird.expect("birds spawned as entities are named");
        assert_eq!(app.world().get::<Boid>(bird).map(|b| b.id), Some(m.id));
    }
}

#[test]
fn a_hunter_too_slow_to_reach_the_flock_catches_nothing() {
    let mut app = app();
    let flock = app.world_mut().spawn_flock(reynolds(), 200, 3);
    app.world_mut()
        .spawn((Leader::new(LeaderParams::default()), Position(Vec2::ZERO)));
    hunter(&mut app, 0.25);
    advance_ticks(&mut app, flock, 600);
    assert!(app.world().resource::<Seen>().caught.is_empty());
}

#[test]
fn a_flock_that_reaches_its_leader_says_so_once_per_place() {
    let mut app = app();
    let flock = app.world_mut().spawn_flock(reynolds(), 200, 3);
    let leader = app
        .world_mut()
        .spawn((
            Leader::new(LeaderParams::default()),
            Position(Vec2::new(-200.0, 100.0)),
        ))
        .id();
    advance_ticks(&mut app, flock, 600);
    {
        let seen = app.world().resource::<Seen>();
        assert_eq!(seen.reached.len(), 1, "{:?}", seen.reached);
        assert_eq!(
            (seen.reached[0].1.leader, seen.reached[0].1.flock),
            (leader, flock)
        );
        assert!(seen.wrong.is_empty(), "{:?}", seen.wrong);
        assert_eq!(
            seen.within_unannounced, 0,
            "a bird was there before the message"
        );
    }
    // The leader moves far off: the flock has to get there again.
    app.world_mut().get_mut::<Position>(leader).unwrap().0 = Vec2::new(300.0, -150.0);
    advance_ticks(&mut app, flock, 900);
    let seen = app.world().resource::<Seen>();
    assert_eq!(seen.reached.len(), 2, "{:?}", seen.reached);
    assert!(
        seen.reached[1].0 > seen.reached[0].0 + 1,
        "it took the flock a while"
    );
    assert!(seen.wrong.is_empty(), "{:?}", seen.wrong);
    assert_eq!(seen.within_unannounced, 0);
}

#[test]
fn a_leader_the_flock_ignores_is_never_reached() {
    let mut app = app();
    let flock = app.world_mut().spawn_flock(reynolds(), 200, 3);
    let off = LeaderParams {
        mode: LeaderMode::Off,
        ..default()
    };
    app.world_mut()
        .spawn((Leader::new(off), Position(Vec2::ZERO)));
    advance_ticks(&mut app, flock, 300);
    assert!(app.world().resource::<Seen>().reached.is_empty());
}
