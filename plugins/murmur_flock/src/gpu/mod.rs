//! The flock on the GPU in a Bevy app ([`GpuFlockPlugin`]): a [`Flock`] entity with [`OnGpu`] is
//! simulated by `murmur_gpu`'s compute shaders in the render world, one tick per fixed-timestep
//! tick, and drawn by one instanced draw straight from the GPU's buffer, without a copy back.
//!
//! The main world keeps what a game changes: the flock's [`Flock`] parameters (applied live),
//! its leaders ([`Leader`] entities), and its player ([`FlockPlayer`], uploaded each tick as the
//! flock's last bird). [`GpuFlockStatus`] says whether the GPU path runs, and why not.
//!
//! ```no_run
//! use bevy::prelude::*;
//! use murmur_flock::prelude::*;
//!
//! fn main() {
//!     App::new()
//!         .add_plugins((DefaultPlugins, FlockPlugins::default(), GpuFlockPlugin::default()))
//!         .add_systems(Startup, |mut commands: Commands, status: Res<GpuFlockStatus>| {
//!             commands.spawn(Camera2d);
//!             let params = Preset::load("reynolds").unwrap().flock_params();
//!             if status.is_running() {
//!                 // A million birds on the GPU: a flock without birds of its own, put on it.
//!                 let flock = commands.spawn_flock(params, 0, 7);
//!                 commands.entity(flock).insert(OnGpu { boids: 1_000_000 });
//!             } else {
//!                 // No compute shaders here (WebGL2, say): fewer birds on the CPU.
//!                 commands.spawn_flock(params, 20_000, 7);
//!             }
//!         })
//!         .run();
//! }
//! ```

mod render;

use crate::components::{Flock, Leader, Position, Velocity};
use crate::draw::{BirdDrawing, FlockLook};
use crate::player::FlockPlayer;
use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use bevy_math::Vec2;
use murmur_core::sim::LeaderState;

/// Put on a [`Flock`] entity (with no birds of its own) to fly `boids` birds on the GPU with its
/// parameters and seed. The flock's [`FlockPlayer`], if any, becomes one more bird, the last.
/// One flock flies on the GPU at a time (the first found); changing `boids`, the seed or the
/// player's presence starts it anew.
#[derive(Component, bevy_reflect::Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Component)]
pub struct OnGpu {
    /// Birds simulated on the GPU.
    pub boids: usize,
}

/// Whether the GPU path runs, decided when the renderer starts.
#[derive(Resource, Clone, Debug, PartialEq, Eq)]
pub enum GpuFlockStatus {
    /// The renderer has not started yet.
    Starting,
    /// Flocks with [`OnGpu`] run on this adapter.
    Running(String),
    /// They cannot run: the reason (no renderer, or an adapter without compute shaders, as
    /// WebGL2 has none).
    Unavailable(String),
}

impl GpuFlockStatus {
    /// True when [`OnGpu`] flocks run.
    pub fn is_running(&self) -> bool {
        matches!(self, Self::Running(_))
    }
}

/// Simulates and draws [`OnGpu`] flocks on the GPU. Needs Bevy's renderer (`DefaultPlugins`);
/// add it beside [`FlockPlugin`](crate::FlockPlugin), which leaves a flock without birds
/// alone. Draws on the 2D cameras that see `layer` (Bevy's default layer 0 unless set).
#[derive(Clone, Debug, Default)]
pub struct GpuFlockPlugin {
    /// The render layer the birds are drawn on.
    pub layer: usize,
}

/// Most ticks run in one frame (the main world's clock normally bounds them first: murmur's app
/// catches up at most four); a frame further behind drops the rest, as the CPU path's
/// virtual clock does.
pub const MAX_TICKS_PER_FRAME: u64 = 1024;

/// What the render world takes from the main world each frame.
#[derive(Resource, Clone, Debug, Default)]
pub(crate) struct GpuFlockFrame {
    /// The flock: its entity, birds (the player's included) and seed; a change starts anew.
    flock: Option<(Entity, usize, u64)>,
    params: Option<murmur_core::params::FlockParams>,
    leaders: Vec<LeaderState>,
    /// The player's bird: its state this tick.
    player: Option<(Vec2, Vec2)>,
    /// Fixed ticks taken since the app started.
    ticks: u64,
    look: render::LookInputs,
}

/// Fixed ticks since the app started (each runs one tick of every GPU flock).
#[derive(Resource, Clone, Copy, Debug, Default)]
struct FixedTicks(u64);

impl Plugin for GpuFlockPlugin {
    fn build(&self, app: &mut App) {
        app.register_type::<OnGpu>()
            .insert_resource(GpuFlockStatus::Starting)
            .init_resource::<FixedTicks>()
            .init_resource::<GpuFlockFrame>()
            .add_systems(FixedUpdate, |mut t: ResMut<FixedTicks>| t.0 += 1)
            .add_systems(
                PostUpdate,
                gather_frame.after(crate::tick::TickFractionSystems),
            );
        render::build(app, self.layer);
    }

    fn finish(&self, app: &mut App) {
        render::finish(app);
    }
}

/// Collects this frame's flock, leaders, player and ticks for the render world.
fn gather_frame(
    mut frame: ResMut<GpuFlockFrame>,
    ticks: Res<FixedTicks>,
    status: Res<GpuFlockStatus>,
    drawing: Option<Res<BirdDrawing>>,
    frame_count: Option<Res<bevy_diagnostic::FrameCount>>,
    tick: Option<Res<crate::tick::TickFraction>>,
    flocks: Query<(Entity, &Flock, &OnGpu, Option<&FlockLook>)>,
    leaders: Query<(&Leader, &Position)>,
    players: Query<(&FlockPlayer, &Position, Option<&Velocity>)>,
) {
    frame.ticks = ticks.0;
    let Some((entity, flock, on_gpu, look)) = flocks.iter().next().filter(|_| status.is_running())
    else {
        frame.flock = None;
        frame.params = None;
        return;
    };
    let player = players
        .iter()
        .find(|(p, ..)| p.flock == entity)
        .map(|(p, pos, vel)| (p, pos.0, vel.map_or(Vec2::ZERO, |v| v.0)));
    let boids = on_gpu.boids + usize::from(player.is_some());
    frame.flock = Some((entity, boids, flock.seed));
    if frame.params.as_ref() != Some(&flock.params) {
        frame.params = Some(flock.params.clone());
    }
    // As the CPU path: every leader for every flock, or only for its own (a leading player is
    // one, its `Leader` put on by the player plugin).
    frame.leaders.clear();
    frame.leaders.extend(
        leaders
            .iter()
            .filter(|(leader, _)| leader.only.is_none_or(|only| only == entity))
            .map(|(leader, pos)| LeaderState {
                pos: pos.0,
                params: leader.params,
            }),
    );
    frame.player = player.map(|(_, pos, vel)| (pos, vel));
    frame.look = render::LookInputs::new(
        &flock.params,
        look.copied().unwrap_or_default(),
        drawing.as_deref().copied().unwrap_or_default(),
        frame_count.map_or(0, |f| f.0),
        tick.map_or(1.0, |t| t.0),
    );
}
