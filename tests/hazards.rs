//! The app's hazards through their real input systems: Shift + click puts an obstacle under
//! the cursor and Shift + right click takes it away (a plain click still places the leader);
//! `B` turns the birds into physical bodies and back; `X` lets a hunter loose and calls it off.

mod common;

use bevy::prelude::*;
use murmur::app::camera::CursorWorld;
use murmur::app::leader::ClickLeader;
use murmur::app::scene::{self, SceneConfig};
use murmur::app::{bodies, leader, obstacles, predators};
use murmur_flock::prelude::*;
use murmur_physics::prelude::*;

fn app() -> App {
    let mut app = common::app::scene_app("reynolds", 1);
    app.init_resource::<ButtonInput<KeyCode>>()
        .init_resource::<ButtonInput<MouseButton>>()
        .add_plugins((
            scene::plugin,
            leader::plugin,
            obstacles::plugin,
            bodies::plugin,
        ));
    app.update();
    app
}

/// One frame with `keys` held, `button` just pressed, and the cursor at `at`.
fn click(app: &mut App, keys: &[KeyCode], button: Option<MouseButton>, at: Vec2) {
    app.world_mut().resource_mut::<CursorWorld>().0 = Some(at);
    {
        let mut k = app.world_mut().resource_mut::<ButtonInput<KeyCode>>();
        k.release_all();
        k.clear();
        for key in keys {
            k.press(*key);
        }
    }
    {
        let mut m = app.world_mut().resource_mut::<ButtonInput<MouseButton>>();
        m.release_all();
        m.clear();
        if let Some(b) = button {
            m.press(b);
        }
    }
    app.update();
}

fn obstacles_now(app: &mut App) -> Vec<Obstacle> {
    app.world_mut()
        .query::<&ObstacleBody>()
        .iter(app.world())
        .map(|o| o.0.clone())
        .collect()
}

fn leaders(app: &mut App) -> usize {
    app.world_mut()
        .query::<&ClickLeader>()
        .iter(app.world())
        .count()
}

#[test]
fn shift_click_places_and_removes_obstacles_and_a_plain_click_still_leads() {
    let mut app = app();
    let at = Vec2::new(200.0, -100.0);
    click(&mut app, &[KeyCode::ShiftLeft], Some(MouseButton::Left), at);
    let placed = obstacles_now(&mut app);
    assert_eq!(placed.len(), 1);
    assert!(placed[0].distance(at) < 0.0, "under the cursor: {placed:?}");
    assert_eq!(leaders(&mut app), 0, "Shift + click is not a leader");
    // Right click away from it removes nothing; on it, removes it.
    click(
        &mut app,
        &[KeyCode::ShiftLeft],
        Some(MouseButton::Right),
        Vec2::new(-400.0, 0.0),
    );
    assert_eq!(obstacles_now(&mut app).len(), 1);
    click(
        &mut app,
        &[KeyCode::ShiftRight],
        Some(MouseButton::Right),
        at,
    );
    assert!(obstacles_now(&mut app).is_empty());
    click(&mut app, &[], Some(MouseButton::Left), at);
    assert_eq!(leaders(&mut app), 1, "a plain click places the leader");
    assert!(obstacles_now(&mut app).is_empty());
}

#[test]
fn the_obstacles_preset_brings_its_obstacles_and_a_reset_keeps_them_once() {
    let mut app = common::app::scene_app("obstacles", 1);
    app.init_resource::<ButtonInput<KeyCode>>()
        .init_resource::<ButtonInput<MouseButton>>()
        .add_plugins((scene::plugin, obstacles::plugin));
    app.update();
    assert_eq!(obstacles_now(&mut app).len(), 5);
    app.world_mut().write_message(scene::ResetScene::default());
    app.update();
    app.update();
    assert_eq!(obstacles_now(&mut app).len(), 5, "replaced, not doubled");
}

#[test]
fn b_switches_physical_birds_and_x_a_hunter() {
    let mut app = app();
    app.add_plugins(predators::plugin);
    assert!(!app.world().resource::<BirdBodies>().enabled);
    click(&mut app, &[KeyCode::KeyB], None, Vec2::ZERO);
    assert!(app.world().resource::<BirdBodies>().enabled);
    assert!(app.world().resource::<SceneConfig>().preset.bodies.enabled);
    click(&mut app, &[KeyCode::KeyB], None, Vec2::ZERO);
    assert!(!app.world().resource::<BirdBodies>().enabled);

    let hunters = |app: &mut App| {
        app.world_mut()
            .query_filtered::<&Predator, With<Hunter>>()
            .iter(app.world())
            .count()
    };
    click(&mut app, &[KeyCode::KeyX], None, Vec2::ZERO);
    assert_eq!(hunters(&mut app), 1);
    click(&mut app, &[KeyCode::KeyX], None, Vec2::ZERO);
    assert_eq!(hunters(&mut app), 0);
}
