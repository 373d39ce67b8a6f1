//! The web page's app: the same plugins as the window, on the page's `#murmur` canvas. The scene
//! comes from the page's address (see [`crate::scene::address`]); with none there, the last visit's
//! flock. Presets and settings live in the browser's `localStorage`; the board mirror and the
//! command-line modes stay native.

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
    warnings.extend(more);

    let storage = store::Storage::user();
    let (settings, warning) = store::saved_settings(storage.as_ref());
    warnings.extend(warning);
    if let Some(s) = &settings
        && query == address::PageQuery::default()
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

/// Offers `bytes` to the user as a download named `name` (a recording made on the page).
pub fn download(name: &str, bytes: &[u8], mime: &str) -> Result<(), String> {
    use wasm_bindgen::JsCast;
    let fail = |e: wasm_bindgen::JsValue| format!("{e:?}");
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes).into());
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob =
        web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &options).map_err(fail)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(fail)?;
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    let link = document
        .create_element("a")
        .map_err(fail)?
        .dyn_into::<web_sys::HtmlElement>()
        .map_err(|_| "not an element".to_string())?;
    link.set_attribute("href", &url).map_err(fail)?;
    link.set_attribute("download", name).map_err(fail)?;
    link.click();
    web_sys::Url::revoke_object_url(&url).map_err(fail)
}
