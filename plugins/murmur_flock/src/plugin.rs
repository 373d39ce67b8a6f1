//! The plugins and the system sets that order a flock's tick.

use crate::components::{
    BodyDriven, Boid, Flock, FlockMember, Hunter, Leader, NeighbourCount, Piloted, Position,
    Predator, Velocity,
};
use crate::player::PlayerPlugin;
use crate::systems;
use crate::systems::collect::{
    BirdChanges, note_flags_added, note_flags_removed, note_joined, note_left,
};
use crate::tick::{self, TickCheck, Timestep};
use bevy_app::{App, FixedUpdate, Plugin, PluginGroup, PluginGroupBuilder, PostUpdate};
use bevy_ecs::intern::Interned;
use bevy_ecs::schedule::{IntoScheduleConfigs, ScheduleLabel, SystemSet};
use bevy_transform::TransformSystems;

/// The phases of a flock's tick, chained in this order. Add your own systems to them (in the
/// flock's schedule) to act between phases.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FlockSystems {
    /// Each flock takes in what changed among its birds since its last tick (birds spawned,
    /// despawned, moved by the game, piloted), then counting-sorts them into its neighbour grid.
    CollectNeighbours,
    /// Each bird's model turns its neighbourhood into an acceleration (and, when nothing
    /// changed the accelerations after this phase on the tick before, the move is worked out
    /// with it, for `Integrate` to take should nothing change them this time either).
    Steer,
    /// Leaders add their pull (seek, arrive, orbit) or push (flee); then birds within a
    /// predator's range turn away from it.
    FollowLeader,
    /// Birds steer round obstacles ahead (systems added by a physics plugin such as
    /// `murmur_physics`; empty without one).
    AvoidObstacles,
    /// Birds inside a margin turn back (`turn` edges).
    TurnAtEdges,
    /// Velocity (with the model's speed limits), position, then wrap / bounce / stop at the
    /// world's edges; hunting predators move; every bird's new state is written back to its
    /// entity.
    Integrate,
}

/// Runs every [`Flock`] in a schedule (`FixedUpdate` by default: one tick per fixed step), and
/// sets the fixed step to the presets' tick ([`TICK`](crate::TICK), 60 Hz) unless told otherwise.
#[derive(Clone, Debug)]
pub struct FlockPlugin {
    schedule: Interned<dyn ScheduleLabel>,
    timestep: Timestep,
}

impl FlockPlugin {
    /// Runs the flock systems in `schedule`.
    pub fn new(schedule: impl ScheduleLabel) -> Self {
        Self {
            schedule: schedule.intern(),
            timestep: Timestep::default(),
        }
    }

    /// How the plugin treats the app's fixed timestep (see [`Timestep`]).
    pub fn with_timestep(mut self, timestep: Timestep) -> Self {
        self.timestep = timestep;
        self
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
            .insert_resource(TickCheck {
                schedule: self.schedule,
                timestep: self.timestep,
                checked: false,
            })
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
                    tick::check_timestep.before(CollectNeighbours),
                ),
            );
    }

    fn finish(&self, app: &mut App) {
        tick::set_up_timestep(app, self.schedule, self.timestep);
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

/// Everything a game needs for flocks, with builders for the schedule and the timestep:
/// [`FlockPlugin`], [`TransformSyncPlugin`], [`PlayerPlugin`] and, with the `draw` feature (on
/// by default), [`FlockDrawPlugin`](crate::draw::FlockDrawPlugin) and, with `pointer`,
/// [`ClickLeaderPlugin`](crate::pointer::ClickLeaderPlugin). Trim it as any plugin group:
///
/// ```
/// # use bevy::prelude::*;
/// use murmur_flock::prelude::*;
///
/// App::new().add_plugins(
///     FlockPlugins::default()
///         .in_schedule(FixedUpdate)
///         .build()
///         .disable::<TransformSyncPlugin>(),
/// );
/// ```
#[derive(Clone, Debug)]
pub struct FlockPlugins {
    schedule: Interned<dyn ScheduleLabel>,
    timestep: Timestep,
}

impl Default for FlockPlugins {
    fn default() -> Self {
        Self {
            schedule: FixedUpdate.intern(),
            timestep: Timestep::default(),
        }
    }
}

impl FlockPlugins {
    /// Runs the flock's tick in `schedule` (`FixedUpdate` by default). In a schedule that runs
    /// once a frame (`Update`), the flock ticks once a frame and its speed follows the frame
    /// rate.
    pub fn in_schedule(mut self, schedule: impl ScheduleLabel) -> Self {
        self.schedule = schedule.intern();
        self
    }

    /// How the plugins treat the app's fixed timestep (see [`Timestep`]).
    pub fn with_timestep(mut self, timestep: Timestep) -> Self {
        self.timestep = timestep;
        self
    }
}

impl PluginGroup for FlockPlugins {
    fn build(self) -> PluginGroupBuilder {
        let group = PluginGroupBuilder::start::<Self>()
            .add(FlockPlugin {
                schedule: self.schedule,
                timestep: self.timestep,
            })
            .add(TransformSyncPlugin)
            .add(PlayerPlugin::new(self.schedule));
        #[cfg(feature = "draw")]
        let group = group.add(crate::draw::FlockDrawPlugin);
        #[cfg(feature = "pointer")]
        let group = group.add(crate::pointer::ClickLeaderPlugin);
        group
    }
}
