//! `murmur bench`: what it measures, a file each — `sim` (FastFlock in 2D and 3D at each size,
//! one thread and all), `ecs` (the plugins against the bare core), `neighbours` (the grid against
//! brute force and trees), `abm` (the ABM comparison's model at its sizes and at krABMaga's),
//! `gpu`, `depth` (3D beside 2D) — and `tables` (what it prints without `--json`). Here: the
//! arguments, the density and timing helpers they share, and the run.

use super::ModeError;
use bevy::prelude::*;
use bevy::reflect::TypePath;
use clap::Args;
use murmur_flock::murmur_core::Vector;
use murmur_flock::murmur_core::fast::FastFlock as AnyFastFlock;
use murmur_flock::murmur_core::grid::{
    NeighbourGrid as AnyNeighbourGrid, NeighbourSums, SumsRequest,
};
use murmur_flock::murmur_core::params::FlockParams;
use murmur_flock::murmur_core::prelude::{FastFlock, FlockSim, NeighbourGrid};
use murmur_flock::murmur_core::preset::Preset;
use murmur_flock::murmur_core::sim::initial_boids;
use murmur_flock::prelude::advance_ticks;
use serde_json::json;
use std::time::{Duration, Instant};

mod abm;
mod depth;
mod ecs;
mod gpu;
mod neighbours;
mod sim;
mod tables;

/// `murmur bench`.
#[derive(Args, Debug, Clone)]
pub struct BenchArgs {
    /// Flock sizes to simulate (default 10000,100000,1000000).
    #[arg(long, value_delimiter = ',')]
    pub sizes: Option<Vec<usize>>,
    /// Shorter measurements and no 1M-bird neighbour comparison.
    #[arg(long)]
    pub quick: bool,
    /// One JSON object per line instead of tables.
    #[arg(long)]
    pub json: bool,
    /// Model preset for the simulation figures (cornell or reynolds).
    #[arg(long, default_value = "cornell")]
    pub preset: String,
    /// Density, as the mean number of neighbours within the interaction radius.
    #[arg(long, default_value_t = 20.0)]
    pub neighbours: f64,
    /// Only some parts (comma-separated; default all).
    #[arg(long, value_delimiter = ',', value_enum)]
    pub only: Option<Vec<BenchPart>>,
    /// Seeded runs per ABM size (the comparison uses 100).
    #[arg(long, default_value_t = 100)]
    pub abm_runs: usize,
    /// The flock on the GPU (compute shaders) at each size, beside the CPU's FastFlock on all
    /// threads in the same run; alone, unless `--only` names other parts too.
    #[arg(long)]
    pub gpu: bool,
}

/// A part of `murmur bench`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum BenchPart {
    /// Simulation speed at each size, one thread and all.
    Sim,
    /// The Bevy plugins against the bare core and FastFlock.
    Ecs,
    /// Neighbour collection: the grid against brute force (and trees with `baselines`).
    Neighbours,
    /// The ABM frameworks comparison's flocking benchmark.
    Abm,
    /// The GPU path against the CPU's at each size (what `--gpu` asks for).
    Gpu,
    /// 3D beside 2D: FastFlock and the plugins in each, one model, each world sized for the
    /// same mean number of neighbours; then a million 3D birds.
    #[value(name = "3d")]
    Depth,
    /// The ABM model at the sizes of krABMaga's published Flockers table (1,000, 16,000 and
    /// 128,000 birds, 200 steps, one thread), its world grown with the flock so the density
    /// stays that of the comparison's small case: what `scripts/bench-report.sh` sets beside
    /// the peers.
    Peers,
}

/// Whether `args` ask for `part`: the parts `--only` lists; else `--gpu` alone, or every part but
/// the GPU's.
fn wants(args: &BenchArgs, part: BenchPart) -> bool {
    match &args.only {
        Some(only) => only.contains(&part),
        None if args.gpu => part == BenchPart::Gpu,
        None => part != BenchPart::Gpu,
    }
}

struct Bench {
    args: BenchArgs,
    lines: Vec<serde_json::Value>,
    progress: crate::progress::Progress,
}

impl Bench {
    fn emit(&mut self, line: serde_json::Value) {
        if self.args.json {
            println!("{line}");
        }
        self.lines.push(line);
    }

    fn wants(&self, part: BenchPart) -> bool {
        wants(&self.args, part)
    }

    /// Steps in each timed window of the simulation figures.
    fn window(&self) -> usize {
        if self.args.quick { 30 } else { 100 }
    }

    fn measure_time(&self) -> Duration {
        if self.args.quick {
            Duration::from_millis(300)
        } else {
            Duration::from_millis(1500)
        }
    }
}

/// Flock parameters for `n` birds at the bench density: a torus sized so that a bird has
/// `neighbours` others within the interaction radius on average.
fn params_for(preset: &Preset, n: usize, neighbours: f64) -> FlockParams {
    let mut params = preset.flock_params();
    let r = params.model.interaction_radius() as f64;
    let side = (n as f64 * std::f64::consts::PI * r * r / neighbours).sqrt() as f32;
    params.world_size = Vec2::splat(side);
    params.world_depth = 0.0;
    params.edges.mode = murmur_flock::murmur_core::edges::EdgeMode::Wrap;
    params
}

/// [`params_for`] in 3D: a cubic 3-torus where a bird has `neighbours` others within the
/// interaction radius (a ball) on average; the same model.
fn params_for_3d(preset: &Preset, n: usize, neighbours: f64) -> FlockParams {
    let mut params = params_for(preset, n, neighbours);
    let r = params.model.interaction_radius() as f64;
    let side = (n as f64 * 4.0 / 3.0 * std::f64::consts::PI * r.powi(3) / neighbours).cbrt() as f32;
    (params.world_size, params.world_depth) = (Vec2::splat(side), side);
    params
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool")
}

/// Steps per second over the `steps` steps that follow `start`, stepped again from a copy of
/// `start` until `time` has passed (copies not timed), and the state at the window's end. A
/// flock draws together as it flies; a fixed window keeps every measurement, whatever its
/// speed or thread count, at the same densities (and the same states: results do not depend
/// on the thread count).
fn window_rate<V: Vector>(
    start: &AnyFastFlock<V>,
    steps: usize,
    time: Duration,
) -> (f64, AnyFastFlock<V>) {
    let mut timed = Duration::ZERO;
    let mut runs = 0;
    loop {
        let mut flock = start.clone();
        let started = Instant::now();
        for _ in 0..steps {
            flock.step();
        }
        timed += started.elapsed();
        runs += 1;
        if timed >= time {
            return ((runs * steps) as f64 / timed.as_secs_f64(), flock);
        }
    }
}

/// Steps timed so far, over windows of steps from a fresh start each.
#[derive(Default)]
struct Timed {
    time: Duration,
    steps: usize,
}

impl Timed {
    /// Times `steps` steps from a fresh start, which `start` sets up (not timed) and which hands
    /// back the step to time.
    fn window<S: FnMut()>(&mut self, steps: usize, start: &mut impl FnMut() -> S) {
        let mut step = start();
        let started = Instant::now();
        for _ in 0..steps {
            step();
        }
        self.time += started.elapsed();
        self.steps += steps;
    }

    /// Steps per second.
    fn rate(&self) -> f64 {
        self.steps as f64 / self.time.as_secs_f64()
    }
}

/// Mean number of other boids within `radius`, over the grid's boids.
fn mean_neighbours<V: Vector>(grid: &AnyNeighbourGrid<V>, radius: f32) -> f64 {
    use rayon::prelude::*;
    let total: u64 = (0..grid.len())
        .into_par_iter()
        .map(|k| grid.for_each_neighbour(k, radius, usize::MAX, |_, _, _| ()) as u64)
        .sum();
    total as f64 / grid.len().max(1) as f64
}

/// Runs `murmur bench`: prints the tables (or JSON lines with `--json`).
pub fn run(args: BenchArgs) -> Result<(), ModeError> {
    let preset = Preset::load(&args.preset).map_err(|e| ModeError::Usage(e.to_string()))?;
    if !(args.neighbours.is_finite() && args.neighbours > 0.0) {
        return Err(ModeError::Usage(format!(
            "--neighbours must be positive, got {}",
            args.neighbours
        )));
    }
    let sizes = args
        .sizes
        .clone()
        .unwrap_or_else(|| vec![10_000, 100_000, 1_000_000]);
    if sizes.iter().any(|&n| n == 0 || n > 20_000_000) {
        return Err(ModeError::Usage(
            "--sizes takes 1 to 20000000 birds each".into(),
        ));
    }
    let all = rayon::current_num_threads();
    // The measurements ahead, for the progress bar.
    let wants = |part: BenchPart| wants(&args, part);
    let thread_counts = if all > 1 { 2 } else { 1 };
    let neighbour_sizes = sizes
        .iter()
        .filter(|&&n| !(args.quick && n > 100_000))
        .count();
    let planned = [
        (wants(BenchPart::Sim), 2 * sizes.len() * thread_counts),
        (wants(BenchPart::Ecs), 1),
        (wants(BenchPart::Neighbours), neighbour_sizes),
        (wants(BenchPart::Abm), 2),
        (wants(BenchPart::Gpu), sizes.len()),
        (wants(BenchPart::Depth), 2),
        (wants(BenchPart::Peers), abm::PEER_SIZES.len()),
    ]
    .iter()
    .filter(|(on, _)| *on)
    .map(|(_, n)| *n as u64)
    .sum();
    let mut bench = Bench {
        args,
        lines: Vec::new(),
        progress: crate::progress::Progress::new("measurements", planned),
    };
    bench.emit(json!({
        "kind": "machine", "threads": all,
        "lane_form": murmur_flock::murmur_core::grid::lane_form_name(),
    }));
    if bench.wants(BenchPart::Sim) {
        sim::speed(&mut bench, &preset, &sizes);
    }
    if bench.wants(BenchPart::Ecs) {
        ecs::speed(&mut bench, &preset, &sizes);
    }
    if bench.wants(BenchPart::Neighbours) {
        let quick = bench.args.quick;
        for &n in sizes.iter().filter(|&&n| !(quick && n > 100_000)) {
            neighbours::methods(&mut bench, &preset, n);
            bench.progress.advance(1);
        }
    }
    if bench.wants(BenchPart::Abm) {
        abm::comparison(&mut bench);
    }
    if bench.wants(BenchPart::Peers) {
        abm::peers(&mut bench);
    }
    if bench.wants(BenchPart::Gpu) {
        gpu::speed(&mut bench, &preset, &sizes);
    }
    if bench.wants(BenchPart::Depth) {
        depth::speed(&mut bench, &preset, &sizes);
    }
    bench.progress.finish();
    if !bench.args.json {
        tables::print(&bench.lines);
    }
    Ok(())
}
