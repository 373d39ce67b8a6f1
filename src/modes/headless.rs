//! `murmur headless`: the flock plugins in an app without window or GPU, printing JSON lines
//! (or, with `--gpu`, the flock in compute shaders: `gpu.rs`).

mod gpu;

use super::ModeError;
use crate::cli::SceneArgs;
use crate::cli::flags;
use crate::scene::SceneConfig;
use crate::ticker;
use bevy::prelude::*;
use bevy::reflect::TypePath;
use clap::Args;
use murmur_flock::murmur_core::Vector;
use murmur_flock::murmur_core::murmuration::MurmurationFigures;
use murmur_flock::prelude::*;
use serde::Serialize;
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// `murmur headless`.
#[derive(Args, Debug, Clone)]
pub struct HeadlessArgs {
    /// The flock.
    #[command(flatten)]
    pub scene: SceneArgs,
    /// Ticks to simulate.
    #[arg(long, default_value_t = 1000)]
    pub steps: u64,
    /// Print figures every this many ticks.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..))]
    pub every: u64,
    /// Also write the figures to this file: CSV when it ends in .csv, JSON lines otherwise.
    #[arg(long)]
    pub metrics: Option<PathBuf>,
    /// Worker threads for the simulation (default: all cores). Results do not depend on it.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,
    /// Run the flock on the GPU in compute shaders (reynolds and cornell, flat), reading it back
    /// only to report. Without a GPU that runs compute shaders, says so and runs on the CPU.
    #[arg(long)]
    pub gpu: bool,
}

/// Ticks run between two moves of the progress bar.
const PROGRESS_PIECE: u64 = 30;

/// One line of output.
#[derive(Serialize)]
struct Sample {
    step: u64,
    #[serde(flatten)]
    metrics: FlockMetrics,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    leader: Option<LeaderFigures>,
    /// The field-study figures, for the starling model.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    murmuration: Option<MurmurationFigures>,
    /// Mean wall time of the ticks since the previous line, in milliseconds.
    step_ms: f64,
}

/// How the flock sits round the leader (with `--leader`).
#[derive(Serialize, Clone, Copy)]
struct LeaderFigures {
    /// Mean distance from the leader.
    leader_distance: f64,
    /// Mean of (r x v) / (|r| |v|) about the leader: +1 all circling counter-clockwise.
    leader_spin: f64,
}

/// The closing line.
#[derive(Serialize)]
struct Summary {
    #[serde(rename = "final")]
    is_final: bool,
    steps: u64,
    seed: u64,
    preset: String,
    #[serde(flatten)]
    metrics: FlockMetrics,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    murmuration: Option<MurmurationFigures>,
    step_ms: f64,
    steps_per_s: f64,
    state_hash: String,
    /// `cpu`, or `gpu` with `--gpu` on a GPU that runs it.
    path: &'static str,
    /// The GPU's adapter, on the GPU path.
    #[serde(skip_serializing_if = "Option::is_none")]
    gpu: Option<String>,
    /// For the starling model: each report at which the number of groups changed (the flock
    /// split, or its parts joined), with the new count.
    #[serde(skip_serializing_if = "Option::is_none")]
    group_changes: Option<Vec<GroupChange>>,
}

/// The flock split or joined: from this report on it is in `groups` groups.
#[derive(Serialize, Clone, Copy)]
struct GroupChange {
    step: u64,
    groups: usize,
}

/// Keeps the reports at which the number of groups changed.
#[derive(Default)]
struct GroupWatch {
    last: Option<usize>,
    changes: Vec<GroupChange>,
}

impl GroupWatch {
    fn see(&mut self, sample: &Sample) {
        let Some(groups) = sample.murmuration.map(|m| m.groups) else {
            return;
        };
        if self.last.is_some_and(|last| last != groups) {
            self.changes.push(GroupChange {
                step: sample.step,
                groups,
            });
        }
        self.last = Some(groups);
    }
}

/// Where figures go besides standard output.
enum MetricsFile {
    Csv(std::fs::File),
    JsonLines(std::fs::File),
}

impl MetricsFile {
    /// Creates `path`: CSV when it ends in `.csv` (with a header, the shape's columns for a 3D
    /// flock, and the leader's columns when there is a leader), else JSON lines.
    fn create(
        path: &std::path::Path,
        with_leader: bool,
        deep: bool,
        starlings: bool,
    ) -> Result<Self, ModeError> {
        let mut f = std::fs::File::create(path).map_err(|e| {
            ModeError::Usage(format!("cannot write metrics file {}: {e}", path.display()))
        })?;
        if !path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("csv"))
        {
            return Ok(Self::JsonLines(f));
        }
        let leader = if with_leader {
            ",leader_distance,leader_spin"
        } else {
            ""
        };
        let shape = if deep { ",thickness,width,length" } else { "" };
        let shape = if starlings {
            format!(
                "{shape},interaction_neighbours,border_density_ratio,correlation_length,flock_size"
            )
        } else {
            shape.to_string()
        };
        writeln!(f, "step,boids,polarization,angular_momentum,mean_nn_distance,min_nn_distance,mean_speed,mean_neighbours,step_ms{shape}{leader}")
            .map_err(write_error)?;
        Ok(Self::Csv(f))
    }

    /// Adds one report (`line` is its JSON).
    fn write(&mut self, sample: &Sample, line: &str) -> Result<(), ModeError> {
        match self {
            Self::JsonLines(f) => writeln!(f, "{line}").map_err(write_error),
            Self::Csv(f) => {
                let m = &sample.metrics;
                let opt = |v: Option<f64>| v.map(|v| v.to_string()).unwrap_or_default();
                let leader = sample.leader.map_or(String::new(), |l| {
                    format!(",{},{}", l.leader_distance, l.leader_spin)
                });
                let shape = m
                    .shape
                    .map_or(String::new(), |[t, w, l]| format!(",{t},{w},{l}"));
                let shape = match &sample.murmuration {
                    Some(f) => format!(
                        "{shape},{},{},{},{},{}",
                        f.interaction_neighbours,
                        opt(f.border_density_ratio),
                        opt(f.correlation_length),
                        f.flock_size,
                        f.groups
                    ),
                    None => shape,
                };
                writeln!(
                    f,
                    "{},{},{},{},{},{},{},{},{}{shape}{leader}",
                    sample.step,
                    m.boids,
                    m.polarization,
                    m.angular_momentum,
                    opt(m.mean_nn_distance),
                    opt(m.min_nn_distance),
                    m.mean_speed,
                    m.mean_neighbours,
                    sample.step_ms
                )
                .map_err(write_error)
            }
        }
    }
}

/// The headless app for `murmur headless`'s scene (the web page's `?ticks=N` builds the same:
/// [`crate::ticker`]); ready to tick.
fn scene_app<V: Vector + Reflect + TypePath>(
    preset: &Preset,
    boids: usize,
    args: &HeadlessArgs,
    (leader, hunter): (Option<Vec3>, Option<Vec3>),
) -> (App, Entity) {
    let scene = SceneConfig {
        preset: preset.clone(),
        boids,
        seed: args.scene.seed(),
        leader,
        hunter,
    };
    let (app, flock) = ticker::scene_app::<V>(&scene);
    info!(
        "headless: {boids} birds, {} model, seed {}, {} steps",
        preset.model.name(),
        args.scene.seed(),
        args.steps
    );
    (app, flock)
}

/// Runs `ticks` ticks in pieces (so that the progress bar moves between reports); returns how
/// long they took, or where the flock stopped.
fn run_ticks(
    app: &mut App,
    flock: Entity,
    ticks: u64,
    progress: &mut crate::progress::Progress,
) -> Result<Duration, u64> {
    let started = Instant::now();
    let mut done = 0;
    while done < ticks {
        let piece = (ticks - done).min(PROGRESS_PIECE);
        let ran = advance_ticks(app, flock, piece);
        done += ran;
        progress.advance(ran);
        if ran != piece {
            return Err(done);
        }
    }
    Ok(started.elapsed())
}

/// Runs `murmur headless`: the flock plugins without a window, one JSON line per report.
pub fn run(args: HeadlessArgs) -> Result<(), ModeError> {
    let (preset, boids) = flags::resolve(&args.scene, flags::WorldFit::Literal)?;
    let points = flags::points(&args.scene, &preset)?;
    let deep = preset.world.depth > 0.0;
    if let Some(threads) = args.threads {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads as usize)
            .build_global()
            .map_err(|e| ModeError::Failed(format!("cannot start {threads} threads: {e}")))?;
    }
    let file = match &args.metrics {
        Some(path) => Some(MetricsFile::create(
            path,
            points.0.is_some(),
            deep,
            preset.model == ModelKind::Starlings,
        )?),
        None => None,
    };
    if args.gpu {
        match gpu::open(&preset, &args) {
            Ok(context) => return gpu::run(&args, &preset, boids, context, file),
            Err(why) => eprintln!("murmur: --gpu: {why}; running on the CPU"),
        }
    }
    if deep {
        run_in::<Vec3>(&args, &preset, boids, points, file)
    } else {
        run_in::<Vec2>(&args, &preset, boids, points, file)
    }
}

/// [`run`] on the CPU, for a flock of space `V`.
fn run_in<V: Vector + Reflect + TypePath>(
    args: &HeadlessArgs,
    preset: &Preset,
    boids: usize,
    points: (Option<Vec3>, Option<Vec3>),
    mut file: Option<MetricsFile>,
) -> Result<(), ModeError> {
    let (mut app, flock) = scene_app::<V>(preset, boids, args, points);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut emit = |sample: &Sample, out: &mut dyn Write| -> Result<(), ModeError> {
        let line = serde_json::to_string(sample).expect("figures serialise");
        writeln!(out, "{line}").map_err(write_error)?;
        file.as_mut().map_or(Ok(()), |f| f.write(sample, &line))
    };

    let world = preset.flock_params().bounds_in::<V>();
    let starlings = preset.model == ModelKind::Starlings;
    let leader_at = points.0.map(V::from_vec3);
    let report = |app: &mut App, step: u64, step_ms: f64| {
        let leader = leader_at.map(|centre| {
            let (pos, vel) = murmur_flock::measure::flock_state::<V>(app.world_mut(), flock);
            let (leader_distance, leader_spin) =
                murmur_flock::murmur_core::metrics::orbit_about(&world, centre, &pos, &vel);
            LeaderFigures {
                leader_distance,
                leader_spin,
            }
        });
        Sample {
            step,
            metrics: flock_metrics(app.world_mut(), flock).expect("the flock exists"),
            leader,
            murmuration: murmuration_of(app.world_mut(), flock, starlings),
            step_ms,
        }
    };
    let mut watch = GroupWatch::default();
    let first = report(&mut app, 0, 0.0);
    watch.see(&first);
    emit(&first, &mut out)?;
    let (mut step, mut busy) = (0u64, Duration::ZERO);
    let mut progress = crate::progress::Progress::new("steps", args.steps);
    while step < args.steps {
        let ticks = args.every.min(args.steps - step);
        let elapsed = run_ticks(&mut app, flock, ticks, &mut progress).map_err(|done| {
            ModeError::Failed(format!("the flock stopped ticking at step {}", step + done))
        })?;
        busy += elapsed;
        step += ticks;
        let step_ms = elapsed.as_secs_f64() * 1e3 / ticks as f64;
        let sample = report(&mut app, step, step_ms);
        watch.see(&sample);
        emit(&sample, &mut out)?;
    }
    progress.finish();
    let seconds = busy.as_secs_f64();
    let summary = Summary {
        is_final: true,
        steps: step,
        seed: args.scene.seed(),
        preset: args.scene.preset_name().to_string(),
        metrics: flock_metrics(app.world_mut(), flock).expect("the flock exists"),
        murmuration: murmuration_of(app.world_mut(), flock, starlings),
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
        state_hash: format!("{:016x}", flock_state_hash(app.world_mut(), flock)),
        path: "cpu",
        gpu: None,
        group_changes: starlings.then_some(watch.changes),
    };
    writeln!(
        out,
        "{}",
        serde_json::to_string(&summary).expect("figures serialise")
    )
    .map_err(write_error)
}

/// The field-study figures of the flock when `wanted` (the starling model's runs).
fn murmuration_of(world: &mut World, flock: Entity, wanted: bool) -> Option<MurmurationFigures> {
    wanted
        .then(|| murmur_flock::measure::flock_murmuration(world, flock))
        .flatten()
}

fn write_error(e: std::io::Error) -> ModeError {
    ModeError::Failed(format!("cannot write output: {e}"))
}
