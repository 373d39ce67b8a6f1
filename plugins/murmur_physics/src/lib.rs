#![doc = include_str!("../README.md")]
pub mod avoid;
pub mod bodies;
pub mod groups;
pub mod guard;
pub mod obstacle;
pub mod plugin;
pub mod rapier;

pub use plugin::{FlockPhysicsPlugin, FlockPhysicsSystems};
pub use rapier::FlockRapierPlugin;

/// The items most users need.
pub mod prelude {
    pub use crate::bodies::{BirdBodies, BirdBody};
    pub use crate::groups::{BIRD_BODIES, OBSTACLES};
    pub use crate::obstacle::{ObstacleBody, spawn_obstacle};
    pub use crate::plugin::{FlockPhysicsPlugin, FlockPhysicsSystems};
    pub use crate::rapier::FlockRapierPlugin;
    pub use murmur_core::obstacles::{Avoidance, Obstacle};
}
