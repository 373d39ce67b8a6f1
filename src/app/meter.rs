//! Frame-time measurement of the real app (`murmur run --measure-frames N`): after a warm-up,
//! records N frame times, prints one JSON line and exits.

use super::scene::ActiveFlock;
use bevy::app::AppExit;
use bevy::prelude::*;
use murmur_flock::prelude::*;
// Bevy's `Instant` also works in the browser, where std's panics.
use bevy::platform::time::Instant;
use std::time::Duration;

/// Frames skipped first while the renderer compiles its pipelines.
const WARM_UP_FRAMES: u32 = 5;
const WARM_UP_TIME: Duration = Duration::from_secs(3);

/// Asks the app to measure `frames` frames and exit.
#[derive(Resource, Clone, Debug)]
pub struct MeasureFrames {
    /// Frames to record.
    pub frames: u32,
    seen: u32,
    started: Option<Instant>,
    measuring_since: Option<(Instant, u64)>,
    samples: Vec<f64>,
}

impl MeasureFrames {
    /// Measure `frames` frames.
    pub fn new(frames: u32) -> Self {
        Self {
            frames,
            seen: 0,
            started: None,
            measuring_since: None,
            samples: Vec::new(),
        }
    }
}

/// Adds this module's resources and systems.
pub fn plugin(app: &mut App) {
    app.add_systems(Last, measure.run_if(resource_exists::<MeasureFrames>));
}

fn measure(
    mut meter: ResMut<MeasureFrames>,
    time: Res<Time<Real>>,
    flock: Res<ActiveFlock>,
    columns: Query<&FlockColumns>,
    columns3d: Query<&FlockColumns<Vec3>>,
    birds: Query<(), With<Boid>>,
    window: Single<&Window>,
    mut exit: MessageWriter<AppExit>,
    path: Res<super::path::FlockPath>,
    config: Res<super::SceneConfig>,
) {
    let started = *meter.started.get_or_insert_with(Instant::now);
    meter.seen += 1;
    // The flock's ticks, in whichever space it flies.
    let tick = columns
        .get(flock.0)
        .map(|c| c.tick())
        .or_else(|_| columns3d.get(flock.0).map(|c| c.tick()))
        .unwrap_or(0);
    let Some((since, first_tick)) = meter.measuring_since else {
        if meter.seen >= WARM_UP_FRAMES && started.elapsed() >= WARM_UP_TIME {
            meter.measuring_since = Some((Instant::now(), tick));
        }
        return;
    };
    meter.samples.push(time.delta_secs_f64() * 1e3);
    if meter.samples.len() < meter.frames as usize {
        return;
    }
    let mut sorted = meter.samples.clone();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    let mean = sorted.iter().sum::<f64>() / n as f64;
    let seconds = since.elapsed().as_secs_f64();
    let line = serde_json::json!({
        "kind": "frames",
        // A flock on the GPU has no bird entities (its ticks still count on the CPU side, one a
        // fixed tick, as the GPU runs them).
        "boids": if path.on_gpu { config.boids } else { birds.iter().count() },
        "path": path.note,
        "window": [window.physical_width(), window.physical_height()],
        "frames": n,
        "mean_frame_ms": mean,
        "median_frame_ms": sorted[n / 2],
        "p95_frame_ms": sorted[(n * 95 / 100).min(n - 1)],
        "fps": n as f64 / seconds,
        "ticks_per_s": (tick - first_tick) as f64 / seconds,
    });
    println!("{line}");
    exit.write(AppExit::Success);
}
