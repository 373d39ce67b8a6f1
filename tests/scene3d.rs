//! The app's 3D scene through its real systems (Bevy's keyboard input, the panel's actions, the
//! flock), without a display: the panel moves a flat scene to a 3D one and back without a
//! restart (the flock, the solids and the gold bird's body follow), and the gold bird flies in
//! 3D as its keys say (forward, turning and banking, climbing; never into the ground; still
//! without a key).

mod common;

use bevy::input::ButtonState;
use bevy::input::InputPlugin;
use bevy::input::keyboard::{Key, KeyboardInput};
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy::time::TimeUpdateStrategy;
use bevy::window::{PrimaryWindow, WindowResized};
use bevy_egui::input::EguiWantsInput;
use bevy_rapier2d::prelude::RigidBody;
use murmur::app::deep::flight::Flight;
use murmur::app::deep::scenery::SceneFrame;
use murmur::app::deep::{self, Space};
use murmur::app::panel::{self, PanelAction, PanelState};
use murmur::app::player::{self, Player};
use murmur::app::scene::{self, ActiveFlock};
use murmur::app::{camera, render::Looks};
use murmur_flock::prelude::*;

fn app(preset: &str) -> App {
    let mut app = common::app::scene_app(preset, 3);
    app.add_plugins((
        StatesPlugin,
        InputPlugin,
        murmur_physics::FlockRapierPlugin::default(),
    ))
    .insert_resource(Time::<Fixed>::from_duration(TICK))
    .insert_resource(TimeUpdateStrategy::ManualDuration(TICK))
    .init_resource::<EguiWantsInput>()
    .init_resource::<Assets<Image>>()
    .init_resource::<Looks>()
    .add_message::<WindowResized>()
    .insert_resource(PanelState::with_storage(None, false));
    app.add_plugins((
        scene::plugin,
        camera::plugin,
        player::plugin,
        panel::actions_plugin,
        deep::plugin,
    ));
    app.finish();
    app.cleanup();
    for _ in 0..3 {
        app.update();
    }
    app
}

fn space(app: &App) -> Space {
    *app.world().resource::<State<Space>>().get()
}

fn solids(app: &mut App) -> usize {
    app.world_mut()
        .query::<&FlockSolid>()
        .iter(app.world())
        .count()
}

fn active_is_3d(app: &App) -> bool {
    let flock = app.world().resource::<ActiveFlock>().0;
    app.world().get::<FlockColumns<Vec3>>(flock).is_some()
}

fn player(app: &mut App) -> Entity {
    app.world_mut()
        .query_filtered::<Entity, With<Player>>()
        .single(app.world())
        .unwrap()
}

fn load(app: &mut App, preset: &str) {
    app.world_mut()
        .write_message(PanelAction::LoadBuiltin(preset.into()));
    for _ in 0..4 {
        app.update();
    }
}

fn key(app: &mut App, key: KeyCode, state: ButtonState) {
    let window = app
        .world_mut()
        .query_filtered::<Entity, With<PrimaryWindow>>()
        .single(app.world())
        .unwrap();
    app.world_mut().write_message(KeyboardInput {
        key_code: key,
        logical_key: Key::Character("k".into()),
        state,
        text: None,
        repeat: false,
        window,
    });
}

/// Holds `keys` for `ticks` ticks (one a frame), then lets them go.
fn hold(app: &mut App, keys: &[KeyCode], ticks: usize) {
    for &k in keys {
        key(app, k, ButtonState::Pressed);
    }
    for _ in 0..ticks {
        app.update();
    }
    for &k in keys {
        key(app, k, ButtonState::Released);
    }
    app.update();
}

fn gold(app: &mut App) -> (Vec3, Flight, f32) {
    let entity = player(app);
    let world = app.world();
    (
        world.get::<Transform>(entity).unwrap().translation,
        *world.get::<Flight>(entity).expect("flying in 3D"),
        world.get::<Bank>(entity).unwrap().0,
    )
}

#[test]
fn the_panel_switches_a_flat_scene_to_3d_and_back_without_a_restart() {
    let mut app = app("reynolds");
    assert_eq!(space(&app), Space::Flat);
    assert!(!active_is_3d(&app));
    assert_eq!(solids(&mut app), 0, "a flat scene has no solids");

    load(&mut app, "reynolds3d");
    assert_eq!(space(&app), Space::Deep);
    assert!(active_is_3d(&app), "the flock is the 3D preset's");
    // reynolds3d has a ground, a column and a hill.
    assert_eq!(solids(&mut app), 3);
    let gold = player(&mut app);
    let world = app.world();
    assert!(world.get::<Flight>(gold).is_some(), "the gold bird flies");
    assert!(world.get::<RigidBody>(gold).is_none(), "no flat body");
    assert!(world.get::<Position<Vec3>>(gold).is_some(), "a 3D bird");
    let frame = *world.resource::<SceneFrame>();
    assert_eq!(frame.half, Vec3::new(400.0, 200.0, 400.0));
    assert_eq!(frame.ground, -200.0);

    // Another 3D preset: the scenery follows its world.
    load(&mut app, "cornell3d");
    assert_eq!(space(&app), Space::Deep);
    assert_eq!(
        app.world().resource::<SceneFrame>().half,
        Vec3::new(320.0, 240.0, 240.0)
    );

    load(&mut app, "reynolds");
    assert_eq!(space(&app), Space::Flat);
    assert!(!active_is_3d(&app));
    assert_eq!(solids(&mut app), 0, "the 3D solids went with the 3D scene");
    let gold = player(&mut app);
    let world = app.world();
    assert!(world.get::<Flight>(gold).is_none());
    assert!(
        world.get::<RigidBody>(gold).is_some(),
        "the flat body is back"
    );
    assert!(world.get::<Position<Vec2>>(gold).is_some(), "a flat bird");
}

#[test]
fn the_gold_bird_flies_turns_banks_and_climbs_in_3d() {
    let mut app = app("reynolds3d");
    let (start, _, _) = gold(&mut app);

    // Without a key it stays where it is.
    hold(&mut app, &[], 60);
    let (still, _, _) = gold(&mut app);
    assert!(still.distance(start) < 1e-3, "{start} -> {still}");

    // W: forward, along -z (into the world), at the flat bird's top speed.
    hold(&mut app, &[KeyCode::KeyW], 120);
    let (ahead, flight, _) = gold(&mut app);
    let moved = start - ahead;
    assert!(moved.z > 150.0, "{start} -> {ahead}");
    assert!(moved.x.abs() < 1.0 && moved.y.abs() < 1.0, "{moved}");
    assert!(flight.velocity.length() > 50.0);

    // W and A: it turns left (towards -x when heading along -z) and banks into the turn.
    key(&mut app, KeyCode::KeyW, ButtonState::Pressed);
    key(&mut app, KeyCode::KeyA, ButtonState::Pressed);
    for _ in 0..30 {
        app.update();
    }
    let (turning, flight, bank) = gold(&mut app);
    assert!(flight.heading.x < -0.3, "heading {}", flight.heading);
    assert!(turning.x < ahead.x - 5.0, "{ahead} -> {turning}");
    assert!(bank > 0.3, "banks left into a left turn: {bank}");
    key(&mut app, KeyCode::KeyA, ButtonState::Released);
    for _ in 0..60 {
        app.update();
    }
    let (_, _, level) = gold(&mut app);
    assert!(level.abs() < 0.1, "levels out: {level}");
    key(&mut app, KeyCode::KeyW, ButtonState::Released);

    // Space climbs; Ctrl dives, but never into the ground (reynolds3d's is at -200).
    let (before, _, _) = gold(&mut app);
    hold(&mut app, &[KeyCode::Space], 60);
    let (up, _, _) = gold(&mut app);
    assert!(up.y > before.y + 50.0, "{before} -> {up}");
    hold(&mut app, &[KeyCode::ControlLeft], 600);
    let (down, _, _) = gold(&mut app);
    assert!(
        down.y > -200.0 && down.y < -150.0,
        "down to the ground: {down}"
    );
    // Its flock bird is where its body is.
    let entity = player(&mut app);
    let bird = app.world().get::<Position<Vec3>>(entity).unwrap().0;
    assert!(bird.distance(down) < 1e-3, "{bird} vs {down}");
}
