//! `murmur run`: the windowed app.

use super::{ModeError, scene};
use crate::app::{self, AppOptions, SceneConfig};
use crate::cli::SceneArgs;
use bevy::app::AppExit;

/// Default window size.
pub const WINDOW: (u32, u32) = (1280, 720);

pub fn run(args: SceneArgs) -> Result<(), ModeError> {
    let (preset, boids) = scene::resolve(&args)?;
    let mut app = app::build(AppOptions {
        scene: SceneConfig {
            preset,
            boids,
            seed: args.seed,
            leader: args.leader.map(|(x, y)| bevy::math::Vec2::new(x, y)),
        },
        window: WINDOW,
    });
    match app.run() {
        AppExit::Success => Ok(()),
        AppExit::Error(code) => Err(ModeError::Failed(format!(
            "the app stopped with code {code}"
        ))),
    }
}
