//! A board: the Q15 flock, its OLED buffer, and its own clock.

use bevy_ecs::prelude::*;
use bevy_time::{Time, Virtual};
use murmur_microboids::display::Oled;
use murmur_microboids::{Flock, FlockError, Revision, TICK_SECONDS};
use std::time::Duration;

/// Most birds a board may have here (the real one has 48).
pub const MAX_BIRDS: usize = 1024;

/// Who advances a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardSource {
    /// This app ticks the model by the board's clock.
    Local,
    /// Something else writes its state (a live board over serial); the clock is not used.
    External,
}

/// A microboids board: the firmware model, the OLED frame buffer it draws, and its clock.
#[derive(Component, Clone, Debug)]
pub struct Board {
    /// The model.
    pub flock: Flock<MAX_BIRDS>,
    /// The frame buffer, updated as the firmware updates it (pixel by pixel during a tick).
    pub oled: Oled,
    /// Time between ticks.
    pub period: Duration,
    /// Ticking or not.
    pub paused: bool,
    /// Local model or driven from outside.
    pub source: BoardSource,
    /// Most ticks run in one frame when the app falls behind.
    pub max_catch_up: u32,
    /// Bumped whenever the buffer changes, so screens redraw only then.
    pub generation: u64,
    seed: u32,
    since_tick: Duration,
}

impl Board {
    /// A freshly booted board running `revision` with `birds` birds.
    pub fn new(revision: Revision, birds: usize, seed: u32) -> Result<Self, FlockError> {
        let flock = Flock::new(revision, birds, seed)?;
        let mut board = Self {
            flock,
            oled: Oled::default(),
            period: Duration::from_secs_f64(TICK_SECONDS),
            paused: false,
            source: BoardSource::Local,
            max_catch_up: 8,
            generation: 0,
            seed,
            since_tick: Duration::ZERO,
        };
        board.redraw();
        Ok(board)
    }

    /// Boots the board again (same seed): tick 0, speed generator reset.
    pub fn reset(&mut self) {
        self.flock.init(self.seed);
        self.since_tick = Duration::ZERO;
        self.redraw();
    }

    /// One tick of the model, drawing into the buffer as the firmware does.
    pub fn tick(&mut self) {
        self.flock.tick(Some(&mut self.oled));
        self.generation += 1;
    }

    /// Redraws the buffer from scratch from the birds' positions.
    pub fn redraw(&mut self) {
        self.oled.clear_all();
        for b in self.flock.birds() {
            self.oled.set(b.x, b.y);
        }
        self.generation += 1;
    }

    /// Advances the clock by `dt` and ticks as often as it says (at most `max_catch_up`).
    /// Returns the ticks run.
    pub fn advance(&mut self, dt: Duration) -> u32 {
        if self.paused || self.source == BoardSource::External {
            return 0;
        }
        self.since_tick += dt;
        let mut ran = 0;
        while self.since_tick >= self.period && ran < self.max_catch_up {
            self.since_tick -= self.period;
            self.tick();
            ran += 1;
        }
        if ran == self.max_catch_up {
            // Too far behind: drop the backlog rather than spiral.
            self.since_tick = self.since_tick.min(self.period);
        }
        ran
    }
}

pub(crate) fn tick_boards(time: Res<Time<Virtual>>, mut boards: Query<&mut Board>) {
    for mut board in &mut boards {
        board.advance(time.delta());
    }
}
