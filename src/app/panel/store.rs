//! Files the panel keeps in the user's config directory: user presets and the settings that
//! persist across restarts. A missing file is normal; an unreadable one is reported and ignored.

use crate::app::render::Looks;
use flock::flock_core::preset::{Preset, PresetError};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// `$MURMUR_CONFIG_DIR`, else `$XDG_CONFIG_HOME/murmur`, else `~/.config/murmur`.
pub fn config_dir() -> Option<PathBuf> {
    let env = |name| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    env("MURMUR_CONFIG_DIR")
        .or_else(|| env("XDG_CONFIG_HOME").map(|d| d.join("murmur")))
        .or_else(|| env("HOME").map(|h| h.join(".config").join("murmur")))
}

/// Where user presets live.
pub fn presets_dir(config: &Path) -> PathBuf {
    config.join("presets")
}

/// True for names a preset file may have: 1 to 64 letters, digits, `-` and `_`.
pub fn valid_name(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// The user presets' names, sorted.
pub fn user_presets(config: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(presets_dir(config)) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let path = e.path();
            (path.extension()? == "toml").then(|| path.file_stem()?.to_str().map(str::to_owned))?
        })
        .filter(|n| valid_name(n))
        .collect();
    names.sort();
    names
}

/// Saves `preset` as user preset `name`.
pub fn save_preset(config: &Path, name: &str, preset: &Preset) -> Result<PathBuf, String> {
    if !valid_name(name) {
        return Err(format!(
            "`{name}` is not a preset name: use letters, digits, - and _"
        ));
    }
    let dir = presets_dir(config);
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let path = dir.join(format!("{name}.toml"));
    write_atomically(&path, &preset.to_toml())?;
    Ok(path)
}

/// Loads user preset `name`.
pub fn load_preset(config: &Path, name: &str) -> Result<Preset, PresetError> {
    Preset::load_path(&presets_dir(config).join(format!("{name}.toml")))
}

/// Deletes user preset `name`.
pub fn delete_preset(config: &Path, name: &str) -> Result<(), String> {
    if !valid_name(name) {
        return Err(format!("`{name}` is not a preset name"));
    }
    let path = presets_dir(config).join(format!("{name}.toml"));
    std::fs::remove_file(&path).map_err(|e| format!("cannot delete {}: {e}", path.display()))
}

/// Writes through a temporary file and a rename, so a crash never leaves half a file.
fn write_atomically(path: &Path, text: &str) -> Result<(), String> {
    let tmp = path.with_extension("toml.tmp");
    std::fs::write(&tmp, text).map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// What persists across restarts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Settings {
    /// The panel is open.
    pub panel_open: bool,
    /// Trails on.
    pub trails: bool,
    /// Colour by local flock size.
    pub colour_by_flock_size: bool,
    /// Wings flap.
    pub flapping: bool,
    /// Bird size relative to the automatic one.
    pub bird_scale: f32,
    /// The gold bird's top speed, in world widths per second.
    pub player_speed: f32,
    /// Birds in the last session.
    pub boids: Option<u32>,
    /// Seed in the last session.
    pub seed: Option<u64>,
    /// The last session's preset, every parameter.
    pub preset: Option<Preset>,
}

impl Default for Settings {
    fn default() -> Self {
        let looks = Looks::default();
        Self {
            panel_open: true,
            trails: looks.trails,
            colour_by_flock_size: looks.colour_by_flock_size,
            flapping: looks.flapping,
            bird_scale: 1.0,
            player_speed: crate::app::player::PlayerTuning::default().speed,
            boids: None,
            seed: None,
            preset: None,
        }
    }
}

/// The settings file.
pub fn settings_path(config: &Path) -> PathBuf {
    config.join("settings.toml")
}

/// Reads the settings: `Ok(None)` when there are none yet, `Err` (with the reason, naming the
/// file) when the file is unreadable or corrupt.
pub fn load_settings(config: &Path) -> Result<Option<Settings>, String> {
    let path = settings_path(config);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    let settings: Settings = toml::from_str(&text)
        .map_err(|e| format!("{} is corrupt: {}", path.display(), e.message().trim()))?;
    if let Some(p) = &settings.preset {
        p.validate()
            .map_err(|(field, m)| format!("{}: field `{field}` {m}", path.display()))?;
    }
    if !(settings.bird_scale.is_finite() && settings.player_speed.is_finite()) {
        return Err(format!("{} is corrupt: non-finite numbers", path.display()));
    }
    Ok(Some(settings))
}

/// Writes the settings.
pub fn save_settings(config: &Path, settings: &Settings) -> Result<(), String> {
    std::fs::create_dir_all(config)
        .map_err(|e| format!("cannot create {}: {e}", config.display()))?;
    let text = toml::to_string_pretty(settings).map_err(|e| e.to_string())?;
    write_atomically(&settings_path(config), &text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_config(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("murmur-store-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn a_saved_preset_loads_back_the_same_and_can_be_deleted() {
        let dir = temp_config("presets");
        let mut preset = Preset::load("cornell").unwrap();
        preset.set("visual_range", "55").unwrap();
        save_preset(&dir, "my-flock_1", &preset).unwrap();
        assert_eq!(user_presets(&dir), vec!["my-flock_1".to_string()]);
        assert_eq!(load_preset(&dir, "my-flock_1").unwrap(), preset);
        delete_preset(&dir, "my-flock_1").unwrap();
        assert!(user_presets(&dir).is_empty());
        assert!(save_preset(&dir, "../escape", &preset).is_err());
        assert!(save_preset(&dir, "", &preset).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn settings_round_trip_and_corrupt_files_are_errors() {
        let dir = temp_config("settings");
        assert_eq!(load_settings(&dir), Ok(None), "nothing saved yet");
        let settings = Settings {
            trails: false,
            boids: Some(1234),
            preset: Some(Preset::load("spaceboids").unwrap()),
            ..Settings::default()
        };
        save_settings(&dir, &settings).unwrap();
        assert_eq!(load_settings(&dir), Ok(Some(settings)));
        for corrupt in [
            "trails = \"yes\"",
            "[[[",
            "bird_scale = nan",
            "[preset]\nmodel = \"cornell\"\n[preset.cornell]\nmax_speed = -1.0\n",
        ] {
            std::fs::write(settings_path(&dir), corrupt).unwrap();
            let e = load_settings(&dir).unwrap_err();
            assert!(e.contains("settings.toml"), "{e}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
