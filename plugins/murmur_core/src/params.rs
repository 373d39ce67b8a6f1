//! [`FlockParams`]: everything that defines how one flock behaves, the one value every way of
//! running a flock (and the metrics) reads.

use crate::edges::{EdgeMode, Edges};
use crate::models::{Model, ModelKind};
use crate::obstacles::Avoidance;
use crate::space::Vector;
use crate::world::WorldBounds;
use glam::{Vec2, Vec3};
use serde::{Deserialize, Serialize};

/// Everything that defines how one flock behaves.
#[cfg_attr(feature = "reflect", derive(bevy_reflect::Reflect))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FlockParams {
    /// World width and height, in world units; the world is centred on the origin.
    #[serde(with = "vec2_as_pair")]
    pub world_size: Vec2,
    /// World depth (along z), in world units: 0 for a flat (2D) world, positive for a 3D box
    /// whose height is `world_size.y` (y is up).
    #[serde(default)]
    pub world_depth: f32,
    /// Edge behaviour.
    pub edges: Edges,
    /// Steering model and its parameters.
    pub model: Model,
    /// Most neighbours a boid considers, nearest cells first (0: no cap).
    pub max_neighbours: u32,
    /// Degrees behind each bird that it cannot see (OpenSteer's field of view): 0 sees all
    /// round, 90 misses a quarter turn centred straight behind.
    #[serde(default)]
    pub blind_angle: f32,
    /// How birds keep clear of obstacles (used where the world has some).
    #[serde(default)]
    pub avoidance: Avoidance,
}

impl Default for FlockParams {
    fn default() -> Self {
        Self {
            world_size: Vec2::new(1280.0, 720.0),
            world_depth: 0.0,
            edges: Edges::default(),
            model: Model::default_for(ModelKind::Reynolds),
            max_neighbours: 0,
            blind_angle: 0.0,
            avoidance: Avoidance::default(),
        }
    }
}

impl FlockParams {
    /// The world rectangle (its width and height); a torus in `wrap` mode.
    pub fn bounds(&self) -> WorldBounds {
        self.bounds_in()
    }

    /// The world in space `V`: the rectangle in 2D, the box (with its depth) in 3D; a torus in
    /// `wrap` mode.
    pub fn bounds_in<V: Vector>(&self) -> WorldBounds<V> {
        let size = Vec3::new(self.world_size.x, self.world_size.y, self.world_depth);
        WorldBounds::centred_on_size(V::from_vec3(size), self.edges.mode == EdgeMode::Wrap)
    }

    /// True for a 3D world (one with a depth).
    pub fn is_3d(&self) -> bool {
        self.world_depth > 0.0
    }

    /// The world's size: width, height and depth (0 in 2D).
    pub fn world_size3(&self) -> Vec3 {
        Vec3::new(self.world_size.x, self.world_size.y, self.world_depth)
    }

    /// The cosine a neighbour's direction must reach, against a bird's heading, to be seen:
    /// -1 with no blind angle.
    pub fn view_min_cos(&self) -> f32 {
        if self.blind_angle > 0.0 {
            -(self.blind_angle.min(360.0).to_radians() * 0.5).cos()
        } else {
            -1.0
        }
    }

    /// The neighbour cap as a count (`usize::MAX` when uncapped).
    pub fn cap(&self) -> usize {
        match self.max_neighbours {
            0 => usize::MAX,
            n => n as usize,
        }
    }
}

/// Serde for `Vec2` as `[x, y]`, without glam's own serde feature.
mod vec2_as_pair {
    use glam::Vec2;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(v: &Vec2, s: S) -> Result<S::Ok, S::Error> {
        [v.x, v.y].serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec2, D::Error> {
        let [x, y] = <[f32; 2]>::deserialize(d)?;
        Ok(Vec2::new(x, y))
    }
}
