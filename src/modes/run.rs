//! `murmur run`: the windowed app. Without scene flags it resumes the last session (preset,
//! birds, seed, looks), kept in the user's config directory.

use super::ModeError;
use crate::app::meter::MeasureFrames;
use crate::app::panel::{PanelState, store};
use crate::app::{self, AppOptions};
use crate::cli::flags;
use crate::cli::{BoardArgs, SceneArgs, parse_size};
use bevy::app::AppExit;
use clap::Args;

/// `murmur run`.
#[derive(Args, Debug, Clone, Default)]
pub struct RunArgs {
    /// The flock.
    #[command(flatten)]
    pub scene: SceneArgs,
    /// Window size as WIDTHxHEIGHT.
    #[arg(long, default_value = "1280x720", value_parser = parse_size)]
    pub size: (u32, u32),
    /// The microboids board beside the flock.
    #[command(flatten)]
    pub board: BoardArgs,
    /// Measure this many frames (after a warm-up), print their times as JSON and exit.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub measure_frames: Option<u32>,
    /// Fly the flock on the GPU in compute shaders, drawn from its buffers (reynolds and
    /// cornell). Without a GPU that runs compute shaders, says so and flies it on the CPU.
    #[arg(long)]
    pub gpu: bool,
}

/// Default window size.
pub const WINDOW: (u32, u32) = (1280, 720);

/// Runs `murmur run` (the default): the app in a window.
pub fn run(args: RunArgs) -> Result<(), ModeError> {
    let storage = store::Storage::user();
    let (settings, warning) = store::saved_settings(storage.as_ref());
    let mut scene = flags::scene_config(&args.scene)?;
    args.board.check(&scene)?;
    super::needs_display("run")?;
    if let Some(s) = &settings
        && args.scene.chooses_nothing()
        && let Some((p, n, s)) = s.last_flock()
    {
        (scene.preset, scene.boids) = (p, n);
        scene.seed = s.unwrap_or(scene.seed);
    }
    let mut app = app::build(AppOptions {
        scene,
        window: args.size,
    });
    let mut panel = PanelState::with_storage(storage, args.measure_frames.is_none());
    panel.warnings.extend(warning);
    if let Some(s) = &settings {
        s.restore(&mut app, &mut panel);
    }
    app.insert_resource(panel)
        .insert_resource(args.board.panel())
        .insert_resource(crate::app::path::UseGpu(args.gpu));
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
