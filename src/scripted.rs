//! What the picture-taking modes (`screenshot`, `record`) share: the app played as a user would
//! play it (a left click at a window pixel, a flying key held) through Bevy's own input
//! messages in the first frames, a paused clock that only the mode advances, and the renderer's
//! warm-up both wait out before the first picture.

use crate::cli::FlyDirection;
use crate::modes::ModeError;
use bevy::input::ButtonState;
use bevy::input::keyboard::{Key, KeyboardInput};
use bevy::input::mouse::MouseButtonInput;
use bevy::math::DVec2;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use std::path::Path;
use std::time::{Duration, Instant};

/// Frames and time given to the renderer to compile its pipelines before the first picture.
pub const WARM_UP_FRAMES: u32 = 30;
/// See [`WARM_UP_FRAMES`].
pub const WARM_UP_TIME: Duration = Duration::from_secs(2);
/// Longest wait for one picture after asking for it.
pub const CAPTURE_TIMEOUT: Duration = Duration::from_secs(60);
/// The first frame after the scripted click: from here on the mode may run ticks.
pub const INPUT_DONE_FRAME: u32 = 4;

/// The user's part: a click (pressed on frame 2, released on frame 3) and a held key (from
/// frame 2 on).
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct ScriptedInput {
    /// A left click at this window pixel (from the top left), before the first tick.
    pub click: Option<Vec2>,
    /// This flying key, held throughout.
    pub fly: Option<FlyDirection>,
}

/// Plays `input` into the app with a paused virtual clock (the mode feeds the fixed loop itself).
pub fn plugin(app: &mut App, input: ScriptedInput) {
    app.insert_resource(input)
        .add_systems(Startup, |mut time: ResMut<Time<Virtual>>| time.pause())
        .add_systems(Update, play);
}

/// True once the click is done and the renderer has had [`WARM_UP_FRAMES`] frames and
/// [`WARM_UP_TIME`] since `started`.
pub fn warmed_up(frame: u32, started: Instant) -> bool {
    frame >= INPUT_DONE_FRAME + WARM_UP_FRAMES && started.elapsed() >= WARM_UP_TIME
}

/// A usage error unless the folder `out` would be written in exists.
pub fn out_folder_exists(out: &Path) -> Result<(), ModeError> {
    match out.parent().filter(|p| !p.as_os_str().is_empty()) {
        Some(parent) if !parent.is_dir() => Err(ModeError::Usage(format!(
            "no such directory: {}",
            parent.display()
        ))),
        _ => Ok(()),
    }
}

fn play(
    input: Res<ScriptedInput>,
    mut frame: Local<u32>,
    window: Single<(Entity, &mut Window), With<PrimaryWindow>>,
    mut buttons: MessageWriter<MouseButtonInput>,
    mut keys: MessageWriter<KeyboardInput>,
) {
    *frame += 1;
    let (window_entity, mut window) = window.into_inner();
    // The key is held from the second frame on, reported every frame as a held key repeats
    // (so that a focus change of the window, which releases every key, does not end it).
    if let Some(fly) = input.fly.filter(|_| *frame >= 2) {
        keys.write(KeyboardInput {
            key_code: fly.key(),
            logical_key: Key::Character(fly.letter().into()),
            state: ButtonState::Pressed,
            text: None,
            repeat: *frame > 2,
            window: window_entity,
        });
    }
    let press = |state| MouseButtonInput {
        button: MouseButton::Left,
        state,
        window: window_entity,
    };
    match (*frame, input.click) {
        (2, Some(at)) => {
            window.set_physical_cursor_position(Some(DVec2::new(at.x as f64, at.y as f64)));
            buttons.write(press(ButtonState::Pressed));
        }
        (3, Some(_)) => {
            buttons.write(press(ButtonState::Released));
        }
        _ => {}
    }
}
