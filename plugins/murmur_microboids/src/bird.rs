//! One bird of the firmware's flock: its place, heading and what it is doing.

use crate::q15::Q15;
use crate::trig::{Angle, Point};

/// What a bird is doing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(u8)]
pub enum BirdState {
    /// Flocking.
    #[default]
    Idle = 0,
    /// Turning back from the top edge.
    TurningN = 1,
    /// Turning back from the right edge.
    TurningE = 2,
    /// Turning back from the bottom edge.
    TurningS = 3,
    /// Turning back from the left edge.
    TurningW = 4,
}

impl BirdState {
    /// The state with this number (the firmware's enum value).
    pub fn from_u8(v: u8) -> Option<Self> {
        Some(match v {
            0 => Self::Idle,
            1 => Self::TurningN,
            2 => Self::TurningE,
            3 => Self::TurningS,
            4 => Self::TurningW,
            _ => return None,
        })
    }
}

/// One bird.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Bird {
    /// x in Q15, -1 (left) to 1 (right).
    pub x: Q15,
    /// y in Q15, -1 (top) to 1 (bottom).
    pub y: Q15,
    /// Heading, a binary angle.
    pub angle: Angle,
    /// a412 and bfee0c8: the average angle the bird aligned to in its last update (0 when it
    /// was turning or saw no cohesion neighbour); not model state. article: the bird's carried
    /// low-pass average of its neighbours' angles (model state).
    pub avg_angle: u8,
    /// Idle or turning back from an edge.
    pub state: BirdState,
}

impl Bird {
    /// Its position.
    pub fn pos(&self) -> Point {
        Point {
            x: self.x,
            y: self.y,
        }
    }
}
