//! `ecs`: the Bevy plugins against the bare core and FastFlock, from one start in turns, and
//! the plugins' tick phase by phase.

use super::*;
use crate::ticker;

/// The `ecs` line, at the largest size up to 100,000.
pub(super) fn speed(bench: &mut Bench, preset: &Preset, sizes: &[usize]) {
    let all = rayon::current_num_threads();
    let n = sizes
        .iter()
        .copied()
        .filter(|&n| n <= 100_000)
        .max()
        .unwrap_or(sizes[0]);
    let params = params_for(preset, n, bench.args.neighbours);
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
        let (mut app, flock) = ticker::flock_app_from(params.clone(), &pos, &vel, 1);
        ticker::ready(&mut app);
        advance_ticks(&mut app, flock, warm as u64);
        move || {
            advance_ticks(&mut app, flock, 1);
        }
    };
    // Taken in turns, window by window, so that a machine that speeds up or slows down
    // while the bench runs weighs on the three alike.
    let (mut fastest, mut core, mut ecs) = (Timed::default(), Timed::default(), Timed::default());
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

/// Where a tick of the flock plugins goes, in milliseconds a tick, phase by phase.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct PluginPhases {
    /// Milliseconds spent so far in each stretch between two [`phase_clock`]s (index 0 unused).
    spent: [f64; PHASES + 1],
    /// When the last clock ran.
    last: Option<Instant>,
    /// Milliseconds a tick of the app's frame outside the flock's systems (Bevy's own
    /// schedules, time and the executor; worked out from the whole frame's time).
    rest: f64,
}

/// Stretches of a tick the phase clocks tell apart: `CollectNeighbours`, `Steer`, `FollowLeader`
/// to `TurnAtEdges`, `Integrate` (the move), then `Hunt` and `WriteBack` (the hunters, the
/// flock's messages and the write-back to the entities).
const PHASES: usize = 5;

impl PluginPhases {
    pub(super) fn to_json(self) -> serde_json::Value {
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
pub(super) fn plugin_phases<V: Vector + Reflect + TypePath>(
    params: &FlockParams,
    pos: &[V],
    vel: &[V],
    warm: u64,
    ticks: u64,
) -> PluginPhases {
    use murmur_flock::plugin::FlockSystems::*;
    let (mut app, flock) = ticker::flock_app_from(params.clone(), pos, vel, 1);
    app.init_resource::<PhaseClocks>().add_systems(
        FixedUpdate,
        (
            phase_clock::<0>.before(CollectNeighbours),
            phase_clock::<1>.after(CollectNeighbours).before(Steer),
            phase_clock::<2>.after(Steer).before(FollowLeader),
            phase_clock::<3>.after(TurnAtEdges).before(Integrate),
            phase_clock::<4>.after(Integrate).before(Hunt),
            phase_clock::<5>.after(WriteBack),
        ),
    );
    ticker::ready(&mut app);
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

/// The plugins' app from a state, ready for timed windows (two ticks in).
pub(super) fn ecs_start<V: Vector + Reflect + TypePath>(
    params: &FlockParams,
    pos: &[V],
    vel: &[V],
) -> impl FnMut() -> Box<dyn FnMut()> {
    let (params, pos, vel) = (params.clone(), pos.to_vec(), vel.to_vec());
    move || {
        let (mut app, flock) = ticker::flock_app_from(params.clone(), &pos, &vel, 1);
        ticker::ready(&mut app);
        advance_ticks(&mut app, flock, 2);
        Box::new(move || {
            advance_ticks(&mut app, flock, 1);
        })
    }
}
