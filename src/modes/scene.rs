//! Turning scene flags into a checked preset and flock size.

use super::ModeError;
use crate::cli::SceneArgs;
use flock::flock_core::preset::Preset;

/// The preset with `--world` and `--set` applied, and the number of birds.
pub fn resolve(args: &SceneArgs) -> Result<(Preset, usize), ModeError> {
    let usage = |e: flock::flock_core::preset::PresetError| ModeError::Usage(e.to_string());
    let mut preset = Preset::load(&args.preset).map_err(usage)?;
    if let Some((w, h)) = args.world {
        preset.world.width = w;
        preset.world.height = h;
    }
    preset.apply_overrides(&args.overrides).map_err(usage)?;
    let boids = args.boids.unwrap_or(preset.world.boids);
    if boids > flock::flock_core::preset::MAX_BOIDS {
        return Err(ModeError::Usage(format!(
            "--boids {boids} is more than the {} this build allows",
            flock::flock_core::preset::MAX_BOIDS
        )));
    }
    Ok((preset, boids as usize))
}
