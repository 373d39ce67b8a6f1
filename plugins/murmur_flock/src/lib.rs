//! Bevy plugins for flocking: boids as entities, flocks with their own parameters, the tick as a
//! chain of [`FlockSystems`], and leaders the flock follows or flees.
//!
//! Add [`FlockPlugins`] (or just [`FlockPlugin`]), spawn a flock with
//! [`SpawnFlockExt::spawn_flock`], and the birds fly in `FixedUpdate`:
//!
//! ```no_run
//! use bevy::prelude::*;
//! use murmur_flock::prelude::*;
//!
//! App::new()
//!     .add_plugins((MinimalPlugins, FlockPlugins))
//!     .add_systems(Startup, |mut commands: Commands| {
//!         commands.spawn_flock(FlockParams::default(), 500, 42);
//!     })
//!     .run();
//! ```

pub mod components;
mod index;
pub mod measure;
pub mod plugin;
pub mod spawn;
pub mod stepping;
pub mod systems;

pub use murmur_core;

/// The length of one flock tick: the models' parameters are tuned per tick at 60 Hz (one frame
/// of the source sketches). Set `Time<Fixed>` to it unless you retune them.
pub const TICK: std::time::Duration = std::time::Duration::from_nanos(16_666_667);
pub use plugin::{FlockPlugin, FlockPlugins, FlockSystems, TransformSyncPlugin};

/// The items most users need.
pub mod prelude {
    pub use crate::TICK;
    pub use crate::components::{
        BodyDriven, Boid, Flock, FlockColumns, FlockMember, Hunter, Leader, NeighbourCount,
        Piloted, Position, Predator, Velocity,
    };
    pub use crate::measure::{flock_metrics, flock_state_hash};
    pub use crate::plugin::{FlockPlugin, FlockPlugins, FlockSystems, TransformSyncPlugin};
    pub use crate::spawn::SpawnFlockExt;
    pub use crate::stepping::advance_ticks;
    pub use murmur_core::prelude::*;
    pub use murmur_core::sim::FlockParams;
}
