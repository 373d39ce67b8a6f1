//! Progress for the long commands (`sweep`, `bench`, long `headless` runs): a bar with an ETA on
//! stderr, shown only when stderr is a terminal (never in a pipe or a log) and only once the
//! work has run for a couple of seconds. Machine output on stdout is never touched.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// Work shorter than this shows no bar (`$MURMUR_PROGRESS_AFTER_MS` changes it: the tests
/// show it at once).
const SHOW_AFTER: Duration = Duration::from_secs(2);

/// Progress through `total` units of work.
pub struct Progress {
    what: &'static str,
    total: u64,
    done: u64,
    started: Instant,
    terminal: bool,
    show_after: Duration,
    bar: Option<ProgressBar>,
}

impl Progress {
    /// Progress through `total` units of `what` (e.g. "steps", "runs").
    pub fn new(what: &'static str, total: u64) -> Self {
        Self {
            what,
            total,
            done: 0,
            started: Instant::now(),
            terminal: std::io::stderr().is_terminal(),
            show_after: std::env::var("MURMUR_PROGRESS_AFTER_MS")
                .ok()
                .and_then(|v| v.parse().ok())
                .map_or(SHOW_AFTER, Duration::from_millis),
            bar: None,
        }
    }

    /// `n` more units done.
    pub fn advance(&mut self, n: u64) {
        self.done = (self.done + n).min(self.total);
        if let Some(bar) = &self.bar {
            bar.set_position(self.done);
            return;
        }
        if self.terminal && self.started.elapsed() >= self.show_after && self.done < self.total {
            let bar = ProgressBar::with_draw_target(
                Some(self.total),
                ProgressDrawTarget::stderr_with_hz(10),
            );
            bar.set_style(
                ProgressStyle::with_template(&format!(
                    "{{bar:40.cyan/blue}} {{pos}}/{{len}} {} · {{elapsed}} · ETA {{eta}}",
                    self.what
                ))
                .expect("a valid template"),
            );
            bar.set_position(self.done);
            self.bar = Some(bar);
        }
    }

    /// Removes the bar (the work is done).
    pub fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
        self.terminal = false;
    }
}
