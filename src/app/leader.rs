//! Click-to-place leader (the p5 sketch): left click places or moves it, the flock streams to it,
//! gathers and orbits; right click or Backspace removes it. Clicks on the UI, and Shift + click
//! (obstacles), are ignored. The leader itself is the library's `ClickLeader`, placed with its
//! `place_leader` command; this module reads the app's cursor and draws the leader crimson.

use super::camera::arrows::{ArrowTarget, Arrowed};
use super::camera::{CursorWorld, TrackCursor};
use super::render::SpecialBird;
use super::scene::{SceneConfig, SpawnScene};
use bevy::prelude::*;
use bevy_egui::input::EguiWantsInput;
pub use murmur_flock::pointer::ClickLeader;
use murmur_flock::prelude::*;

/// The leader's colour.
pub const CRIMSON: Color = Color::srgb_u8(220, 20, 60);

/// Adds this module's resources and systems.
pub fn plugin(app: &mut App) {
    app.init_resource::<CursorWorld>()
        .init_resource::<EguiWantsInput>()
        .add_observer(paint_leader)
        .add_systems(Startup, place_start_leader.after(SpawnScene))
        .add_systems(Update, click.after(TrackCursor));
}

/// A placed leader is drawn crimson.
fn paint_leader(event: On<Add, ClickLeader>, mut commands: Commands) {
    commands.entity(event.entity).insert((
        SpecialBird {
            colour: CRIMSON,
            scale: 2.2,
        },
        Arrowed {
            target: ArrowTarget::Leader,
            colour: CRIMSON,
        },
    ));
}

fn place_start_leader(mut commands: Commands, config: Res<SceneConfig>) {
    if let Some(at) = config.leader {
        commands.place_leader(at, config.preset.leader);
    }
}

fn click(
    mut commands: Commands,
    mouse: Res<ButtonInput<MouseButton>>,
    keys: Res<ButtonInput<KeyCode>>,
    cursor: Res<CursorWorld>,
    wants: Res<EguiWantsInput>,
    config: Res<SceneConfig>,
) {
    // Shift + click edits obstacles instead.
    let over_ui = wants.wants_any_pointer_input() || super::obstacles::editing_obstacles(&keys);
    if mouse.just_pressed(MouseButton::Left)
        && !over_ui
        && let Some(at) = cursor.0
    {
        commands.place_leader(at, config.preset.leader);
    }
    let remove = (mouse.just_pressed(MouseButton::Right) && !over_ui)
        || keys.just_pressed(KeyCode::Backspace)
        || keys.just_pressed(KeyCode::Delete);
    if remove {
        commands.remove_leader();
    }
}
