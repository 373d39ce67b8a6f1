//! Physics for flocks, on bevy_rapier2d: obstacles (circles, boxes, convex polygons) that birds
//! see ahead through rapier's scene queries and steer round, a guard that keeps any bird from
//! entering or tunnelling through one, and physical birds (each a rapier body) for small flocks
//! and games.
//!
//! Add [`FlockPhysicsPlugin`] after `FlockPlugin` and rapier's `RapierPhysicsPlugin` (in
//! `FixedUpdate`, as the flock), then spawn obstacles with [`spawn_obstacle`] and switch
//! physical birds on with the [`BirdBodies`] resource.

pub mod avoid;
pub mod bodies;
pub mod groups;
pub mod guard;
pub mod obstacle;
pub mod plugin;

pub use plugin::{FlockPhysicsPlugin, FlockPhysicsSystems};

/// The items most users need.
pub mod prelude {
    pub use crate::bodies::{BirdBodies, BirdBody};
    pub use crate::groups::{BIRD_BODIES, OBSTACLES, WORLD};
    pub use crate::obstacle::{ObstacleBody, spawn_obstacle};
    pub use crate::plugin::{FlockPhysicsPlugin, FlockPhysicsSystems};
    pub use murmur_core::obstacles::{Avoidance, Obstacle};
}
