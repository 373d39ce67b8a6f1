//! Collision groups: scene queries for obstacles see only obstacles, not the player or birds.

use bevy_rapier2d::prelude::Group;

/// Walls and the player: everything that is neither an obstacle nor a bird body.
pub const WORLD: Group = Group::GROUP_1;
/// Obstacles the flock steers round.
pub const OBSTACLES: Group = Group::GROUP_2;
/// Birds in physical mode.
pub const BIRD_BODIES: Group = Group::GROUP_3;
