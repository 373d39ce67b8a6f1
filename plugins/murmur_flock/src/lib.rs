#![doc = include_str!("../README.md")]

pub mod components;
#[cfg(feature = "draw")]
pub mod draw;
#[cfg(feature = "gpu")]
pub mod gpu;
mod index;
pub mod measure;
pub mod player;
pub mod plugin;
#[cfg(feature = "pointer")]
pub mod pointer;
pub mod spawn;
pub mod stepping;
pub mod systems;
pub mod tick;

pub use murmur_core;
pub use plugin::{FlockPlugin, FlockPlugins, FlockSystems, TransformSyncPlugin};
pub use tick::{TICK, Timestep};

/// The items most users need.
pub mod prelude {
    pub use crate::components::{
        BodyDriven, Boid, Flock, FlockColumns, FlockMember, Hunter, Leader, NeighbourCount,
        Piloted, Position, Predator, Velocity,
    };
    #[cfg(feature = "draw")]
    pub use crate::draw::{BirdDrawing, BirdMesh, FlockDrawPlugin, FlockLook, Highlight};
    #[cfg(feature = "gpu")]
    pub use crate::gpu::{GpuFlockPlugin, GpuFlockStatus, OnGpu};
    pub use crate::measure::{flock_metrics, flock_state_hash};
    pub use crate::player::{FlockPlayer, PLAYER_ID, PlayerPlugin};
    pub use crate::plugin::{FlockPlugin, FlockPlugins, FlockSystems, TransformSyncPlugin};
    #[cfg(feature = "pointer")]
    pub use crate::pointer::{
        ClickLeader, ClickLeaderPlugin, ClickLeaderSettings, ClickLeaderSystems, LeaderCamera,
        PlaceLeaderExt,
    };
    pub use crate::spawn::SpawnFlockExt;
    pub use crate::stepping::advance_ticks;
    pub use crate::tick::{TICK, Timestep};
    pub use murmur_core::params::FlockParams;
    pub use murmur_core::prelude::*;
}
