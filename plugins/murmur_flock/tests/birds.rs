//! A flock's birds as entities: what a game does to them between ticks reaches the flock (birds
//! spawned, despawned, moved, moved to another flock, piloted), what the flock does reaches the
//! entities (and their change detection). (A tick after warm-up allocating nothing is
//! `allocations.rs`: its counting allocator sees the whole process, so it has a file to itself.)

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use murmur_flock::prelude::*;

fn app() -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, FlockPlugins::default()))
        .insert_resource(Time::<Fixed>::from_duration(TICK))
        .insert_resource(TimeUpdateStrategy::ManualDuration(TICK));
    app
}

fn params() -> FlockParams {
    let mut p = Preset::load("reynolds").unwrap().flock_params();
    p.edges.mode = EdgeMode::Wrap;
    p
}

fn columns(app: &App, flock: Entity) -> &FlockColumns {
    app.world().get::<FlockColumns>(flock).unwrap()
}

fn bird_with_id(app: &mut App, id: u32) -> Entity {
    let mut q = app.world_mut().query::<(Entity, &Boid)>();
    q.iter(app.world())
        .find(|(_, b)| b.id == id)
        .map(|(e, _)| e)
        .unwrap()
}

#[test]
fn a_bird_a_game_moves_is_where_the_game_put_it_at_the_next_tick() {
    let mut app = app();
    let flock = app.world_mut().spawn_flock(params(), 400, 1);
    advance_ticks(&mut app, flock, 5);
    let bird = bird_with_id(&mut app, 17);
    let target = Vec2::new(123.0, -77.0);
    app.world_mut().get_mut::<Position>(bird).unwrap().0 = target;
    advance_ticks(&mut app, flock, 1);
    let now = app.world().get::<Position>(bird).unwrap().0;
    let speed = app.world().get::<Velocity>(bird).unwrap().0.length();
    assert!(
        now.distance(target) <= speed + 1e-3,
        "one tick's flight from where the game put it: {now} vs {target}"
    );
    // A bird nobody touched keeps flying from where the flock had it (its own write-back is
    // not mistaken for a game's move).
    let other = bird_with_id(&mut app, 18);
    let before = app.world().get::<Position>(other).unwrap().0;
    advance_ticks(&mut app, flock, 1);
    let after = app.world().get::<Position>(other).unwrap().0;
    let v = app.world().get::<Velocity>(other).unwrap().0;
    let world = params().bounds();
    assert!(
        (world.delta(before, after) - v).length() < 1e-3,
        "moved by its velocity"
    );
}

#[test]
fn birds_spawned_later_join_and_despawned_birds_leave() {
    let mut app = app();
    let flock = app.world_mut().spawn_flock(params(), 300, 2);
    advance_ticks(&mut app, flock, 3);
    assert_eq!(columns(&app, flock).len(), 300);
    // Despawn a third of them, spawn fifty new ones.
    let mut q = app.world_mut().query::<(Entity, &Boid)>();
    let gone: Vec<Entity> = q
        .iter(app.world())
        .filter(|(_, b)| b.id % 3 == 0)
        .map(|(e, _)| e)
        .collect();
    for e in &gone {
        app.world_mut().despawn(*e);
    }
    let newcomers: Vec<Entity> = (0..50)
        .map(|i| {
            app.world_mut()
                .spawn((
                    Boid { id: 1000 + i },
                    FlockMember(flock),
                    Position(Vec2::new(i as f32, 0.0)),
                    Velocity(Vec2::new(1.0, 0.0)),
                ))
                .id()
        })
        .collect();
    advance_ticks(&mut app, flock, 3);
    let c = columns(&app, flock);
    assert_eq!(c.len(), 300 - gone.len() + 50);
    assert!(c.birds().ids().iter().all(|id| id % 3 != 0 || *id >= 1000));
    for &e in &newcomers {
        let id = app.world().get::<Boid>(e).unwrap().id;
        assert_eq!(columns(&app, flock).entity_of(id), Some(e));
        assert_ne!(
            app.world().get::<Position>(e).unwrap().0,
            Vec2::new((id - 1000) as f32, 0.0),
            "newcomers fly"
        );
    }
}

#[test]
fn a_bird_can_change_flocks() {
    let mut app = app();
    let a = app.world_mut().spawn_flock(params(), 100, 3);
    let b = app.world_mut().spawn_flock(params(), 100, 4);
    advance_ticks(&mut app, a, 2);
    // Bird 5 of flock a joins flock b, where id 5 is taken: it gets a fresh id there.
    let mut q = app.world_mut().query::<(Entity, &Boid, &FlockMember)>();
    let mover = q
        .iter(app.world())
        .find(|(_, boid, m)| boid.id == 5 && m.0 == a)
        .map(|(e, _, _)| e)
        .unwrap();
    app.world_mut().entity_mut(mover).insert(FlockMember(b));
    advance_ticks(&mut app, a, 3);
    assert_eq!(columns(&app, a).len(), 99);
    assert_eq!(columns(&app, b).len(), 101);
    let id = app.world().get::<Boid>(mover).unwrap().id;
    assert_ne!(id, 5, "a fresh id in its new flock");
    assert_eq!(columns(&app, b).entity_of(id), Some(mover));
    assert_eq!(columns(&app, a).entity_of(5), None);
}

#[test]
fn a_bird_piloted_after_spawning_stays_where_its_pilot_puts_it() {
    let mut app = app();
    let flock = app.world_mut().spawn_flock(params(), 100, 5);
    advance_ticks(&mut app, flock, 2);
    let bird = bird_with_id(&mut app, 7);
    app.world_mut().entity_mut(bird).insert(Piloted);
    let held = app.world().get::<Position>(bird).unwrap().0;
    advance_ticks(&mut app, flock, 10);
    assert_eq!(app.world().get::<Position>(bird).unwrap().0, held);
    app.world_mut().entity_mut(bird).remove::<Piloted>();
    advance_ticks(&mut app, flock, 2);
    assert_ne!(
        app.world().get::<Position>(bird).unwrap().0,
        held,
        "free again"
    );
}

#[derive(Resource, Default)]
struct SeenChanged(Vec<usize>);

#[test]
fn games_see_every_flying_bird_changed_after_each_tick() {
    let mut app = app();
    app.init_resource::<SeenChanged>().add_systems(
        Update,
        |moved: Query<(), (With<Boid>, Changed<Position>)>, mut seen: ResMut<SeenChanged>| {
            seen.0.push(moved.iter().count());
        },
    );
    let flock = app.world_mut().spawn_flock(params(), 250, 6);
    advance_ticks(&mut app, flock, 4);
    let seen = &app.world().resource::<SeenChanged>().0;
    assert!(seen.len() >= 4);
    assert!(seen.iter().all(|&n| n == 250), "{seen:?}");
}
