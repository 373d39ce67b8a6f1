#![doc = include_str!("../README.md")]
mod disjoint;
pub mod edges;
pub mod fast;
pub mod grid;
pub mod hash;
mod lanes;
pub mod leader;
pub mod metrics;
pub mod models;
pub mod obstacles;
pub mod params;
pub mod predator;
pub mod preset;
pub mod rng;
pub mod sim;
pub mod sorted;
pub mod world;

pub use glam::Vec2;

/// The items most users need.
pub mod prelude {
    pub use crate::edges::{EdgeMode, Edges};
    pub use crate::fast::FastFlock;
    pub use crate::grid::NeighbourGrid;
    pub use crate::leader::{LeaderMode, LeaderParams};
    pub use crate::metrics::FlockMetrics;
    pub use crate::models::{Model, ModelKind};
    pub use crate::obstacles::{Avoidance, Obstacle};
    pub use crate::params::FlockParams;
    pub use crate::predator::PredatorParams;
    pub use crate::preset::{Preset, PresetError};
    pub use crate::sim::FlockSim;
    pub use crate::sorted::{BirdFlags, SortedFlock};
    pub use crate::world::WorldBounds;
    pub use glam::Vec2;
}
