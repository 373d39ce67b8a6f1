//! The components: a bird's place, velocity and flock; the flock and its working columns;
//! leaders; birds moved by something else.

use bevy_ecs::prelude::*;
use bevy_math::Vec2;
use bevy_reflect::Reflect;
use flock_core::grid::NeighbourGrid;
use flock_core::leader::LeaderParams;
use flock_core::predator::PredatorParams;
use flock_core::sim::FlockParams;

/// A bird. Its `id` is stable for the bird's life and seeds its own randomness, so results do
/// not depend on entity ids or spawn order within a tick.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[require(Position, Velocity, NeighbourCount)]
#[reflect(Component)]
pub struct Boid {
    /// Stable number of this bird within its flock.
    pub id: u32,
}

/// Where a bird (or a leader) is, in world units.
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq)]
#[reflect(Component)]
pub struct Position(pub Vec2);

/// A bird's velocity, in world units per tick.
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq)]
#[reflect(Component)]
pub struct Velocity(pub Vec2);

/// How many flock mates a bird considered in its last tick: the size of its local flock
/// (what the renderer colours by).
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[reflect(Component)]
pub struct NeighbourCount(pub u32);

/// The flock a bird belongs to: an entity with a [`Flock`].
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Component)]
pub struct FlockMember(pub Entity);

/// A bird that the flock sees as one of its own but that something else moves (the player):
/// the flock systems read its [`Position`] and [`Velocity`] and never write them.
#[derive(Component, Reflect, Clone, Copy, Debug, Default)]
#[reflect(Component)]
pub struct Piloted;

/// A bird whose position a physics engine moves: the flock steers it and sets its
/// [`Velocity`] as usual, but leaves its [`Position`] to whoever moves the body (and reads it
/// back next tick).
#[derive(Component, Reflect, Clone, Copy, Debug, Default)]
#[reflect(Component)]
pub struct BodyDriven;

/// A predator: birds of every flock within its range turn away from it (the DE1-SoC rule).
/// Place it with a [`Position`]; add [`Hunter`] to have it chase the nearest bird, or move it
/// yourself (the app's player can be one).
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq)]
#[require(Position, Velocity)]
#[reflect(Component)]
pub struct Predator {
    /// Range, how hard birds turn away, and how a hunter flies.
    pub params: PredatorParams,
}

/// A [`Predator`] that chases the nearest bird each tick, at its `hunt_speed`, kept in the
/// world by the edges of its prey's flock.
#[derive(Component, Reflect, Clone, Copy, Debug, Default)]
#[reflect(Component)]
pub struct Hunter;

/// A flock (a species): its parameters and its seed. Several flocks can share the world; each
/// bird interacts with the birds of its own flock.
#[derive(Component, Reflect, Clone, Debug, PartialEq)]
#[require(FlockColumns)]
#[reflect(Component)]
pub struct Flock {
    /// Model, edges, world size and neighbour cap.
    pub params: FlockParams,
    /// Seed of the flock's randomness (wandering directions).
    pub seed: u64,
}

/// A leader: birds of every flock (or only of `only`) steer relative to it, following or
/// fleeing as its parameters say. Place it with a [`Position`].
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq)]
#[require(Position)]
#[reflect(Component)]
pub struct Leader {
    /// Seek / arrive / orbit or flee, and how strongly.
    pub params: LeaderParams,
    /// Only this flock reacts; `None`: every flock.
    pub only: Option<Entity>,
}

impl Leader {
    /// A leader every flock follows with `params`.
    pub fn new(params: LeaderParams) -> Self {
        Self { params, only: None }
    }
}

/// A flock's working memory for one tick: its birds gathered into columns, the neighbour grid,
/// and the accelerations being summed. Filled by [`crate::FlockSystems::CollectNeighbours`],
/// written back by [`crate::FlockSystems::Integrate`]; it keeps its allocations between ticks.
#[derive(Component, Default, Debug)]
pub struct FlockColumns {
    /// The birds, in gather order.
    pub entities: Vec<Entity>,
    /// Their stable ids.
    pub ids: Vec<u32>,
    /// Positions.
    pub pos: Vec<Vec2>,
    /// Velocities.
    pub vel: Vec<Vec2>,
    /// This tick's accelerations.
    pub acc: Vec<Vec2>,
    /// Neighbours each bird considered this tick (its local flock size).
    pub neighbours: Vec<u32>,
    /// True for [`Piloted`] birds.
    pub piloted: Vec<bool>,
    /// The birds sorted by cell.
    pub grid: NeighbourGrid,
    /// Ticks this flock has taken.
    pub tick: u64,
}

impl FlockColumns {
    pub(crate) fn clear(&mut self) {
        self.entities.clear();
        self.ids.clear();
        self.pos.clear();
        self.vel.clear();
        self.acc.clear();
        self.neighbours.clear();
        self.piloted.clear();
    }
}
