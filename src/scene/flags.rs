//! Turning scene flags into a checked preset and flock size.

use super::{SceneConfig, keep_density};
use crate::cli::SceneArgs;
use crate::modes::ModeError;
use murmur_flock::murmur_core::preset::{MAX_BOIDS, Preset, PresetError};

/// How the world size follows `--boids`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WorldFit {
    /// The preset's world (or `--world`), whatever the number of birds: for measurements.
    Literal,
    /// More birds than the preset's own count get a larger world at the preset's density (unless
    /// `--world` or `--set width/height` says otherwise): for watching.
    KeepDensity,
}

/// The preset with `--world` and `--set` applied, and the number of birds.
pub fn resolve(args: &SceneArgs, fit: WorldFit) -> Result<(Preset, usize), ModeError> {
    let usage = |e: PresetError| ModeError::Usage(e.to_string());
    let mut preset = Preset::load(args.preset_name()).map_err(usage)?;
    let boids = args.boids.unwrap_or(preset.scene().boids);
    if boids > MAX_BOIDS {
        return Err(ModeError::Usage(format!(
            "--boids {boids} is more than the {MAX_BOIDS} this build allows"
        )));
    }
    if let Some((w, h)) = args.world {
        preset.world.width = w;
        preset.world.height = h;
    } else if fit == WorldFit::KeepDensity {
        keep_density(&mut preset, boids);
    }
    preset.apply_overrides(&args.overrides).map_err(usage)?;
    // `--world` and a world grown for the birds are checked as a preset file's would be.
    preset.validate().map_err(|(field, message)| {
        let flag = if args.world.is_some() {
            "--world"
        } else {
            "--boids"
        };
        ModeError::Usage(format!("{flag}: {field} {message}"))
    })?;
    Ok((preset, boids as usize))
}

/// The scene the flags describe, as the windowed modes fly it (more birds than the preset's get
/// a larger world at its density).
pub fn scene_config(args: &SceneArgs) -> Result<SceneConfig, ModeError> {
    let (preset, boids) = resolve(args, WorldFit::KeepDensity)?;
    let point = |(x, y): (f32, f32)| bevy::math::Vec2::new(x, y);
    Ok(SceneConfig {
        preset,
        boids,
        seed: args.seed(),
        leader: args.leader.map(point),
        hunter: args.hunter.map(point),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(boids: Option<u32>, world: Option<(f32, f32)>, set: &[&str]) -> SceneArgs {
        SceneArgs {
            preset: Some("cornell".into()),
            boids,
            seed: None,
            world,
            overrides: set.iter().map(|s| s.to_string()).collect(),
            leader: None,
            hunter: None,
        }
    }

    #[test]
    fn watching_more_birds_keeps_the_preset_density() {
        let (p, n) = resolve(&args(Some(12_000), None, &[]), WorldFit::KeepDensity).unwrap();
        assert_eq!((n, p.world.width, p.world.height), (12_000, 1280.0, 960.0));
        let (p, _) = resolve(&args(Some(12_000), None, &[]), WorldFit::Literal).unwrap();
        assert_eq!((p.world.width, p.world.height), (640.0, 480.0));
        let (p, _) = resolve(
            &args(Some(12_000), Some((700.0, 500.0)), &[]),
            WorldFit::KeepDensity,
        )
        .unwrap();
        assert_eq!((p.world.width, p.world.height), (700.0, 500.0));
        let (p, _) = resolve(
            &args(Some(12_000), None, &["width=900"]),
            WorldFit::KeepDensity,
        )
        .unwrap();
        assert_eq!((p.world.width, p.world.height), (900.0, 960.0));
        let (p, _) = resolve(&args(Some(100), None, &[]), WorldFit::KeepDensity).unwrap();
        assert_eq!(
            (p.world.width, p.world.height),
            (640.0, 480.0),
            "fewer birds: same world"
        );
    }

    #[test]
    fn too_many_birds_is_a_usage_error() {
        let e = resolve(&args(Some(MAX_BOIDS + 1), None, &[]), WorldFit::Literal).unwrap_err();
        assert_eq!(e.exit_code(), 2);
    }
}
