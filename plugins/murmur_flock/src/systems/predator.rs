//! Predators: in the `FollowLeader` phase, after the leaders, birds flee them; in `Integrate`,
//! after the birds moved, hunting predators chase the nearest bird.

use crate::components::{Boid, Flock, FlockColumns, Hunter, Piloted, Position, Predator, Velocity};
use bevy_ecs::prelude::*;
use murmur_core::predator::{PredatorState, nearest};

/// Adds the DE1-SoC predator rule to every bird within a predator's range.
pub fn flee_predators(
    predators: Query<(&Predator, &Position)>,
    mut flocks: Query<(&Flock, &mut FlockColumns)>,
    mut scratch: Local<Vec<PredatorState>>,
) {
    if predators.is_empty() {
        return;
    }
    scratch.clear();
    scratch.extend(predators.iter().map(|(p, pos)| PredatorState {
        pos: pos.0,
        params: p.params,
    }));
    for (flock, mut c) in &mut flocks {
        c.birds.flee_predators(&flock.params, &scratch);
    }
}

/// Each hunting predator turns towards the nearest bird of any flock (as the birds are after
/// this tick's move) and flies on, kept in the world by that flock's edges.
pub fn hunt(
    mut hunters: Query<
        (&Predator, &mut Position, &mut Velocity),
        (With<Hunter>, Without<Piloted>, Without<Boid>),
    >,
    flocks: Query<(&Flock, &FlockColumns)>,
) {
    for (predator, mut pos, mut vel) in &mut hunters {
        let mut best: Option<(f32, &Flock, bevy_math::Vec2)> = None;
        for (flock, c) in &flocks {
            let world = flock.params.bounds();
            let birds = c.birds();
            if let Some(i) = nearest(&world, pos.0, birds.columns()) {
                let d = world.delta(pos.0, birds.pos(i));
                if best.is_none_or(|(b, _, _)| d.length_squared() < b) {
                    best = Some((d.length_squared(), flock, d));
                }
            }
        }
        let Some((_, flock, to_prey)) = best else {
            continue;
        };
        vel.0 = predator.params.chase(vel.0, Some(to_prey));
        let (mut p, mut v) = (pos.0 + vel.0, vel.0);
        flock
            .params
            .edges
            .confine(&flock.params.bounds(), &mut p, &mut v);
        pos.0 = p;
        vel.0 = v;
    }
}
