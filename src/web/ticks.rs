//! The page's `?ticks=N`: the scene run N ticks by `murmur headless`'s app (the flock plugins,
//! no window, no drawing, no player bird), timed as the native command times it, ending in the
//! same closing figures: the state hash, the tick's mean time. The browser test holds the hash to
//! the native one, and the speed benchmark the time (`web/test/ticks.mjs`, `web/test/speed.mjs`).
//!
//! The ticks run in pieces, one piece per turn of the browser's event loop, so the page stays
//! responsive and shows how far it is. The result is published as JSON on the page's root
//! element (`data-ticks-result`) and written where the loading text was.

use crate::scene::SceneConfig;
use crate::ticker;
use bevy::platform::time::Instant;
use bevy::prelude::*;
use murmur_flock::murmur_core::metrics::FlockMetrics;
use murmur_flock::prelude::*;
use serde::Serialize;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;

/// Ticks run in one turn of the event loop (as `murmur headless` runs them between two moves of
/// its progress bar).
const PIECE: u64 = 30;

/// The run's closing figures: the fields of `murmur headless`'s closing line that a page can
/// give, under the same names.
#[derive(Serialize)]
struct Summary {
    #[serde(rename = "final")]
    is_final: bool,
    steps: u64,
    seed: u64,
    preset: String,
    #[serde(flatten)]
    metrics: FlockMetrics,
    /// Mean time of a tick, in milliseconds (the app's whole update, as natively).
    step_ms: f64,
    /// Mean time of a tick over the second half of the run, in milliseconds: after the
    /// browser's engine has compiled the hot code at its top tier (the first ticks run its
    /// quick baseline compilation). `murmur headless --every N/2`'s second line is the native
    /// figure to hold it to.
    late_step_ms: f64,
    steps_per_s: f64,
    state_hash: String,
    path: &'static str,
    /// What the page's address asked for that it could not use.
    warnings: Vec<String>,
    /// Why the run stopped short, if it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

/// A run under way.
struct Run {
    app: App,
    flock: Entity,
    asked: u64,
    done: u64,
    busy_ms: f64,
    /// Ticks and time of the pieces that started in the run's second half.
    late: (u64, f64),
    preset: String,
    seed: u64,
    warnings: Vec<String>,
}

/// Starts the run of `ticks` ticks of `scene` (named `preset` on the address); returns at once,
/// the ticks follow on the browser's event loop.
pub fn start(scene: SceneConfig, preset: String, ticks: u64, warnings: Vec<String>) {
    let (app, flock) = if scene.preset.world.depth > 0.0 {
        ticker::scene_app::<Vec3>(&scene)
    } else {
        ticker::scene_app::<Vec2>(&scene)
    };
    for w in &warnings {
        warn!("page: {w}");
    }
    show(&format!(
        "murmur: {} birds of {preset}, seed {}: {ticks} ticks without drawing…",
        scene.boids, scene.seed
    ));
    let run = Run {
        app,
        flock,
        asked: ticks,
        done: 0,
        busy_ms: 0.0,
        late: (0, 0.0),
        preset,
        seed: scene.seed,
        warnings,
    };
    next_piece(Rc::new(RefCell::new(run)));
}

/// Queues the next piece on the event loop.
fn next_piece(run: Rc<RefCell<Run>>) {
    let piece = Closure::once_into_js(move || piece(run));
    let queued = web_sys::window()
        .map(|w| w.set_timeout_with_callback_and_timeout_and_arguments_0(piece.unchecked_ref(), 0));
    if !matches!(queued, Some(Ok(_))) {
        show("murmur: the page could not queue its ticks");
    }
}

/// Runs one piece of the ticks, then queues the next or reports.
fn piece(run: Rc<RefCell<Run>>) {
    let mut r = run.borrow_mut();
    let wanted = (r.asked - r.done).min(PIECE);
    let flock = r.flock;
    let started = Instant::now();
    let ran = advance_ticks(&mut r.app, flock, wanted);
    let ms = started.elapsed().as_secs_f64() * 1e3;
    r.busy_ms += ms;
    if 2 * r.done >= r.asked {
        r.late.0 += ran;
        r.late.1 += ms;
    }
    r.done += ran;
    if ran == wanted && r.done < r.asked {
        set_root("data-ticks-done", &r.done.to_string());
        show(&format!("murmur: {} of {} ticks…", r.done, r.asked));
        drop(r);
        next_piece(run);
        return;
    }
    let error = (ran != wanted).then(|| format!("the flock stopped ticking at step {}", r.done));
    let world = r.app.world_mut();
    let Some(metrics) = flock_metrics(world, flock) else {
        show("murmur: the flock is gone");
        return;
    };
    let hash = flock_state_hash(world, flock);
    let seconds = r.busy_ms / 1e3;
    let summary = Summary {
        is_final: true,
        steps: r.done,
        seed: r.seed,
        preset: r.preset.clone(),
        metrics,
        step_ms: if r.done > 0 {
            r.busy_ms / r.done as f64
        } else {
            0.0
        },
        late_step_ms: if r.late.0 > 0 {
            r.late.1 / r.late.0 as f64
        } else {
            0.0
        },
        steps_per_s: if seconds > 0.0 {
            r.done as f64 / seconds
        } else {
            0.0
        },
        state_hash: format!("{hash:016x}"),
        path: "cpu",
        warnings: r.warnings.clone(),
        error,
    };
    let line = serde_json::to_string(&summary).expect("figures serialise");
    set_root("data-ticks-done", &r.done.to_string());
    set_root("data-ticks-result", &line);
    show(&line);
    if let Some(bar) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("loading-bar"))
    {
        bar.remove();
    }
}

/// Sets an attribute of the page's root element, where tests and a visitor's console read it.
fn set_root(name: &str, value: &str) {
    if let Some(root) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = root.set_attribute(name, value);
    }
}

/// Writes `text` where the page shows its loading text.
fn show(text: &str) {
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("loading-text"))
    {
        el.set_text_content(Some(text));
    }
}
