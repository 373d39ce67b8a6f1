#![doc = include_str!("../README.md")]
#![no_std]

pub mod bird;
pub mod display;
pub mod flock;
pub mod neighbours;
pub mod q15;
pub mod revision;
pub mod rng;
pub mod trig;

pub use bird::{Bird, BirdState};
pub use display::Oled;
pub use flock::{CSV_HEADER, CsvRow, Flock, FlockError};
pub use q15::Q15;
pub use revision::Revision;
pub use rng::XorShift32;

/// The board's flock size.
pub const NUM_BIRDS: usize = 48;

/// The board's tick period in seconds (TIM2 interrupt, about 31.4 Hz).
pub const TICK_SECONDS: f64 = 0.031_872;
