//! The `Integrate` phase: move the birds, then write their new state back to the entities.

use crate::components::{
    BodyDriven, Boid, Flock, FlockColumns, FlockMember, NeighbourCount, Piloted, Position, Velocity,
};
use crate::systems::collect::BirdChanges;
use bevy_ecs::change_detection::{ContiguousMut, DetectChangesMut, Tick};
use bevy_ecs::prelude::*;
use bevy_reflect::{Reflect, TypePath};
use murmur_core::Vector;

/// Integrates every flock of space `V` (piloted birds keep their state).
pub fn integrate<V: Vector>(mut flocks: Query<(&Flock, &mut FlockColumns<V>)>) {
    for (flock, mut c) in &mut flocks {
        c.birds.integrate(&flock.params);
    }
}

/// What the write-back sets on a bird.
type BirdOut<'a, V> = (
    Entity,
    &'a Boid,
    &'a FlockMember,
    Mut<'a, Position<V>>,
    Mut<'a, Velocity<V>>,
    Mut<'a, NeighbourCount>,
    Has<BodyDriven>,
);

/// A bird's new state, as the write-back hands it to its entity.
struct NewState<V> {
    pos: V,
    vel: V,
    neighbours: u32,
}

/// Writes every bird's new position (not for [`BodyDriven`] birds: their bodies move them),
/// velocity and neighbour count to its entity, a table of entities at a time (a big one on all
/// threads).
/// The components are stamped as changed at the tick the flock took its birds in, so that
/// games see them changed and the next take-in does not.
pub fn write_back<V: Vector + Reflect + TypePath>(
    flocks: Query<&FlockColumns<V>>,
    mut birds: Query<BirdOut<V>, Without<Piloted>>,
    changes: Res<BirdChanges<V>>,
) {
    // Unless a bird joined since the take-in (spawned during the tick, or given a fresh id),
    // every bird of a flock is in its index: no need to check each one's entity.
    let checked = !changes.joined.is_empty();
    let flocks = &flocks;
    let Ok(tables) = birds.contiguous_iter_mut() else {
        // Some bird's components are not stored in tables: entity by entity.
        birds.par_iter_mut().for_each_init(
            || None::<(Entity, &FlockColumns<V>)>,
            |cache, (entity, boid, member, mut pos, mut vel, mut count, body_driven)| {
                let Some((c, state)) = state_of(flocks, cache, entity, boid, member, true) else {
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
    // A table at a time, its rows cut into runs for the threads; a small table on this thread
    // alone (handing it to the thread pool and waiting for it costs more than it saves).
    const RUN: usize = 2048;
    for (entities, boids, members, pos, vel, count, body_driven) in tables {
        let (pos, mut pos_ticks) = ContiguousMut::split(pos);
        let (vel, mut vel_ticks) = ContiguousMut::split(vel);
        let (count, mut count_ticks) = ContiguousMut::split(count);
        let write = |rows| write_rows(flocks, checked, body_driven, rows);
        if entities.len() <= SERIAL_ROWS {
            write(Rows {
                entities,
                boids,
                members,
                pos,
                pos_t: pos_ticks.changed_mut(),
                vel,
                vel_t: vel_ticks.changed_mut(),
                count,
                count_t: count_ticks.changed_mut(),
            });
            continue;
        }
        entities
            .par_chunks(RUN)
            .zip(boids.par_chunks(RUN))
            .zip(members.par_chunks(RUN))
            .zip(pos.par_chunks_mut(RUN))
            .zip(pos_ticks.changed_mut().par_chunks_mut(RUN))
            .zip(vel.par_chunks_mut(RUN))
            .zip(vel_ticks.changed_mut().par_chunks_mut(RUN))
            .zip(count.par_chunks_mut(RUN))
            .zip(count_ticks.changed_mut().par_chunks_mut(RUN))
            .for_each(
                |(
                    (((((((entities, boids), members), pos), pos_t), vel), vel_t), count),
                    count_t,
                )| {
                    write(Rows {
                        entities,
                        boids,
                        members,
                        pos,
                        pos_t,
                        vel,
                        vel_t,
                        count,
                        count_t,
                    })
                },
            );
    }
}

/// Tables up to this many rows are written back on one thread.
const SERIAL_ROWS: usize = 16_384;

/// Rows of a table, as the write-back writes them: what identifies each bird, and its state
/// with the state's change ticks.
struct Rows<'a, V: Vector + Reflect + TypePath> {
    entities: &'a [Entity],
    boids: &'a [Boid],
    members: &'a [FlockMember],
    pos: &'a mut [Position<V>],
    pos_t: &'a mut [Tick],
    vel: &'a mut [Velocity<V>],
    vel_t: &'a mut [Tick],
    count: &'a mut [NeighbourCount],
    count_t: &'a mut [Tick],
}

/// Writes the new state of a table's `rows` (positions left alone for `body_driven` birds)
/// and stamps what it wrote as changed at the take-in's tick.
fn write_rows<V: Vector + Reflect + TypePath>(
    flocks: &Query<&FlockColumns<V>>,
    checked: bool,
    body_driven: bool,
    rows: Rows<V>,
) {
    let Rows {
        entities,
        boids,
        members,
        pos,
        pos_t,
        vel,
        vel_t,
        count,
        count_t,
    } = rows;
    // The common case: a run of birds of one flock, none joined since the take-in:
    // slots straight from the index, state straight from the columns.
    if !checked
        && let Some(first) = members.first()
        && let Ok(c) = flocks.get(first.0)
        && write_dense_run(
            c,
            first.0,
            boids,
            members,
            (!body_driven).then_some(&mut *pos),
            &mut *vel,
            &mut *count,
        )
    {
        if !body_driven {
            pos_t.fill(c.collected_at);
        }
        vel_t.fill(c.collected_at);
        count_t.fill(c.collected_at);
        return;
    }
    let mut cache = None;
    let (mut stamp, mut all) = (None::<Tick>, true);
    for i in 0..entities.len() {
        let Some((c, state)) = state_of(
            flocks,
            &mut cache,
            entities[i],
            &boids[i],
            &members[i],
            checked,
        ) else {
            all = false;
            continue;
        };
        stamp = Some(c.collected_at);
        if !body_driven {
            pos[i].0 = state.pos;
        }
        vel[i].0 = state.vel;
        count[i].0 = state.neighbours;
    }
    let Some(stamp) = stamp else {
        return;
    };
    // Every flock took its birds in in the same run of `collect_neighbours`, so
    // one stamp serves the whole run of rows.
    if all {
        if !body_driven {
            pos_t.fill(stamp);
        }
        vel_t.fill(stamp);
        count_t.fill(stamp);
        return;
    }
    for i in 0..entities.len() {
        if state_of(
            flocks,
            &mut cache,
            entities[i],
            &boids[i],
            &members[i],
            true,
        )
        .is_some()
        {
            if !body_driven {
                pos_t[i] = stamp;
            }
            vel_t[i] = stamp;
            count_t[i] = stamp;
        }
    }
}

/// Writes the new state of a run of rows whose birds all belong to `flock` (whose columns are
/// `c`) under ids kept in its index's arrays, in one pass: `true` when it did. `false` when a
/// row's bird is not such a bird (the caller then writes the run bird by bird; the rows before
/// it already hold their right state). `pos` is left alone for body-driven birds (`None`).
#[inline]
fn write_dense_run<V: Vector + Reflect + TypePath>(
    c: &FlockColumns<V>,
    flock: Entity,
    boids: &[Boid],
    members: &[FlockMember],
    pos: Option<&mut [Position<V>]>,
    vel: &mut [Velocity<V>],
    count: &mut [NeighbourCount],
) -> bool {
    let birds = c.birds();
    let (cols, neighbours) = (birds.columns(), birds.neighbours());
    // Columns as slices of one length, held in registers through the loop: one bounds check a
    // bird. (The counts are as long as the columns after every sort, and the write-back follows
    // one; the shorter length keeps the slicing from panicking if it ever did not.)
    let n = neighbours.len().min(cols.len());
    let neighbours = &neighbours[..n];
    let (px, py) = (&cols.pos[0][..n], &cols.pos[1][..n]);
    let (vx, vy) = (&cols.vel[0][..n], &cols.vel[1][..n]);
    // The third axis of a 3D flock (empty, and never read, in 2D).
    let third = V::DIM == 3;
    let (pz, vz) = if third {
        (&cols.pos[2][..n], &cols.vel[2][..n])
    } else {
        (&[][..], &[][..])
    };
    let at = |x: &[f32], y: &[f32], z: &[f32], s: usize| {
        V::from_axes([x[s], y[s], if third { z[s] } else { 0.0 }])
    };
    let rows = boids
        .iter()
        .zip(members)
        .zip(vel.iter_mut())
        .zip(count.iter_mut());
    match pos {
        None => {
            for (((boid, member), vel), count) in rows {
                let Some(s) = c.index.dense_slot(boid.id).filter(|_| member.0 == flock) else {
                    return false;
                };
                count.0 = neighbours[s];
                vel.0 = at(vx, vy, vz, s);
            }
        }
        Some(pos) => {
            for ((((boid, member), vel), count), pos) in rows.zip(pos) {
                let Some(s) = c.index.dense_slot(boid.id).filter(|_| member.0 == flock) else {
                    return false;
                };
                count.0 = neighbours[s];
                pos.0 = at(px, py, pz, s);
                vel.0 = at(vx, vy, vz, s);
            }
        }
    }
    true
}

/// The flock columns of `member` (looked up once per run of birds of one flock) and the new
/// state of the bird `entity`, if it is in that flock's index (`checked`: make sure the index
/// holds this very entity; not needed while no bird joined since the take-in).
#[inline]
fn state_of<'a, V: Vector>(
    flocks: &'a Query<&FlockColumns<V>>,
    cache: &mut Option<(Entity, &'a FlockColumns<V>)>,
    entity: Entity,
    boid: &Boid,
    member: &FlockMember,
    checked: bool,
) -> Option<(&'a FlockColumns<V>, NewState<V>)> {
    let c = match *cache {
        Some((flock, c)) if flock == member.0 => c,
        _ => {
            let c = flocks.get(member.0).ok()?;
            *cache = Some((member.0, c));
            c
        }
    };
    if checked && c.index.entity(boid.id) != Some(entity) {
        return None;
    }
    let slot = c.index.slot(boid.id)?;
    let birds = c.birds();
    let cols = birds.columns();
    let state = NewState {
        pos: cols.pos_of(slot),
        vel: cols.vel_of(slot),
        neighbours: birds.neighbours()[slot],
    };
    Some((c, state))
}
