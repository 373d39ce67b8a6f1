//! The contact guard (end of `Integrate`): a bird's move this tick is swept as a disc of its
//! clearance radius through rapier's query pipeline; a move that would touch an obstacle stops
//! at the contact and slides along the surface, and the velocity loses its part into the
//! surface. However fast a bird flies it cannot cross a thin wall between two ticks, and a bird
//! caught inside a newly placed obstacle is pushed out.

use crate::avoid::{clear_distance, obstacles_only};
use crate::obstacle::ObstacleBody;
use bevy::prelude::*;
use bevy_rapier2d::prelude::{RapierQueryPipeline, ReadRapierContext};
use murmur_flock::prelude::{Flock, FlockColumns};
use std::collections::HashMap;

/// Kept between a contact and the surface, so the next sweep does not start touching it.
const SKIN: f32 = 0.01;

/// Each flock's positions at the start of the tick (before `Integrate` moved the birds).
#[derive(Resource, Default, Debug)]
pub struct StartPositions(pub HashMap<Entity, Vec<Vec2>>);

/// Notes where every bird starts this tick (only while there are obstacles).
pub fn remember_start_positions(
    flocks: Query<(Entity, &FlockColumns)>,
    obstacles: Query<(), With<ObstacleBody>>,
    mut start: ResMut<StartPositions>,
) {
    if obstacles.is_empty() {
        start.0.clear();
        return;
    }
    start.0.retain(|e, _| flocks.contains(*e));
    for (entity, c) in &flocks {
        let saved = start.0.entry(entity).or_default();
        saved.clear();
        let birds = c.birds();
        saved.extend((0..birds.len()).map(|slot| birds.pos(slot)));
    }
}

/// Where a disc of `radius` moving from `from` by `motion` ends up: the whole way, or up to the
/// first contact and then along the surface; and the surface normal if it touched one.
fn sweep(
    pipeline: &RapierQueryPipeline<'_>,
    from: Vec2,
    motion: Vec2,
    radius: f32,
) -> (Vec2, Option<Vec2>) {
    let length = motion.length();
    if length.is_nan() || length <= 0.0 {
        return (from, None);
    }
    let dir = motion / length;
    let Some((toi, normal)) = clear_distance(pipeline, from, dir, radius, length) else {
        return (from + motion, None);
    };
    if toi <= 0.0 {
        // Already touching or inside at the start: leave by the nearest way out.
        return (push_out(pipeline, from, radius, normal), Some(normal));
    }
    let contact = from + dir * (toi - SKIN).max(0.0);
    // The rest of the move, without its part into the surface.
    let rest = motion - dir * toi;
    let slide = rest - normal * rest.dot(normal).min(0.0);
    let slide_length = slide.length();
    if slide_length.is_nan() || slide_length <= SKIN {
        return (contact, Some(normal));
    }
    let slide_dir = slide / slide_length;
    let end = match clear_distance(pipeline, contact, slide_dir, radius, slide_length) {
        None => contact + slide,
        Some((t, _)) => contact + slide_dir * (t - SKIN).max(0.0),
    };
    (end, Some(normal))
}

/// The nearest place to `p` where a disc of `radius` clears every obstacle (one step out from
/// the nearest surface; `fallback` gives the way when `p` sits exactly on a shape's centre).
fn push_out(pipeline: &RapierQueryPipeline<'_>, p: Vec2, radius: f32, fallback: Vec2) -> Vec2 {
    let Some((_, projection)) = pipeline.project_point(p, f32::MAX, false) else {
        return p;
    };
    let to_surface = projection.point - p;
    let out = if projection.is_inside {
        to_surface
    } else {
        -to_surface
    }
    .try_normalize()
    .unwrap_or(if fallback == Vec2::ZERO {
        Vec2::X
    } else {
        fallback
    });
    projection.point + out * (radius + SKIN)
}

/// Stops every move that would touch an obstacle at the contact and slides it along the
/// surface (the flock's write-back then hands the corrected birds to their entities).
pub fn keep_out_of_obstacles(
    mut flocks: Query<(Entity, &Flock, &mut FlockColumns)>,
    start: Res<StartPositions>,
    rapier: ReadRapierContext,
) {
    if start.0.is_empty() {
        return;
    }
    let Ok(context) = rapier.single() else {
        return;
    };
    context.with_query_pipeline(obstacles_only(), |pipeline| {
        for (entity, flock, mut c) in &mut flocks {
            let Some(prev) = start.0.get(&entity) else {
                continue;
            };
            let world = flock.params.bounds();
            let radius = flock.params.avoidance.clearance;
            let birds = c.birds_mut();
            for (i, &from) in prev.iter().enumerate().take(birds.len()) {
                // Body-driven birds are kept out by the physics engine itself.
                let flags = birds.flags()[i];
                if flags.piloted() || flags.body_driven() {
                    continue;
                }
                let motion = world.delta(from, birds.pos(i));
                let (end, normal) = sweep(&pipeline, from, motion, radius);
                let Some(n) = normal else {
                    continue;
                };
                let v = birds.vel(i);
                birds.set_state(i, world.wrap(end), v - n * v.dot(n).min(0.0));
            }
        }
    });
}
