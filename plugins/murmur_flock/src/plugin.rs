//! The plugins and the system sets that order a flock's tick.

use crate::components::{
    BodyDriven, Boid, Flock, FlockMember, Hunter, Leader, NeighbourCount, Piloted, Position,
    Predator, Velocity, give_columns, place_in_space,
};
use crate::messages::{HunterCaught, LeaderReached};
use crate::player::PlayerPlugin;
use crate::systems;
use crate::systems::collect::{
    BirdChanges, note_flags_added, note_flags_removed, note_joined, note_left,
};
use crate::tick::{self, TickCheck, Timestep};
use bevy_app::{App, FixedUpdate, Plugin, PluginGroup, PluginGroupBuilder, PostUpdate};
use bevy_ecs::intern::Interned;
use bevy_ecs::schedule::{IntoScheduleConfigs, ScheduleLabel, SystemSet};
use bevy_math::{Vec2, Vec3};
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
    /// Birds steer round obstacles ahead: a 3D flock round every `FlockSolid` (its birds never
    /// enter one); a flat flock round physics colliders (systems added by a physics plugin
    /// such as `murmur_physics`).
    AvoidObstacles,
    /// Birds inside a margin turn back (`turn` edges).
    TurnAtEdges,
    /// Velocity (with the model's speed limits), position, then wrap / bounce / stop at the
    /// world's edges, in the flock's own columns.
    Integrate,
    /// Hunting predators move towards their prey and catch it ([`HunterCaught`]); a flock
    /// that reaches its leader says so ([`LeaderReached`]).
    Hunt,
    /// Every bird's new state (position, velocity, neighbour count) is written back to its
    /// entity: after this phase the components hold the tick's result.
    WriteBack,
}

/// Runs every [`Flock`] in a schedule (`FixedUpdate` by default: one tick per fixed step), and
/// sets the fixed step to the presets' tick ([`TICK`](crate::TICK), 60 Hz) unless told otherwise.
/// Flat and 3D flocks alike: each phase has one system per space.
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
            .register_type::<Position<Vec3>>()
            .register_type::<Velocity<Vec3>>()
            .register_type::<NeighbourCount>()
            .register_type::<FlockMember>()
            .register_type::<Piloted>()
            .register_type::<Flock>()
            .register_type::<Leader>()
            .register_type::<BodyDriven>()
            .register_type::<Predator>()
            .register_type::<Hunter>()
            .add_message::<HunterCaught>()
            .add_message::<LeaderReached>()
            .init_resource::<BirdChanges<Vec2>>()
            .init_resource::<BirdChanges<Vec3>>()
            .add_observer(give_columns)
            .add_observer(place_in_space::<Leader>)
            .add_observer(place_in_space::<Predator>)
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
                    Hunt,
                    WriteBack,
                )
                    .chain(),
            )
            .add_systems(
                self.schedule,
                tick::check_timestep.before(CollectNeighbours),
            )
            .init_resource::<tick::TickFraction>()
            .add_systems(
                PostUpdate,
                tick::measure_fraction.in_set(tick::TickFractionSystems),
            );
        phases::<Vec2>(app, self.schedule);
        phases::<Vec3>(app, self.schedule);
        // Solids are a 3D flock's obstacles (a flat flock's are a physics plugin's systems).
        app.add_systems(
            self.schedule,
            systems::leader::avoid_solids::<Vec3>.in_set(AvoidObstacles),
        );
        // The two spaces' hunts both write the flock's messages, their write-backs both stamp
        // the birds' neighbour counts: flat first.
        for phase in [FlockSystems::Hunt, FlockSystems::WriteBack] {
            app.configure_sets(
                self.schedule,
                SpaceSystems::<Vec3>::of(phase).after(SpaceSystems::<Vec2>::of(phase)),
            );
        }
    }

    fn finish(&self, app: &mut App) {
        tick::set_up_timestep(app, self.schedule, self.timestep);
    }
}

/// The tick's systems for the flocks of space `V`, each in its phase.
fn phases<V>(app: &mut App, schedule: Interned<dyn ScheduleLabel>)
where
    V: murmur_core::Vector + bevy_reflect::Reflect + bevy_reflect::TypePath,
{
    use crate::messages;
    use FlockSystems::*;
    use systems::{collect, edges, integrate, leader, predator, steer};
    app.add_systems(
        schedule,
        (
            collect::collect_neighbours::<V>.in_set(CollectNeighbours),
            steer::steer::<V>.in_set(Steer),
            leader::follow_leaders::<V>.in_set(FollowLeader),
            edges::turn_at_edges::<V>.in_set(TurnAtEdges),
            integrate::integrate::<V>.in_set(Integrate),
            (predator::hunt::<V>, messages::flocks_reach_leaders::<V>)
                .chain()
                .in_set(Hunt)
                .in_set(SpaceSystems::<V>::of(Hunt)),
            integrate::write_back::<V>
                .in_set(WriteBack)
                .in_set(SpaceSystems::<V>::of(WriteBack)),
        ),
    );
}

/// The systems of one space within a phase that the two spaces must not run at once (both
/// stamp the birds' neighbour counts, both write the flock's messages): the flat one's first.
#[derive(SystemSet)]
struct SpaceSystems<V> {
    phase: FlockSystems,
    space: std::marker::PhantomData<fn() -> V>,
}

impl<V> SpaceSystems<V> {
    fn of(phase: FlockSystems) -> Self {
        Self {
            phase,
            space: std::marker::PhantomData,
        }
    }
}

impl<V> Clone for SpaceSystems<V> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<V> Copy for SpaceSystems<V> {}

impl<V> PartialEq for SpaceSystems<V> {
    fn eq(&self, other: &Self) -> bool {
        self.phase == other.phase
    }
}

impl<V> Eq for SpaceSystems<V> {}

impl<V> std::hash::Hash for SpaceSystems<V> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.phase.hash(state);
    }
}

impl<V> std::fmt::Debug for SpaceSystems<V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "SpaceSystems<{}>({:?})",
            std::any::type_name::<V>(),
            self.phase
        )
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
            (
                systems::transform::sync_transforms,
                systems::transform::sync_transforms_3d,
            )
                .before(TransformSystems::Propagate),
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
///     FlockPlugins::new(FixedUpdate)
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
        Self::new(FixedUpdate)
    }
}

impl FlockPlugins {
    /// Runs the flock's tick in `schedule` (`FixedUpdate` for [`Default`]), as
    /// [`FlockPlugin::new`], [`PlayerPlugin::new`] and `FlockPhysicsPlugin::new` take theirs. In
    /// a schedule that runs once a frame (`Update`), the flock ticks once a frame and its speed
    /// follows the frame rate.
    pub fn new(schedule: impl ScheduleLabel) -> Self {
        Self {
            schedule: schedule.intern(),
            timestep: Timestep::default(),
        }
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
