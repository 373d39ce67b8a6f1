#![doc = include_str!("../README.md")]

pub mod components;
#[cfg(feature = "draw")]
pub mod draw;
#[cfg(feature = "draw3d")]
pub mod draw3d;
#[cfg(feature = "gpu")]
pub mod gpu;
mod index;
pub mod measure;
pub mod messages;
pub mod player;
pub mod plugin;
#[cfg(feature = "pointer")]
pub mod pointer;
pub mod spawn;
pub mod stepping;
mod systems;
pub mod tick;

pub use murmur_core;
pub use plugin::{FlockPlugin, FlockPlugins, FlockSystems, TransformSyncPlugin};
pub use tick::{TICK, TickFraction, TickFractionSystems, Timestep};

/// The items a flat (2D) game uses: the plugins, the components, and from `murmur_core` the
/// parameters a flock is made of (not its Bevy-free simulators, `FlockSim` and `FastFlock`, which
/// live in [`murmur_core::prelude`]). A 3D game imports [`prelude3d`] instead; the rest of it
/// reads the same (flocks are 3D when their parameters give the world a depth).
pub mod prelude {
    pub use crate::shared_prelude::*;
    pub use murmur_core::prelude::{Vec2, WorldBounds};
}

/// The items a 3D game uses: as [`prelude`], with a 3D flock's birds at `Position<Vec3>` and
/// `Velocity<Vec3>` (y up).
pub mod prelude3d {
    pub use crate::shared_prelude::*;
    pub use murmur_core::prelude3d::{Vec3, WorldBounds};
}

/// What both preludes hold.
mod shared_prelude {
    pub use crate::components::{
        BodyDriven, Boid, Flock, FlockColumns, FlockMember, FlockSolid, Hunter, Leader,
        NeighbourCount, Piloted, Position, Predator, Velocity,
    };
    #[cfg(feature = "draw")]
    pub use crate::draw::{
        Bank, BirdDrawing, BirdMesh, DrawBirdsSystems, FlockDrawPlugin, FlockLook, Highlight,
    };
    #[cfg(feature = "gpu")]
    pub use crate::gpu::{GpuFlockPlugin, GpuFlockStatus, OnGpu};
    pub use crate::measure::{flock_metrics, flock_state_hash};
    pub use crate::messages::{HunterCaught, LeaderReached};
    pub use crate::player::{FlockPlayer, PLAYER_ID, PlayerPlugin, PlayerSystems};
    pub use crate::plugin::{FlockPlugin, FlockPlugins, FlockSystems, TransformSyncPlugin};
    #[cfg(feature = "pointer")]
    pub use crate::pointer::{
        ClickLeader, ClickLeaderPlugin, ClickLeaderSettings, ClickLeaderSystems, LeaderCamera,
        LeaderPlane, LeaderPoint, PlaceLeaderExt,
    };
    pub use crate::spawn::SpawnFlockExt;
    pub use crate::stepping::advance_ticks;
    pub use crate::tick::{TICK, TickFraction, TickFractionSystems, Timestep};
    pub use murmur_core::prelude::{
        Avoidance, EdgeMode, Edges, FlockMetrics, FlockParams, LeaderMode, LeaderParams, Model,
        ModelKind, Obstacle, PredatorParams, Preset, PresetError, Solid, Vector,
    };
}
