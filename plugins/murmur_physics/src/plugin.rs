//! The plugin and where its systems sit in a flock's tick.

use crate::{avoid, bodies, guard};
use bevy::ecs::intern::Interned;
use bevy::ecs::schedule::ScheduleLabel;
use bevy::prelude::*;
use bevy_rapier2d::plugin::PhysicsSet;
use murmur_flock::FlockSystems;

/// This plugin's systems, by job:
///
/// - `AttachBodies`: before the tick, birds get or lose bodies ([`bodies::BirdBodies`]).
/// - `AvoidObstacles`: in [`FlockSystems::AvoidObstacles`], start positions are noted and birds
///   steer round obstacles ahead.
/// - `Guard`: between [`FlockSystems::Integrate`] and [`FlockSystems::Hunt`], right after the
///   birds moved, moves into an obstacle are cut at the contact.
/// - `PushVelocities`: after the flock's tick and before rapier's step, bodies take the flock's
///   velocities.
/// - `ReadBack`: after rapier's writeback, bodies' places and velocities go back to the birds.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FlockPhysicsSystems {
    /// Bodies on or off.
    AttachBodies,
    /// Steering round obstacles.
    AvoidObstacles,
    /// No move into an obstacle.
    Guard,
    /// Flock velocities into bodies.
    PushVelocities,
    /// Bodies back into birds.
    ReadBack,
}

/// Obstacles, the contact guard and physical birds, in the flock's schedule (`FixedUpdate` by
/// default; rapier must run there too: `RapierPhysicsPlugin::in_fixed_schedule`).
pub struct FlockPhysicsPlugin {
    schedule: Interned<dyn ScheduleLabel>,
}

impl FlockPhysicsPlugin {
    /// Runs the systems in `schedule`, the flock's.
    pub fn new(schedule: impl ScheduleLabel) -> Self {
        Self {
            schedule: schedule.intern(),
        }
    }
}

impl Default for FlockPhysicsPlugin {
    fn default() -> Self {
        Self::new(FixedUpdate)
    }
}

impl Plugin for FlockPhysicsPlugin {
    fn build(&self, app: &mut App) {
        use FlockPhysicsSystems::*;
        app.init_resource::<guard::StartPositions>()
            .init_resource::<bodies::BirdBodies>()
            .configure_sets(
                self.schedule,
                (
                    AttachBodies.before(FlockSystems::CollectNeighbours),
                    AvoidObstacles.in_set(FlockSystems::AvoidObstacles),
                    Guard
                        .after(FlockSystems::Integrate)
                        .before(FlockSystems::Hunt),
                    // The flock's whole tick happens before rapier's step.
                    FlockSystems::WriteBack.before(PhysicsSet::SyncBackend),
                    PushVelocities
                        .after(FlockSystems::WriteBack)
                        .before(PhysicsSet::SyncBackend),
                    ReadBack.after(PhysicsSet::Writeback),
                ),
            )
            .add_systems(
                self.schedule,
                (
                    bodies::attach_bodies.in_set(AttachBodies),
                    (
                        guard::remember_start_positions,
                        avoid::steer_round_obstacles,
                    )
                        .chain()
                        .in_set(AvoidObstacles),
                    guard::keep_out_of_obstacles.in_set(Guard),
                    bodies::push_velocities.in_set(PushVelocities),
                    bodies::read_back.in_set(ReadBack),
                ),
            );
    }
}
