//! The side panel (bevy_egui): every parameter of the active model as a slider with its unit
//! and a tooltip, model and edge pickers, flock size, seed and reset, presets (built-in and the
//! user's own), leader and player, looks and debug drawings, live figures and plots. Widgets only
//! emit [`PanelAction`]s; one system applies them, so tests drive the same path the sliders do.

mod actions;
pub mod figures;
pub mod gizmos;
pub mod sliders;
pub mod store;
mod ui;

pub use actions::PanelAction;

use bevy::prelude::*;
use bevy_egui::EguiPrimaryContextPass;
use std::time::Duration;

/// The panel's own state.
#[derive(Resource, Clone, Debug)]
pub struct PanelState {
    /// Shown (P toggles it).
    pub open: bool,
    /// Problems to show the user (a bad preset value, a file that could not be read, ...).
    pub warnings: Vec<String>,
    /// Name typed for "save preset".
    pub save_name: String,
    /// The preset picked in the list (built-in or user).
    pub selected: String,
    /// The user's presets, by name.
    pub user_presets: Vec<String>,
    /// Where user presets and settings live (`None`: nowhere to keep them).
    pub storage: Option<store::Storage>,
    /// Save settings to the config directory when they change.
    pub persist: bool,
    /// Bird size relative to the automatic size.
    pub bird_scale: f32,
    /// The flock size slider's value while it is dragged.
    pub boids_slider: u32,
    dirty: bool,
    since_save: Duration,
}

impl Default for PanelState {
    fn default() -> Self {
        Self {
            open: true,
            warnings: Vec::new(),
            save_name: String::new(),
            selected: String::new(),
            user_presets: Vec::new(),
            storage: None,
            persist: false,
            bird_scale: 1.0,
            boids_slider: 0,
            dirty: false,
            since_save: Duration::ZERO,
        }
    }
}

impl PanelState {
    /// A panel keeping its presets (and, with `persist`, its settings) in `storage`.
    pub fn with_storage(storage: Option<store::Storage>, persist: bool) -> Self {
        let user_presets = storage
            .as_ref()
            .map(store::user_presets)
            .unwrap_or_default();
        Self {
            storage,
            persist,
            user_presets,
            ..Self::default()
        }
    }
}

/// Adds the panel. Insert a [`PanelState`] first to choose where files go (default: nowhere).
pub fn plugin(app: &mut App) {
    app.add_plugins((actions_plugin, figures::plugin, gizmos::plugin))
        // The panel reports what it covers (for the camera).
        .init_resource::<crate::app::camera::Playfield>()
        .add_systems(Update, toggle_key.before(actions::apply_actions))
        .add_systems(EguiPrimaryContextPass, ui::draw_panel);
}

/// Just the panel's state and the system applying [`PanelAction`]s (and saving settings), with
/// no UI: what tests and scripts drive. Needs the scene, a primary window entity, the `Looks`,
/// `PlayerTuning` and `DebugDraw` resources and the `FitView` message.
pub fn actions_plugin(app: &mut App) {
    // What the actions change besides the panel's own state: the looks, the gold bird's
    // tuning, the view (a reset refits it). Their own plugins create them too; whichever runs
    // first does.
    app.init_resource::<PanelState>()
        .init_resource::<gizmos::DebugDraw>()
        .init_resource::<crate::app::render::Looks>()
        .init_resource::<crate::app::player::PlayerTuning>()
        .add_message::<crate::app::camera::FitView>()
        .add_message::<PanelAction>()
        .add_systems(Update, (actions::apply_actions, save_settings).chain());
}

fn toggle_key(keys: Res<ButtonInput<KeyCode>>, mut actions: MessageWriter<PanelAction>) {
    if keys.just_pressed(KeyCode::KeyP) {
        actions.write(PanelAction::TogglePanel);
    }
}

/// Writes the settings a couple of seconds after they last changed, and when the app exits.
fn save_settings(
    time: Res<Time<Real>>,
    mut state: ResMut<PanelState>,
    mut exits: MessageReader<AppExit>,
    settings: actions::CurrentSettings,
) {
    let exiting = exits.read().count() > 0;
    state.since_save += time.delta();
    if !state.persist || !state.dirty || (!exiting && state.since_save < Duration::from_secs(2)) {
        return;
    }
    state.dirty = false;
    state.since_save = Duration::ZERO;
    if let Some(storage) = state.storage.clone()
        && let Err(e) = store::save_settings(&storage, &settings.get(&state))
    {
        state.warnings.push(e);
    }
}
