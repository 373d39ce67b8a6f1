//! Where the panel keeps the user's presets and the settings that persist across restarts: a
//! folder (the native app) or the browser's `localStorage` (the web page). A missing entry is
//! normal; an unreadable one is reported and ignored.

use crate::app::render::Looks;
use murmur_flock::murmur_core::preset::Preset;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// `$MURMUR_CONFIG_DIR`, else the platform's folder for murmur's settings: on Linux
/// `$XDG_CONFIG_HOME/murmur` (`~/.config/murmur`), on macOS `~/Library/Application
/// Support/org.murmur-boids.murmur`, on Windows `%APPDATA%\murmur-boids\murmur\config`.
pub fn config_dir() -> Option<PathBuf> {
    let own = std::env::var_os("MURMUR_CONFIG_DIR")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from);
    own.or_else(platform_config_dir)
}

#[cfg(not(target_arch = "wasm32"))]
fn platform_config_dir() -> Option<PathBuf> {
    directories::ProjectDirs::from("org", "murmur-boids", "murmur")
        .map(|dirs| dirs.config_dir().to_path_buf())
}

/// The web page keeps its entries in the browser, not in a folder.
#[cfg(target_arch = "wasm32")]
fn platform_config_dir() -> Option<PathBuf> {
    None
}

/// Where user presets and settings are kept. Entries have keys like `settings.toml` and
/// `presets/NAME.toml`: files under the folder, or `murmur/`-prefixed keys in the browser.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Storage {
    /// A folder on disk.
    Folder(PathBuf),
    /// This browser's `localStorage` for the page's origin.
    #[cfg(target_arch = "wasm32")]
    Browser,
}

const SETTINGS: &str = "settings.toml";
const PRESETS: &str = "presets/";

impl Storage {
    /// The user's own: the browser's storage on the web (when the page may use it), else the
    /// config folder ([`config_dir`]).
    pub fn user() -> Option<Self> {
        #[cfg(target_arch = "wasm32")]
        if browser::storage().is_some() {
            return Some(Self::Browser);
        }
        config_dir().map(Self::Folder)
    }

    /// Where the entry `key` lives, for messages.
    pub fn describe(&self, key: &str) -> String {
        match self {
            Self::Folder(dir) => dir.join(key).display().to_string(),
            #[cfg(target_arch = "wasm32")]
            Self::Browser => format!("browser storage `{}{key}`", browser::PREFIX),
        }
    }

    /// Where user presets live, for people.
    pub fn presets_location(&self) -> String {
        match self {
            Self::Folder(dir) => dir.join(PRESETS).display().to_string(),
            #[cfg(target_arch = "wasm32")]
            Self::Browser => "this browser's storage for the page".into(),
        }
    }

    /// The entry's text; `Ok(None)` when there is none.
    fn read(&self, key: &str) -> Result<Option<String>, String> {
        match self {
            Self::Folder(dir) => match std::fs::read_to_string(dir.join(key)) {
                Ok(t) => Ok(Some(t)),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
                Err(e) => Err(format!("cannot read {}: {e}", self.describe(key))),
            },
            #[cfg(target_arch = "wasm32")]
            Self::Browser => browser::read(key).map_err(|e| format!("cannot read {key}: {e}")),
        }
    }

    /// Stores the entry; a file is written through a temporary one and a rename, so a crash never
    /// leaves half of it.
    fn write(&self, key: &str, text: &str) -> Result<(), String> {
        match self {
            Self::Folder(dir) => {
                let path = dir.join(key);
                if let Some(parent) = path.parent() {
                    std::fs::create_dir_all(parent)
                        .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
                }
                let tmp = path.with_extension("toml.tmp");
                std::fs::write(&tmp, text)
                    .map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
                std::fs::rename(&tmp, &path)
                    .map_err(|e| format!("cannot write {}: {e}", path.display()))
            }
            #[cfg(target_arch = "wasm32")]
            Self::Browser => {
                browser::write(key, text).map_err(|e| format!("cannot save {key}: {e}"))
            }
        }
    }

    /// Removes the entry.
    fn remove(&self, key: &str) -> Result<(), String> {
        match self {
            Self::Folder(dir) => std::fs::remove_file(dir.join(key))
                .map_err(|e| format!("cannot delete {}: {e}", self.describe(key))),
            #[cfg(target_arch = "wasm32")]
            Self::Browser => browser::remove(key).map_err(|e| format!("cannot delete {key}: {e}")),
        }
    }

    /// The names of the entries directly under `folder` (which ends with `/`).
    fn list(&self, folder: &str) -> Vec<String> {
        match self {
            Self::Folder(dir) => std::fs::read_dir(dir.join(folder))
                .map(|entries| {
                    entries
                        .filter_map(|e| e.ok()?.file_name().into_string().ok())
                        .collect()
                })
                .unwrap_or_default(),
            #[cfg(target_arch = "wasm32")]
            Self::Browser => browser::keys()
                .into_iter()
                .filter_map(|k| k.strip_prefix(folder).map(str::to_owned))
                .filter(|k| !k.contains('/'))
                .collect(),
        }
    }
}

/// `localStorage`, under keys starting with [`browser::PREFIX`].
#[cfg(target_arch = "wasm32")]
mod browser {
    /// Keeps murmur's entries apart from anything else served from the same origin.
    pub const PREFIX: &str = "murmur/";

    pub fn storage() -> Option<web_sys::Storage> {
        web_sys::window()?.local_storage().ok()?
    }

    fn get() -> Result<web_sys::Storage, String> {
        storage().ok_or_else(|| "the browser does not let the page store anything".to_string())
    }

    pub fn read(key: &str) -> Result<Option<String>, String> {
        get()?
            .get_item(&format!("{PREFIX}{key}"))
            .map_err(|e| format!("{e:?}"))
    }

    pub fn write(key: &str, text: &str) -> Result<(), String> {
        // Fails when the origin's quota is used up.
        get()?
            .set_item(&format!("{PREFIX}{key}"), text)
            .map_err(|e| format!("{e:?}"))
    }

    pub fn remove(key: &str) -> Result<(), String> {
        get()?
            .remove_item(&format!("{PREFIX}{key}"))
            .map_err(|e| format!("{e:?}"))
    }

    pub fn keys() -> Vec<String> {
        let Some(s) = storage() else {
            return Vec::new();
        };
        let n = s.length().unwrap_or(0);
        (0..n)
            .filter_map(|i| s.key(i).ok().flatten())
            .filter_map(|k| k.strip_prefix(PREFIX).map(str::to_owned))
            .collect()
    }
}

/// True for names a preset may have: 1 to 64 letters, digits, `-` and `_`.
pub fn valid_name(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

fn preset_key(name: &str) -> String {
    format!("{PRESETS}{name}.toml")
}

/// The user presets' names, sorted.
pub fn user_presets(storage: &Storage) -> Vec<String> {
    let mut names: Vec<String> = storage
        .list(PRESETS)
        .into_iter()
        .filter_map(|file| file.strip_suffix(".toml").map(str::to_owned))
        .filter(|n| valid_name(n))
        .collect();
    names.sort();
    names
}

/// Saves `preset` as user preset `name`; returns where it went.
pub fn save_preset(storage: &Storage, name: &str, preset: &Preset) -> Result<String, String> {
    if !valid_name(name) {
        return Err(format!(
            "`{name}` is not a preset name: use letters, digits, - and _"
        ));
    }
    let key = preset_key(name);
    storage.write(&key, &preset.to_toml())?;
    Ok(storage.describe(&key))
}

/// Loads user preset `name`.
pub fn load_preset(storage: &Storage, name: &str) -> Result<Preset, String> {
    let key = preset_key(name);
    let origin = storage.describe(&key);
    let text = storage
        .read(&key)?
        .ok_or_else(|| format!("{origin}: no such preset"))?;
    Preset::from_toml(&text, &origin).map_err(|e| e.to_string())
}

/// Deletes user preset `name`.
pub fn delete_preset(storage: &Storage, name: &str) -> Result<(), String> {
    if !valid_name(name) {
        return Err(format!("`{name}` is not a preset name"));
    }
    storage.remove(&preset_key(name))
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

impl Settings {
    /// The last session's flock: preset, birds and seed, when the settings hold one.
    pub fn last_flock(&self) -> Option<(Preset, usize, Option<u64>)> {
        let preset = self.preset.clone()?;
        let boids = self.boids.unwrap_or(preset.scene().boids) as usize;
        Some((preset, boids, self.seed))
    }

    /// Puts the rest of the settings into an app about to run: whether the panel is open, bird
    /// size, looks and the gold bird's speed.
    pub fn restore(&self, app: &mut bevy::app::App, panel: &mut super::PanelState) {
        panel.open = self.panel_open;
        panel.bird_scale = self.bird_scale;
        app.insert_resource(Looks {
            trails: self.trails,
            flapping: self.flapping,
            colour_by_flock_size: self.colour_by_flock_size,
            ..Looks::default()
        })
        .insert_resource(crate::app::player::PlayerTuning {
            speed: self.player_speed,
            ..crate::app::player::PlayerTuning::default()
        });
    }
}

/// Reads the settings: `Ok(None)` when there are none yet, `Err` (with the reason, naming
/// where they are kept) when they are unreadable or corrupt.
pub fn load_settings(storage: &Storage) -> Result<Option<Settings>, String> {
    let Some(text) = storage.read(SETTINGS)? else {
        return Ok(None);
    };
    let origin = storage.describe(SETTINGS);
    let settings: Settings = toml::from_str(&text)
        .map_err(|e| format!("{origin} is corrupt: {}", e.message().trim()))?;
    if let Some(p) = &settings.preset {
        p.validate()
            .map_err(|(field, m)| format!("{origin}: field `{field}` {m}"))?;
    }
    if !(settings.bird_scale.is_finite() && settings.player_speed.is_finite()) {
        return Err(format!("{origin} is corrupt: non-finite numbers"));
    }
    Ok(Some(settings))
}

/// The settings a session starts with: those kept in `storage` (if any), and, when they could
/// not be read, a warning for the user (the session then starts from the defaults).
pub fn saved_settings(storage: Option<&Storage>) -> (Option<Settings>, Option<String>) {
    match storage.map(load_settings) {
        Some(Ok(settings)) => (settings, None),
        Some(Err(e)) => (None, Some(format!("{e}; using defaults"))),
        None => (None, None),
    }
}

/// Keeps the settings.
pub fn save_settings(storage: &Storage, settings: &Settings) -> Result<(), String> {
    let text = toml::to_string_pretty(settings).map_err(|e| e.to_string())?;
    storage.write(SETTINGS, &text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn temp_config(tag: &str) -> (PathBuf, Storage) {
        let dir = std::env::temp_dir().join(format!("murmur-store-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        (dir.clone(), Storage::Folder(dir))
    }

    #[test]
    fn a_saved_preset_loads_back_the_same_and_can_be_deleted() {
        let (dir, store) = temp_config("presets");
        let mut preset = Preset::load("cornell").unwrap();
        preset.set("visual_range", "55").unwrap();
        let at = save_preset(&store, "my-flock_1", &preset).unwrap();
        assert_eq!(Path::new(&at), dir.join("presets/my-flock_1.toml"));
        assert_eq!(user_presets(&store), vec!["my-flock_1".to_string()]);
        assert_eq!(load_preset(&store, "my-flock_1").unwrap(), preset);
        delete_preset(&store, "my-flock_1").unwrap();
        assert!(user_presets(&store).is_empty());
        let missing = load_preset(&store, "my-flock_1").unwrap_err();
        assert!(missing.contains("no such preset"), "{missing}");
        assert!(save_preset(&store, "../escape", &preset).is_err());
        assert!(save_preset(&store, "", &preset).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn settings_round_trip_and_corrupt_files_are_errors() {
        let (dir, store) = temp_config("settings");
        assert_eq!(load_settings(&store), Ok(None), "nothing saved yet");
        let settings = Settings {
            trails: false,
            boids: Some(1234),
            preset: Some(Preset::load("spaceboids").unwrap()),
            ..Settings::default()
        };
        save_settings(&store, &settings).unwrap();
        assert_eq!(load_settings(&store), Ok(Some(settings)));
        for corrupt in [
            "trails = \"yes\"",
            "[[[",
            "bird_scale = nan",
            "[preset]\nmodel = \"cornell\"\n[preset.cornell]\nmax_speed = -1.0\n",
        ] {
            std::fs::write(dir.join("settings.toml"), corrupt).unwrap();
            let e = load_settings(&store).unwrap_err();
            assert!(e.contains("settings.toml"), "{e}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
