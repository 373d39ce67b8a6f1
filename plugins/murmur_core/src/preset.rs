//! Preset files: one TOML schema for every model, loaded by name (built in) or by path, with
//! `NAME=VALUE` overrides and errors that name the file, the line and the field.

mod builtin;
mod error;
mod overrides;
mod scene;

pub use builtin::{BUILTIN_PRESETS, builtin_names};
pub use error::PresetError;
pub use scene::{BodiesSection, PresetScene};

use crate::edges::Edges;
use crate::leader::LeaderParams;
use crate::models::{
    AbmFlocking, Cornell, Couzin, Model, ModelKind, Reynolds, SpaceBoids, Starlings, Vicsek,
};
use crate::obstacles::{Avoidance, Obstacle};
use crate::params::FlockParams;
use crate::predator::PredatorParams;
use glam::Vec2;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The schema version this build reads and writes.
pub const PRESET_VERSION: u32 = 1;

/// A preset file: world, edges, leader tuning and a model with its parameters, and the scene
/// around the flock. Every field but `model` is optional and falls back to the defaults.
///
/// One file, read through two types for its two readers: [`Preset::flock_params`] is how the
/// flock behaves (all the maths reads), [`Preset::scene`] what an app sets up around it (how
/// many birds, obstacles, birds as bodies). The panel's slider table is the app's own.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Preset {
    /// Schema version (1).
    #[serde(default = "current_version")]
    pub version: u32,
    /// One line for people.
    #[serde(default)]
    pub description: String,
    /// Which model the flock runs; its parameters are the table of the same name.
    pub model: ModelKind,
    /// World size and flock size.
    #[serde(default)]
    pub world: WorldSection,
    /// Edge behaviour.
    #[serde(default)]
    pub edges: Edges,
    /// How the flock treats leaders.
    #[serde(default)]
    pub leader: LeaderParams,
    /// Parameters of the `reynolds` model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reynolds: Option<Reynolds>,
    /// Parameters of the `cornell` model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cornell: Option<Cornell>,
    /// Parameters of the `spaceboids` model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spaceboids: Option<SpaceBoids>,
    /// Parameters of the `vicsek` model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vicsek: Option<Vicsek>,
    /// Parameters of the `couzin` model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub couzin: Option<Couzin>,
    /// Parameters of the `abm` model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abm: Option<AbmFlocking>,
    /// Parameters of the `starlings` model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub starlings: Option<Starlings>,
    /// What each bird sees.
    #[serde(default)]
    pub view: ViewSection,
    /// How birds keep clear of obstacles.
    #[serde(default)]
    pub avoidance: Avoidance,
    /// Predators: how birds flee them, how a hunting one flies.
    #[serde(default)]
    pub predator: PredatorParams,
    /// Birds as physics bodies (off by default: the flock's own integration is much faster).
    #[serde(default)]
    pub bodies: BodiesSection,
    /// Obstacles placed at the start (`[[obstacles]]` tables). Last: TOML writes arrays of
    /// tables after everything else.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub obstacles: Vec<Obstacle>,
}

/// The `[view]` table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ViewSection {
    /// Degrees behind a bird that it cannot see, 0 to 360 (0: all round). Applies to every
    /// model but `couzin`, which has its own `couzin.blind_angle`.
    pub blind_angle: f32,
}

fn current_version() -> u32 {
    PRESET_VERSION
}

fn is_flat(depth: &f32) -> bool {
    *depth == 0.0
}

/// The `[world]` table.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WorldSection {
    /// World width, in world units.
    pub width: f32,
    /// World height, in world units (in 3D: up, along y).
    pub height: f32,
    /// World depth (along z), in world units: a 3D world has one; 0 or left out, a flat one.
    #[serde(skip_serializing_if = "is_flat")]
    pub depth: f32,
    /// Number of birds when none is asked for.
    pub boids: u32,
    /// Most neighbours a bird considers (0: no cap).
    pub max_neighbours: u32,
}

impl Default for WorldSection {
    fn default() -> Self {
        Self {
            width: 1280.0,
            height: 720.0,
            depth: 0.0,
            boids: 2000,
            max_neighbours: 0,
        }
    }
}

/// Largest flock a preset may ask for.
pub const MAX_BOIDS: u32 = 50_000_000;

/// The widest and tallest world (2^20 units): positions within ±2^19 of the middle keep steps
/// of 1/16 of a unit in a 32-bit float.
pub const MAX_WORLD: f32 = 1_048_576.0;

impl Preset {
    /// A preset for `kind` with every default.
    pub fn defaults_for(kind: ModelKind) -> Self {
        let mut preset = Self {
            version: PRESET_VERSION,
            description: String::new(),
            model: kind,
            world: WorldSection::default(),
            edges: Edges::default(),
            leader: LeaderParams::default(),
            reynolds: None,
            cornell: None,
            spaceboids: None,
            vicsek: None,
            couzin: None,
            abm: None,
            starlings: None,
            view: ViewSection::default(),
            avoidance: Avoidance::default(),
            predator: PredatorParams::default(),
            bodies: BodiesSection::default(),
            obstacles: Vec::new(),
        };
        preset.fill_model_defaults();
        preset
    }

    /// Parses and checks preset text; `origin` names it in errors (a path or a built-in name).
    pub fn from_toml(text: &str, origin: &str) -> Result<Self, PresetError> {
        let mut preset: Preset =
            toml::from_str(text).map_err(|e| PresetError::parse(origin, text, &e))?;
        preset.fill_model_defaults();
        preset.validate().map_err(|(field, message)| {
            PresetError::invalid(origin, Some(text), &field, message)
        })?;
        Ok(preset)
    }

    /// Loads a preset file.
    pub fn load_path(path: &Path) -> Result<Self, PresetError> {
        let origin = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| PresetError::Io {
            path: origin.clone(),
            message: e.to_string(),
        })?;
        Self::from_toml(&text, &origin)
    }

    /// Loads a built-in preset by name, or a file when `name_or_path` looks like a path (has a
    /// `/`, a `.toml` ending, or names an existing file).
    pub fn load(name_or_path: &str) -> Result<Self, PresetError> {
        if let Some((_, text)) = BUILTIN_PRESETS.iter().find(|(n, _)| *n == name_or_path) {
            return Self::from_toml(text, &format!("built-in preset `{name_or_path}`"));
        }
        let path = Path::new(name_or_path);
        if name_or_path.contains(['/', '\\']) || name_or_path.ends_with(".toml") || path.is_file() {
            return Self::load_path(path);
        }
        Err(PresetError::UnknownPreset {
            name: name_or_path.to_string(),
            available: builtin_names(),
        })
    }

    /// The preset as TOML text (every field, the active model's table included).
    pub fn to_toml(&self) -> String {
        toml::to_string_pretty(self).expect("a preset always serialises")
    }

    /// The active model with its parameters.
    pub fn model(&self) -> Model {
        match self.model {
            ModelKind::Reynolds => Model::Reynolds(self.reynolds.clone().unwrap_or_default()),
            ModelKind::Cornell => Model::Cornell(self.cornell.clone().unwrap_or_default()),
            ModelKind::SpaceBoids => Model::SpaceBoids(self.spaceboids.clone().unwrap_or_default()),
            ModelKind::Vicsek => Model::Vicsek(self.vicsek.clone().unwrap_or_default()),
            ModelKind::Couzin => Model::Couzin(self.couzin.clone().unwrap_or_default()),
            ModelKind::Abm => Model::Abm(self.abm.clone().unwrap_or_default()),
            ModelKind::Starlings => Model::Starlings(self.starlings.clone().unwrap_or_default()),
        }
    }

    /// Replaces the active model (and its table) with `model`.
    pub fn set_model(&mut self, model: Model) {
        self.model = model.kind();
        match model {
            Model::Reynolds(m) => self.reynolds = Some(m),
            Model::Cornell(m) => self.cornell = Some(m),
            Model::SpaceBoids(m) => self.spaceboids = Some(m),
            Model::Vicsek(m) => self.vicsek = Some(m),
            Model::Couzin(m) => self.couzin = Some(m),
            Model::Abm(m) => self.abm = Some(m),
            Model::Starlings(m) => self.starlings = Some(m),
        }
    }

    /// The flock parameters this preset describes.
    pub fn flock_params(&self) -> FlockParams {
        FlockParams {
            world_size: Vec2::new(self.world.width, self.world.height),
            world_depth: self.world.depth,
            edges: self.edges,
            model: self.model(),
            max_neighbours: self.world.max_neighbours,
            blind_angle: self.view.blind_angle,
            avoidance: self.avoidance,
        }
    }

    /// Gives the active model a table, filled with defaults where the file had none.
    fn fill_model_defaults(&mut self) {
        let model = self.model();
        self.set_model(model);
    }

    /// Checks every value, naming the first bad field as `table.field`.
    pub fn validate(&self) -> Result<(), (String, String)> {
        let bad =
            |table: &str, field: &str, message: String| Err((format!("{table}.{field}"), message));
        if self.version != PRESET_VERSION {
            return Err((
                "version".into(),
                format!(
                    "this build reads version {PRESET_VERSION}, the file says {}",
                    self.version
                ),
            ));
        }
        for (field, value) in [("width", self.world.width), ("height", self.world.height)] {
            if !(value.is_finite() && value > 0.0) {
                return bad(
                    "world",
                    field,
                    format!("must be a positive number, got {value}"),
                );
            }
            if value > MAX_WORLD {
                return bad(
                    "world",
                    field,
                    format!(
                        "at most {MAX_WORLD}, got {value}: positions are 32-bit floats, and \
                         further out than that from the middle a bird can no longer move by \
                         1/16 of a unit"
                    ),
                );
            }
        }
        let depth = self.world.depth;
        if !(depth.is_finite() && depth >= 0.0) {
            return bad(
                "world",
                "depth",
                format!("must be a finite number >= 0 (0: a flat world), got {depth}"),
            );
        }
        if depth > MAX_WORLD {
            return bad(
                "world",
                "depth",
                format!("at most {MAX_WORLD}, got {depth}"),
            );
        }
        let deep = depth > 0.0;
        if self.world.boids > MAX_BOIDS {
            return bad(
                "world",
                "boids",
                format!("at most {MAX_BOIDS}, got {}", self.world.boids),
            );
        }
        for (field, value) in [
            ("margin", self.edges.margin),
            ("turn_factor", self.edges.turn_factor),
        ] {
            if !(value.is_finite() && value >= 0.0) {
                return bad(
                    "edges",
                    field,
                    format!("must be a finite number >= 0, got {value}"),
                );
            }
        }
        let l = &self.leader;
        for (field, value) in [
            ("orbit_radius", l.orbit_radius),
            ("slowing_radius", l.slowing_radius),
            ("max_force", l.max_force),
            ("flee_radius", l.flee_radius),
            ("flee_force", l.flee_force),
            ("follow_range", l.follow_range),
        ] {
            if !(value.is_finite() && value >= 0.0) {
                return bad(
                    "leader",
                    field,
                    format!("must be a finite number >= 0, got {value}"),
                );
            }
        }
        if !l.weight.is_finite() {
            return bad(
                "leader",
                "weight",
                format!("must be finite, got {}", l.weight),
            );
        }
        let axis = glam::Vec3::from_array(l.orbit_axis);
        if !axis.is_finite() || axis == glam::Vec3::ZERO {
            return bad(
                "leader",
                "orbit_axis",
                format!(
                    "must be a finite, non-zero [x, y, z], got {:?}",
                    l.orbit_axis
                ),
            );
        }
        if l.orbit_direction != 1.0 && l.orbit_direction != -1.0 {
            return bad(
                "leader",
                "orbit_direction",
                format!("must be 1 or -1, got {}", l.orbit_direction),
            );
        }
        let angle = self.view.blind_angle;
        if !(angle.is_finite() && (0.0..=360.0).contains(&angle)) {
            return bad(
                "view",
                "blind_angle",
                format!("must be 0 to 360 degrees, got {angle}"),
            );
        }
        self.avoidance
            .validate()
            .map_err(|(field, message)| (format!("avoidance.{field}"), message))?;
        self.predator
            .validate()
            .map_err(|(field, message)| (format!("predator.{field}"), message))?;
        let r = self.bodies.bird_radius;
        if !(r.is_finite() && r > 0.0) {
            return bad(
                "bodies",
                "bird_radius",
                format!("must be a positive number, got {r}"),
            );
        }
        if deep && self.bodies.enabled {
            return bad(
                "bodies",
                "enabled",
                "birds as physics bodies are 2D only (rapier 2D); a 3D world (world.depth > 0) \
                 flies its birds itself"
                    .into(),
            );
        }
        for (i, obstacle) in self.obstacles.iter().enumerate() {
            obstacle
                .validate()
                .map_err(|message| (format!("obstacles[{i}]"), message))?;
            if obstacle.is_3d() != deep {
                let message = if deep {
                    format!(
                        "a {} is a 2D shape; a 3D world (world.depth > 0) takes spheres, boxes \
                         with a depth and the ground",
                        obstacle.kind()
                    )
                } else {
                    format!(
                        "a {}{} is a 3D shape; a flat world takes circles, boxes without a depth \
                         and polygons (give the world a depth for 3D shapes)",
                        obstacle.kind(),
                        if obstacle.kind() == "box" {
                            " with a depth"
                        } else {
                            ""
                        }
                    )
                };
                return Err((format!("obstacles[{i}]"), message));
            }
        }
        self.model()
            .validate()
            .map_err(|(field, message)| (format!("{}.{field}", self.model.name()), message))
    }
}

#[cfg(test)]
mod tests;
