//! The `CollectNeighbours` phase: each flock takes in what changed among its birds since its
//! last tick — birds that joined or left, birds now piloted or body-driven, birds that something
//! else moved — then sorts its birds into its neighbour grid.

use crate::components::{
    BodyDriven, Boid, Flock, FlockColumns, FlockMember, Piloted, Position, Velocity,
};
use bevy_ecs::change_detection::{ContiguousRef, Tick};
use bevy_ecs::prelude::*;
use bevy_ecs::system::SystemChangeTick;
use bevy_math::{Vec2, Vec3};
use bevy_reflect::{Reflect, TypePath};
use murmur_core::Vector;
use murmur_core::sorted::BirdFlags;
use std::marker::PhantomData;

/// Birds whose flock or flags changed, noted by observers the moment it happens and taken in at
/// the next `CollectNeighbours` (so none is missed, however many frames pass between ticks).
/// One list per space: each space's take-in empties its own and passes over birds of flocks
/// of the other.
#[derive(Resource, Debug)]
pub struct BirdChanges<V = Vec2> {
    /// Birds that got a [`Boid`] or a [`FlockMember`] (spawned, or moved to another flock).
    pub(crate) joined: Vec<Entity>,
    /// Flock, id and entity of birds that lost either (despawned, or moved away).
    left: Vec<(Entity, u32, Entity)>,
    /// Birds that became or stopped being [`Piloted`] or [`BodyDriven`].
    flags: Vec<Entity>,
    space: PhantomData<fn() -> V>,
}

impl<V> Default for BirdChanges<V> {
    fn default() -> Self {
        Self {
            joined: Vec::new(),
            left: Vec::new(),
            flags: Vec::new(),
            space: PhantomData,
        }
    }
}

/// Both spaces' lists of changes, as the observers write them.
type BothChanges<'w> = (ResMut<'w, BirdChanges<Vec2>>, ResMut<'w, BirdChanges<Vec3>>);

/// Notes a bird that may have joined a flock.
pub(crate) fn note_joined<C: Component>(event: On<Insert, C>, mut changes: BothChanges) {
    changes.0.joined.push(event.entity);
    changes.1.joined.push(event.entity);
}

/// Notes a bird about to leave its flock (its [`Boid`] or [`FlockMember`] goes or is replaced).
pub(crate) fn note_left<C: Component>(
    event: On<Discard, C>,
    birds: Query<(&Boid, &FlockMember)>,
    mut changes: BothChanges,
) {
    if let Ok((boid, member)) = birds.get(event.entity) {
        let left = (member.0, boid.id, event.entity);
        changes.0.left.push(left);
        changes.1.left.push(left);
    }
}

/// Notes a bird whose [`Piloted`] or [`BodyDriven`] came or went.
pub(crate) fn note_flags_added<C: Component>(event: On<Add, C>, mut changes: BothChanges) {
    changes.0.flags.push(event.entity);
    changes.1.flags.push(event.entity);
}

/// As [`note_flags_added`], for a flag going.
pub(crate) fn note_flags_removed<C: Component>(event: On<Remove, C>, mut changes: BothChanges) {
    changes.0.flags.push(event.entity);
    changes.1.flags.push(event.entity);
}

fn flags_of(piloted: bool, body_driven: bool) -> BirdFlags {
    let mut flags = BirdFlags::NONE;
    if piloted {
        flags = flags.union(BirdFlags::PILOTED);
    }
    if body_driven {
        flags = flags.union(BirdFlags::BODY_DRIVEN);
    }
    flags
}

/// What the take-in reads of a bird.
type BirdRow<'a, V> = (
    &'a Boid,
    &'a FlockMember,
    &'a Position<V>,
    &'a Velocity<V>,
    Has<Piloted>,
    Has<BodyDriven>,
);

/// Takes every flock's changes in, then sorts each flock into its neighbour grid, for the
/// flocks of space `V`. Birds whose [`FlockMember`] names no flock are left alone.
pub fn collect_neighbours<V: Vector + Reflect + TypePath>(
    mut changes: ResMut<BirdChanges<V>>,
    mut flocks: Query<(&Flock, &mut FlockColumns<V>)>,
    birds: Query<BirdRow<V>>,
    placeless: Query<(&Boid, &FlockMember), Or<(Without<Position<V>>, Without<Velocity<V>>)>>,
    moved: Query<(
        Entity,
        &Boid,
        &FlockMember,
        Ref<Position<V>>,
        Ref<Velocity<V>>,
    )>,
    mut commands: Commands,
    ticks: SystemChangeTick,
) {
    let changes = &mut *changes;
    for (flock, id, bird) in changes.left.drain(..) {
        if let Ok((_, mut c)) = flocks.get_mut(flock)
            && c.index.entity(id) == Some(bird)
        {
            remove_bird(&mut c, id);
        }
    }
    for bird in changes.joined.drain(..) {
        let Ok((boid, member, pos, vel, piloted, body_driven)) = birds.get(bird) else {
            // A bird of a flock of this space without a place or velocity in it: given them at
            // zero, it joins at the next tick (the flock member inserted again notes it).
            if let Ok((_, member)) = placeless.get(bird)
                && flocks.contains(member.0)
            {
                commands
                    .entity(bird)
                    .insert_if_new((Position(V::ZERO), Velocity(V::ZERO)));
                commands.entity(bird).insert(*member);
            }
            continue;
        };
        let Ok((_, mut c)) = flocks.get_mut(member.0) else {
            continue;
        };
        let c = &mut *c;
        let slot = c.birds.len();
        match c.index.insert(boid.id, bird, slot) {
            Ok(()) => c
                .birds
                .push(boid.id, pos.0, vel.0, flags_of(piloted, body_driven)),
            // Noted twice (a Boid and a FlockMember inserted together).
            Err(existing) if existing == bird => {}
            Err(existing) => {
                let fresh = c.index.fresh_id();
                bevy_log::warn!(
                    "bird {bird} has id {}, which {existing} already has in flock {}: \
                     giving it id {fresh}",
                    boid.id,
                    member.0
                );
                // It joins under the fresh id at the next tick (the insert is noted again).
                commands.entity(bird).insert(Boid { id: fresh });
            }
        }
    }
    for bird in changes.flags.drain(..) {
        if let Ok((boid, member, _, _, piloted, body_driven)) = birds.get(bird)
            && let Ok((_, mut c)) = flocks.get_mut(member.0)
            && c.index.entity(boid.id) == Some(bird)
            && let Some(slot) = c.index.slot(boid.id)
        {
            c.birds.set_flags(slot, flags_of(piloted, body_driven));
        }
    }
    // Birds that something else moved since the write-back (which stamps the components with
    // the tick this system last ran at, so that its own writes do not show here): a table at a
    // time, looking at the change ticks alone until one is newer.
    let mut take_in = |bird: Entity, boid: &Boid, member: &FlockMember, pos: V, vel: V| {
        if let Ok((_, mut c)) = flocks.get_mut(member.0)
            && c.index.entity(boid.id) == Some(bird)
            && let Some(slot) = c.index.slot(boid.id)
        {
            c.birds.set_state(slot, pos, vel);
        }
    };
    let (last_run, this_run) = (ticks.last_run(), ticks.this_run());
    match moved.contiguous_iter() {
        Ok(tables) => {
            for (entities, boids, members, pos, vel) in tables {
                let (pos, pos_ticks) = ContiguousRef::split(pos);
                let (vel, vel_ticks) = ContiguousRef::split(vel);
                let (pos_changed, vel_changed) = (pos_ticks.changed(), vel_ticks.changed());
                // Most ticks nothing else moved a bird: a block of rows is looked at as a whole,
                // without a branch per bird (vector compares), and bird by bird only where one
                // is newer.
                for start in (0..entities.len()).step_by(SCAN_BLOCK) {
                    let rows = start..(start + SCAN_BLOCK).min(entities.len());
                    let newer = |tick: &Tick| tick.is_newer_than(last_run, this_run);
                    let any = (pos_changed[rows.clone()].iter())
                        .zip(&vel_changed[rows.clone()])
                        .fold(false, |any, (p, v)| any | newer(p) | newer(v));
                    if !any {
                        continue;
                    }
                    for i in rows {
                        if newer(&pos_changed[i]) || newer(&vel_changed[i]) {
                            take_in(entities[i], &boids[i], &members[i], pos[i].0, vel[i].0);
                        }
                    }
                }
            }
        }
        // Some bird's components are not stored in tables: entity by entity.
        Err(_) => {
            for (bird, boid, member, pos, vel) in &moved {
                if pos.is_changed() || vel.is_changed() {
                    take_in(bird, boid, member, pos.0, vel.0);
                }
            }
        }
    }
    for (flock, mut c) in &mut flocks {
        let c = &mut *c;
        c.birds.set_seed(flock.seed);
        // The index learns every bird's new slot as the sort moves the ids.
        let slots = c.index.dense_slots();
        c.birds
            .sort_with(&flock.params, |slot, id| slots.set(id, slot));
        c.index.set_sparse_slots(c.birds.ids());
        c.collected_at = ticks.this_run();
        c.collected = true;
    }
}

/// True while a flock of space `V` has not yet taken its birds in (spawned since the last
/// tick, or before the first): a drawing app then runs [`collect_neighbours`] before drawing,
/// so that a flock is drawn from its first frame, paused or not. The sort puts every cell's
/// birds in id order whatever their order before, so the flock's ticks are the same bits.
pub fn a_flock_not_yet_collected<V: Vector>(
    changes: Option<Res<BirdChanges<V>>>,
    flocks: Query<&FlockColumns<V>>,
) -> bool {
    changes.is_some() && flocks.iter().any(|c| !c.collected)
}

/// Rows of a table whose change ticks the take-in looks at together.
const SCAN_BLOCK: usize = 256;

/// Removes the bird with `id` from a flock's columns and index.
fn remove_bird<V: Vector>(c: &mut FlockColumns<V>, id: u32) {
    let Some(slot) = c.index.slot(id) else {
        return;
    };
    c.index.remove(id);
    c.birds.swap_remove(slot);
    // The last bird took the slot.
    if let Some(&moved) = c.birds.ids().get(slot) {
        c.index.set_slot(moved, slot);
    }
}
