//! `murmur headless --gpu`: the flock in compute shaders (`murmur_gpu`), flat or 3D (with the
//! preset's solids), read back only to report; the same lines as the CPU path, figures measured
//! on the CPU from what came back.

use super::{HeadlessArgs, LeaderFigures, MetricsFile, Sample, Summary, write_error};
use crate::modes::ModeError;
use murmur_core::preset::Preset;
use murmur_core::sim::{FlockSim, LeaderState, initial_boids};
use murmur_core::space::Vector;
use murmur_core::{Vec2, Vec3};
use murmur_gpu::{GpuContext, GpuFlock};
use std::io::Write;
use std::time::{Duration, Instant};

/// The GPU for this scene, or why the CPU has to run it.
pub(super) fn open(preset: &Preset, args: &HeadlessArgs) -> Result<GpuContext, String> {
    murmur_gpu::uniform::check(&preset.flock_params()).map_err(|e| e.to_string())?;
    let scene = preset.scene();
    if preset.world.depth > 0.0 {
        let most = murmur_gpu::uniform3d::MAX_SOLIDS;
        if scene.obstacles.len() > most {
            return Err(format!(
                "the GPU path flies round at most {most} solids, and this scene has {}",
                scene.obstacles.len()
            ));
        }
    } else if !scene.obstacles.is_empty() || scene.bodies.enabled {
        return Err("the GPU path has no obstacles or physical birds in 2D".into());
    }
    if args.scene.hunter.is_some() {
        return Err("the GPU path has no predators".into());
    }
    GpuContext::new().map_err(|e| e.to_string())
}

/// Runs the scene on the GPU, printing what the CPU path prints.
pub(super) fn run(
    args: &HeadlessArgs,
    preset: &Preset,
    boids: usize,
    gpu: GpuContext,
    file: Option<MetricsFile>,
) -> Result<(), ModeError> {
    if preset.world.depth > 0.0 {
        run_in::<Vec3>(args, preset, boids, gpu, file)
    } else {
        run_in::<Vec2>(args, preset, boids, gpu, file)
    }
}

/// [`run`] for a flock of space `V`.
fn run_in<V: Vector>(
    args: &HeadlessArgs,
    preset: &Preset,
    boids: usize,
    gpu: GpuContext,
    mut file: Option<MetricsFile>,
) -> Result<(), ModeError> {
    let params = preset.flock_params();
    let seed = args.scene.seed();
    let (pos, vel) = initial_boids::<V>(&params, boids, seed);
    let mut flock = GpuFlock::new(&gpu, params.clone(), &pos, &vel)
        .map_err(|e| ModeError::Failed(e.to_string()))?;
    let solids: Vec<_> = preset
        .scene()
        .obstacles
        .iter()
        .filter_map(|o| o.solid())
        .collect();
    flock
        .set_solids(&solids)
        .map_err(|e| ModeError::Failed(e.to_string()))?;
    let leader_at = args.scene.leader.map(|p| V::from_vec3(p.at()));
    if let Some(pos) = leader_at {
        flock.set_leaders(&[LeaderState {
            pos,
            params: preset.leader,
        }]);
    }
    eprintln!("murmur: on the GPU: {}", gpu.describe());
    let world = params.bounds_in::<V>();
    // The figures of what the GPU holds now, measured as the CPU path measures its own.
    let report = |flock: &GpuFlock<V>, step: u64, step_ms: f64| {
        let (pos, vel) = flock.read_state();
        let leader = leader_at.map(|centre| {
            let (leader_distance, leader_spin) =
                murmur_core::metrics::orbit_about(&world, centre, &pos, &vel);
            LeaderFigures {
                leader_distance,
                leader_spin,
            }
        });
        let metrics = FlockSim::<V>::from_state(params.clone(), pos, vel, seed).metrics();
        Sample {
            step,
            metrics,
            leader,
            murmuration: None,
            step_ms,
        }
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut emit = |sample: &Sample| -> Result<(), ModeError> {
        let line = serde_json::to_string(sample).expect("figures serialise");
        writeln!(out, "{line}").map_err(write_error)?;
        file.as_mut().map_or(Ok(()), |f| f.write(sample, &line))
    };
    emit(&report(&flock, 0, 0.0))?;
    let (mut step, mut busy) = (0u64, Duration::ZERO);
    let mut progress = crate::progress::Progress::new("steps", args.steps);
    while step < args.steps {
        let ticks = args.every.min(args.steps - step);
        let started = Instant::now();
        // In pieces, so that the progress bar moves and no submission holds the GPU for long.
        let mut done = 0;
        while done < ticks {
            let piece = (ticks - done).min(super::PROGRESS_PIECE);
            flock.step_many(piece as u32);
            flock.finish();
            done += piece;
            progress.advance(piece);
        }
        let elapsed = started.elapsed();
        busy += elapsed;
        step += ticks;
        emit(&report(
            &flock,
            step,
            elapsed.as_secs_f64() * 1e3 / ticks as f64,
        ))?;
    }
    progress.finish();
    let seconds = busy.as_secs_f64();
    let (pos, vel) = flock.read_state();
    let summary = Summary {
        is_final: true,
        steps: step,
        seed,
        preset: args.scene.preset_name().to_string(),
        state_hash: format!("{:016x}", murmur_core::hash::state_hash(&pos, &vel)),
        metrics: FlockSim::<V>::from_state(params, pos, vel, seed).metrics(),
        murmuration: None,
        step_ms: if step > 0 {
            seconds * 1e3 / step as f64
        } else {
            0.0
        },
        steps_per_s: if seconds > 0.0 {
            step as f64 / seconds
        } else {
            0.0
        },
        path: "gpu",
        gpu: Some(gpu.describe()),
        group_changes: None,
    };
    writeln!(
        std::io::stdout(),
        "{}",
        serde_json::to_string(&summary).expect("figures serialise")
    )
    .map_err(write_error)
}
