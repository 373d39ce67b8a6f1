//! The follow camera through the real input systems (Bevy's keyboard and mouse-wheel input, the
//! player's thrust, rapier, the flock): D held for ten seconds with the panel open keeps the gold
//! bird inside the playfield on every frame, in a wrapped and in a bounded world; with the camera
//! off (V) it leaves within a few seconds; the edge arrow shows exactly while it is out of view.

mod common;

use bevy::input::ButtonState;
use bevy::input::InputPlugin;
use bevy::input::keyboard::{Key, KeyboardInput};
use bevy::input::mouse::{MouseScrollUnit, MouseWheel};
use bevy::input::touch::TouchPhase;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy::window::{PrimaryWindow, WindowResized};
use bevy_egui::input::EguiWantsInput;
use murmur::app::camera::arrows::{ArrowTarget, EdgeArrows};
use murmur::app::camera::{self, Playfield, WorldCamera};
use murmur::app::player::{self, Player};
use murmur::app::scene::{self, SceneConfig};
use murmur_flock::prelude::*;

/// The panel's width when open (its default).
const PANEL: f32 = 330.0;

fn app(preset: &str) -> App {
    let mut app = common::app::scene_app(preset, 1);
    app.add_plugins((InputPlugin, murmur_physics::FlockRapierPlugin::default()))
        .insert_resource(Time::<Fixed>::from_duration(TICK))
        .insert_resource(TimeUpdateStrategy::ManualDuration(TICK))
        .init_resource::<EguiWantsInput>()
        .init_resource::<Assets<Image>>()
        .add_message::<WindowResized>()
        // The panel open, as it reports itself.
        .insert_resource(Playfield {
            right: PANEL,
            ..default()
        });
    app.add_plugins((scene::plugin, camera::plugin, player::plugin));
    app.finish();
    app.cleanup();
    app.update();
    app
}

fn window(app: &mut App) -> Entity {
    app.world_mut()
        .query_filtered::<Entity, With<PrimaryWindow>>()
        .single(app.world())
        .unwrap()
}

fn key(app: &mut App, key: KeyCode, letter: &str, state: ButtonState) {
    let window = window(app);
    app.world_mut().write_message(KeyboardInput {
        key_code: key,
        logical_key: Key::Character(letter.into()),
        state,
        text: None,
        repeat: false,
        window,
    });
}

/// Zooms in by `notches` of the wheel.
fn zoom_in(app: &mut App, notches: f32) {
    let window = window(app);
    app.world_mut().write_message(MouseWheel {
        unit: MouseScrollUnit::Line,
        x: 0.0,
        y: notches,
        window,
        phase: TouchPhase::Moved,
    });
    app.update();
}

/// The world rectangle the playfield shows, and the gold bird's place as seen there (the
/// image nearest the view's centre in a wrapped world).
fn view_and_bird(app: &mut App) -> (Rect, Vec2) {
    let world = app.world_mut();
    let (projection, transform) = world
        .query_filtered::<(&Projection, &Transform), With<WorldCamera>>()
        .single(world)
        .unwrap();
    let Projection::Orthographic(ortho) = projection else {
        panic!("an orthographic camera")
    };
    let view = world.resource::<Playfield>().view(
        transform.translation.truncate(),
        ortho.scale,
        Vec2::new(1280.0, 720.0),
    );
    let bird = world
        .query_filtered::<&Transform, With<Player>>()
        .single(world)
        .unwrap()
        .translation
        .truncate();
    let config = world.resource::<SceneConfig>();
    let bounds = config.preset.flock_params().bounds();
    (view, view.center() + bounds.delta(view.center(), bird))
}

fn arrow_shown(app: &App) -> bool {
    app.world()
        .resource::<EdgeArrows>()
        .0
        .iter()
        .any(|a| a.target == ArrowTarget::Player)
}

#[test]
fn d_held_ten_seconds_with_the_panel_open_keeps_the_gold_bird_in_the_playfield() {
    for preset in ["reynolds", "cornell"] {
        let mut app = app(preset);
        // Closer in than the whole world, so that the bird can fly out of a still view.
        zoom_in(&mut app, 5.0);
        let (start_view, start) = view_and_bird(&mut app);
        key(&mut app, KeyCode::KeyD, "d", ButtonState::Pressed);
        let mut furthest: f32 = 0.0;
        for frame in 0..600 {
            app.update();
            let (view, bird) = view_and_bird(&mut app);
            assert!(
                view.contains(bird),
                "{preset}: frame {frame}: the bird at {bird} left the playfield {view:?}"
            );
            assert!(!arrow_shown(&app), "{preset}: no arrow while it is in view");
            furthest = furthest.max(bird.x - start.x);
        }
        // It flew out of where the view began (a test that could not fail otherwise).
        assert!(
            start.x + furthest > start_view.max.x,
            "{preset}: the bird flew {furthest} from {start}, the first view ended at {}",
            start_view.max.x
        );
    }
}

#[test]
fn with_the_camera_off_the_bird_leaves_and_the_arrow_shows_exactly_while_it_is_out() {
    for preset in ["reynolds", "cornell"] {
        let mut app = app(preset);
        zoom_in(&mut app, 5.0);
        key(&mut app, KeyCode::KeyV, "v", ButtonState::Pressed);
        app.update();
        key(&mut app, KeyCode::KeyV, "v", ButtonState::Released);
        key(&mut app, KeyCode::KeyD, "d", ButtonState::Pressed);
        let mut left_at = None;
        let (mut inside, mut outside) = (0, 0);
        for frame in 0..360 {
            app.update();
            let (view, bird) = view_and_bird(&mut app);
            let out = !view.contains(bird);
            assert_eq!(
                arrow_shown(&app),
                out,
                "{preset}: frame {frame}: the arrow shows exactly while the bird at {bird} is outside {view:?}"
            );
            if out {
                outside += 1;
                left_at.get_or_insert(frame);
            } else {
                inside += 1;
            }
        }
        let left_at = left_at.unwrap_or_else(|| panic!("{preset}: the bird never left the view"));
        assert!(
            left_at < 4 * 60,
            "{preset}: it left only after {left_at} frames"
        );
        assert!(inside > 0 && outside > 0, "{preset}: both in and out");
    }
}

/// How far the gold bird flies to the right in `frames` with `keys` held.
fn flight(app: &mut App, keys: &[(KeyCode, &str)], frames: usize) -> f32 {
    let (_, start) = view_and_bird(app);
    for &(k, letter) in keys {
        key(app, k, letter, ButtonState::Pressed);
    }
    let mut travelled = 0.0;
    let mut last = start;
    for _ in 0..frames {
        app.update();
        let (_, bird) = view_and_bird(app);
        // Step by step, so that the seam does not count.
        let config = app.world().resource::<SceneConfig>();
        travelled += config.preset.flock_params().bounds().delta(last, bird).x;
        last = bird;
    }
    travelled
}

#[test]
fn shift_boosts_the_gold_bird() {
    let plain = flight(&mut app("reynolds"), &[(KeyCode::KeyD, "d")], 180);
    let boosted = flight(
        &mut app("reynolds"),
        &[(KeyCode::KeyD, "d"), (KeyCode::ShiftLeft, "")],
        180,
    );
    assert!(plain > 300.0, "it flies: {plain}");
    assert!(
        boosted > 1.7 * plain,
        "Shift flies it about twice as fast: {boosted} against {plain}"
    );
}

#[test]
fn home_fits_the_whole_world_into_the_playfield_and_the_panel_refits_a_fitted_view() {
    let mut app = app("cornell");
    let world = Rect::from_center_size(Vec2::ZERO, Vec2::new(640.0, 480.0));
    let fits = |app: &mut App| {
        let (view, _) = view_and_bird(app);
        view.contains(world.min)
            && view.contains(world.max)
            && view.center().abs().max_element() < 1e-3
    };
    assert!(fits(&mut app), "at start, with the panel open");
    zoom_in(&mut app, 5.0);
    assert!(!fits(&mut app), "zoomed in, it does not");
    key(&mut app, KeyCode::Home, "", ButtonState::Pressed);
    app.update();
    assert!(fits(&mut app), "Home fits it again");
    // The panel closes: the fitted view is fitted to the whole window.
    app.world_mut().resource_mut::<Playfield>().right = 0.0;
    app.update();
    let (view, _) = view_and_bird(&mut app);
    // Height-bound now: the world's height with the fit's 5% of room.
    assert!(
        fits(&mut app) && (view.height() - 1.05 * 480.0).abs() < 0.01,
        "{view:?}"
    );
}

#[test]
fn a_reset_keeps_the_gold_bird_and_moves_it_to_the_new_flock() {
    let mut app = app("cornell");
    let old = app.world().resource::<scene::ActiveFlock>().0;
    let player = app
        .world_mut()
        .query_filtered::<Entity, With<Player>>()
        .single(app.world())
        .unwrap();
    app.world_mut().write_message(scene::ResetScene::default());
    app.update();
    app.update();
    let new = app.world().resource::<scene::ActiveFlock>().0;
    assert_ne!(old, new, "a new flock");
    assert!(
        app.world().get_entity(player).is_ok(),
        "the gold bird is kept"
    );
    assert_eq!(app.world().get::<FlockMember>(player).unwrap().0, new);
    let boids = app.world().resource::<SceneConfig>().boids;
    let members = app
        .world_mut()
        .query::<&FlockMember>()
        .iter(app.world())
        .filter(|m| m.0 == new)
        .count();
    assert_eq!(
        members,
        boids + 1,
        "the new flock's birds and the gold bird"
    );
    let stale = app
        .world_mut()
        .query::<&FlockMember>()
        .iter(app.world())
        .filter(|m| m.0 == old)
        .count();
    assert_eq!(stale, 0, "the old flock's birds are gone");
}
