//! The gold bird's own faint trail: its last second or so of flight as a line that fades, so
//! its motion reads even while the follow camera keeps it still on screen.

use crate::app::player::{GOLD, Player};
use crate::app::scene::ActiveWorld;
use bevy::prelude::*;
use murmur_flock::prelude::*;
use std::collections::VecDeque;

/// Seconds of flight the trail shows.
const TRAIL_SECONDS: f32 = 1.2;
/// The trail's opacity at the bird.
const TRAIL_ALPHA: f32 = 0.55;

/// The gold bird's recent places (seconds of real time, place), unwrapped across the seam so
/// that the line does not jump there.
#[derive(Resource, Default, Debug)]
pub struct PlayerTrail(pub VecDeque<(f32, Vec2)>);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<PlayerTrail>()
        .add_systems(PostUpdate, (record, draw).chain());
}

fn record(
    time: Res<Time<Real>>,
    mut trail: ResMut<PlayerTrail>,
    player: Query<&Transform, With<Player>>,
    world: ActiveWorld,
) {
    let Some(at) = player.iter().next().map(|t| t.translation.truncate()) else {
        trail.0.clear();
        return;
    };
    let Some(bounds) = world.bounds() else {
        return;
    };
    let now = time.elapsed_secs();
    let next = match trail.0.back() {
        Some(&(_, last)) => {
            let step = bounds.delta(bounds.wrap(last), at);
            // A jump (a reset, the body put back in the middle) starts a new trail.
            if step.length() > 0.2 * bounds.size.max_element() {
                trail.0.clear();
                at
            } else {
                last + step
            }
        }
        None => at,
    };
    if trail.0.back().is_none_or(|&(_, last)| last != next) {
        trail.0.push_back((now, next));
    }
    while trail
        .0
        .front()
        .is_some_and(|&(t, _)| now - t > TRAIL_SECONDS)
    {
        trail.0.pop_front();
    }
}

fn draw(
    mut gizmos: Gizmos,
    trail: Res<PlayerTrail>,
    drawing: Res<BirdDrawing>,
    world: ActiveWorld,
) {
    let (Some(&(newest, head)), true) = (trail.0.back(), trail.0.len() > 1) else {
        return;
    };
    // Where the bird itself is drawn (around the view in a wrapped world): the line ends there.
    let shift = match (drawing.around, world.bounds()) {
        (Some(around), Some(b)) if b.wrapped => around + b.delta(around, head) - head,
        _ => Vec2::ZERO,
    };
    gizmos.linestrip_gradient_2d(trail.0.iter().map(|&(t, p)| {
        let fresh = 1.0 - ((newest - t) / TRAIL_SECONDS).clamp(0.0, 1.0);
        (p + shift, GOLD.with_alpha(TRAIL_ALPHA * fresh))
    }));
}
