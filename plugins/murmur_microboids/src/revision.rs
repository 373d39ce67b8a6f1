//! The three revisions of the model and the constants and behaviours that differ between them.

use crate::q15::{Q15, q};

/// Which version of the firmware's model to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Revision {
    /// conway `a412dae3`: the primary revision, the constants the microboids article quotes.
    A412,
    /// conway `bfee0c8` (2025-09-01): older constants, a buggy point average and a 16-bit angle
    /// average.
    Bfee0c8,
    /// The model the "microboids 101" article describes: seeded init, a carried average angle,
    /// a constant step, no pixel-era box quirk.
    Article,
}

/// How neighbour positions are averaged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PointAverage {
    /// `QMath_Avg` per coordinate.
    LowPass,
    /// bfee0c8: the x step is built from the y difference.
    Bfee0c8Bug,
}

/// How neighbour angles are averaged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AngleAverage {
    /// Linear `QMath_Avg` over the raw 8-bit angles, from 0 (a412) or from the bird's carried
    /// average (article).
    LowPass,
    /// bfee0c8: unsigned 16-bit arithmetic on angles shifted left by 7.
    Wide16,
}

/// How far a bird moves per tick.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// `(rng & 0x7FF) + 0x3FF` from the speed RNG.
    Random,
    /// A constant distance.
    Constant(Q15),
}

/// Everything that differs between revisions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    /// Half-width of the separation box.
    pub sep_radius: Q15,
    /// Half-width of the cohesion / alignment box.
    pub coh_radius: Q15,
    /// Rotation per tick for separation.
    pub sep_angle: u8,
    /// Rotation per tick for cohesion.
    pub coh_angle: u8,
    /// Weight of the old value when averaging positions.
    pub alpha_point: Q15,
    /// Weight of the old value when averaging angles.
    pub alpha_angle: Q15,
    /// The pixel-era quirk in the neighbour box (`u >= 64 -> 0`, `l >= 128 -> 0`).
    pub box_quirk: bool,
    /// Point averaging.
    pub point_average: PointAverage,
    /// Angle averaging.
    pub angle_average: AngleAverage,
    /// Each bird carries its average angle between ticks (article).
    pub carried_average: bool,
    /// Bird_Init seeds its generator from the seed (article) instead of ignoring it.
    pub seeded_init: bool,
    /// Distance per tick.
    pub step: Step,
}

/// The article's constant step per tick.
pub const DISTANCE: Q15 = q(0x0BFF);

impl Revision {
    /// All revisions.
    pub const ALL: [Revision; 3] = [Self::A412, Self::Bfee0c8, Self::Article];

    /// The name used on the command line and on the wire.
    pub fn name(self) -> &'static str {
        match self {
            Self::A412 => "a412",
            Self::Bfee0c8 => "bfee0c8",
            Self::Article => "article",
        }
    }

    /// The revision with this name.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|r| r.name() == name)
    }

    /// Its number in the board stream's HELLO (`docs/serial-protocol.md`: 0 a412, 1 the
    /// article, 2 bfee0c8).
    pub const fn protocol_number(self) -> u8 {
        match self {
            Self::A412 => 0,
            Self::Article => 1,
            Self::Bfee0c8 => 2,
        }
    }

    /// The revision a HELLO's number announces, if it is one of these.
    pub const fn from_protocol_number(number: u8) -> Option<Self> {
        match number {
            0 => Some(Self::A412),
            1 => Some(Self::Article),
            2 => Some(Self::Bfee0c8),
            _ => None,
        }
    }

    /// The revision's constants and behaviours.
    pub const fn params(self) -> Params {
        let a412 = Params {
            sep_radius: q(0x0280),
            coh_radius: q(0x4000),
            sep_angle: 0x0A,
            coh_angle: 0x01,
            alpha_point: q(0x3FFF),
            alpha_angle: q(0x3FFF),
            box_quirk: true,
            point_average: PointAverage::LowPass,
            angle_average: AngleAverage::LowPass,
            carried_average: false,
            seeded_init: false,
            step: Step::Random,
        };
        match self {
            Self::A412 => a412,
            Self::Bfee0c8 => Params {
                coh_radius: q(0x2400),
                sep_radius: q(0x0100),
                sep_angle: 0x1A,
                coh_angle: 0x1A >> 3,
                alpha_point: q(0x001F),
                alpha_angle: q(0x003F),
                point_average: PointAverage::Bfee0c8Bug,
                angle_average: AngleAverage::Wide16,
                ..a412
            },
            Self::Article => Params {
                box_quirk: false,
                carried_average: true,
                seeded_init: true,
                step: Step::Constant(DISTANCE),
                ..a412
            },
        }
    }
}
