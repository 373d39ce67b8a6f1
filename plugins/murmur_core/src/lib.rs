#![doc = include_str!("../README.md")]
mod chunks;
mod disjoint;
pub mod edges;
pub mod fast;
pub mod grid;
pub mod hash;
mod lanes;
pub mod leader;
pub mod metrics;
pub mod models;
pub mod murmuration;
pub mod obstacles;
pub mod params;
pub mod predator;
pub mod preset;
pub mod rng;
pub mod sim;
pub mod solids;
pub mod sorted;
pub mod space;
pub mod world;

pub use glam::{Vec2, Vec3};
pub use space::Vector;

/// The items most users need, for a flat (2D) flock: the flock types here are the generic
/// ones with their space fixed to `Vec2`. A 3D program imports [`prelude3d`] instead, and
/// the rest of it reads the same.
pub mod prelude {
    pub use crate::shared_prelude::*;
    pub use glam::Vec2;

    /// [`crate::fast::FastFlock`] in 2D.
    pub type FastFlock = crate::fast::FastFlock<Vec2>;
    /// [`crate::sim::FlockSim`] in 2D.
    pub type FlockSim = crate::sim::FlockSim<Vec2>;
    /// [`crate::sorted::SortedFlock`] in 2D.
    pub type SortedFlock = crate::sorted::SortedFlock<Vec2>;
    /// [`crate::grid::NeighbourGrid`] in 2D.
    pub type NeighbourGrid = crate::grid::NeighbourGrid<Vec2>;
    /// [`crate::world::WorldBounds`] in 2D.
    pub type WorldBounds = crate::world::WorldBounds<Vec2>;
}

/// The items most users need, for a 3D flock (y up): the flock types here are the generic ones
/// with their space fixed to `Vec3`.
pub mod prelude3d {
    pub use crate::shared_prelude::*;
    pub use glam::Vec3;

    /// [`crate::fast::FastFlock`] in 3D.
    pub type FastFlock = crate::fast::FastFlock<Vec3>;
    /// [`crate::sim::FlockSim`] in 3D.
    pub type FlockSim = crate::sim::FlockSim<Vec3>;
    /// [`crate::sorted::SortedFlock`] in 3D.
    pub type SortedFlock = crate::sorted::SortedFlock<Vec3>;
    /// [`crate::grid::NeighbourGrid`] in 3D.
    pub type NeighbourGrid = crate::grid::NeighbourGrid<Vec3>;
    /// [`crate::world::WorldBounds`] in 3D.
    pub type WorldBounds = crate::world::WorldBounds<Vec3>;
}

/// What both preludes hold: the types that do not depend on the space.
mod shared_prelude {
    pub use crate::edges::{EdgeMode, Edges};
    pub use crate::leader::{LeaderMode, LeaderParams};
    pub use crate::metrics::FlockMetrics;
    pub use crate::models::{Model, ModelKind};
    pub use crate::obstacles::{Avoidance, Obstacle};
    pub use crate::params::FlockParams;
    pub use crate::predator::PredatorParams;
    pub use crate::preset::{Preset, PresetError};
    pub use crate::solids::Solid;
    pub use crate::sorted::BirdFlags;
    pub use crate::space::Vector;
}
