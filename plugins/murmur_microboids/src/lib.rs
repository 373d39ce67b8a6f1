//! The microboids firmware's flocking model in Q15 fixed point, reproduced bit for bit.
//!
//! 48 birds (by default) on a [-1, 1) canvas of Q15 numbers, 8-bit binary angles, xorshift32, and
//! the firmware's exact order of operations: birds update one after another, in place; separation
//! and cohesion rotate a bird by fixed angle steps; alignment takes the shortest-angle midpoint
//! toward a low-pass average of the neighbours' angles; birds near an edge turn back towards the
//! middle. Three [`Revision`]s: `a412` and `bfee0c8` (both bit-exact to the reference runs of the
//! firmware's C code) and `article` (the model the "microboids 101" article describes).
//!
//! `no_std`, no allocator: it builds for the board's Cortex-M0+ (`thumbv6m-none-eabi`).
//! See `shared/reference/microboids/SPEC.md` for the specification this follows.

#![no_std]

pub mod display;
pub mod flock;
pub mod neighbours;
pub mod q15;
pub mod revision;
pub mod rng;
pub mod trig;

pub use display::Oled;
pub use flock::{Bird, BirdState, CSV_HEADER, CsvRow, Flock, FlockError};
pub use q15::Q15;
pub use revision::Revision;
pub use rng::XorShift32;

/// The board's flock size.
pub const NUM_BIRDS: usize = 48;

/// The board's tick period in seconds (TIM2 interrupt, about 31.4 Hz).
pub const TICK_SECONDS: f64 = 0.031_872;
