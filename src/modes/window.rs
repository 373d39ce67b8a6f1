//! `murmur run`: the windowed app. Without scene flags it resumes the last session (preset,
//! birds, seed, looks), kept in the user's config directory.

use super::{ModeError, scene};
use crate::app::meter::MeasureFrames;
use crate::app::panel::{PanelState, store};
use crate::app::player::PlayerTuning;
use crate::app::render::Looks;
use crate::app::{self, AppOptions, SceneConfig};
use crate::cli::RunArgs;
use bevy::app::AppExit;
use bevy::math::Vec2;

/// Default window size.
pub const WINDOW: (u32, u32) = (1280, 720);

pub fn run(args: RunArgs) -> Result<(), ModeError> {
    let config_dir = store::config_dir();
    let (settings, warning) = match config_dir.as_deref().map(store::load_settings) {
        Some(Ok(settings)) => (settings, None),
        Some(Err(e)) => (None, Some(format!("{e}; using defaults"))),
        None => (None, None),
    };
    let (mut preset, mut boids) = scene::resolve(&args.scene, scene::WorldFit::KeepDensity)?;
    let mut seed = args.scene.seed();
    if let Some(s) = &settings
        && args.scene.chooses_nothing()
        && let Some(p) = &s.preset
    {
        preset = p.clone();
        boids = s.boids.map_or(preset.world.boids as usize, |b| b as usize);
        seed = s.seed.unwrap_or(seed);
    }
    let mut app = app::build(AppOptions {
        scene: SceneConfig {
            preset,
            boids,
            seed,
            leader: args.scene.leader.map(|(x, y)| Vec2::new(x, y)),
            hunter: args.scene.hunter.map(|(x, y)| Vec2::new(x, y)),
        },
        window: args.size,
    });
    let mut panel = PanelState::with_config(config_dir, args.measure_frames.is_none());
    panel.warnings.extend(warning);
    if let Some(s) = &settings {
        panel.open = s.panel_open;
        panel.bird_scale = s.bird_scale;
        app.insert_resource(Looks {
            trails: s.trails,
            flapping: s.flapping,
            colour_by_flock_size: s.colour_by_flock_size,
            ..Looks::default()
        })
        .insert_resource(PlayerTuning {
            speed: s.player_speed,
            ..PlayerTuning::default()
        });
    }
    app.insert_resource(panel)
        .insert_resource(crate::app::board::BoardPanel {
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
