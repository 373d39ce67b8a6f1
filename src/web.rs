//! The web page's app: the same plugins as the window, on the page's `#murmur` canvas. The scene
//! comes from the page's address (see [`crate::web_query`]); with none there, the last visit's
//! flock. Presets and settings live in the browser's `localStorage`; the board mirror and the
//! command-line modes stay native.

use crate::app::panel::{PanelState, store};
use crate::app::{self, AppOptions};
use crate::web_query;
use bevy::prelude::*;

/// Builds and runs the app in the browser (returns when the page closes it).
pub fn run() {
    let search = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default();
    let (query, mut warnings) = web_query::parse(&search);
    let (mut scene, more) = web_query::scene(&query);
    warnings.extend(more);

    let storage = store::Storage::user();
    let (settings, warning) = store::saved_settings(storage.as_ref());
    warnings.extend(warning);
    if let Some(s) = &settings
        && query == web_query::PageQuery::default()
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
    for (what, at) in [("leader", scene.leader), ("hunter", scene.hunter)] {
        if let Some(at) = at {
            summary += &format!(", {what} at {},{}", at.x, at.y);
        }
    }

    let mut app = app::build(AppOptions {
        scene,
        window: (1280, 720),
    });
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
    });
    app.run();
}
