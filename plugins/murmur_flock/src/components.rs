//! The components: a bird's place, velocity and flock; the flock and its working columns;
//! leaders; birds moved by something else; solids a 3D flock flies round. A bird's place and
//! velocity, and a flock's columns, are of its flock's space: `Vec2` (the default) for a flat
//! flock, `Vec3` for a flock whose parameters give the world a depth.

use crate::index::BirdIndex;
use bevy_ecs::change_detection::Tick;
use bevy_ecs::prelude::*;
use bevy_math::{Vec2, Vec3};
use bevy_reflect::Reflect;
use murmur_core::Vector;
use murmur_core::leader::LeaderParams;
use murmur_core::params::FlockParams;
use murmur_core::predator::PredatorParams;
use murmur_core::solids::Solid;
use murmur_core::sorted::SortedFlock;

/// A bird. Its `id` is stable for the bird's life and seeds its own randomness, so results do
/// not depend on entity ids or spawn order within a tick.
///
/// A bird also has a [`Position`] and a [`Velocity`] of its flock's space (`spawn_flock` gives
/// them; a bird that joins a flock without them gets them at zero).
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[require(NeighbourCount)]
#[reflect(Component)]
pub struct Boid {
    /// Stable number of this bird within its flock.
    pub id: u32,
}

/// Where a bird (or a leader, a predator) is, in world units: `Position<Vec2>` (the default) for
/// a flat flock, `Position<Vec3>` (y up) for a 3D one. A leader or predator with both is seen by
/// flocks of both spaces.
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq)]
#[reflect(Component)]
pub struct Position<V: Vector + Reflect + bevy_reflect::TypePath = Vec2>(pub V);

/// A bird's velocity, in world units per tick, in its flock's space (see [`Position`]).
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq)]
#[reflect(Component)]
pub struct Velocity<V: Vector + Reflect + bevy_reflect::TypePath = Vec2>(pub V);

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
/// Place it with a [`Position`] (`Position<Vec3>` for 3D flocks; none: at the flat origin) and
/// it is given a [`Velocity`] of the same space; add [`Hunter`] to have it chase the nearest
/// bird, or move it yourself (the app's player can be one).
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq)]
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
/// bird interacts with the birds of its own flock. Its space follows its parameters: a world
/// with a depth (`params.world_depth > 0`) makes a 3D flock, whose birds have `Position<Vec3>`
/// and `Velocity<Vec3>`; it gets the [`FlockColumns`] of its space when it is inserted.
#[derive(Component, Reflect, Clone, Debug, PartialEq)]
#[reflect(Component)]
pub struct Flock {
    /// Model, edges, world size and neighbour cap.
    pub params: FlockParams,
    /// Seed of the flock's randomness (wandering directions).
    pub seed: u64,
}

/// A leader: birds of every flock (or only of `only`) steer relative to it, following or
/// fleeing as its parameters say. Place it with a [`Position`]: `Position<Vec2>` for flat
/// flocks, `Position<Vec3>` for 3D ones, or both (none: at the flat origin). A flock sees only
/// the leaders placed in its own space.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq)]
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

/// A flock's birds as columns in cell order: the state of record while the flock flies. The
/// flock systems tick it ([`crate::FlockSystems`]), write each bird's [`Position`],
/// [`Velocity`] and [`NeighbourCount`] back to its entity at the end of every tick, and take
/// in, at the start of the next, whatever else changed a bird's components (a game moving a
/// bird, a piloted bird, a physics body). The drawing reads it directly.
#[derive(Component, Debug)]
pub struct FlockColumns<V: Vector = Vec2> {
    pub(crate) birds: SortedFlock<V>,
    pub(crate) index: BirdIndex,
    /// The change tick the columns were last taken in at: the write-back stamps the birds'
    /// components with it, so the next take-in sees only what others changed since.
    pub(crate) collected_at: Tick,
    /// Whether the birds were ever taken in: until then the columns are empty, and a drawing
    /// app takes them in before its first frame (see [`crate::draw::FlockDrawPlugin`]).
    pub(crate) collected: bool,
}

impl<V: Vector> Default for FlockColumns<V> {
    fn default() -> Self {
        Self {
            birds: SortedFlock::default(),
            index: BirdIndex::default(),
            collected_at: Tick::default(),
            collected: false,
        }
    }
}

impl<V: Vector> FlockColumns<V> {
    /// The birds in cell order (slots change every tick; ids do not).
    pub fn birds(&self) -> &SortedFlock<V> {
        &self.birds
    }

    /// The birds, to change in place between the flock's phases (obstacle avoidance adding to
    /// the accelerations, a contact guard moving birds back).
    pub fn birds_mut(&mut self) -> &mut SortedFlock<V> {
        &mut self.birds
    }

    /// Number of birds.
    pub fn len(&self) -> usize {
        self.birds.len()
    }

    /// True without birds.
    pub fn is_empty(&self) -> bool {
        self.birds.is_empty()
    }

    /// Ticks this flock has taken.
    pub fn tick(&self) -> u64 {
        self.birds.tick()
    }

    /// The slot of the bird with `id`, as of the last sort.
    pub fn slot_of(&self, id: u32) -> Option<usize> {
        self.index.slot(id)
    }

    /// The entity of the bird with `id`.
    pub fn entity_of(&self, id: u32) -> Option<Entity> {
        self.index.entity(id)
    }

    /// The entity of the bird in `slot`.
    pub fn entity_in(&self, slot: usize) -> Option<Entity> {
        self.birds
            .ids()
            .get(slot)
            .and_then(|&id| self.index.entity(id))
    }
}

/// A solid every 3D flock flies round and never enters (a sphere, a turned box, the ground):
/// put it on any entity. 2D flocks' obstacles are physics colliders (`murmur_physics`).
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct FlockSolid(pub Solid);

/// Gives a [`Flock`] the [`FlockColumns`] of its parameters' space (taking away the other
/// space's, should its parameters have changed space).
/// Places a new leader or predator in the space its [`Position`] says: with none, at the flat
/// origin (as a `require` would, but without giving a 3D one a flat twin that flat flocks
/// would see at the origin); a predator also gets a standing [`Velocity`] of its space.
pub(crate) fn place_in_space<T: Component>(
    event: On<Add, T>,
    placed: Query<(
        Has<Position<Vec2>>,
        Has<Position<Vec3>>,
        Has<Velocity<Vec2>>,
        Has<Velocity<Vec3>>,
        Has<Predator>,
    )>,
    mut commands: Commands,
) {
    let Ok((flat, deep, flat_vel, deep_vel, predator)) = placed.get(event.entity) else {
        return;
    };
    let mut entity = commands.entity(event.entity);
    if !flat && !deep {
        entity.insert(Position(Vec2::ZERO));
    }
    if predator {
        if (flat || !deep) && !flat_vel {
            entity.insert(Velocity(Vec2::ZERO));
        }
        if deep && !deep_vel {
            entity.insert(Velocity(Vec3::ZERO));
        }
    }
}

pub(crate) fn give_columns(
    event: On<Insert, Flock>,
    flocks: Query<(&Flock, Has<FlockColumns<Vec2>>, Has<FlockColumns<Vec3>>)>,
    mut commands: Commands,
) {
    let Ok((flock, flat, deep)) = flocks.get(event.entity) else {
        return;
    };
    let mut entity = commands.entity(event.entity);
    match (flock.params.is_3d(), flat, deep) {
        (true, _, false) => {
            entity.remove::<FlockColumns<Vec2>>();
            entity.insert(FlockColumns::<Vec3>::default());
        }
        (false, false, _) => {
            entity.remove::<FlockColumns<Vec3>>();
            entity.insert(FlockColumns::<Vec2>::default());
        }
        _ => {}
    }
}
