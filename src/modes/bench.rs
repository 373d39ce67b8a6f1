//! `murmur bench`: simulation speed at a fixed density for 1 thread and all threads, neighbour
//! collection against kiddo (k-d tree), rstar (R-tree) and brute force, the Bevy app's overhead
//! over the bare core, and the ABM frameworks comparison's "Flocking" model.

use super::{ModeError, headless};
use bevy::prelude::*;
use bevy::reflect::TypePath;
use clap::Args;
use murmur_flock::murmur_core::Vector;
use murmur_flock::murmur_core::fast::FastFlock as AnyFastFlock;
use murmur_flock::murmur_core::grid::{NeighbourSums, SumsRequest};
use murmur_flock::murmur_core::params::FlockParams;
use murmur_flock::murmur_core::prelude::{FastFlock, FlockSim, NeighbourGrid};
use murmur_flock::murmur_core::preset::Preset;
use murmur_flock::murmur_core::sim::initial_boids;
use murmur_flock::prelude::advance_ticks;
use serde_json::json;
use std::time::{Duration, Instant};

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

/// Largest flock the brute-force pass is run on.
const BRUTE_MAX: usize = 20_000;

struct Bench {
    args: BenchArgs,
    lines: Vec<serde_json::Value>,
    progress: super::progress::Progress,
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

/// Where a tick of the flock plugins goes, in milliseconds a tick, phase by phase.
#[derive(Clone, Copy, Debug, Default)]
struct PluginPhases {
    /// Milliseconds spent so far in each stretch between two [`phase_clock`]s (index 0 unused).
    spent: [f64; PHASES + 1],
    /// When the last clock ran.
    last: Option<Instant>,
    /// Milliseconds a tick of the app's frame outside the flock's systems (Bevy's own
    /// schedules, time and the executor; worked out from the whole frame's time).
    rest: f64,
}

/// Stretches of a tick the phase clocks tell apart: `CollectNeighbours`, `Steer`, `FollowLeader`
/// to `TurnAtEdges`, `Integrate`'s move, and the rest of `Integrate` (the hunters and the
/// write-back to the entities).
const PHASES: usize = 5;

impl PluginPhases {
    fn to_json(self) -> serde_json::Value {
        json!({
            "collect_neighbours": self.spent[1],
            "steer": self.spent[2],
            "follow_leader_to_turn_at_edges": self.spent[3],
            "integrate": self.spent[4],
            "write_back": self.spent[5],
            "rest_of_frame": self.rest,
        })
    }
}

/// The phase clocks' readings.
#[derive(Resource, Default)]
struct PhaseClocks(PluginPhases);

/// Ends stretch `END` of the tick (`0`: the tick starts).
fn phase_clock<const END: usize>(mut clocks: ResMut<PhaseClocks>) {
    let now = Instant::now();
    let clocks = &mut clocks.0;
    if let (1..=PHASES, Some(last)) = (END, clocks.last) {
        clocks.spent[END] += (now - last).as_secs_f64() * 1e3;
    }
    clocks.last = Some(now);
}

/// `ticks` ticks of the plugins from the given start (after `warm` untimed ones), with a clock
/// between each two phases: milliseconds a tick in each.
fn plugin_phases<V: Vector + Reflect + TypePath>(
    params: &FlockParams,
    pos: &[V],
    vel: &[V],
    warm: u64,
    ticks: u64,
) -> PluginPhases {
    use murmur_flock::plugin::FlockSystems::*;
    use murmur_flock::systems::{integrate::integrate, predator::hunt};
    let (mut app, flock) = headless::flock_app_from(params.clone(), pos, vel, 1);
    app.init_resource::<PhaseClocks>().add_systems(
        FixedUpdate,
        (
            phase_clock::<0>.before(CollectNeighbours),
            phase_clock::<1>.after(CollectNeighbours).before(Steer),
            phase_clock::<2>.after(Steer).before(FollowLeader),
            phase_clock::<3>.after(TurnAtEdges).before(Integrate),
            phase_clock::<4>
                .in_set(Integrate)
                .after(integrate::<V>)
                .before(hunt::<V>),
            phase_clock::<5>.after(Integrate),
        ),
    );
    headless::ready(&mut app);
    advance_ticks(&mut app, flock, warm);
    app.world_mut().resource_mut::<PhaseClocks>().0 = PluginPhases::default();
    let started = Instant::now();
    let ran = advance_ticks(&mut app, flock, ticks).max(1);
    let whole = started.elapsed().as_secs_f64() * 1e3 / ran as f64;
    let mut phases = app.world().resource::<PhaseClocks>().0;
    for ms in &mut phases.spent {
        *ms /= ran as f64;
    }
    phases.rest = (whole - phases.spent.iter().sum::<f64>()).max(0.0);
    phases
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
        (wants(BenchPart::Sim), sizes.len() * thread_counts),
        (wants(BenchPart::Ecs), 1),
        (wants(BenchPart::Neighbours), neighbour_sizes),
        (wants(BenchPart::Abm), 2),
        (wants(BenchPart::Gpu), sizes.len()),
        (wants(BenchPart::Depth), 2),
    ]
    .iter()
    .filter(|(on, _)| *on)
    .map(|(_, n)| *n as u64)
    .sum();
    let mut bench = Bench {
        args,
        lines: Vec::new(),
        progress: super::progress::Progress::new("measurements", planned),
    };
    if bench.wants(BenchPart::Sim) {
        for &n in &sizes {
            let params = params_for(&preset, n, bench.args.neighbours);
            let mut threads = vec![1, all];
            threads.dedup();
            for t in threads {
                let window = bench.window();
                let time = bench.measure_time();
                let line = pool(t).install(|| {
                    let mut start = FastFlock::new(params.clone(), n, 1);
                    // Two steps sort the flock into cell order and warm the buffers.
                    start.step();
                    start.step();
                    let (steps_per_s, end) = window_rate(&start, window, time);
                    let radius = params.model.interaction_radius();
                    let before = mean_neighbours(start.grid(), radius);
                    let after = mean_neighbours(end.grid(), radius);
                    let pairs = 0.5
                        * (start.grid().candidate_pairs() + end.grid().candidate_pairs()) as f64;
                    json!({
                        "kind": "sim", "boids": n, "threads": t, "steps_per_s": steps_per_s,
                        "boid_steps_per_s": steps_per_s * n as f64,
                        "boid_steps_per_s_per_core": steps_per_s * n as f64 / t as f64,
                        "pair_tests_per_s_per_core": steps_per_s * pairs / t as f64,
                        "mean_neighbours": 0.5 * (before + after),
                        "neighbours_first": before, "neighbours_last": after,
                        "steps": window, "bytes_per_boid": end.bytes_per_boid(),
                        "preset": bench.args.preset,
                    })
                });
                bench.emit(line);
                bench.progress.advance(1);
            }
        }
    }
    if bench.wants(BenchPart::Ecs) {
        let n = sizes
            .iter()
            .copied()
            .filter(|&n| n <= 100_000)
            .max()
            .unwrap_or(sizes[0]);
        let params = params_for(&preset, n, bench.args.neighbours);
        let (window, time) = (bench.window(), bench.measure_time());
        // One start for all three, and the same window of ticks after it (two more ticks, not
        // timed, warm each up first): the same states, so the same work.
        let mut start = FastFlock::new(params.clone(), n, 1);
        start.step();
        start.step();
        let (pos, vel) = start.birds().state_by_id();
        let warm = 2;
        let mut fast_start = || {
            let mut flock = start.clone();
            for _ in 0..warm {
                flock.step();
            }
            move || flock.step()
        };
        let mut core_start = || {
            let mut sim = FlockSim::from_state(params.clone(), pos.clone(), vel.clone(), 1);
            for _ in 0..warm {
                sim.step();
            }
            move || sim.step()
        };
        let mut ecs_start = || {
            let (mut app, flock) = headless::flock_app_from(params.clone(), &pos, &vel, 1);
            headless::ready(&mut app);
            advance_ticks(&mut app, flock, warm as u64);
            move || {
                advance_ticks(&mut app, flock, 1);
            }
        };
        // Taken in turns, window by window, so that a machine that speeds up or slows down
        // while the bench runs weighs on the three alike.
        let (mut fastest, mut core, mut ecs) =
            (Timed::default(), Timed::default(), Timed::default());
        while fastest.time < time || core.time < time || ecs.time < time {
            fastest.window(window, &mut fast_start);
            core.window(window, &mut core_start);
            ecs.window(window, &mut ecs_start);
        }
        let (fastest, core, ecs) = (fastest.rate(), core.rate(), ecs.rate());
        // Then one more window of the plugins, clocked phase by phase (apart from the windows
        // above, so that the clocks weigh on none of them).
        let phases = plugin_phases(&params, &pos, &vel, warm as u64, window as u64);
        bench.emit(json!({
            "kind": "ecs", "boids": n, "threads": all, "steps": window,
            "ecs_steps_per_s": ecs, "core_steps_per_s": core, "fast_core_steps_per_s": fastest,
            "ecs_share_of_fast_core": ecs / fastest, "ecs_share_of_core": ecs / core,
            "ecs_phase_ms": phases.to_json(),
        }));
        bench.progress.advance(1);
    }
    if bench.wants(BenchPart::Neighbours) {
        let quick = bench.args.quick;
        for &n in sizes.iter().filter(|&&n| !(quick && n > 100_000)) {
            neighbour_methods(&mut bench, &preset, n);
            bench.progress.advance(1);
        }
    }
    if bench.wants(BenchPart::Abm) {
        for (size, boids, side, vision) in [("small", 200, 100.0, 5.0), ("large", 400, 150.0, 15.0)]
        {
            let mut p = Preset::load("abm").expect("built in");
            p.set("vision", &vision.to_string())
                .expect("a valid vision");
            p.world.width = side;
            p.world.height = side;
            let runs = if bench.args.quick {
                bench.args.abm_runs.min(20)
            } else {
                bench.args.abm_runs
            }
            .max(1);
            let params = p.flock_params();
            let mut times: Vec<f64> = pool(1).install(|| {
                (0..runs as u64)
                    .map(|seed| {
                        let started = Instant::now();
                        let mut flock = FastFlock::new(params.clone(), boids, seed + 1);
                        for _ in 0..100 {
                            flock.step();
                        }
                        std::hint::black_box(flock.state_hash());
                        started.elapsed().as_secs_f64() * 1e3
                    })
                    .collect()
            });
            times.sort_by(f64::total_cmp);
            bench.emit(json!({"kind": "abm", "size": size, "boids": boids, "runs": runs, "median_ms": times[times.len() / 2], "threads": 1}));
            bench.progress.advance(1);
        }
    }
    if bench.wants(BenchPart::Gpu) {
        gpu_speed(&mut bench, &preset, &sizes);
    }
    if bench.wants(BenchPart::Depth) {
        depth_speed(&mut bench, &preset, &sizes);
    }
    bench.progress.finish();
    if !bench.args.json {
        print_tables(&bench.lines);
    }
    Ok(())
}

/// The GPU path's ticks per second at each size, beside FastFlock's on all threads, from the same
/// start after two warm-up ticks; each window of ticks from a fresh upload of that start, so
/// both run the same densities. Without a GPU that runs compute shaders, says why and gives the
/// CPU's figures alone.
fn gpu_speed(bench: &mut Bench, preset: &Preset, sizes: &[usize]) {
    use murmur_gpu::{GpuContext, GpuFlock};
    let gpu = murmur_gpu::uniform::check(&preset.flock_params())
        .and_then(|()| GpuContext::new())
        .map_err(|e| e.to_string());
    if let Err(why) = &gpu {
        eprintln!("murmur: --gpu: {why}; the CPU's figures only");
    }
    let all = rayon::current_num_threads();
    for &n in sizes {
        let params = params_for(preset, n, bench.args.neighbours);
        let (window, time) = (bench.window(), bench.measure_time());
        let mut start = FastFlock::new(params.clone(), n, 1);
        start.step();
        start.step();
        let (cpu_steps_per_s, _) = window_rate(&start, window, time);
        let (pos, vel) = start.birds().state_by_id();
        let on_gpu = gpu.as_ref().ok().map(|gpu| {
            let mut timed = Timed::default();
            while timed.time < time {
                let mut flock = GpuFlock::new(gpu, params.clone(), &pos, &vel)
                    .expect("checked: the model runs on the GPU");
                flock.step_many(2);
                flock.finish();
                let started = Instant::now();
                flock.step_many(window as u32);
                flock.finish();
                timed.time += started.elapsed();
                timed.steps += window;
            }
            (timed.rate(), gpu.describe())
        });
        let line = match on_gpu {
            Some((gpu_steps_per_s, adapter)) => json!({
                "kind": "gpu", "boids": n, "gpu": adapter, "steps": window,
                "gpu_steps_per_s": gpu_steps_per_s, "gpu_ms_per_tick": 1e3 / gpu_steps_per_s,
                "cpu_steps_per_s": cpu_steps_per_s, "cpu_threads": all,
                "gpu_over_cpu": gpu_steps_per_s / cpu_steps_per_s, "preset": bench.args.preset,
            }),
            None => json!({
                "kind": "gpu", "boids": n, "gpu": null, "steps": window,
                "cpu_steps_per_s": cpu_steps_per_s, "cpu_threads": all,
                "preset": bench.args.preset,
            }),
        };
        bench.emit(line);
        bench.progress.advance(1);
    }
}

/// One start of FastFlock in space `V` for `params` (two ticks in: sorted, buffers warm), and
/// its state by id.
fn fast_start<V: Vector>(params: &FlockParams, n: usize) -> (AnyFastFlock<V>, Vec<V>, Vec<V>) {
    let mut start = AnyFastFlock::<V>::new(params.clone(), n, 1);
    start.step();
    start.step();
    let (pos, vel) = start.birds().state_by_id();
    (start, pos, vel)
}

/// The plugins' app from a state, ready for timed windows (two ticks in).
fn ecs_start<V: Vector + Reflect + TypePath>(
    params: &FlockParams,
    pos: &[V],
    vel: &[V],
) -> impl FnMut() -> Box<dyn FnMut()> {
    let (params, pos, vel) = (params.clone(), pos.to_vec(), vel.to_vec());
    move || {
        let (mut app, flock) = headless::flock_app_from(params.clone(), &pos, &vel, 1);
        headless::ready(&mut app);
        advance_ticks(&mut app, flock, 2);
        Box::new(move || {
            advance_ticks(&mut app, flock, 1);
        })
    }
}

/// 3D beside 2D: FastFlock and the plugins in each space, the same model, at the largest size
/// up to 100,000 (windows taken in turns, on all threads); then FastFlock at a million birds in
/// each space.
fn depth_speed(bench: &mut Bench, preset: &Preset, sizes: &[usize]) {
    let all = rayon::current_num_threads();
    let n = sizes
        .iter()
        .copied()
        .filter(|&n| n <= 100_000)
        .max()
        .unwrap_or(100_000);
    let (window, time) = (bench.window(), bench.measure_time());
    let (flat, deep) = (
        params_for(preset, n, bench.args.neighbours),
        params_for_3d(preset, n, bench.args.neighbours),
    );
    let (flat_fast, flat_pos, flat_vel) = fast_start::<Vec2>(&flat, n);
    let (deep_fast, deep_pos, deep_vel) = fast_start::<Vec3>(&deep, n);
    let fast = |start: &AnyFastFlock<Vec2>| {
        let start = start.clone();
        move || {
            let mut flock = start.clone();
            Box::new(move || flock.step()) as Box<dyn FnMut()>
        }
    };
    let fast3 = |start: &AnyFastFlock<Vec3>| {
        let start = start.clone();
        move || {
            let mut flock = start.clone();
            Box::new(move || flock.step()) as Box<dyn FnMut()>
        }
    };
    let mut starts: [Box<dyn FnMut() -> Box<dyn FnMut()>>; 4] = [
        Box::new(fast(&flat_fast)),
        Box::new(fast3(&deep_fast)),
        Box::new(ecs_start(&flat, &flat_pos, &flat_vel)),
        Box::new(ecs_start(&deep, &deep_pos, &deep_vel)),
    ];
    let mut timed: [Timed; 4] = Default::default();
    while timed.iter().any(|t| t.time < time) {
        for (t, start) in timed.iter_mut().zip(starts.iter_mut()) {
            t.window(window, start);
        }
    }
    let [fast2, fast3, ecs2, ecs3] = timed.map(|t| t.rate());
    let radius = flat.model.interaction_radius();
    let phases = plugin_phases(&deep, &deep_pos, &deep_vel, 2, window as u64);
    bench.emit(json!({
        "kind": "3d", "boids": n, "threads": all, "steps": window,
        "preset": bench.args.preset,
        "mean_neighbours_2d": mean_neighbours(flat_fast.grid(), radius),
        "mean_neighbours_3d": mean_neighbours_3d(deep_fast.grid(), radius),
        "fast_2d_steps_per_s": fast2, "fast_3d_steps_per_s": fast3,
        "fast_3d_over_2d": fast3 / fast2,
        "ecs_2d_steps_per_s": ecs2, "ecs_3d_steps_per_s": ecs3,
        "ecs_3d_over_fast_3d": ecs3 / fast3, "ecs_2d_over_fast_2d": ecs2 / fast2,
        "world_3d": deep.world_size3().to_array(),
        "ecs_3d_phase_ms": phases.to_json(),
    }));
    bench.progress.advance(1);
    // A million birds in each space: fewer, shorter windows.
    let big = 1_000_000;
    let (flat, deep) = (
        params_for(preset, big, bench.args.neighbours),
        params_for_3d(preset, big, bench.args.neighbours),
    );
    let steps = (window / 10).max(3);
    let (flat_start, ..) = fast_start::<Vec2>(&flat, big);
    let (deep_start, ..) = fast_start::<Vec3>(&deep, big);
    let (flat_rate, _) = window_rate(&flat_start, steps, time);
    let (deep_rate, _) = window_rate(&deep_start, steps, time);
    bench.emit(json!({
        "kind": "3d", "boids": big, "threads": all, "steps": steps,
        "preset": bench.args.preset,
        "mean_neighbours_3d": mean_neighbours_3d(deep_start.grid(), radius),
        "fast_2d_steps_per_s": flat_rate, "fast_3d_steps_per_s": deep_rate,
        "fast_3d_over_2d": deep_rate / flat_rate,
        "fast_3d_boid_steps_per_s_per_core": deep_rate * big as f64 / all as f64,
    }));
    bench.progress.advance(1);
}

/// [`mean_neighbours`] of a 3D grid.
fn mean_neighbours_3d(
    grid: &murmur_flock::murmur_core::grid::NeighbourGrid<Vec3>,
    radius: f32,
) -> f64 {
    use rayon::prelude::*;
    let total: u64 = (0..grid.len())
        .into_par_iter()
        .map(|k| grid.for_each_neighbour(k, radius, usize::MAX, |_, _, _| ()) as u64)
        .sum();
    total as f64 / grid.len().max(1) as f64
}

/// Mean number of other boids within `radius`, over the grid's boids.
fn mean_neighbours(grid: &NeighbourGrid, radius: f32) -> f64 {
    use rayon::prelude::*;
    let total: u64 = (0..grid.len())
        .into_par_iter()
        .map(|k| grid.for_each_neighbour(k, radius, usize::MAX, |_, _, _| ()) as u64)
        .sum();
    total as f64 / grid.len().max(1) as f64
}

/// Every bird's neighbours within the radius, by each method, single-threaded, in a bounded
/// world (the trees know no torus). All methods must find the same pairs.
fn neighbour_methods(bench: &mut Bench, preset: &Preset, n: usize) {
    let mut params = params_for(preset, n, bench.args.neighbours);
    params.edges.mode = murmur_flock::murmur_core::edges::EdgeMode::Bounce;
    let r = params.model.interaction_radius();
    let (pos, vel) = initial_boids(&params, n, 1);
    #[cfg(feature = "baselines")]
    let points: Vec<[f32; 2]> = pos.iter().map(|p| [p.x, p.y]).collect();
    let bounds = params.bounds();
    let time = |f: &mut dyn FnMut() -> u64| -> (f64, u64) {
        let started = Instant::now();
        let found = f();
        (started.elapsed().as_secs_f64() * 1e3, found)
    };
    let one = pool(1);
    let mut results = Vec::new();
    one.install(|| {
        let mut grid = NeighbourGrid::new();
        // As the flock collects them: sort, then one pass per cell over its block of cells,
        // eight candidates at a time, summing what the steering needs.
        let request = SumsRequest {
            sight: r,
            near: 0.0,
            near_offsets: false,
            inverse: false,
        };
        let mut sums = Vec::new();
        results.push((
            "grid",
            time(&mut || {
                grid.rebuild(&bounds, r, &pos, &vel);
                sums.clear();
                sums.resize(n, NeighbourSums::default());
                for cell in 0..grid.layout().cell_count() {
                    let ks = grid.cell_range(cell);
                    let block = grid.block(cell);
                    grid.cell_sums(&block, ks.clone(), request, -1.0, &mut sums[ks]);
                }
                sums.iter().map(|s| s.seen as u64).sum()
            }),
        ));
        // The same grid visiting each neighbour with a callback (what a caller who wants the
        // neighbours themselves gets).
        results.push((
            "grid_visit",
            time(&mut || {
                grid.rebuild(&bounds, r, &pos, &vel);
                (0..n)
                    .map(|k| grid.for_each_neighbour(k, r, usize::MAX, |_, _, _| ()) as u64)
                    .sum()
            }),
        ));
        #[cfg(feature = "baselines")]
        results.push((
            "kiddo",
            time(&mut || {
                let tree: kiddo::ImmutableKdTree<f32, 2> =
                    kiddo::ImmutableKdTree::new_from_slice(&points);
                points
                    .iter()
                    .map(|p| {
                        tree.within_unsorted::<kiddo::SquaredEuclidean>(p, r * r)
                            .into_iter()
                            .filter(|nb| nb.distance < r * r)
                            .count() as u64
                            - 1
                    })
                    .sum()
            }),
        ));
        #[cfg(feature = "baselines")]
        results.push((
            "rstar",
            time(&mut || {
                let tree = rstar::RTree::bulk_load(points.clone());
                points
                    .iter()
                    .map(|p| {
                        tree.locate_within_distance(*p, r * r)
                            .filter(|q| {
                                let (dx, dy) = (q[0] - p[0], q[1] - p[1]);
                                dx * dx + dy * dy < r * r
                            })
                            .count() as u64
                            - 1
                    })
                    .sum()
            }),
        ));
        if n <= BRUTE_MAX {
            results.push((
                "brute",
                time(&mut || {
                    let r2 = r * r;
                    (0..n)
                        .map(|i| {
                            let p = pos[i];
                            pos.iter()
                                .filter(|q| (**q - p).length_squared() < r2)
                                .count() as u64
                                - 1
                        })
                        .sum()
                }),
            ));
        }
    });
    let pairs = results[0].1.1;
    for (method, (ms, found)) in results {
        bench.emit(json!({"kind": "neighbours", "method": method, "boids": n, "ms": ms, "pairs_found": found, "same_pairs_as_grid": found == pairs}));
    }
}

fn print_tables(lines: &[serde_json::Value]) {
    fn of<'a>(
        lines: &'a [serde_json::Value],
        kind: &'a str,
    ) -> impl Iterator<Item = &'a serde_json::Value> {
        lines.iter().filter(move |l| l["kind"] == kind)
    }
    let f = |v: &serde_json::Value| v.as_f64().unwrap_or(f64::NAN);
    let mut sims = of(lines, "sim").peekable();
    if sims.peek().is_some() {
        let first = sims.peek().cloned().unwrap_or_default();
        println!(
            "simulation (FastFlock, {} preset, torus; the {} steps after a random start, whose \
             density is set by --neighbours; neighbours: mean within the radius at the first and \
             last of them)",
            first["preset"].as_str().unwrap_or(""),
            first["steps"]
        );
        println!(
            "{:>10} {:>7} {:>12} {:>16} {:>18} {:>18} {:>13} {:>10}",
            "boids",
            "threads",
            "steps/s",
            "boid-steps/s",
            "boid-steps/s/core",
            "pair tests/s/core",
            "neighbours",
            "bytes/boid"
        );
        for l in sims {
            println!(
                "{:>10} {:>7} {:>12.1} {:>16.3e} {:>18.3e} {:>18.3e} {:>13} {:>10.1}",
                l["boids"],
                l["threads"],
                f(&l["steps_per_s"]),
                f(&l["boid_steps_per_s"]),
                f(&l["boid_steps_per_s_per_core"]),
                f(&l["pair_tests_per_s_per_core"]),
                format!(
                    "{:.1} -> {:.1}",
                    f(&l["neighbours_first"]),
                    f(&l["neighbours_last"])
                ),
                f(&l["bytes_per_boid"])
            );
        }
    }
    for l in of(lines, "ecs") {
        println!(
            "\nBevy plugins (FlockPlugins, headless) at {} birds: {:.1} steps/s = {:.2}x FastFlock ({:.1} steps/s), {:.2}x the bare core FlockSim ({:.1} steps/s); the same {} steps from one start, the same bits",
            l["boids"],
            f(&l["ecs_steps_per_s"]),
            f(&l["ecs_share_of_fast_core"]),
            f(&l["fast_core_steps_per_s"]),
            f(&l["ecs_share_of_core"]),
            f(&l["core_steps_per_s"]),
            l["steps"]
        );
        let p = &l["ecs_phase_ms"];
        println!(
            "  a tick of the plugins, phase by phase (ms, one more window): CollectNeighbours \
             {:.2}, Steer {:.2} (the move worked out with it, when nothing changes the \
             accelerations after it), FollowLeader to TurnAtEdges {:.2}, Integrate {:.2} (the \
             move, or taking the one worked out) + {:.2} (hunters and the write-back to the \
             entities), the rest of the frame {:.2}; FastFlock's whole tick {:.2}",
            f(&p["collect_neighbours"]),
            f(&p["steer"]),
            f(&p["follow_leader_to_turn_at_edges"]),
            f(&p["integrate"]),
            f(&p["write_back"]),
            f(&p["rest_of_frame"]),
            1e3 / f(&l["fast_core_steps_per_s"]),
        );
    }
    let neighbours: Vec<_> = of(lines, "neighbours").collect();
    if !neighbours.is_empty() {
        println!(
            "\nneighbour collection, one thread, every bird's neighbours (ms; ratio to the grid)"
        );
        let mut sizes: Vec<u64> = neighbours
            .iter()
            .filter_map(|l| l["boids"].as_u64())
            .collect();
        sizes.dedup();
        for n in sizes {
            let row: Vec<_> = neighbours.iter().filter(|l| l["boids"] == n).collect();
            let grid = row
                .iter()
                .find(|l| l["method"] == "grid")
                .map_or(f64::NAN, |l| f(&l["ms"]));
            let cells: Vec<String> = row
                .iter()
                .map(|l| {
                    format!(
                        "{} {:.1} ms ({:.1}x){}",
                        l["method"].as_str().unwrap_or(""),
                        f(&l["ms"]),
                        f(&l["ms"]) / grid,
                        if l["same_pairs_as_grid"] == true {
                            ""
                        } else {
                            " DIFFERENT PAIRS"
                        }
                    )
                })
                .collect();
            println!("{n:>10}: {}", cells.join(", "));
        }
        if !cfg!(feature = "baselines") {
            println!(
                "(the k-d tree and R-tree baselines are left out of this build: \
                 `cargo run --features baselines -- bench`)"
            );
        }
    }
    let gpu: Vec<_> = of(lines, "gpu").collect();
    if let Some(first) = gpu.first() {
        println!(
            "\nthe GPU path ({}, {} preset, torus, {} ticks a window) beside FastFlock on {} threads",
            first["gpu"].as_str().unwrap_or("no GPU"),
            first["preset"].as_str().unwrap_or(""),
            first["steps"],
            first["cpu_threads"]
        );
        println!(
            "{:>10} {:>14} {:>14} {:>14} {:>10}",
            "boids", "GPU ms/tick", "GPU steps/s", "CPU steps/s", "GPU/CPU"
        );
        for l in gpu {
            println!(
                "{:>10} {:>14.3} {:>14.1} {:>14.1} {:>10.2}",
                l["boids"],
                f(&l["gpu_ms_per_tick"]),
                f(&l["gpu_steps_per_s"]),
                f(&l["cpu_steps_per_s"]),
                f(&l["gpu_over_cpu"])
            );
        }
    }
    for l in of(lines, "3d") {
        if l.get("ecs_3d_steps_per_s").is_some() {
            println!(
                "\n3D beside 2D ({} preset, torus, {} birds, {} threads; mean neighbours 2D {:.1}, 3D {:.1}): FastFlock {:.1} steps/s in 2D, {:.1} in 3D = {:.2}x; the plugins {:.1} steps/s in 2D ({:.2}x FastFlock), {:.1} in 3D ({:.2}x FastFlock 3D)",
                l["preset"].as_str().unwrap_or(""),
                l["boids"],
                l["threads"],
                f(&l["mean_neighbours_2d"]),
                f(&l["mean_neighbours_3d"]),
                f(&l["fast_2d_steps_per_s"]),
                f(&l["fast_3d_steps_per_s"]),
                f(&l["fast_3d_over_2d"]),
                f(&l["ecs_2d_steps_per_s"]),
                f(&l["ecs_2d_over_fast_2d"]),
                f(&l["ecs_3d_steps_per_s"]),
                f(&l["ecs_3d_over_fast_3d"]),
            );
        } else {
            println!(
                "{} birds: FastFlock {:.2} steps/s in 2D, {:.2} in 3D = {:.2}x ({:.3e} 3D boid-steps/s a core; mean neighbours 3D {:.1})",
                l["boids"],
                f(&l["fast_2d_steps_per_s"]),
                f(&l["fast_3d_steps_per_s"]),
                f(&l["fast_3d_over_2d"]),
                f(&l["fast_3d_boid_steps_per_s_per_core"]),
                f(&l["mean_neighbours_3d"]),
            );
        }
    }
    for l in of(lines, "abm") {
        println!(
            "ABM Flocking {} ({} birds, 100 steps): median {:.3} ms over {} runs",
            l["size"].as_str().unwrap_or(""),
            l["boids"],
            f(&l["median_ms"]),
            l["runs"]
        );
    }
}
