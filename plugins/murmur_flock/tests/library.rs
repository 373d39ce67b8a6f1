//! The library pieces a game uses: the plugin group's timestep handling, a game entity as the
//! bird the flock follows (`FlockPlayer`), a leader placed at a world point, and extra
//! components on every bird.

use bevy::app::PluginGroupBuilder;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use murmur_flock::prelude::*;
use std::time::Duration;

/// A headless app with the plugin group, finished as `App::run` would.
fn app_with(plugins: FlockPlugins, fixed: Option<Duration>) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, plugins));
    if let Some(step) = fixed {
        app.insert_resource(Time::<Fixed>::from_duration(step));
    }
    app.finish();
    app.cleanup();
    app
}

fn timestep(app: &App) -> Duration {
    app.world().resource::<Time<Fixed>>().timestep()
}

#[test]
fn the_group_sets_the_presets_tick_unless_the_game_chose_one() {
    // Bevy's default fixed step (64 Hz) becomes the presets' 60 Hz tick.
    assert_eq!(timestep(&app_with(FlockPlugins::default(), None)), TICK);
    // A step the game chose (after adding the plugins) is kept.
    let game = Duration::from_millis(20);
    assert_eq!(
        timestep(&app_with(FlockPlugins::default(), Some(game))),
        game
    );
    // `Keep` leaves even Bevy's default alone; `Period` sets its own.
    let keep = app_with(FlockPlugins::default().with_timestep(Timestep::Keep), None);
    assert_eq!(timestep(&keep), Time::<Fixed>::default().timestep());
    let period = Duration::from_millis(10);
    let set = app_with(
        FlockPlugins::default().with_timestep(Timestep::Period(period)),
        Some(game),
    );
    assert_eq!(timestep(&set), period);
}

#[test]
fn the_group_runs_in_the_schedule_it_is_given() {
    let mut app = app_with(FlockPlugins::new(Update), None);
    let flock =
        app.world_mut()
            .spawn_flock(Preset::load("reynolds").unwrap().flock_params(), 50, 1);
    for _ in 0..5 {
        app.update();
    }
    let ticks = app.world().get::<FlockColumns>(flock).unwrap().tick();
    assert_eq!(ticks, 5, "one tick per update in Update");
}

fn ticking_app() -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, FlockPlugins::default()))
        .insert_resource(TimeUpdateStrategy::ManualDuration(TICK));
    app.finish();
    app.cleanup();
    app
}

fn mean_distance(app: &mut App, flock: Entity, to: Vec2) -> f32 {
    let world = app.world().get::<Flock>(flock).unwrap().params.bounds();
    let (pos, _) = murmur_flock::measure::flock_state::<Vec2>(app.world_mut(), flock);
    pos.iter()
        .map(|p| world.delta(to, *p).length())
        .sum::<f32>()
        / pos.len() as f32
}

#[test]
fn a_game_entity_becomes_a_bird_the_flock_follows_placed_by_its_transform() {
    let mut app = ticking_app();
    let params = Preset::load("reynolds").unwrap().flock_params();
    let flock = app.world_mut().spawn_flock(params, 300, 2);
    let target = Vec2::new(-250.0, 150.0);
    let player = app
        .world_mut()
        .spawn((
            FlockPlayer::leading(flock, LeaderParams::default()),
            Transform::from_translation(target.extend(0.0)),
        ))
        .id();
    advance_ticks(&mut app, flock, 2);
    let world = app.world();
    assert_eq!(world.get::<Boid>(player).unwrap().id, PLAYER_ID);
    assert_eq!(world.get::<FlockMember>(player).unwrap().0, flock);
    assert!(world.get::<Piloted>(player).is_some());
    assert_eq!(world.get::<Leader>(player).unwrap().only, Some(flock));
    assert_eq!(
        columns_entity(&app, flock, PLAYER_ID),
        Some(player),
        "the flock counts it as one of its own"
    );
    let before = mean_distance(&mut app, flock, target);
    advance_ticks(&mut app, flock, 400);
    let after = mean_distance(&mut app, flock, target);
    assert!(
        after < 0.5 * before,
        "the flock gathers round it: {before} -> {after}"
    );
    // The game moves it; the bird follows its Transform, with the move as its velocity.
    let moved = target + Vec2::new(3.0, -4.0);
    app.world_mut()
        .get_mut::<Transform>(player)
        .unwrap()
        .translation = moved.extend(0.0);
    advance_ticks(&mut app, flock, 1);
    assert_eq!(app.world().get::<Position>(player).unwrap().0, moved);
    assert_eq!(
        app.world().get::<Velocity>(player).unwrap().0,
        Vec2::new(3.0, -4.0)
    );
    assert_eq!(
        app.world().get::<Transform>(player).unwrap().translation,
        moved.extend(0.0),
        "and the flock never moves it"
    );
}

fn columns_entity(app: &App, flock: Entity, id: u32) -> Option<Entity> {
    app.world()
        .get::<FlockColumns>(flock)
        .unwrap()
        .entity_of(id)
}

#[test]
fn a_leader_placed_at_a_world_point_moves_there_and_can_be_removed() {
    let mut app = ticking_app();
    let params = Preset::load("reynolds").unwrap().flock_params();
    let flock = app.world_mut().spawn_flock(params, 300, 3);
    let place = |app: &mut App, at: Vec2| {
        app.world_mut()
            .commands()
            .place_leader(at, LeaderParams::default());
        app.world_mut().flush();
    };
    let leaders = |app: &mut App| -> Vec<Vec2> {
        app.world_mut()
            .query_filtered::<&Position, With<ClickLeader>>()
            .iter(app.world())
            .map(|p| p.0)
            .collect()
    };
    let first = Vec2::new(200.0, -100.0);
    place(&mut app, first);
    assert_eq!(leaders(&mut app), vec![first]);
    let before = mean_distance(&mut app, flock, first);
    advance_ticks(&mut app, flock, 400);
    assert!(
        mean_distance(&mut app, flock, first) < 0.5 * before,
        "the flock gathers"
    );
    // Placing again moves the one leader.
    let second = Vec2::new(-300.0, 50.0);
    place(&mut app, second);
    assert_eq!(leaders(&mut app), vec![second]);
    app.world_mut().commands().remove_leader();
    app.world_mut().flush();
    assert!(leaders(&mut app).is_empty());
}

#[derive(Component)]
struct Starling(u32);

#[test]
fn every_bird_can_carry_the_games_own_components() {
    let mut app = ticking_app();
    let flock = app.world_mut().spawn_flock_with(
        Preset::load("cornell").unwrap().flock_params(),
        200,
        4,
        Starling,
    );
    advance_ticks(&mut app, flock, 3);
    let mut q = app.world_mut().query::<(&Boid, &Starling, &FlockMember)>();
    let birds: Vec<(u32, u32)> = q
        .iter(app.world())
        .filter(|(_, _, m)| m.0 == flock)
        .map(|(b, s, _)| (b.id, s.0))
        .collect();
    assert_eq!(birds.len(), 200);
    assert!(
        birds.iter().all(|(id, s)| id == s),
        "each bird's own, by id"
    );
}

/// Birds in a flock's columns after two frames with the clock paused (no tick yet).
fn birds_before_the_first_tick(plugins: PluginGroupBuilder) -> (usize, u64) {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, plugins))
        .insert_resource(TimeUpdateStrategy::ManualDuration(TICK));
    app.finish();
    app.cleanup();
    app.world_mut().resource_mut::<Time<Virtual>>().pause();
    let params = Preset::load("reynolds").unwrap().flock_params();
    let flock = app.world_mut().spawn_flock(params, 50, 1);
    app.update();
    app.update();
    let columns = app.world().get::<FlockColumns>(flock).unwrap();
    (columns.len(), columns.tick())
}

#[test]
fn a_drawing_app_takes_a_new_flock_in_before_its_first_tick() {
    // Drawn from its first frame, paused or not: the drawing takes the birds in.
    assert_eq!(
        birds_before_the_first_tick(FlockPlugins::default().build()),
        (50, 0)
    );
    // The negative control: without the drawing, the birds wait for the first tick.
    let bare = FlockPlugins::default().build().disable::<FlockDrawPlugin>();
    assert_eq!(birds_before_the_first_tick(bare), (0, 0));
}
