//! The plugins in 3D, through the public API alone: a flock whose parameters give the world a
//! depth runs in 3D (its birds' `Position<Vec3>`), bit for bit as the Bevy-free core; a flat
//! and a 3D flock side by side; a game entity as a 3D bird the flock follows; a leader placed at
//! a 3D point; solids never entered; a leader placed where a click's ray meets the plane.

use bevy::ecs::schedule::{LogLevel, ScheduleBuildSettings};
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use murmur_core::predator::PredatorState;
use murmur_core::sim::{FlockSim as AnyFlockSim, LeaderState};
use murmur_flock::prelude3d::*;
use std::time::Duration;

fn app() -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, FlockPlugins::default()))
        .insert_resource(Time::<Fixed>::from_duration(TICK))
        .insert_resource(TimeUpdateStrategy::ManualDuration(TICK))
        .edit_schedule(FixedUpdate, |schedule| {
            schedule.set_build_settings(ScheduleBuildSettings {
                ambiguity_detection: LogLevel::Error,
                ..default()
            });
        });
    app.finish();
    app.cleanup();
    app
}

fn params(preset: &str) -> FlockParams {
    Preset::load(preset).unwrap().flock_params()
}

fn state(app: &mut App, flock: Entity) -> (Vec<Vec3>, Vec<Vec3>) {
    murmur_flock::measure::flock_state::<Vec3>(app.world_mut(), flock)
}

#[test]
fn a_flock_with_a_depth_flies_in_3d_bit_for_bit_as_the_core() {
    for preset in ["reynolds3d", "cornell3d", "couzin3d"] {
        let p = params(preset);
        let leader = LeaderParams::default();
        let hunter = PredatorParams::default();
        let solid = Solid::Sphere {
            centre: Vec3::new(50.0, -40.0, 20.0),
            radius: 60.0,
        };
        let mut app = app();
        let flock = app.world_mut().spawn_flock(p.clone(), 600, 7);
        let world = app.world_mut();
        world.spawn((Leader::new(leader), Position(Vec3::new(30.0, 20.0, -10.0))));
        world.spawn((
            Predator { params: hunter },
            Position(Vec3::new(-80.0, 0.0, 40.0)),
        ));
        world.spawn(FlockSolid(solid));
        assert!(world.get::<FlockColumns<Vec3>>(flock).is_none() || p.is_3d());
        assert_eq!(advance_ticks(&mut app, flock, 60), 60);
        assert!(
            app.world().get::<FlockColumns<Vec3>>(flock).is_some()
                && app.world().get::<FlockColumns>(flock).is_none(),
            "{preset}: the flock's columns are 3D"
        );
        let mut core = AnyFlockSim::<Vec3>::new(p, 600, 7);
        core.leaders.push(LeaderState {
            pos: Vec3::new(30.0, 20.0, -10.0),
            params: leader,
        });
        core.predators.push(PredatorState {
            pos: Vec3::new(-80.0, 0.0, 40.0),
            params: hunter,
        });
        core.solids.push(solid);
        for _ in 0..60 {
            core.step();
        }
        assert_eq!(
            flock_state_hash(app.world_mut(), flock),
            core.state_hash(),
            "{preset}: plugins and core differ after 60 ticks"
        );
        let (pos, _) = state(&mut app, flock);
        assert!(
            pos.iter().any(|p| p.z != 0.0),
            "{preset}: the birds use the depth"
        );
        let m = flock_metrics(app.world_mut(), flock).unwrap();
        assert!(
            m.shape.is_some(),
            "{preset}: a 3D flock's figures have its shape"
        );
    }
}

#[test]
fn a_flat_and_a_3d_flock_fly_side_by_side() {
    let mut app = app();
    let flat = app.world_mut().spawn_flock(params("cornell"), 200, 1);
    let deep = app.world_mut().spawn_flock(params("cornell3d"), 200, 1);
    advance_ticks(&mut app, deep, 30);
    let world = app.world();
    assert_eq!(world.get::<FlockColumns>(flat).unwrap().tick(), 30);
    assert_eq!(world.get::<FlockColumns<Vec3>>(deep).unwrap().tick(), 30);
    let flat_birds = murmur_flock::measure::flock_state::<Vec2>(app.world_mut(), flat);
    assert_eq!(flat_birds.0.len(), 200);
    assert_eq!(state(&mut app, deep).0.len(), 200);
    // Each bird has the place of its own flock's space only.
    let mixed = app
        .world_mut()
        .query_filtered::<(), (With<Position<Vec2>>, With<Position<Vec3>>, With<Boid>)>()
        .iter(app.world())
        .count();
    assert_eq!(mixed, 0);
}

fn mean_distance(app: &mut App, flock: Entity, to: Vec3) -> f32 {
    let (pos, _) = state(app, flock);
    pos.iter().map(|p| p.distance(to)).sum::<f32>() / pos.len() as f32
}

/// Over 400 ticks the flock's mean distance to `to` at least halves.
fn assert_gathers(app: &mut App, flock: Entity, to: Vec3) {
    let before = mean_distance(app, flock, to);
    advance_ticks(app, flock, 400);
    let after = mean_distance(app, flock, to);
    assert!(
        after < 0.5 * before,
        "the flock gathers round {to}: {before} -> {after}"
    );
}

#[test]
fn a_game_entity_becomes_a_3d_bird_the_flock_follows() {
    let mut app = app();
    let mut p = params("reynolds3d");
    p.edges.mode = EdgeMode::None;
    let flock = app.world_mut().spawn_flock(p, 300, 2);
    let target = Vec3::new(-150.0, 80.0, 120.0);
    let player = app
        .world_mut()
        .spawn((
            FlockPlayer::leading(flock, LeaderParams::default()),
            Transform::from_translation(target),
        ))
        .id();
    advance_ticks(&mut app, flock, 2);
    assert_eq!(app.world().get::<Position<Vec3>>(player).unwrap().0, target);
    assert!(app.world().get::<Position<Vec2>>(player).is_none());
    assert_gathers(&mut app, flock, target);
    let moved = target + Vec3::new(3.0, -4.0, 2.0);
    app.world_mut()
        .get_mut::<Transform>(player)
        .unwrap()
        .translation = moved;
    advance_ticks(&mut app, flock, 1);
    assert_eq!(app.world().get::<Position<Vec3>>(player).unwrap().0, moved);
    assert_eq!(
        app.world().get::<Velocity<Vec3>>(player).unwrap().0,
        Vec3::new(3.0, -4.0, 2.0)
    );
}

#[test]
fn a_leader_placed_at_a_3d_point_gathers_the_flock() {
    let mut app = app();
    let flock = app.world_mut().spawn_flock(params("reynolds3d"), 300, 3);
    let at = Vec3::new(80.0, -40.0, 60.0);
    app.world_mut()
        .commands()
        .place_leader(at, LeaderParams::default());
    app.world_mut().flush();
    let leader = app
        .world_mut()
        .query_filtered::<Entity, With<ClickLeader>>()
        .single(app.world())
        .unwrap();
    assert_eq!(app.world().get::<Position<Vec3>>(leader).unwrap().0, at);
    assert_eq!(
        app.world().get::<Position<Vec2>>(leader).unwrap().0,
        at.truncate(),
        "flat flocks see it at its x and y"
    );
    assert_gathers(&mut app, flock, at);
    app.world_mut().commands().remove_leader();
    app.world_mut().flush();
    let left = app
        .world_mut()
        .query_filtered::<(), With<ClickLeader>>()
        .iter(app.world())
        .count();
    assert_eq!(left, 0);
}

#[test]
fn a_3d_leader_or_predator_is_not_seen_by_a_flat_flock() {
    let mut app = app();
    let world = app.world_mut();
    let leader = world
        .spawn((Leader::new(LeaderParams::default()), Position(Vec3::ONE)))
        .id();
    let hunter = world
        .spawn((
            Predator {
                params: PredatorParams::default(),
            },
            Position(Vec3::ONE),
        ))
        .id();
    let flat = world.spawn(Leader::new(LeaderParams::default())).id();
    world.flush();
    assert!(world.get::<Position<Vec2>>(leader).is_none());
    assert!(world.get::<Position<Vec2>>(hunter).is_none());
    assert_eq!(world.get::<Velocity<Vec3>>(hunter).unwrap().0, Vec3::ZERO);
    // Negative control: one placed nowhere stands at the flat origin, as before.
    assert_eq!(world.get::<Position<Vec2>>(flat).unwrap().0, Vec2::ZERO);
}

#[test]
fn no_bird_of_a_3d_flock_enters_a_solid() {
    let mut app = app();
    let mut p = params("reynolds3d");
    p.edges.mode = EdgeMode::None;
    let flock = app.world_mut().spawn_flock(p.clone(), 400, 4);
    let ball = Solid::Sphere {
        centre: Vec3::ZERO,
        radius: 80.0,
    };
    let ground = Solid::Ground { height: -150.0 };
    app.world_mut().spawn(FlockSolid(ball));
    app.world_mut().spawn(FlockSolid(ground));
    app.world_mut().spawn((
        Leader::new(LeaderParams::default()),
        Position(Vec3::new(0.0, -100.0, 0.0)),
    ));
    let clearance = p.avoidance.clearance;
    let mut close = 0;
    for _ in 0..300 {
        advance_ticks(&mut app, flock, 1);
        let (pos, _) = state(&mut app, flock);
        for q in &pos {
            let d = ball.distance(*q).min(ground.distance(*q));
            assert!(d >= clearance - 1e-3, "a bird at {q} is {d} from a solid");
            close += (d < 20.0) as usize;
        }
    }
    assert!(close > 500, "birds came near the solids ({close})");
}

#[test]
fn a_click_ray_meets_the_leaders_plane() {
    let ray = Ray3d::new(
        Vec3::new(0.0, 100.0, 100.0),
        Dir3::new(Vec3::new(0.0, -1.0, -1.0)).unwrap(),
    );
    let at = LeaderPlane::FlockHeight
        .hit(ray, Vec3::new(5.0, 20.0, 0.0))
        .unwrap();
    assert!((at - Vec3::new(0.0, 20.0, 20.0)).length() < 1e-4, "{at}");
    let at = LeaderPlane::Height(-50.0).hit(ray, Vec3::ZERO).unwrap();
    assert!((at.y + 50.0).abs() < 1e-4);
    // Looking away from the plane: no point.
    let up = Ray3d::new(Vec3::ZERO, Dir3::Y);
    assert_eq!(LeaderPlane::Height(-10.0).hit(up, Vec3::ZERO), None);
    let wall = LeaderPlane::Through {
        point: Vec3::new(0.0, 0.0, -30.0),
        normal: Vec3::Z,
    };
    let at = wall
        .hit(Ray3d::new(Vec3::ZERO, Dir3::NEG_Z), Vec3::ZERO)
        .unwrap();
    assert!((at.z + 30.0).abs() < 1e-4);
}

/// Durations a 144 Hz display takes over a 60 Hz tick.
const FRAME: Duration = Duration::from_nanos(6_944_444);

#[test]
fn a_3d_flock_is_drawn_between_its_ticks_at_any_frame_rate() {
    let run = |interpolate: bool| {
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, FlockPlugins::default()))
            .insert_resource(TimeUpdateStrategy::ManualDuration(FRAME));
        app.finish();
        app.cleanup();
        app.world_mut().resource_mut::<BirdDrawing>().interpolate = interpolate;
        let flock = app.world_mut().spawn_flock(params("cornell3d"), 50, 5);
        for _ in 0..30 {
            app.update();
        }
        // How far a bird is drawn to move from frame to frame, over 48 frames (20 ticks).
        let mut last: Option<Vec3> = None;
        let mut steps = Vec::new();
        for _ in 0..48 {
            app.update();
            // Instances are in the columns' (cell) order: find bird 0's.
            let world = app.world();
            let k = world
                .get::<FlockColumns<Vec3>>(flock)
                .unwrap()
                .birds()
                .ids()
                .iter()
                .position(|&id| id == 0)
                .unwrap();
            let drawn = world
                .get::<murmur_flock::draw3d::BirdInstances>(flock)
                .expect("a 3D flock is given its instances")
                .0[k]
                .position;
            let drawn = Vec3::from_array(drawn);
            if let Some(before) = last {
                steps.push(drawn.distance(before));
            }
            last = Some(drawn);
        }
        steps
    };
    let smooth = run(true);
    // Every frame the bird moves, by about 60/144 of a tick's move (the speed changes a little).
    let (least, most) = smooth
        .iter()
        .fold((f32::INFINITY, 0.0f32), |(a, b), &s| (a.min(s), b.max(s)));
    assert!(least > 0.0, "it moves every frame: {smooth:?}");
    assert!(most < 2.0 * least, "by even steps: {smooth:?}");
    // Negative control: drawn where its ticks leave it, it stands still on some frames and
    // jumps on others.
    let staircase = run(false);
    assert!(
        staircase.contains(&0.0),
        "without interpolation some frames repeat: {staircase:?}"
    );
}
