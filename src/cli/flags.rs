//! The command line's scene flags (`SceneArgs`) as a scene: resolved by the rules every writer
//! of a scene shares (`request`), refusing what cannot be honoured.

use super::SceneArgs;
use crate::modes::ModeError;
use crate::scene::SceneConfig;
pub use crate::scene::request::WorldFit;
use crate::scene::request::{SceneRequest, Unmet};
use murmur_flock::murmur_core::preset::Preset;

/// The preset with `--world` and `--set` applied, and the number of birds; the first part that
/// cannot be honoured is a usage error.
pub fn resolve(args: &SceneArgs, fit: WorldFit) -> Result<(Preset, usize), ModeError> {
    let request = SceneRequest {
        preset: args.preset_name(),
        boids: args.boids,
        world: args.world,
        overrides: &args.overrides,
    };
    let resolved = request
        .resolve(fit, Unmet::Refuse)
        .map_err(ModeError::Usage)?;
    Ok((resolved.preset, resolved.boids as usize))
}

/// The scene the flags describe, as the windowed modes fly it (more birds than the preset's get
/// a larger world at its density).
pub fn scene_config(args: &SceneArgs) -> Result<SceneConfig, ModeError> {
    let (preset, boids) = resolve(args, WorldFit::KeepDensity)?;
    let (leader, hunter) = points(args, &preset)?;
    Ok(SceneConfig {
        preset,
        boids,
        seed: args.seed(),
        leader,
        hunter,
    })
}

/// The leader's and the hunter's places (`--leader`, `--hunter`) in the world of `preset`: a
/// point with a depth in a flat world is a usage error.
pub fn points(
    args: &SceneArgs,
    preset: &Preset,
) -> Result<(Option<bevy::math::Vec3>, Option<bevy::math::Vec3>), ModeError> {
    let deep = preset.world.depth > 0.0;
    let place = |flag: &str, p: Option<crate::scene::text::ScenePoint>| {
        p.map(|p| p.in_world(deep, flag, args.preset_name()))
            .transpose()
            .map_err(ModeError::Usage)
    };
    Ok((
        place("--leader", args.leader)?,
        place("--hunter", args.hunter)?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use murmur_flock::murmur_core::preset::MAX_BOIDS;

    fn args(boids: Option<u32>, world: Option<(f32, f32)>, set: &[&str]) -> SceneArgs {
        SceneArgs {
            preset: Some("cornell".into()),
            boids,
            seed: None,
            world: world.map(|(width, height)| crate::scene::text::WorldSize {
                width,
                height,
                depth: None,
            }),
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
