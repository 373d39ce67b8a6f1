//! The scene — which flock flies: a preset, a number of birds, a seed, a leader and a hunter to
//! start with — and the ways it is written down: as command-line flags (`cli::flags`, native), as
//! the web page's address ([`address`]), and the text of points and sizes both read ([`text`]);
//! one set of rules turns either into a checked preset ([`request`]).
//! The app spawns it (`app::scene`).

pub mod address;
pub mod request;
pub mod text;

use bevy::prelude::*;
use murmur_flock::murmur_core::preset::Preset;

/// The flock the app flies: its preset, size and seed.
#[derive(Resource, Clone, Debug)]
pub struct SceneConfig {
    /// Model, world, edges and leader tuning.
    pub preset: Preset,
    /// Number of birds.
    pub boids: usize,
    /// Seed of the current flock.
    pub seed: u64,
    /// Where to place a leader at start, if anywhere (z is 0 in a flat world).
    pub leader: Option<Vec3>,
    /// Where to let a hunting predator loose at start, if anywhere (z is 0 in a flat world).
    pub hunter: Option<Vec3>,
}

/// Grows the preset's world so that `boids` birds fly at the density its own bird count had
/// (more birds than the preset's own count only; fewer keep the world as it is).
pub fn keep_density(preset: &mut Preset, boids: u32) {
    let own = preset.scene().boids;
    if boids > own && own > 0 {
        let more = boids as f32 / own as f32;
        if preset.world.depth > 0.0 {
            // A 3D world grows on all three sides.
            let grow = more.cbrt();
            preset.world.width *= grow;
            preset.world.height *= grow;
            preset.world.depth *= grow;
        } else {
            let grow = more.sqrt();
            preset.world.width *= grow;
            preset.world.height *= grow;
        }
    }
}

impl SceneConfig {
    /// A built-in preset (or preset file) with its own number of birds.
    pub fn load(
        preset: &str,
        seed: u64,
    ) -> Result<Self, murmur_flock::murmur_core::preset::PresetError> {
        let preset = Preset::load(preset)?;
        Ok(Self {
            boids: preset.scene().boids as usize,
            preset,
            seed,
            leader: None,
            hunter: None,
        })
    }
}
