//! What a preset sets up around its flock: how many birds, the obstacles placed at the start,
//! birds as physics bodies. An app that spawns a scene reads it; the flock's maths never does.

use super::Preset;
use crate::obstacles::Obstacle;
use serde::{Deserialize, Serialize};

/// The scene a preset describes, borrowed from it ([`Preset::scene`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PresetScene<'a> {
    /// Number of birds when none is asked for (`world.boids`).
    pub boids: u32,
    /// Obstacles placed at the start (`[[obstacles]]`).
    pub obstacles: &'a [Obstacle],
    /// Birds as physics bodies (`[bodies]`).
    pub bodies: BodiesSection,
}

impl Preset {
    /// The scene this preset sets up around its flock.
    pub fn scene(&self) -> PresetScene<'_> {
        PresetScene {
            boids: self.world.boids,
            obstacles: &self.obstacles,
            bodies: self.bodies,
        }
    }
}

/// The `[bodies]` table: physical birds.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BodiesSection {
    /// Each bird is a rigid body that collides with the others and with obstacles.
    pub enabled: bool,
    /// A bird body's radius, in world units.
    pub bird_radius: f32,
}

impl Default for BodiesSection {
    fn default() -> Self {
        Self {
            enabled: false,
            bird_radius: 4.0,
        }
    }
}
