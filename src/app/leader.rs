//! Click-to-place leader (the p5 sketch): left click places or moves it, the flock streams to it,
//! gathers and orbits; right click or Backspace removes it. Clicks on the UI are ignored.

use super::camera::{CursorWorld, TrackCursor, WORLD_LAYER};
use super::render::SpecialBird;
use super::scene::{SceneConfig, SpawnScene};
use bevy::camera::visibility::RenderLayers;
use bevy::prelude::*;
use bevy_egui::input::EguiWantsInput;
use murmur_flock::prelude::*;

/// The leader placed with the mouse.
#[derive(Component)]
pub struct ClickLeader;

/// The leader's colour.
pub const CRIMSON: Color = Color::srgb_u8(220, 20, 60);

/// Adds this module's resources and systems.
pub fn plugin(app: &mut App) {
    app.add_systems(Startup, place_start_leader.after(SpawnScene))
        .add_systems(Update, click.after(TrackCursor));
}

/// Puts the leader at `at`, spawning it if there is none.
pub fn place_leader(
    commands: &mut Commands,
    existing: Option<Entity>,
    at: Vec2,
    config: &SceneConfig,
) {
    match existing {
        Some(leader) => {
            commands.entity(leader).insert(Position(at));
        }
        None => {
            commands.spawn((
                ClickLeader,
                Leader::new(config.preset.leader),
                Position(at),
                SpecialBird {
                    colour: CRIMSON,
                    scale: 2.2,
                },
                RenderLayers::layer(WORLD_LAYER),
            ));
        }
    }
}

fn place_start_leader(mut commands: Commands, config: Res<SceneConfig>) {
    if let Some(at) = config.leader {
        place_leader(&mut commands, None, at, &config);
    }
}

fn click(
    mut commands: Commands,
    mouse: Res<ButtonInput<MouseButton>>,
    keys: Res<ButtonInput<KeyCode>>,
    cursor: Res<CursorWorld>,
    wants: Res<EguiWantsInput>,
    config: Res<SceneConfig>,
    leader: Query<Entity, With<ClickLeader>>,
) {
    // Shift + click edits obstacles instead.
    let over_ui = wants.wants_any_pointer_input() || super::obstacles::editing_obstacles(&keys);
    if mouse.just_pressed(MouseButton::Left)
        && !over_ui
        && let Some(at) = cursor.0
    {
        place_leader(&mut commands, leader.iter().next(), at, &config);
    }
    let remove = (mouse.just_pressed(MouseButton::Right) && !over_ui)
        || keys.just_pressed(KeyCode::Backspace)
        || keys.just_pressed(KeyCode::Delete);
    if remove {
        for entity in &leader {
            commands.entity(entity).despawn();
        }
    }
}
