//! The scene in the app: spawning the flock the [`SceneConfig`] describes, and resetting it.

use super::path::FlockPaths;
pub use crate::scene::SceneConfig;
use bevy::prelude::*;
use murmur_flock::prelude::*;

/// The flock entity currently flying.
#[derive(Resource, Clone, Copy, Debug)]
pub struct ActiveFlock(pub Entity);

/// Ask for a fresh flock from the scene's preset and size: with the next seed, or this one.
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct ResetScene {
    /// The seed to use; `None`: the current one plus one.
    pub seed: Option<u64>,
}

/// The active flock's world, for the systems that need its shape (the camera, the arrows, the
/// gold bird's trail and body): `None` before the flock is spawned.
#[derive(bevy::ecs::system::SystemParam)]
pub struct ActiveWorld<'w, 's> {
    active: Option<Res<'w, ActiveFlock>>,
    flocks: Query<'w, 's, &'static Flock>,
}

impl ActiveWorld<'_, '_> {
    /// The active flock's bounds (wrapped or not).
    pub fn bounds(&self) -> Option<murmur_flock::murmur_core::world::WorldBounds> {
        let active = self.active.as_ref()?;
        self.flocks.get(active.0).ok().map(|f| f.params.bounds())
    }
}

/// Spawning happens in this set at startup; systems needing the flock run after it.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SpawnScene;

/// Adds this module's resources and systems.
pub fn plugin(app: &mut App) {
    app.add_message::<ResetScene>()
        // What the spawn notes; the path plugin (the GPU's side) may not be there.
        .init_resource::<super::path::FlockPath>()
        .add_systems(Startup, spawn_flock.in_set(SpawnScene))
        .add_systems(Update, reset);
}

fn spawn_flock(mut commands: Commands, config: Res<SceneConfig>, mut paths: FlockPaths) {
    let flock = paths.spawn(&mut commands, &config);
    commands.insert_resource(ActiveFlock(flock));
}

/// Replaces the flock with one placed by the next seed; the player joins the new flock.
fn reset(
    mut requests: MessageReader<ResetScene>,
    mut commands: Commands,
    mut config: ResMut<SceneConfig>,
    mut active: ResMut<ActiveFlock>,
    // Every bird of the flock but a player (a game's entity, kept and moved to the new flock).
    birds: Query<(Entity, &FlockMember), Without<FlockPlayer>>,
    player: Query<(Entity, &FlockPlayer, Option<&Leader>), With<FlockMember>>,
    mut paths: FlockPaths,
) {
    let Some(request) = requests.read().last().copied() else {
        return;
    };
    for (bird, member) in &birds {
        if member.0 == active.0 {
            commands.entity(bird).despawn();
        }
    }
    commands.entity(active.0).despawn();
    config.seed = request.seed.unwrap_or(config.seed.wrapping_add(1));
    let flock = paths.spawn(&mut commands, &config);
    active.0 = flock;
    // The player joins the new flock (unless it is a predator now, out of every flock).
    // Its leading as it is now (the panel and `F` change it on the leader).
    for (entity, player, leader) in &player {
        let lead = leader.map(|l| l.params).or(player.lead);
        commands.entity(entity).insert(FlockPlayer { flock, lead });
    }
    info!("reset: seed {}", config.seed);
}
