//! The flock on the GPU in a Bevy app ([`GpuFlockPlugin`]): a [`Flock`] entity with [`OnGpu`] is
//! simulated by `murmur_gpu`'s compute shaders in the render world, one tick per fixed-timestep
//! tick, and drawn by one instanced draw straight from the GPU's buffer, without a copy back.
//! A flock whose world has a depth flies in 3D (round the scene's [`FlockSolid`]s) and, with the
//! `draw3d` feature, is drawn on the 3D cameras as the CPU's 3D flocks are: a compute pass turns
//! the state into the 3D birds' instances (heading, bank, colour by neighbours), which the 3D
//! birds' shader draws, lit.
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
#[cfg(feature = "draw3d")]
mod render3d;

use crate::components::{Flock, FlockSolid, Leader, Position, Velocity};
use crate::draw::{BirdDrawing, FlockLook};
use crate::player::FlockPlayer;
use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use bevy_math::{Vec2, Vec3};
use murmur_core::sim::LeaderState;
use murmur_core::solids::Solid;
use murmur_core::space::Vector;

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
/// alone. Draws a flat flock on the 2D cameras, a 3D one on the 3D cameras, that see `layer`
/// (Bevy's default layer 0 unless set).
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
    /// The leaders, in 3D (z = 0 for a flat flock).
    leaders: Vec<LeaderState<Vec3>>,
    /// The player's bird: its state this tick (z = 0 for a flat flock).
    player: Option<(Vec3, Vec3)>,
    /// The solids a 3D flock flies round.
    solids: Vec<Solid>,
    /// Fixed ticks taken since the app started.
    ticks: u64,
    look: render::LookInputs,
    #[cfg(feature = "draw3d")]
    look3d: render3d::Look3d,
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
    leaders3d: Query<(&Leader, &Position<Vec3>)>,
    players: Query<(&FlockPlayer, &Position, Option<&Velocity>)>,
    players3d: Query<(&FlockPlayer, &Position<Vec3>, Option<&Velocity<Vec3>>)>,
    solids: Query<&FlockSolid>,
) {
    frame.ticks = ticks.0;
    let Some((entity, flock, on_gpu, look)) = flocks.iter().next().filter(|_| status.is_running())
    else {
        frame.flock = None;
        frame.params = None;
        return;
    };
    let deep = flock.params.is_3d();
    let player = if deep {
        players3d
            .iter()
            .find(|(p, ..)| p.flock == entity)
            .map(|(_, pos, vel)| (pos.0, vel.map_or(Vec3::ZERO, |v| v.0)))
    } else {
        players
            .iter()
            .find(|(p, ..)| p.flock == entity)
            .map(|(_, pos, vel)| (pos.0.to_vec3(), vel.map_or(Vec2::ZERO, |v| v.0).to_vec3()))
    };
    let boids = on_gpu.boids + usize::from(player.is_some());
    frame.flock = Some((entity, boids, flock.seed));
    if frame.params.as_ref() != Some(&flock.params) {
        frame.params = Some(flock.params.clone());
    }
    // As the CPU path: every leader for every flock, or only for its own (a leading player is
    // one, its `Leader` put on by the player plugin).
    frame.leaders.clear();
    let ours = |leader: &Leader| leader.only.is_none_or(|only| only == entity);
    if deep {
        frame
            .leaders
            .extend(
                leaders3d
                    .iter()
                    .filter(|(leader, _)| ours(leader))
                    .map(|(leader, pos)| LeaderState {
                        pos: pos.0,
                        params: leader.params,
                    }),
            );
    } else {
        frame
            .leaders
            .extend(
                leaders
                    .iter()
                    .filter(|(leader, _)| ours(leader))
                    .map(|(leader, pos)| LeaderState {
                        pos: pos.0.to_vec3(),
                        params: leader.params,
                    }),
            );
    }
    frame.player = player;
    frame.solids.clear();
    if deep {
        frame.solids.extend(solids.iter().map(|s| s.0));
    }
    #[cfg(feature = "draw3d")]
    {
        frame.look3d = render3d::Look3d::new(
            &flock.params,
            look.copied().unwrap_or_default(),
            drawing.as_deref().copied().unwrap_or_default(),
            tick.as_ref().map_or(1.0, |t| t.0),
        );
    }
    frame.look = render::LookInputs::new(
        &flock.params,
        look.copied().unwrap_or_default(),
        drawing.as_deref().copied().unwrap_or_default(),
        frame_count.map_or(0, |f| f.0),
        tick.map_or(1.0, |t| t.0),
    );
}
