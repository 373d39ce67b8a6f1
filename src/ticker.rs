//! The flock plugins in an app without window or drawing, ticked on demand: the app `murmur
//! headless` runs, and the one the web page runs for `?ticks=N` (`web::ticks`), so that the two
//! give the same results for the same scene.

use crate::scene::SceneConfig;
use bevy::prelude::*;
use bevy::reflect::TypePath;
use bevy::time::TimeUpdateStrategy;
use murmur_flock::murmur_core::Vector;
use murmur_flock::murmur_core::preset::Preset;
use murmur_flock::prelude::*;

/// A headless app running one flock with the normal flock plugins; [`ready`] it once every
/// plugin is in.
pub fn flock_app(params: FlockParams, boids: usize, seed: u64) -> (App, Entity) {
    let mut app = headless_app();
    let flock = app.world_mut().spawn_flock(params, boids, seed);
    (app, flock)
}

/// [`flock_app`] with the birds (ids by index) at the given positions and velocities (`Vec2`
/// for a flat flock, `Vec3` for a 3D one).
pub fn flock_app_from<V: Vector + Reflect + TypePath>(
    params: FlockParams,
    pos: &[V],
    vel: &[V],
    seed: u64,
) -> (App, Entity) {
    let mut app = headless_app();
    let world = app.world_mut();
    let flock = world.spawn(Flock { params, seed }).id();
    world.spawn_batch(pos.iter().zip(vel).enumerate().map(move |(i, (&p, &v))| {
        (
            Boid { id: i as u32 },
            FlockMember(flock),
            Position(p),
            Velocity(v),
        )
    }));
    (app, flock)
}

/// Minimal plugins, the flock plugins, and a clock that advances one tick per update.
pub fn headless_app() -> App {
    let mut app = App::new();
    // No window, no drawing: the flock plugins a headless game runs.
    app.add_plugins((
        MinimalPlugins,
        FlockPlugins::default()
            .build()
            .disable::<FlockDrawPlugin>()
            .disable::<ClickLeaderPlugin>(),
    ))
    .insert_resource(Time::<Fixed>::from_duration(TICK))
    .insert_resource(TimeUpdateStrategy::ManualDuration(TICK));
    app
}

/// Finishes a headless app's plugins and puts every schedule on the single-threaded executor
/// (see `headless_app`); then the caller only `update()`s it.
pub fn ready(app: &mut App) {
    app.finish();
    app.cleanup();
    let mut schedules = app.world_mut().resource_mut::<Schedules>();
    for (_, schedule) in schedules.iter_mut() {
        schedule.set_executor(bevy::ecs::schedule::SingleThreadedExecutor::new());
    }
}

/// Gives a headless app the preset's obstacles: for a flat flock rapier and the flock's physics
/// (obstacles, physical birds), as the app sets them up (`FlockRapierPlugin`); for a 3D flock
/// the solids it flies round (`FlockSolid`).
pub fn add_obstacles(app: &mut App, preset: &Preset) {
    if preset.world.depth > 0.0 {
        let world = app.world_mut();
        for solid in preset.scene().obstacles.iter().filter_map(|o| o.solid()) {
            world.spawn(FlockSolid(solid));
        }
        return;
    }
    let scene = preset.scene();
    if !scene.obstacles.is_empty() || scene.bodies.enabled {
        add_physics(app, preset);
    }
}

/// Adds rapier and the flock's physics (obstacles, physical birds) to a headless app, with the
/// preset's obstacles and body settings; rapier as the app sets it up (`FlockRapierPlugin`).
pub fn add_physics(app: &mut App, preset: &Preset) {
    use murmur_physics::prelude::*;
    app.add_plugins((
        bevy::transform::TransformPlugin,
        FlockRapierPlugin::default(),
        FlockPhysicsPlugin::default(),
    ))
    .insert_resource(BirdBodies::from(preset.scene().bodies));
    let world = app.world_mut();
    let mut commands = world.commands();
    for obstacle in preset.scene().obstacles {
        spawn_obstacle(&mut commands, obstacle.clone());
    }
    world.flush();
}

/// The app for a scene: its flock, and the leader, obstacles, physical birds and hunter the
/// scene and its preset ask for, with warnings logged; ready to tick.
pub fn scene_app<V: Vector + Reflect + TypePath>(scene: &SceneConfig) -> (App, Entity) {
    let preset = &scene.preset;
    let (mut app, flock) = flock_app(preset.flock_params(), scene.boids, scene.seed);
    // Warnings (the timestep, a bad state) on stderr or the browser's console; `RUST_LOG` asks
    // for more natively.
    app.add_plugins(bevy::log::LogPlugin {
        level: bevy::log::Level::WARN,
        ..default()
    });
    if let Some(at) = scene.leader {
        app.world_mut()
            .spawn((Leader::new(preset.leader), Position(V::from_vec3(at))));
    }
    add_obstacles(&mut app, preset);
    if let Some(at) = scene.hunter {
        app.world_mut().spawn((
            Predator {
                params: preset.predator,
            },
            Hunter,
            Position(V::from_vec3(at)),
            Velocity(V::X * preset.predator.hunt_speed),
        ));
    }
    ready(&mut app);
    (app, flock)
}
