//! A scene as asked for, however it was written (the command line's flags, the page's address),
//! turned into a checked preset and a number of birds by one set of rules. The two writers
//! differ only in what a part that cannot be honoured does: the command line refuses it, the
//! page warns and falls back, because a page must always open.

use super::address::DEFAULT_PRESET;
use super::keep_density;
use super::text::WorldSize;
use murmur_flock::murmur_core::preset::{MAX_BOIDS, Preset};

/// What the scene asks for; `None` where it says nothing.
#[derive(Clone, Copy, Debug)]
pub struct SceneRequest<'a> {
    /// A built-in preset's name or a preset file's path.
    pub preset: &'a str,
    /// The number of birds (the preset's own when `None`).
    pub boids: Option<u32>,
    /// The world's size, instead of the preset's (or its growth with `boids`); with a depth, a
    /// 3D world.
    pub world: Option<WorldSize>,
    /// `NAME=VALUE` parameter overrides, applied in order.
    pub overrides: &'a [String],
}

/// How the world size follows the number of birds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WorldFit {
    /// The preset's world (or the asked-for one), whatever the number of birds: for measurements.
    Literal,
    /// More birds than the preset's own count get a larger world at the preset's density (unless
    /// a world size or an override says otherwise): for watching.
    KeepDensity,
}

/// What a part of the request that cannot be honoured does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unmet {
    /// The whole request is refused with that part's error (the command line: a usage error).
    Refuse,
    /// That part is left out with a warning and the default takes its place (the web page).
    Warn,
}

/// The request made good: the preset with every honoured part applied, and the flock's size.
#[derive(Clone, Debug)]
pub struct Resolved {
    /// The checked preset.
    pub preset: Preset,
    /// The number of birds.
    pub boids: u32,
    /// One line per part left out (only with [`Unmet::Warn`]).
    pub warnings: Vec<String>,
}

impl SceneRequest<'_> {
    /// Loads the preset and applies the request to it: the flock size, the world (asked for, or
    /// grown to `fit`), the overrides; checked as a preset file would be. With
    /// [`Unmet::Refuse`] the first part that fails is the error; with [`Unmet::Warn`] each one
    /// is a warning, and the request goes on without it.
    pub fn resolve(&self, fit: WorldFit, unmet: Unmet) -> Result<Resolved, String> {
        let mut warnings = Vec::new();
        let mut preset = match (Preset::load(self.preset), unmet) {
            (Ok(preset), _) => preset,
            (Err(e), Unmet::Refuse) => return Err(e.to_string()),
            (Err(e), Unmet::Warn) => {
                warnings.push(format!(
                    "preset={}: {e}; using {DEFAULT_PRESET}",
                    self.preset
                ));
                Preset::load(DEFAULT_PRESET).expect("the default preset is built in")
            }
        };
        let own = preset.scene().boids;
        let mut boids = self.boids.unwrap_or(own);
        if boids > MAX_BOIDS {
            match unmet {
                Unmet::Refuse => {
                    return Err(format!(
                        "--boids {boids} is more than the {MAX_BOIDS} this build allows"
                    ));
                }
                Unmet::Warn => {
                    warnings.push(format!(
                        "boids={boids}: more than the {MAX_BOIDS} this build allows; using {own}"
                    ));
                    boids = own;
                }
            }
        }
        let unsized_preset = preset.clone();
        if let Some(size) = self.world {
            (preset.world.width, preset.world.height) = (size.width, size.height);
            if let Some(depth) = size.depth {
                preset.world.depth = depth;
            }
        } else if fit == WorldFit::KeepDensity {
            keep_density(&mut preset, boids);
        }
        // The asked-for world, or one grown for the birds, is checked as a preset file's would be.
        let flag = if self.world.is_some() {
            "world"
        } else {
            "boids"
        };
        match unmet {
            Unmet::Refuse => {
                preset
                    .apply_overrides(self.overrides)
                    .map_err(|e| e.to_string())?;
                preset
                    .validate()
                    .map_err(|(field, message)| format!("--{flag}: {field} {message}"))?;
            }
            Unmet::Warn => {
                if let Err((field, message)) = preset.validate() {
                    warnings.push(format!(
                        "{flag}: {field} {message}; using the preset's own world"
                    ));
                    preset = unsized_preset;
                }
                // One override at a time, so that a bad one leaves the others (and the preset)
                // intact.
                for item in self.overrides {
                    let mut trial = preset.clone();
                    let outcome = trial
                        .apply_overrides(std::slice::from_ref(item))
                        .map_err(|e| e.to_string())
                        .and_then(|()| {
                            trial
                                .validate()
                                .map_err(|(field, message)| format!("{field} {message}"))
                        });
                    match outcome {
                        Ok(()) => preset = trial,
                        Err(e) => warnings.push(format!("set={item}: {e}; ignored")),
                    }
                }
            }
        }
        Ok(Resolved {
            preset,
            boids,
            warnings,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request<'a>(world: Option<(f32, f32)>, overrides: &'a [String]) -> SceneRequest<'a> {
        SceneRequest {
            preset: "cornell",
            boids: Some(12_000),
            world: world.map(|(width, height)| WorldSize {
                width,
                height,
                depth: None,
            }),
            overrides,
        }
    }

    #[test]
    fn both_writers_get_the_same_scene_from_the_same_request() {
        let set = ["max_speed=4".to_string()];
        let strict = request(None, &set)
            .resolve(WorldFit::KeepDensity, Unmet::Refuse)
            .unwrap();
        let lenient = request(None, &set)
            .resolve(WorldFit::KeepDensity, Unmet::Warn)
            .unwrap();
        assert_eq!(strict.preset, lenient.preset);
        assert_eq!((strict.boids, lenient.boids), (12_000, 12_000));
        assert!(lenient.warnings.is_empty());
        assert_eq!(strict.preset.value("cornell.max_speed"), Some(4.0));
    }

    #[test]
    fn a_world_too_big_is_refused_by_the_command_line_and_left_out_by_the_page() {
        let world = Some((1e30, 1e30));
        let err = request(world, &[])
            .resolve(WorldFit::KeepDensity, Unmet::Refuse)
            .unwrap_err();
        assert!(err.starts_with("--world: world.width at most"), "{err}");
        let page = request(world, &[])
            .resolve(WorldFit::KeepDensity, Unmet::Warn)
            .unwrap();
        assert_eq!(page.warnings.len(), 1, "{:?}", page.warnings);
        assert!(page.warnings[0].contains("using the preset's own world"));
        assert_eq!(page.preset, Preset::load("cornell").unwrap());
    }

    #[test]
    fn a_bad_override_is_refused_or_ignored_alone() {
        let set = ["nonsense=1".to_string(), "max_speed=4".to_string()];
        assert!(
            request(None, &set)
                .resolve(WorldFit::Literal, Unmet::Refuse)
                .is_err()
        );
        let page = request(None, &set)
            .resolve(WorldFit::Literal, Unmet::Warn)
            .unwrap();
        assert_eq!(page.warnings.len(), 1);
        assert!(page.warnings[0].starts_with("set=nonsense=1:"));
        assert_eq!(page.preset.value("cornell.max_speed"), Some(4.0));
    }
}
