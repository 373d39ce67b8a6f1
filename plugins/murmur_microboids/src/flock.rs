//! The flock and its tick: Bird_Init, then Bird_Tick, birds updated one after another in place.

use crate::bird::{Bird, BirdState};
use crate::display::Oled;
use crate::neighbours::{Columns, Nearby, average_angle, average_point};
use crate::q15::{Q15, q};
#[cfg(test)]
use crate::q15::{add_sat, sub_sat};
use crate::revision::{Params, Revision, Step};
use crate::rng::{FIRMWARE_SEED, XorShift32};
use crate::trig::{Point, Quadrant, atan2, sam, translate16, which_quadrant};

/// Positions at or beyond these start a turn back.
const RIGHT_BOTTOM: Q15 = q(32767 - 0x1333); // SubSat(32767, EDGE) = 27852
const LEFT_TOP: Q15 = q(-32768 + 0x1333); // AddSat(-32768, EDGE) = -27853

/// Why a flock cannot be made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlockError {
    /// More birds than the flock has room for, or none.
    BadCount {
        /// Birds asked for.
        asked: usize,
        /// Room.
        capacity: usize,
    },
    /// A zero seed (the firmware asserts a non-zero one; xorshift32 would stay at 0).
    ZeroSeed,
}

impl core::fmt::Display for FlockError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::BadCount { asked, capacity } => write!(f, "{asked} birds: give 1 to {capacity}"),
            Self::ZeroSeed => f.write_str("the seed must not be 0"),
        }
    }
}

/// A flock of up to `CAP` birds (48 on the board), with the speed generator and tick count.
#[derive(Clone, Debug)]
pub struct Flock<const CAP: usize = { crate::NUM_BIRDS }> {
    birds: [Bird; CAP],
    /// The birds' positions and Idle flags again, as columns for the neighbour scans; kept in
    /// step with `birds` after every bird's update.
    columns: Columns<CAP>,
    count: usize,
    revision: Revision,
    params: Params,
    speed_rng: XorShift32,
    tick: u32,
}

impl<const CAP: usize> Flock<CAP> {
    /// A freshly booted flock of `count` birds: `Bird_Init(seed)` with the speed generator
    /// reset, as at power-on. a412 and bfee0c8 ignore the seed (every board shows the same
    /// murmuration); the article revision seeds its positions from it.
    pub fn new(revision: Revision, count: usize, seed: u32) -> Result<Self, FlockError> {
        if count == 0 || count > CAP || count > u16::MAX as usize {
            return Err(FlockError::BadCount {
                asked: count,
                capacity: CAP,
            });
        }
        if seed == 0 {
            return Err(FlockError::ZeroSeed);
        }
        let mut flock = Self {
            birds: [Bird::default(); CAP],
            columns: Columns::default(),
            count,
            revision,
            params: revision.params(),
            speed_rng: XorShift32::default(),
            tick: 0,
        };
        flock.init(seed);
        Ok(flock)
    }

    /// A flock in a given state (for tests, and for following a board whose state is known):
    /// the birds, the speed generator's state and the tick count.
    pub fn from_birds(
        revision: Revision,
        birds: &[Bird],
        speed_rng: u32,
        tick: u32,
    ) -> Result<Self, FlockError> {
        if birds.is_empty() || birds.len() > CAP || birds.len() > u16::MAX as usize {
            return Err(FlockError::BadCount {
                asked: birds.len(),
                capacity: CAP,
            });
        }
        let mut all = [Bird::default(); CAP];
        all[..birds.len()].copy_from_slice(birds);
        let mut flock = Self {
            birds: all,
            columns: Columns::default(),
            count: birds.len(),
            revision,
            params: revision.params(),
            speed_rng: XorShift32(speed_rng),
            tick,
        };
        flock.sync_columns();
        Ok(flock)
    }

    /// `Bird_Init`: places every bird from a local xorshift32 (three steps per bird: x, y,
    /// angle), all Idle, and resets the speed generator and the tick count.
    pub fn init(&mut self, seed: u32) {
        let mut rng = if self.params.seeded_init {
            XorShift32(seed)
        } else {
            XorShift32::default()
        };
        let carried = self.params.carried_average;
        for bird in &mut self.birds[..self.count] {
            let x = q((rng.step() >> 16) as u16 as i16);
            let y = q((rng.step() >> 16) as u16 as i16);
            let angle = (rng.step() >> 24) as u8;
            *bird = Bird {
                x,
                y,
                angle,
                avg_angle: if carried { angle } else { 0 },
                state: BirdState::Idle,
            };
        }
        self.speed_rng = XorShift32(FIRMWARE_SEED);
        self.tick = 0;
        self.sync_columns();
    }

    fn sync_columns(&mut self) {
        for idx in 0..self.count {
            self.columns.set(idx, &self.birds[idx]);
        }
    }

    /// The birds.
    pub fn birds(&self) -> &[Bird] {
        &self.birds[..self.count]
    }

    /// The revision this flock runs.
    pub fn revision(&self) -> Revision {
        self.revision
    }

    /// Ticks since init.
    pub fn tick_count(&self) -> u32 {
        self.tick
    }

    /// The speed generator's state (it carries over between ticks).
    pub fn speed_rng(&self) -> u32 {
        self.speed_rng.0
    }

    /// `Bird_Tick`: every bird in index order, in place; each sees the birds before it as
    /// already updated. With a display, each bird's old pixel is cleared before its update and
    /// its new pixel set after, as the firmware does.
    pub fn tick(&mut self, mut display: Option<&mut Oled>) {
        for idx in 0..self.count {
            if let Some(oled) = display.as_deref_mut() {
                oled.clear(self.birds[idx].x, self.birds[idx].y);
            }
            match self.birds[idx].state {
                BirdState::Idle => self.idle(idx),
                _ => self.turning(idx),
            }
            let b = &mut self.birds[idx];
            b.state = next_state(b.x, b.y);
            self.columns.set(idx, b);
            if let Some(oled) = display.as_deref_mut() {
                oled.set(b.x, b.y);
            }
        }
        self.tick = self.tick.wrapping_add(1);
    }

    /// This bird's step this tick (consuming one speed draw when the step is random).
    fn step(&mut self) -> Q15 {
        match self.params.step {
            Step::Random => q(((self.speed_rng.step() & 0x7FF) + 0x3FF) as i16),
            Step::Constant(d) => d,
        }
    }

    fn idle(&mut self, idx: usize) {
        let p = self.params;
        let birds = &self.birds[..self.count];
        let (separation, cohesion) =
            self.columns
                .collect_two(self.count, idx, p.sep_radius, p.coh_radius, p.box_quirk);
        let mut angle = birds[idx].angle;
        if !separation.is_empty() {
            // Turn away from the separation neighbours' average point.
            angle = angle.wrapping_add(turn(birds, idx, &separation, &p, p.sep_angle));
        }
        if !cohesion.is_empty() {
            // Turn towards the cohesion neighbours' average point: the opposite signs.
            angle = angle.wrapping_sub(turn(birds, idx, &cohesion, &p, p.coh_angle));
        }
        let speed = self.step();
        let b = &mut self.birds[idx];
        b.angle = angle;
        let mut pos = b.pos();
        translate16(&mut pos, b.angle, speed);
        b.x = pos.x;
        b.y = pos.y;
        // Alignment moves the heading only for the next tick's step.
        let birds = &self.birds[..self.count];
        let aligned = if cohesion.is_empty() {
            if p.carried_average {
                birds[idx].avg_angle
            } else {
                0
            }
        } else {
            let start = if p.carried_average {
                birds[idx].avg_angle
            } else {
                0
            };
            average_angle(birds, &cohesion, &p, start)
        };
        let b = &mut self.birds[idx];
        if !cohesion.is_empty() {
            b.angle = sam(b.angle, aligned);
        }
        b.avg_angle = aligned;
    }

    fn turning(&mut self, idx: usize) {
        let towards_centre = atan2(self.birds[idx].pos(), Point::ORIGIN).wrapping_add(128);
        let speed = self.step();
        let b = &mut self.birds[idx];
        // Three halvings: about an eighth of the way towards the centre.
        let m1 = sam(b.angle, towards_centre);
        let m2 = sam(b.angle, m1);
        b.angle = sam(b.angle, m2);
        let mut pos = b.pos();
        translate16(&mut pos, b.angle, speed);
        b.x = pos.x;
        b.y = pos.y;
        if !self.params.carried_average {
            b.avg_angle = 0;
        }
    }
}

/// The separation rotation (positive: add to the angle) relative to the average point of
/// `list`; cohesion uses the same table with the signs flipped.
fn turn(birds: &[Bird], idx: usize, list: &Nearby, p: &Params, step: u8) -> u8 {
    let me = birds[idx].pos();
    let centre = average_point(birds, list, p);
    let a = atan2(me, centre);
    let w = !(32..=160).contains(&a); // a > 160 or a < 32
    let v = !(96..=224).contains(&a); // a < 96 or a > 224
    let minus = 0u8.wrapping_sub(step);
    match which_quadrant(me, centre) {
        Quadrant::Quad0 => {
            if w {
                minus
            } else {
                step
            }
        }
        Quadrant::Quad3 => {
            if v {
                step
            } else {
                minus
            }
        }
        Quadrant::Quad1 => {
            if v {
                minus
            } else {
                step
            }
        }
        Quadrant::Quad2 => {
            if w {
                step
            } else {
                minus
            }
        }
    }
}

/// `NextState`, on the new position, in priority order: left, right, top, bottom.
fn next_state(x: Q15, y: Q15) -> BirdState {
    if x <= LEFT_TOP {
        BirdState::TurningW
    } else if x >= RIGHT_BOTTOM {
        BirdState::TurningE
    } else if y <= LEFT_TOP {
        BirdState::TurningN
    } else if y >= RIGHT_BOTTOM {
        BirdState::TurningS
    } else {
        BirdState::Idle
    }
}

/// The header of the reference trajectory CSVs.
pub const CSV_HEADER: &str = "tick,bird,x,y,angle,avg_angle,state";

/// One line of a trajectory CSV: `tick,bird,x,y,angle,avg_angle,state` (no newline).
#[derive(Clone, Copy, Debug)]
pub struct CsvRow<'a> {
    /// The tick (0 = right after init).
    pub tick: u32,
    /// The bird's index.
    pub index: usize,
    /// The bird.
    pub bird: &'a Bird,
}

impl core::fmt::Display for CsvRow<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let b = self.bird;
        write!(
            f,
            "{},{},{},{},{},{},{}",
            self.tick,
            self.index,
            b.x.to_bits(),
            b.y.to_bits(),
            b.angle,
            b.avg_angle,
            b.state as u8
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edge_thresholds_are_the_saturated_margins() {
        assert_eq!(RIGHT_BOTTOM, sub_sat(q(32767), q(0x1333)));
        assert_eq!(LEFT_TOP, add_sat(q(-32768), q(0x1333)));
        assert_eq!(
            (LEFT_TOP.to_bits(), RIGHT_BOTTOM.to_bits()),
            (-27853, 27852)
        );
    }

    #[test]
    fn bird_zero_starts_where_the_spec_says() {
        let f: Flock = Flock::new(Revision::A412, 48, 0x1234_5678).unwrap();
        let b = f.birds()[0];
        assert_eq!((b.x.to_bits(), b.y.to_bits(), b.angle), (32639, 19170, 139));
    }

    #[test]
    fn bad_counts_and_a_zero_seed_are_refused() {
        assert!(Flock::<48>::new(Revision::A412, 49, 1).is_err());
        assert!(Flock::<48>::new(Revision::A412, 0, 1).is_err());
        assert_eq!(
            Flock::<48>::new(Revision::Article, 48, 0).unwrap_err(),
            FlockError::ZeroSeed
        );
    }
}
