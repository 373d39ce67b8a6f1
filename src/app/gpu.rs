//! The flock on the GPU (`murmur run --gpu`): the library's `GpuFlockPlugin` drawing on the world
//! camera's layer, and which path the active flock runs on, for the panel.

use super::camera::WORLD_LAYER;
use super::scene::FlockPath;
use bevy::prelude::*;
use murmur_flock::prelude::*;

/// The user asked for the GPU path.
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct UseGpu(pub bool);

/// Adds the GPU flock plugin (it stays idle unless a flock is put on the GPU).
pub fn plugin(app: &mut App) {
    app.add_plugins(GpuFlockPlugin { layer: WORLD_LAYER })
        .add_systems(Update, leave_the_gpu_for_models_it_lacks);
}

/// A model without a GPU kernel chosen in the panel: the flock starts again on the CPU (with
/// the same seed), and the panel says why.
fn leave_the_gpu_for_models_it_lacks(
    flocks: Query<&Flock, With<OnGpu>>,
    mut reset: MessageWriter<super::scene::ResetScene>,
    config: Res<super::SceneConfig>,
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

/// Spawns the scene's flock on the path the user asked for: on the GPU when asked for and
/// possible (a flock without birds of its own, flown by the GPU), else on the CPU, saying why.
pub fn spawn_flock(
    commands: &mut Commands,
    config: &super::SceneConfig,
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
