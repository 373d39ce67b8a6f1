//! Live figures for the panel: frame rate, simulation step time, birds, mean neighbours, and
//! the last 30 seconds of polarization, nearest-neighbour distance and step time; in 3D also the
//! flock's shape (the lengths of its three principal axes).

use crate::app::scene::ActiveFlock;
use bevy::prelude::*;
use murmur_flock::murmur_core::metrics::FlockMetrics;
use murmur_flock::prelude::*;
use std::collections::VecDeque;
// Bevy's `Instant` also works in the browser, where std's panics.
use bevy::platform::time::Instant;
use std::time::Duration;

/// How far back the plots reach.
pub const HISTORY: Duration = Duration::from_secs(30);
/// How often the flock is measured for the plots.
const SAMPLE_EVERY: Duration = Duration::from_millis(250);

/// Wall time of the last flock tick (every phase, `CollectNeighbours` to `Integrate`).
#[derive(Resource, Default, Debug)]
pub struct StepTime {
    started: Option<Instant>,
    /// Milliseconds, smoothed over recent ticks.
    pub ms: f64,
}

/// The recent history and latest figures.
#[derive(Resource, Default, Debug)]
pub struct Figures {
    /// Seconds since start and value: polarization.
    pub polarization: VecDeque<[f64; 2]>,
    /// Mean nearest-neighbour distance.
    pub nn_distance: VecDeque<[f64; 2]>,
    /// Step time, ms.
    pub step_ms: VecDeque<[f64; 2]>,
    /// A 3D flock's shape: thickness over length (1 a ball, near 0 a sheet or a line).
    pub thinness: VecDeque<[f64; 2]>,
    /// The latest measurement.
    pub latest: Option<FlockMetrics>,
    since_sample: Duration,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<StepTime>()
        .init_resource::<Figures>()
        .add_systems(
            FixedUpdate,
            (
                start_step.before(FlockSystems::CollectNeighbours),
                end_step.after(FlockSystems::WriteBack),
            ),
        )
        .add_systems(Update, sample);
}

fn start_step(mut t: ResMut<StepTime>) {
    t.started = Some(Instant::now());
}

fn end_step(mut t: ResMut<StepTime>) {
    if let Some(start) = t.started.take() {
        let ms = start.elapsed().as_secs_f64() * 1e3;
        t.ms = if t.ms == 0.0 {
            ms
        } else {
            0.9 * t.ms + 0.1 * ms
        };
    }
}

/// Measures the flock a few times a second (while the panel is open) and keeps 30 s.
fn sample(
    time: Res<Time<Real>>,
    state: Res<super::PanelState>,
    step: Res<StepTime>,
    mut figures: ResMut<Figures>,
    flock: Res<ActiveFlock>,
    flocks: Query<&Flock>,
    flat: Query<(&FlockMember, &Position, &murmur_flock::components::Velocity)>,
    deep: Query<(
        &FlockMember,
        &Position<Vec3>,
        &murmur_flock::components::Velocity<Vec3>,
    )>,
) {
    figures.since_sample += time.delta();
    if !state.open || figures.since_sample < SAMPLE_EVERY {
        return;
    }
    figures.since_sample = Duration::ZERO;
    let Ok(params) = flocks.get(flock.0).map(|f| f.params.clone()) else {
        return;
    };
    let m = if params.is_3d() {
        measure(
            &params,
            deep.iter()
                .filter(|(m, _, _)| m.0 == flock.0)
                .map(|(_, p, v)| (p.0, v.0)),
        )
    } else {
        measure(
            &params,
            flat.iter()
                .filter(|(m, _, _)| m.0 == flock.0)
                .map(|(_, p, v)| (p.0, v.0)),
        )
    };
    let now = time.elapsed_secs_f64();
    let push = |series: &mut VecDeque<[f64; 2]>, v: f64| {
        series.push_back([now, v]);
        while series
            .front()
            .is_some_and(|p| now - p[0] > HISTORY.as_secs_f64())
        {
            series.pop_front();
        }
    };
    push(&mut figures.polarization, m.polarization);
    push(&mut figures.nn_distance, m.mean_nn_distance.unwrap_or(0.0));
    push(&mut figures.step_ms, step.ms);
    if let Some([thickness, _, length]) = m.shape {
        push(
            &mut figures.thinness,
            if length > 0.0 {
                thickness / length
            } else {
                0.0
            },
        );
    } else if !figures.thinness.is_empty() {
        figures.thinness.clear();
    }
    figures.latest = Some(m);
}

/// The figures of the birds `(position, velocity)` of a flock with `params`, in their space.
fn measure<V: murmur_flock::murmur_core::Vector>(
    params: &FlockParams,
    birds: impl Iterator<Item = (V, V)>,
) -> FlockMetrics {
    let (pos, vel): (Vec<V>, Vec<V>) = birds.unzip();
    let mut grid = murmur_flock::murmur_core::grid::NeighbourGrid::<V>::new();
    murmur_flock::murmur_core::sim::collect_neighbours(&mut grid, params, &pos, &vel);
    FlockMetrics::measure(&grid, params)
}
