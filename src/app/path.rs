//! Which path a flock runs on, the CPU's or the GPU's (`murmur run --gpu`): the user's request,
//! the one place that decides (a model the GPU lacks, or no GPU, keeps the CPU, saying why; a
//! model without a GPU kernel chosen later takes the flock back to the CPU), the library's
//! `GpuFlockPlugin` drawing on the world camera's layer, and the words the panel and the status
//! line show.

use super::scene::SceneConfig;
use bevy::prelude::*;
use murmur_flock::prelude::*;

/// Adds this module's resource and, natively, the GPU flock plugin (it stays idle unless a flock
/// is put on the GPU) and the way back to the CPU.
pub fn plugin(app: &mut App) {
    app.init_resource::<FlockPath>();
    #[cfg(not(target_arch = "wasm32"))]
    app.add_plugins(GpuFlockPlugin {
        layer: super::camera::WORLD_LAYER,
    })
    .add_systems(Update, leave_the_gpu_for_models_it_lacks);
}

/// A model without a GPU kernel chosen in the panel: the flock starts again on the CPU (with
/// the same seed), and the panel says why.
#[cfg(not(target_arch = "wasm32"))]
fn leave_the_gpu_for_models_it_lacks(
    flocks: Query<&Flock, With<OnGpu>>,
    mut reset: MessageWriter<super::scene::ResetScene>,
    config: Res<SceneConfig>,
) {
    if flocks
        .iter()
        .any(|f| murmur_gpu::uniform::check(&f.params).is_err())
    {
        reset.write(super::scene::ResetScene {
            seed: Some(config.seed),
        });
    }
}

/// The user asked for the GPU path.
#[cfg(not(target_arch = "wasm32"))]
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct UseGpu(pub bool);

/// Which path the active flock runs on, in words, for the panel ("on the CPU", "on the GPU:
/// adapter", or the CPU with the reason the GPU was refused).
#[derive(Resource, Clone, Debug)]
pub struct FlockPath {
    /// The words.
    pub note: String,
    /// True when the GPU flies it.
    pub on_gpu: bool,
}

impl Default for FlockPath {
    fn default() -> Self {
        Self {
            note: "on the CPU".into(),
            on_gpu: false,
        }
    }
}

/// What decides the path a new flock runs on (the GPU's only in native builds).
#[derive(bevy::ecs::system::SystemParam)]
pub struct FlockPaths<'w> {
    #[cfg(not(target_arch = "wasm32"))]
    use_gpu: Option<Res<'w, UseGpu>>,
    #[cfg(not(target_arch = "wasm32"))]
    status: Option<Res<'w, GpuFlockStatus>>,
    path: ResMut<'w, FlockPath>,
}

impl FlockPaths<'_> {
    /// Spawns the scene's flock on its path and notes which.
    pub(super) fn spawn(&mut self, commands: &mut Commands, config: &SceneConfig) -> Entity {
        #[cfg(not(target_arch = "wasm32"))]
        {
            let (flock, path) = spawn_on_path(
                commands,
                config,
                self.use_gpu.as_deref(),
                self.status.as_deref(),
            );
            *self.path = path;
            flock
        }
        // The page's WebGL2 has no compute shaders: always the CPU.
        #[cfg(target_arch = "wasm32")]
        {
            *self.path = FlockPath::default();
            commands.spawn_flock(config.preset.flock_params(), config.boids, config.seed)
        }
    }
}

/// Spawns the scene's flock on the path the user asked for: on the GPU when asked for and
/// possible (a flock without birds of its own, flown by the GPU), else on the CPU, saying why.
#[cfg(not(target_arch = "wasm32"))]
fn spawn_on_path(
    commands: &mut Commands,
    config: &SceneConfig,
    use_gpu: Option<&UseGpu>,
    status: Option<&GpuFlockStatus>,
) -> (Entity, FlockPath) {
    let params = config.preset.flock_params();
    let wanted = use_gpu.is_some_and(|u| u.0);
    let refusal = if !wanted {
        None
    } else if let Err(e) = murmur_gpu::uniform::check(&params) {
        Some(e.to_string())
    } else {
        match status {
            Some(GpuFlockStatus::Running(_)) => None,
            Some(GpuFlockStatus::Unavailable(why)) => Some(why.clone()),
            Some(GpuFlockStatus::Starting) | None => Some("the renderer did not start".into()),
        }
    };
    match (wanted, refusal, status) {
        (true, None, Some(GpuFlockStatus::Running(adapter))) => {
            let flock = commands.spawn_flock(params, 0, config.seed);
            commands.entity(flock).insert(OnGpu {
                boids: config.boids,
            });
            let note = format!("on the GPU: {adapter}");
            (flock, FlockPath { note, on_gpu: true })
        }
        (_, refusal, _) => {
            let flock = commands.spawn_flock(params, config.boids, config.seed);
            let note = match refusal {
                Some(why) => {
                    warn!("--gpu: {why}; the flock runs on the CPU");
                    format!("on the CPU ({why})")
                }
                None => "on the CPU".to_string(),
            };
            (
                flock,
                FlockPath {
                    note,
                    on_gpu: false,
                },
            )
        }
    }
}
