//! Couzin et al. (2002): zones of repulsion, orientation and attraction, a blind angle behind,
//! a maximum turning rate, rotational noise, constant speed, time step 0.1 s.

use super::{SteerContext, check};
use crate::grid::NeighbourGrid;
use crate::rng::{hash_words, unit_f32};
use crate::space::Vector;
use serde::{Deserialize, Serialize};

/// Parameters of the Couzin model (the paper's symbols; angles in degrees, times in seconds).
#[cfg_attr(feature = "reflect", derive(bevy_reflect::Reflect))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Couzin {
    /// Radius of the zone of repulsion, r_r.
    pub r_r: f32,
    /// Width of the zone of orientation, delta r_o.
    pub delta_r_o: f32,
    /// Width of the zone of attraction, delta r_a.
    pub delta_r_a: f32,
    /// Blind angle behind each individual, alpha's complement: neighbours within this angle
    /// straight behind are not seen (degrees; 360 - field of perception).
    pub blind_angle: f32,
    /// Maximum turning rate theta, degrees per second.
    pub turning_rate: f32,
    /// Speed s, units per second.
    pub speed: f32,
    /// Standard deviation of the rotational noise sigma, radians.
    pub noise: f32,
    /// Time step tau, seconds (one tick).
    pub time_step: f32,
}

impl Default for Couzin {
    fn default() -> Self {
        Self {
            r_r: 1.0,
            delta_r_o: 2.0,
            delta_r_a: 14.0,
            blind_angle: 90.0,
            turning_rate: 40.0,
            speed: 3.0,
            noise: 0.05,
            time_step: 0.1,
        }
    }
}

/// Stream tags for the noise draws.
const NOISE_A: u64 = 0x434f_555a_494e_5f41;
const NOISE_B: u64 = 0x434f_555a_494e_5f42;
const NOISE_C: u64 = 0x434f_555a_494e_5f43;

impl Couzin {
    /// Radius of the zone of orientation.
    pub fn r_o(&self) -> f32 {
        self.r_r + self.delta_r_o
    }

    /// Radius of the zone of attraction (the interaction radius).
    pub fn r_a(&self) -> f32 {
        self.r_o() + self.delta_r_a
    }

    /// The new velocity (returned in place of an acceleration; see `integrate_velocity`).
    pub(super) fn steer<V: Vector>(
        &self,
        grid: &NeighbourGrid<V>,
        k: usize,
        ctx: &SteerContext<V>,
    ) -> (V, u32) {
        let v = grid.vel(k);
        let heading = v.normalize_or(V::X);
        let (r_r2, r_o2) = (self.r_r * self.r_r, self.r_o() * self.r_o());
        // Seen unless within half the blind angle of straight behind.
        let min_cos = -(self.blind_angle.to_radians() * 0.5).cos();
        let (mut repel, mut orient, mut attract) = (V::ZERO, V::ZERO, V::ZERO);
        let (mut n_r, mut n_o, mut n_a) = (0u32, 0u32, 0u32);
        grid.for_each_neighbour(k, self.r_a(), ctx.cap, |j, d, d2| {
            let dist = d2.sqrt();
            let Some(towards) = (d / dist).is_finite().then_some(d / dist) else {
                return; // coincident: no direction
            };
            if towards.dot(heading) < min_cos {
                return;
            }
            if d2 < r_r2 {
                repel -= towards;
                n_r += 1;
            } else if d2 < r_o2 {
                orient += grid.vel(j).normalize_or_zero();
                n_o += 1;
            } else {
                attract += towards;
                n_a += 1;
            }
        });
        // Repulsion overrides; otherwise orientation (itself included) and attraction, halved
        // when both act.
        let desired = if n_r > 0 {
            repel
        } else {
            match (n_o > 0, n_a > 0) {
                (true, true) => {
                    ((orient + heading).normalize_or_zero() + attract.normalize_or_zero()) * 0.5
                }
                (true, false) => orient + heading,
                (false, true) => attract,
                (false, false) => heading,
            }
        };
        let desired = desired.normalize_or(heading);
        // Rotational noise: a Gaussian angle with standard deviation `noise` (Box-Muller); in
        // 3D (the paper's space) about an axis square to the direction, at a uniform angle
        // round it (a third draw).
        let id = ctx.ids[grid.order()[k] as usize] as u64;
        let u1 = unit_f32(hash_words(&[ctx.seed, id, ctx.tick, NOISE_A])).max(1e-7);
        let u2 = unit_f32(hash_words(&[ctx.seed, id, ctx.tick, NOISE_B]));
        let gauss = (-2.0 * u1.ln()).sqrt() * (std::f32::consts::TAU * u2).cos();
        let spin = if V::DIM == 3 {
            unit_f32(hash_words(&[ctx.seed, id, ctx.tick, NOISE_C])) * std::f32::consts::TAU
        } else {
            0.0
        };
        let desired = V::deflect(desired, gauss * self.noise, spin);
        // Turn towards it by at most theta * tau.
        let max_turn = self.turning_rate.to_radians() * self.time_step;
        let new_heading = V::turn_towards(heading, desired, max_turn);
        (new_heading * self.speed * self.time_step, n_r + n_o + n_a)
    }

    /// The steering result *is* the new velocity.
    #[inline]
    pub(super) fn integrate_velocity<V: Vector>(&self, _v: V, a: V) -> V {
        a
    }

    pub(super) fn validate(&self) -> Result<(), (&'static str, String)> {
        check("r_r", self.r_r, 0.0)?;
        check("delta_r_o", self.delta_r_o, 0.0)?;
        check("delta_r_a", self.delta_r_a, 0.0)?;
        if self.r_a() <= 0.0 {
            return Err(("delta_r_a", "the zones must have some width".into()));
        }
        check("blind_angle", self.blind_angle, 0.0)?;
        if self.blind_angle > 360.0 {
            return Err((
                "blind_angle",
                format!("at most 360 degrees, got {}", self.blind_angle),
            ));
        }
        check("turning_rate", self.turning_rate, 0.0)?;
        check("speed", self.speed, 0.0)?;
        check("noise", self.noise, 0.0)?;
        check("time_step", self.time_step, f32::MIN_POSITIVE)
    }
}
