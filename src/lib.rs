//! murmur: a flocking (boids) simulator on Bevy.
//!
//! The binary (`src/main.rs`) parses the command line and runs a [`modes`] entry; the windowed
//! app is built from the small plugins in [`app`] (the flat scene's and, in [`app::deep`], the 3D
//! scene's). The simulation itself lives in the `murmur_flock` (Bevy plugins) and `murmur_core`
//! (Bevy-free) crates under `plugins/`; the examples are built from those crates alone.

pub mod app;
pub mod capture;
#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
#[cfg(not(target_arch = "wasm32"))]
pub mod firmware;
#[cfg(not(target_arch = "wasm32"))]
pub mod modes;
#[cfg(not(target_arch = "wasm32"))]
pub mod progress;
pub mod scene;
#[cfg(not(target_arch = "wasm32"))]
pub mod scripted;
pub mod ticker;
#[cfg(target_arch = "wasm32")]
pub mod web;
