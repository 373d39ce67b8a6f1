//! The systems of a flock's tick, one module per phase (see [`crate::FlockSystems`]).

pub mod collect;
pub mod edges;
pub mod integrate;
pub mod leader;
pub mod predator;
pub mod steer;
pub mod transform;
