//! The web page's app: the same plugins as the window, on the page's `#murmur` canvas. What needs
//! a file system or a serial port is not built for the web: the panel has no user presets and
//! keeps no settings; the board mirror and the command-line modes stay native.

use crate::app::{self, AppOptions, SceneConfig};

/// The preset the page opens with.
const PRESET: &str = "reynolds";

/// Builds and runs the app in the browser (returns when the page closes it).
pub fn run() {
    let scene = SceneConfig::load(PRESET, 1).expect("the built-in preset loads");
    app::build(AppOptions {
        scene,
        window: (1280, 720),
    })
    .run();
}
