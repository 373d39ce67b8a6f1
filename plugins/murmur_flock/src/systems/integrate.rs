//! The `Integrate` phase: move the birds, then write their new state back to the entities.

use crate::components::{
    BodyDriven, Boid, Flock, FlockColumns, FlockMember, NeighbourCount, Piloted, Position,
    Published, Velocity,
};
use bevy_ecs::change_detection::{ContiguousMut, DetectChangesMut};
use bevy_ecs::prelude::*;
use bevy_math::Vec2;

/// Integrates every flock (piloted birds keep their state).
pub fn integrate(mut flocks: Query<(&Flock, &mut FlockColumns)>) {
    for (flock, mut c) in &mut flocks {
        c.birds.integrate(&flock.params);
    }
}

/// What the write-back sets on a bird.
type BirdOut<'a> = (
    Entity,
    &'a Boid,
    &'a FlockMember,
    Mut<'a, Position>,
    Mut<'a, Velocity>,
    Mut<'a, NeighbourCount>,
    Has<BodyDriven>,
);

/// Writes every bird's new position (not for [`BodyDriven`] birds: their bodies move them),
/// velocity and neighbour count to its entity, on all threads. The components are stamped as
/// changed at the tick the flock took its birds in, so that games see them changed and the next
/// take-in does not.
pub fn write_back(
    mut flocks: Query<&mut FlockColumns>,
    mut birds: Query<BirdOut, Without<Piloted>>,
) {
    // First each flock lays its birds out by id (reading the columns in order), so that the
    // entities, stored roughly in id order, then read their state nearly in order.
    for mut c in &mut flocks {
        publish(&mut c);
    }
    let flocks = &flocks;
    let Ok(tables) = birds.contiguous_iter_mut() else {
        // Some bird's components are not stored in tables: entity by entity.
        birds.par_iter_mut().for_each_init(
            || None::<(Entity, &FlockColumns)>,
            |cache, (entity, boid, member, mut pos, mut vel, mut count, body_driven)| {
                let Some((c, state)) = state_of(flocks, cache, entity, boid, member) else {
                    return;
                };
                if !body_driven {
                    pos.bypass_change_detection().0 = state.pos;
                    pos.set_last_changed(c.collected_at);
                }
                vel.bypass_change_detection().0 = state.vel;
                vel.set_last_changed(c.collected_at);
                count.bypass_change_detection().0 = state.neighbours;
                count.set_last_changed(c.collected_at);
            },
        );
        return;
    };
    use rayon::prelude::*;
    // A table at a time, its rows cut into runs for the threads.
    const RUN: usize = 2048;
    for (entities, boids, members, pos, vel, count, body_driven) in tables {
        let (pos, mut pos_ticks) = ContiguousMut::split(pos);
        let (vel, mut vel_ticks) = ContiguousMut::split(vel);
        let (count, mut count_ticks) = ContiguousMut::split(count);
        let rows = entities
            .par_chunks(RUN)
            .zip(boids.par_chunks(RUN))
            .zip(members.par_chunks(RUN))
            .zip(pos.par_chunks_mut(RUN))
            .zip(pos_ticks.changed_mut().par_chunks_mut(RUN))
            .zip(vel.par_chunks_mut(RUN))
            .zip(vel_ticks.changed_mut().par_chunks_mut(RUN))
            .zip(count.par_chunks_mut(RUN))
            .zip(count_ticks.changed_mut().par_chunks_mut(RUN));
        rows.for_each(
            |((((((((entities, boids), members), pos), pos_t), vel), vel_t), count), count_t)| {
                let mut cache = None;
                for i in 0..entities.len() {
                    let Some((c, state)) =
                        state_of(flocks, &mut cache, entities[i], &boids[i], &members[i])
                    else {
                        continue;
                    };
                    if !body_driven {
                        (pos[i].0, pos_t[i]) = (state.pos, c.collected_at);
                    }
                    (vel[i].0, vel_t[i]) = (state.vel, c.collected_at);
                    (count[i].0, count_t[i]) = (state.neighbours, c.collected_at);
                }
            },
        );
    }
}

/// The flock columns of `member` (looked up once per run of birds of one flock) and the new
/// state of the bird `entity`, if it is indexed there.
#[inline]
fn state_of<'a>(
    flocks: &'a Query<&mut FlockColumns>,
    cache: &mut Option<(Entity, &'a FlockColumns)>,
    entity: Entity,
    boid: &Boid,
    member: &FlockMember,
) -> Option<(&'a FlockColumns, Published)> {
    let c = match *cache {
        Some((flock, c)) if flock == member.0 => c,
        _ => {
            let c = flocks.get(member.0).ok()?;
            *cache = Some((member.0, c));
            c
        }
    };
    let id = boid.id as usize;
    if let (Some(&e), Some(&state)) = (c.index.dense_entities().get(id), c.published.get(id)) {
        return (e == entity).then_some((c, state));
    }
    // An id kept in the index's map: read the columns.
    if c.index.entity(boid.id) != Some(entity) {
        return None;
    }
    let slot = c.index.slot(boid.id)?;
    let birds = c.birds();
    let state = Published {
        pos: birds.pos(slot),
        vel: birds.vel(slot),
        neighbours: birds.neighbours()[slot],
    };
    Some((c, state))
}

/// Lays each bird's state out by id, for ids the index keeps in its arrays.
fn publish(c: &mut FlockColumns) {
    use rayon::prelude::*;
    let FlockColumns {
        birds,
        index,
        published,
        ..
    } = c;
    published.resize(index.dense_len(), Published::default());
    /// The by-id array, written from many threads at the indices of distinct ids.
    #[derive(Clone, Copy)]
    struct ById(*mut Published, usize);
    // SAFETY: written only at distinct indices (one per id), see below.
    unsafe impl Send for ById {}
    // SAFETY: as above.
    unsafe impl Sync for ById {}
    impl ById {
        /// Writes `state` for `id` if the id is in the array.
        fn write(self, id: usize, state: Published) {
            if id < self.1 {
                // SAFETY: `id` is within the array, which outlives the pass; a flock's ids are
                // unique (its index refuses a second bird with an id), so no two slots write
                // the same place.
                unsafe { self.0.add(id).write(state) };
            }
        }
    }
    let out = ById(published.as_mut_ptr(), published.len());
    let (cols, ids, neighbours) = (birds.columns(), birds.ids(), birds.neighbours());
    let one = |k: usize| {
        let state = Published {
            pos: Vec2::new(cols.px[k], cols.py[k]),
            vel: Vec2::new(cols.vx[k], cols.vy[k]),
            neighbours: neighbours[k],
        };
        out.write(ids[k] as usize, state);
    };
    if ids.len() < 4096 {
        (0..ids.len()).for_each(one);
    } else {
        (0..ids.len())
            .into_par_iter()
            .with_min_len(2048)
            .for_each(one);
    }
}
