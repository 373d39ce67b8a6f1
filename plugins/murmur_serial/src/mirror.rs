//! The mirror: counts what arrives, notices lost frames and resets, and runs the board's model
//! itself in lockstep, reporting the first tick, bird and field where the two disagree.

use crate::event::LinkEvent;
use bevy_platform::time::Instant;
use murmur_board_link::message::{BirdRecord, Flock as FlockFrame, Hello, Message};
use murmur_board_link::{Decoder, Event, Stats};
use murmur_microboids::{Bird, Flock, Revision};
use serde::Serialize;
use std::collections::VecDeque;
use std::time::Duration;

/// Most birds a mirrored board may have.
pub const MAX_BIRDS: usize = 255;
/// The local model will not chase a board further ahead than this many ticks in one go.
const MAX_CATCH_UP: u32 = 20_000_000;

/// Where board and local model first disagreed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Divergence {
    /// The board's tick.
    pub tick: u32,
    /// Bird index.
    pub bird: usize,
    /// `x`, `y`, `angle`, `state` or `count`.
    pub field: &'static str,
}

/// The HELLO's fields, as reported.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HelloReport {
    /// Protocol version.
    pub version: u8,
    /// Model revision number (0 a412, 1 article, 2 bfee0c8, 255 other).
    pub revision: u8,
    /// The revision's name, when known.
    pub revision_name: Option<&'static str>,
    /// Seed.
    pub seed: u32,
    /// Birds.
    pub birds: u8,
    /// Tick period, microseconds.
    pub tick_us: u32,
    /// Board name.
    pub name: String,
}

/// Everything the mirror has counted, as `murmur mirror --json` prints it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MirrorReport {
    /// FLOCK frames accepted.
    pub frames_ok: u64,
    /// FLOCK frames held against the local model (accepted while one ran).
    pub frames_compared: u64,
    /// FLOCK frames accepted with no local model to hold them against (before the first
    /// HELLO, or from a board whose HELLO names no model murmur runs).
    pub frames_unchecked: u64,
    /// HELLO frames accepted.
    pub hellos: u64,
    /// Frames with a bad CRC.
    pub crc_errors: u64,
    /// Bad COBS, bad length, oversize.
    pub framing_errors: u64,
    /// Well-formed frames of unknown kind.
    pub unknown_kind: u64,
    /// Ticks missing between consecutive accepted FLOCK frames.
    pub lost_frames: u64,
    /// Times the tick went back (board reset or counter wrap).
    pub resets: u64,
    /// Tick of the last accepted FLOCK.
    pub last_tick: Option<u32>,
    /// The last HELLO.
    pub hello: Option<HelloReport>,
    /// Frames were compared with a local model, and it agreed with the board at every one.
    pub in_sync: bool,
    /// The first disagreement, if any.
    pub first_divergence: Option<Divergence>,
}

/// The mirror's state.
#[derive(Default)]
pub struct Mirror {
    stats: Stats,
    frames_ok: u64,
    frames_compared: u64,
    hellos: u64,
    lost_frames: u64,
    resets: u64,
    last_tick: Option<u32>,
    hello: Option<Hello>,
    local: Option<Box<Flock<MAX_BIRDS>>>,
    first_divergence: Option<Divergence>,
    board: Option<Box<FlockFrame>>,
    connected: Option<String>,
    problem: Option<String>,
    arrivals: VecDeque<Instant>,
}

/// The model revision a HELLO names, when the host can run it.
pub fn revision_of(hello: &Hello) -> Option<Revision> {
    Revision::from_protocol_number(hello.revision)
}

fn boot(hello: &Hello) -> Option<Box<Flock<MAX_BIRDS>>> {
    Flock::new(revision_of(hello)?, hello.birds as usize, hello.seed)
        .ok()
        .map(Box::new)
}

impl Mirror {
    /// A mirror that has seen nothing yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Decodes `bytes` with `decoder` and takes in each frame as the reader thread's events
    /// would bring it: for a reader that hands over raw bytes (the web page's serial port).
    pub fn take_bytes(&mut self, decoder: &mut Decoder, bytes: &[u8]) {
        for &byte in bytes {
            match decoder.push(byte) {
                Some(Event::Message(m)) => {
                    self.handle(&LinkEvent::Message(Box::new(m), decoder.stats()))
                }
                Some(Event::Rejected) => self.handle(&LinkEvent::Rejected(decoder.stats())),
                None => {}
            }
        }
    }

    /// Takes in one event from the reader.
    pub fn handle(&mut self, event: &LinkEvent) {
        match event {
            LinkEvent::Connected(name) => {
                self.connected = Some(name.clone());
                self.problem = None;
            }
            LinkEvent::Disconnected(why) => {
                self.connected = None;
                self.problem = Some(why.clone());
            }
            LinkEvent::Rejected(stats) | LinkEvent::Ended(stats) => self.stats = *stats,
            LinkEvent::Message(message, stats) => {
                self.stats = *stats;
                match &**message {
                    Message::Hello(h) => self.on_hello(h),
                    Message::Flock(f) => self.on_flock(f),
                    Message::Unknown(_) => {}
                }
            }
        }
    }

    fn on_hello(&mut self, h: &Hello) {
        self.hellos += 1;
        let same = self.hello.is_some_and(|old| {
            (old.revision, old.seed, old.birds) == (h.revision, h.seed, h.birds)
        });
        if !same || self.local.is_none() {
            self.local = boot(h);
        }
        self.hello = Some(*h);
    }

    fn on_flock(&mut self, f: &FlockFrame) {
        self.frames_ok += 1;
        let now = Instant::now();
        self.arrivals.push_back(now);
        while self
            .arrivals
            .front()
            .is_some_and(|t| now.duration_since(*t) > Duration::from_secs(1))
        {
            self.arrivals.pop_front();
        }
        if let Some(last) = self.last_tick {
            if f.tick > last {
                self.lost_frames += (f.tick - last - 1) as u64;
            } else {
                // The tick went back: the board was reset (or its counter wrapped).
                self.resets += 1;
                self.local = self.hello.as_ref().and_then(boot);
            }
        }
        self.last_tick = Some(f.tick);
        self.board = Some(Box::new(*f));
        self.follow(f);
    }

    /// Brings the local model to the frame's tick and compares every bird.
    fn follow(&mut self, f: &FlockFrame) {
        let Some(local) = self.local.as_mut() else {
            return;
        };
        if local.tick_count() > f.tick || f.tick - local.tick_count() > MAX_CATCH_UP {
            // Behind the model (a reset we missed) or unreachably far ahead: boot afresh.
            match self.hello.as_ref().and_then(boot) {
                Some(fresh) => *local = fresh,
                None => return,
            }
            if f.tick > MAX_CATCH_UP {
                return;
            }
        }
        while local.tick_count() < f.tick {
            local.tick(None);
        }
        self.frames_compared += 1;
        if self.first_divergence.is_some() {
            return;
        }
        let birds = local.birds();
        if birds.len() != f.birds().len() {
            self.first_divergence = Some(Divergence {
                tick: f.tick,
                bird: 0,
                field: "count",
            });
            return;
        }
        for (i, (b, r)) in birds.iter().zip(f.birds()).enumerate() {
            let field = if b.x.to_bits() != r.x {
                "x"
            } else if b.y.to_bits() != r.y {
                "y"
            } else if b.angle != r.angle {
                "angle"
            } else if b.state as u8 != r.state {
                "state"
            } else {
                continue;
            };
            self.first_divergence = Some(Divergence {
                tick: f.tick,
                bird: i,
                field,
            });
            return;
        }
    }

    /// True once frames were compared with a local model and it agreed at every one.
    pub fn in_sync(&self) -> bool {
        self.local.is_some() && self.first_divergence.is_none() && self.frames_compared > 0
    }

    /// FLOCK frames accepted.
    pub fn frames_ok(&self) -> u64 {
        self.frames_ok
    }

    /// FLOCK frames held against the local model.
    pub fn frames_compared(&self) -> u64 {
        self.frames_compared
    }

    /// The first disagreement with the local model, if any.
    pub fn first_divergence(&self) -> Option<Divergence> {
        self.first_divergence
    }

    /// FLOCK frames received in the last second.
    pub fn frames_per_second(&self) -> usize {
        self.arrivals.len()
    }

    /// The port's name while connected.
    pub fn connected(&self) -> Option<&str> {
        self.connected.as_deref()
    }

    /// Why the port is not open (or what last went wrong).
    pub fn problem(&self) -> Option<&str> {
        self.problem.as_deref()
    }

    /// The board's birds as last received.
    pub fn board_birds(&self) -> Vec<Bird> {
        self.board
            .as_ref()
            .map(|f| f.birds().iter().map(to_bird).collect())
            .unwrap_or_default()
    }

    /// The local model, when one runs.
    pub fn local(&self) -> Option<&Flock<MAX_BIRDS>> {
        self.local.as_deref()
    }

    /// The status line under the mirror (after the link's own state): frames/s, tick, the
    /// error counters, and in sync or where it first diverged.
    pub fn status_line(&self) -> String {
        let r = self.report();
        let sync = match (&r.first_divergence, r.in_sync) {
            (Some(d), _) => format!("DIVERGED at tick {} bird {} ({})", d.tick, d.bird, d.field),
            (None, true) => "in sync".into(),
            (None, false) => "no model to compare".into(),
        };
        format!(
            "{} frames/s · tick {} · CRC errors {} · framing errors {} · lost {} · resets {} · {sync}",
            self.frames_per_second(),
            r.last_tick.map_or("-".into(), |t| t.to_string()),
            r.crc_errors,
            r.framing_errors,
            r.lost_frames,
            r.resets
        )
    }

    /// The counters.
    pub fn report(&self) -> MirrorReport {
        MirrorReport {
            frames_ok: self.frames_ok,
            frames_compared: self.frames_compared,
            frames_unchecked: self.frames_ok - self.frames_compared,
            hellos: self.hellos,
            crc_errors: self.stats.crc_errors,
            framing_errors: self.stats.framing_errors,
            unknown_kind: self.stats.unknown_kind,
            lost_frames: self.lost_frames,
            resets: self.resets,
            last_tick: self.last_tick,
            hello: self.hello.map(|h| HelloReport {
                version: h.version,
                revision: h.revision,
                revision_name: revision_of(&h).map(|r| r.name()),
                seed: h.seed,
                birds: h.birds,
                tick_us: h.tick_us,
                name: h.name().to_string(),
            }),
            in_sync: self.in_sync(),
            first_divergence: self.first_divergence,
        }
    }
}

/// A received bird as the model's type (for drawing).
pub fn to_bird(r: &BirdRecord) -> Bird {
    Bird {
        x: murmur_microboids::q15::q(r.x),
        y: murmur_microboids::q15::q(r.y),
        angle: r.angle,
        avg_angle: 0,
        state: murmur_microboids::BirdState::from_u8(r.state).unwrap_or_default(),
    }
}
