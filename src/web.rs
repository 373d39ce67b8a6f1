//! The web page's app: the same plugins as the window, on the page's `#murmur` canvas, with the
//! scene read from the page's address (see [`crate::web_query`]). What needs a file system or a
//! serial port is not built for the web: the panel has no user presets and keeps no settings;
//! the board mirror and the command-line modes stay native.

use crate::app::{self, AppOptions};
use crate::web_query;
use bevy::prelude::*;

/// Builds and runs the app in the browser (returns when the page closes it).
pub fn run() {
    let search = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default();
    let (query, mut warnings) = web_query::parse(&search);
    let (scene, more) = web_query::scene(&query);
    warnings.extend(more);
    let summary = format!(
        "murmur: {} birds, {} model, seed {}",
        scene.boids,
        scene.preset.model.name(),
        scene.seed
    );
    let mut app = app::build(AppOptions {
        scene,
        window: (1280, 720),
    });
    // Logged once the app's logger is up: the browser's console is where a page's user looks.
    app.add_systems(Startup, move || {
        for w in &warnings {
            warn!("page address: {w}");
        }
        info!("{summary}");
    });
    app.run();
}
