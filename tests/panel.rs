//! The panel's actions, applied by the same system the sliders feed: parameters change in the
//! running flock, birds come and go, presets save and load back, bad files are warnings.

mod common;

use bevy::prelude::*;
use murmur::app::panel::{self, PanelAction, PanelState, store};
use murmur::app::scene::{self, ActiveFlock, SceneConfig};
use murmur_flock::prelude::*;
use std::path::PathBuf;

fn app(config_dir: Option<PathBuf>) -> App {
    let mut app = common::app::scene_app("cornell", 7);
    app.insert_resource(PanelState::with_storage(
        config_dir.map(store::Storage::Folder),
        false,
    ))
    .add_plugins((scene::plugin, panel::actions_plugin));
    app.update();
    app
}

fn act(app: &mut App, action: PanelAction) {
    app.world_mut().write_message(action);
    app.update();
}

fn set(name: &str, value: &str) -> PanelAction {
    PanelAction::Set {
        name: name.into(),
        value: value.into(),
    }
}

fn flock_params(app: &mut App) -> FlockParams {
    let flock = app.world().resource::<ActiveFlock>().0;
    app.world().get::<Flock>(flock).unwrap().params.clone()
}

fn bird_count(app: &mut App) -> usize {
    app.world_mut().query::<&Boid>().iter(app.world()).count()
}

fn warnings(app: &App) -> Vec<String> {
    app.world().resource::<PanelState>().warnings.clone()
}

#[test]
fn sliders_change_the_running_flock() {
    let mut app = app(None);
    act(&mut app, set("cornell.visual_range", "55"));
    let Model::Cornell(m) = flock_params(&mut app).model else {
        panic!("still cornell")
    };
    assert_eq!(m.visual_range, 55.0);
    act(&mut app, set("edges.mode", "wrap"));
    assert_eq!(flock_params(&mut app).edges.mode, EdgeMode::Wrap);
    act(&mut app, set("model", "spaceboids"));
    assert_eq!(flock_params(&mut app).model.kind(), ModelKind::SpaceBoids);
    assert!(warnings(&app).is_empty(), "{:?}", warnings(&app));
}

#[test]
fn a_bad_value_is_a_warning_and_changes_nothing() {
    let mut app = app(None);
    let before = flock_params(&mut app);
    act(&mut app, set("cornell.max_speed", "-4"));
    act(&mut app, set("no_such_thing", "1"));
    assert_eq!(flock_params(&mut app), before);
    let w = warnings(&app);
    assert_eq!(w.len(), 2, "{w:?}");
    assert!(w[0].contains("cornell.max_speed"), "{w:?}");
}

#[test]
fn birds_are_added_and_removed_live() {
    let mut app = app(None);
    assert_eq!(bird_count(&mut app), 3000);
    act(&mut app, PanelAction::SetBoids(3500));
    assert_eq!(bird_count(&mut app), 3500);
    act(&mut app, PanelAction::SetBoids(120));
    assert_eq!(bird_count(&mut app), 120);
    // Ids stay unique: the flock steps deterministically with the survivors.
    let mut ids: Vec<u32> = app
        .world_mut()
        .query::<&Boid>()
        .iter(app.world())
        .map(|b| b.id)
        .collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 120);
    assert_eq!(app.world().resource::<SceneConfig>().boids, 120);
}

#[test]
fn a_saved_preset_loads_back_and_can_be_deleted() {
    let dir = std::env::temp_dir().join(format!("murmur-panel-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut app = app(Some(dir.clone()));
    act(&mut app, set("cornell.avoid_factor", "0.123"));
    act(&mut app, PanelAction::SetBoids(800));
    act(&mut app, PanelAction::Save("windy".into()));
    assert_eq!(
        app.world().resource::<PanelState>().user_presets,
        vec!["windy".to_string()]
    );
    act(&mut app, PanelAction::Defaults);
    let Model::Cornell(m) = flock_params(&mut app).model else {
        panic!()
    };
    assert_eq!(m.avoid_factor, 0.05, "defaults are the published set");
    act(&mut app, PanelAction::LoadUser("windy".into()));
    app.update();
    let Model::Cornell(m) = flock_params(&mut app).model else {
        panic!()
    };
    assert_eq!(m.avoid_factor, 0.123);
    assert_eq!(
        bird_count(&mut app),
        800,
        "the saved flock size comes back too"
    );
    act(&mut app, PanelAction::Delete("windy".into()));
    assert!(app.world().resource::<PanelState>().user_presets.is_empty());
    assert!(warnings(&app).is_empty(), "{:?}", warnings(&app));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_corrupt_preset_file_is_a_warning_not_a_crash() {
    let dir = std::env::temp_dir().join(format!("murmur-panel-bad-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("presets")).unwrap();
    std::fs::write(
        dir.join("presets/broken.toml"),
        "model = \"cornell\"\n[cornell]\nvisual_range = \"far\"\n",
    )
    .unwrap();
    let mut app = app(Some(dir.clone()));
    let before = flock_params(&mut app);
    act(&mut app, PanelAction::LoadUser("broken".into()));
    assert_eq!(flock_params(&mut app), before);
    let w = warnings(&app);
    assert!(
        w.len() == 1 && w[0].contains("broken.toml") && w[0].contains("line 3"),
        "{w:?}"
    );
    act(&mut app, PanelAction::Save("../escape".into()));
    assert_eq!(warnings(&app).len(), 2, "a bad name is refused");
    let _ = std::fs::remove_dir_all(&dir);
}
