//! Advancing an `App` by whole flock ticks, for headless runs and tests.

use crate::components::FlockColumns;
use bevy_app::App;
use bevy_ecs::entity::Entity;
use bevy_math::{Vec2, Vec3};

/// Updates `app` until `flock` (flat or 3D) has taken `ticks` more ticks (one per fixed step). Gives up after
/// `4 * ticks + 8` updates without progress, so a misconfigured clock cannot hang the caller;
/// returns the number of ticks actually taken.
pub fn advance_ticks(app: &mut App, flock: Entity, ticks: u64) -> u64 {
    let tick = |app: &App| {
        let world = app.world();
        world
            .get::<FlockColumns<Vec2>>(flock)
            .map(|c| c.tick())
            .or_else(|| world.get::<FlockColumns<Vec3>>(flock).map(|c| c.tick()))
            .unwrap_or(0)
    };
    let start = tick(app);
    let mut budget = 4 * ticks + 8;
    while tick(app) < start + ticks && budget > 0 {
        app.update();
        budget -= 1;
    }
    tick(app) - start
}
