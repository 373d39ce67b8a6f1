//! `murmur run`: the windowed app.

use super::{ModeError, scene};
use crate::app::meter::MeasureFrames;
use crate::app::{self, AppOptions, SceneConfig};
use crate::cli::RunArgs;
use bevy::app::AppExit;
use bevy::math::Vec2;

/// Default window size.
pub const WINDOW: (u32, u32) = (1280, 720);

pub fn run(args: RunArgs) -> Result<(), ModeError> {
    let (preset, boids) = scene::resolve(&args.scene, scene::WorldFit::KeepDensity)?;
    let mut app = app::build(AppOptions {
        scene: SceneConfig {
            preset,
            boids,
            seed: args.scene.seed,
            leader: args.scene.leader.map(|(x, y)| Vec2::new(x, y)),
        },
        window: args.size,
    });
    app.insert_resource(crate::app::board::BoardPanel {
        shown: args.board.oled,
        revision: args.board.revision.unwrap_or(microboids::Revision::A412),
        ..Default::default()
    });
    if let Some(frames) = args.measure_frames {
        app.insert_resource(MeasureFrames::new(frames));
    }
    match app.run() {
        AppExit::Success => Ok(()),
        AppExit::Error(code) => Err(ModeError::Failed(format!(
            "the app stopped with code {code}"
        ))),
    }
}
