//! The web page's app: the same plugins as the window, on the page's `#murmur` canvas. The scene
//! comes from the page's address (see [`crate::scene::address`]); with none there, the last visit's
//! flock. Presets and settings live in the browser's `localStorage`; a board plugged into the
//! computer is mirrored over Web Serial ([`serial`]); the command-line modes stay native, but for
//! `?ticks=N`, `murmur headless`'s run on the page ([`ticks`]).

mod download;
pub mod serial;
mod ticks;

pub use download::download;

use crate::app::panel::{PanelState, store};
use crate::app::{self, AppOptions};
use crate::scene::address;
use bevy::prelude::*;

/// Builds and runs the app in the browser (returns when the page closes it).
pub fn run() {
    let search = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default();
    let (query, mut warnings) = address::parse(&search);
    let (mut scene, more) = address::scene(&query);
    if let Some(baud) = query.baud {
        serial::set_baud(baud);
    }
    warnings.extend(more);
    if let Some(n) = query.ticks {
        // A measured run of a known scene: not the last visit's flock, not its settings.
        let preset = query
            .preset
            .clone()
            .unwrap_or_else(|| address::DEFAULT_PRESET.to_string());
        ticks::start(scene, preset, n, warnings);
        return;
    }

    let storage = store::Storage::user();
    let (settings, warning) = store::saved_settings(storage.as_ref());
    warnings.extend(warning);
    if let Some(s) = &settings
        && query.asks_for_no_scene()
        && let Some((preset, boids, seed)) = s.last_flock()
    {
        (scene.preset, scene.boids) = (preset, boids);
        scene.seed = seed.unwrap_or(scene.seed);
    }
    let mut summary = format!(
        "murmur: {} birds, {} model, seed {}",
        scene.boids,
        scene.preset.model.name(),
        scene.seed
    );
    let world = &scene.preset.world;
    let deep = world.depth > 0.0;
    if deep {
        summary += &format!(
            ", 3D world {}x{}x{}",
            world.width, world.height, world.depth
        );
    }
    for (what, at) in [("leader", scene.leader), ("hunter", scene.hunter)] {
        match at {
            Some(at) if deep => summary += &format!(", {what} at {},{},{}", at.x, at.y, at.z),
            Some(at) => summary += &format!(", {what} at {},{}", at.x, at.y),
            None => {}
        }
    }

    let mut app = app::build(AppOptions {
        scene,
        window: (1280, 720),
    });
    app.add_plugins(serial::plugin);
    let mut panel = PanelState::with_storage(storage, true);
    if let Some(s) = &settings {
        s.restore(&mut app, &mut panel);
    }
    panel.warnings.extend(warnings.iter().cloned());
    app.insert_resource(panel);
    // Also in the browser's console, where a page's user looks; logged once the app's logger is up.
    app.add_systems(Startup, move || {
        for w in &warnings {
            warn!("page: {w}");
        }
        info!("{summary}");
    })
    .add_systems(Last, announce_running)
    .add_systems(Update, publish_step_time);
    app.run();
}

/// Tells the page (an event `murmur-running` on its window) once the first frame has been drawn:
/// the page then takes its loading bar away and offers the board's button.
fn announce_running(mut frames: Local<u32>) {
    *frames += 1;
    // In `Last` of the second frame the first has gone through the renderer.
    if *frames != 2 {
        return;
    }
    if let (Some(window), Ok(event)) = (web_sys::window(), web_sys::Event::new("murmur-running")) {
        let _ = window.dispatch_event(&event);
    }
}

/// Shows the page how long a flock tick takes: `data-step-ms` on the page's root element, the
/// panel's smoothed figure (milliseconds, every phase of the tick), written once a second. The
/// browser tests and the page's speed benchmark read it (`web/test/speed.mjs`); so can a
/// visitor's console: `document.documentElement.dataset.stepMs`.
fn publish_step_time(
    time: Res<Time<Real>>,
    step: Res<crate::app::panel::figures::StepTime>,
    mut next: Local<f64>,
) {
    let now = time.elapsed_secs_f64();
    if now < *next || step.ms == 0.0 {
        return;
    }
    *next = now + 1.0;
    if let Some(root) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = root.set_attribute("data-step-ms", &format!("{:.4}", step.ms));
    }
}

/// Shows the page how many frames the recording under way holds: `data-recorded-frames` on the
/// page's root element, written as each frame comes. Reading the canvas back is slow under a
/// software renderer, so the browser test waits on this before it stops a recording.
pub fn publish_recorded_frames(frames: u32) {
    if let Some(root) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = root.set_attribute("data-recorded-frames", &frames.to_string());
    }
}
