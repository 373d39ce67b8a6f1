//! The plugins and the system sets that order a flock's tick.

use crate::components::{
    BodyDriven, Boid, Flock, FlockMember, Hunter, Leader, NeighbourCount, Piloted, Position,
    Predator, Velocity,
};
use crate::systems;
use crate::systems::collect::{
    BirdChanges, note_flags_added, note_flags_removed, note_joined, note_left,
};
use bevy_app::{App, FixedUpdate, Plugin, PluginGroup, PluginGroupBuilder, PostUpdate};
use bevy_ecs::intern::Interned;
use bevy_ecs::schedule::{IntoScheduleConfigs, ScheduleLabel, SystemSet};
use bevy_transform::TransformSystems;

/// The phases of a flock's tick, chained in this order:
///
/// 1. `CollectNeighbours`: gather each flock's birds into columns and counting-sort them into
///    its neighbour grid.
/// 2. `Steer`: each bird's model turns its neighbourhood into an acceleration.
/// 3. `FollowLeader`: leaders add their pull (seek, arrive, orbit) or push (flee); then birds
///    within a predator's range turn away from it.
/// 4. `AvoidObstacles`: birds steer round obstacles ahead (systems added by a physics plugin;
///    empty without one).
/// 5. `TurnAtEdges`: birds inside a margin turn back (`turn` edges).
/// 6. `Integrate`: velocity (with the model's speed limits), position, then wrap / bounce / stop
///    at the world's edges; results are written back to the birds; hunting predators move.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FlockSystems {
    /// Phase 1.
    CollectNeighbours,
    /// Phase 2.
    Steer,
    /// Phase 3.
    FollowLeader,
    /// Phase 4.
    AvoidObstacles,
    /// Phase 5.
    TurnAtEdges,
    /// Phase 6.
    Integrate,
}

/// Runs every [`Flock`] in a schedule (`FixedUpdate` by default: one tick per fixed step).
pub struct FlockPlugin {
    schedule: Interned<dyn ScheduleLabel>,
}

impl FlockPlugin {
    /// Runs the flock systems in `schedule`.
    pub fn new(schedule: impl ScheduleLabel) -> Self {
        Self {
            schedule: schedule.intern(),
        }
    }
}

impl Default for FlockPlugin {
    fn default() -> Self {
        Self::new(FixedUpdate)
    }
}

impl Plugin for FlockPlugin {
    fn build(&self, app: &mut App) {
        use FlockSystems::*;
        app.register_type::<Boid>()
            .register_type::<Position>()
            .register_type::<Velocity>()
            .register_type::<NeighbourCount>()
            .register_type::<FlockMember>()
            .register_type::<Piloted>()
            .register_type::<Flock>()
            .register_type::<Leader>()
            .register_type::<BodyDriven>()
            .register_type::<Predator>()
            .register_type::<Hunter>()
            .init_resource::<BirdChanges>()
            .add_observer(note_joined::<Boid>)
            .add_observer(note_joined::<FlockMember>)
            .add_observer(note_left::<Boid>)
            .add_observer(note_left::<FlockMember>)
            .add_observer(note_flags_added::<Piloted>)
            .add_observer(note_flags_removed::<Piloted>)
            .add_observer(note_flags_added::<BodyDriven>)
            .add_observer(note_flags_removed::<BodyDriven>)
            .configure_sets(
                self.schedule,
                (
                    CollectNeighbours,
                    Steer,
                    FollowLeader,
                    AvoidObstacles,
                    TurnAtEdges,
                    Integrate,
                )
                    .chain(),
            )
            .add_systems(
                self.schedule,
                (
                    systems::collect::collect_neighbours.in_set(CollectNeighbours),
                    systems::steer::steer.in_set(Steer),
                    systems::leader::follow_leaders.in_set(FollowLeader),
                    systems::edges::turn_at_edges.in_set(TurnAtEdges),
                    systems::integrate::integrate.in_set(Integrate),
                    systems::predator::hunt
                        .in_set(Integrate)
                        .after(systems::integrate::integrate),
                    systems::integrate::write_back
                        .in_set(Integrate)
                        .after(systems::predator::hunt),
                ),
            );
    }
}

/// Copies each bird's [`Position`] and heading into its `Transform`, for games that draw birds
/// as ordinary sprites or meshes. Birds without a `Transform` are skipped.
#[derive(Default)]
pub struct TransformSyncPlugin;

impl Plugin for TransformSyncPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            PostUpdate,
            systems::transform::sync_transforms.before(TransformSystems::Propagate),
        );
    }
}

/// [`FlockPlugin`] in `FixedUpdate` and [`TransformSyncPlugin`]; drop the latter when you draw
/// birds from their positions yourself.
pub struct FlockPlugins;

impl PluginGroup for FlockPlugins {
    fn build(self) -> PluginGroupBuilder {
        PluginGroupBuilder::start::<Self>()
            .add(FlockPlugin::default())
            .add(TransformSyncPlugin)
    }
}
