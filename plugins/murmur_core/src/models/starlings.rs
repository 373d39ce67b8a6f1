//! Starlings after StarDisplay (Hildenbrandt, Carere & Hemelrijk 2010; parameters from Hemelrijk &
//! Hildenbrandt 2011, Table 1): a topological neighbourhood, flight that turns by banking, and
//! a roost to come back to. SI units: metres, seconds, newtons; "up" is the y axis.

use super::{SteerContext, check};
use crate::grid::{MAX_NEAREST, NeighbourGrid};
use crate::rng::{hash_words, unit_direction, unit_f32};
use crate::space::Vector;
use serde::{Deserialize, Serialize};

/// Parameters of the starling model. Forces are in newtons on a bird of `mass` kilograms.
#[cfg_attr(feature = "reflect", derive(bevy_reflect::Reflect))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Starlings {
    /// Seconds per tick.
    pub time_step: f32,
    /// Mass of a bird, kilograms.
    pub mass: f32,
    /// Speed a bird relaxes to, metres per second.
    pub cruise_speed: f32,
    /// Seconds the speed takes to relax to cruise (thrust against drag).
    pub speed_relaxation: f32,
    /// Steepest bank, degrees: lift tilted this far gives the sharpest turn, g tan(bank).
    pub max_bank: f32,
    /// Neighbours each bird heeds, on average (topological range, n_c): a bird heeds the
    /// floor or the ceiling of it, the share of ceilings its fraction.
    pub topological_range: f32,
    /// Farthest a heeded neighbour may be, metres (R_max).
    pub max_radius: f32,
    /// Side of the grid's cells, metres: a knob for speed only (the nearest neighbours are
    /// searched shell by shell outwards, so any side finds the same ones).
    pub cell: f32,
    /// Distance inside which a neighbour repels at full strength, metres.
    pub hard_core: f32,
    /// Distance beyond which a neighbour does not repel, metres.
    pub separation_radius: f32,
    /// Width of the Gaussian the repulsion falls off with beyond the hard core, metres.
    pub separation_sigma: f32,
    /// Weight of separation, newtons (on each neighbour inside the radius: the pushes add).
    pub separation_weight: f32,
    /// Weight of alignment, newtons.
    pub alignment_weight: f32,
    /// Weight of cohesion, newtons, at the flock's very edge: it grows from nothing at the
    /// critical centrality to this at centrality 1.
    pub cohesion_weight: f32,
    /// A bird's centrality (the length of the mean direction to its `2 n_c` nearest birds,
    /// all round: near 0 inside the flock, towards 1 at its edge) above which cohesion acts.
    pub critical_centrality: f32,
    /// Size of the random force, newtons.
    pub random_weight: f32,
    /// Blind angle behind, degrees (the whole cone): neighbours there are not heeded.
    pub blind_angle: f32,
    /// Radius round the roost (the world's centre, horizontally) within which no pull acts,
    /// metres.
    pub roost_radius: f32,
    /// Pull back towards the roost per metre outside its radius, newtons per metre.
    pub roost_pull: f32,
    /// Height above the world's centre the birds prefer, metres.
    pub roost_height: f32,
    /// Pull towards the preferred height per metre away from it, newtons per metre ...
    pub height_pull: f32,
    /// ... and at most this, newtons.
    pub max_height_pull: f32,
    /// The birds start flying within this angle of +x, degrees (the whole cone; 360: any
    /// way): a murmuration is a flock already formed.
    pub start_spread: f32,
}

impl Default for Starlings {
    fn default() -> Self {
        Self {
            time_step: 0.02,
            mass: 0.08,
            cruise_speed: 10.0,
            speed_relaxation: 1.0,
            max_bank: 60.0,
            topological_range: 6.5,
            max_radius: 100.0,
            cell: 2.0,
            hard_core: 0.2,
            separation_radius: 4.0,
            separation_sigma: 1.37,
            separation_weight: 0.25,
            alignment_weight: 1.5,
            cohesion_weight: 3.0,
            critical_centrality: 0.35,
            random_weight: 0.01,
            blind_angle: 90.0,
            roost_radius: 150.0,
            roost_pull: 0.003,
            roost_height: 0.0,
            height_pull: 0.01,
            max_height_pull: 0.2,
            start_spread: 60.0,
        }
    }
}

/// Stream tags.
const RANDOM_FORCE: u64 = 0x5354_4152_4c49_4e47;
const HEEDED: u64 = 0x5354_4152_4845_4544;

/// Gravity, metres per second squared.
const G: f32 = 9.81;

/// The neighbours a bird heeds this tick: `(distance², sorted index, offset)`, nearest first.
pub type Heeded<V> = [(f32, u32, V); MAX_NEAREST];

impl Starlings {
    /// How many neighbours the bird with stable id `id` heeds: the floor or the ceiling of the
    /// topological range, the same bird always the same.
    pub fn heeds(&self, id: u32) -> usize {
        let n = self.topological_range.clamp(0.0, MAX_NEAREST as f32);
        let ceil = unit_f32(hash_words(&[id as u64, HEEDED])) < n.fract();
        (n.floor() as usize + ceil as usize).min(MAX_NEAREST)
    }

    /// The neighbours boid `k` (a sorted index) heeds: its `want` nearest within `max_radius`
    /// outside the blind cone behind it. Returns how many were found.
    pub fn heeded<V: Vector>(
        &self,
        grid: &NeighbourGrid<V>,
        k: usize,
        want: usize,
        out: &mut Heeded<V>,
    ) -> usize {
        let heading = grid.vel(k).normalize_or(V::X);
        let min_cos = self.blind_min_cos();
        let want = want.min(MAX_NEAREST);
        grid.nearest_where(k, self.max_radius, &mut out[..want], |d, d2| {
            d.dot(heading) >= min_cos * d2.sqrt()
        })
    }

    /// The change of velocity this tick (metres per tick, per tick) and how many neighbours
    /// the bird heeded.
    pub(super) fn steer<V: Vector>(
        &self,
        grid: &NeighbourGrid<V>,
        k: usize,
        ctx: &SteerContext<V>,
    ) -> (V, u32) {
        let dt = self.time_step;
        let (p, v) = (grid.pos(k), grid.vel(k));
        let heading = v.normalize_or(V::X);
        let speed = v.length() / dt;
        let id = ctx.ids[grid.order()[k] as usize];
        // One search all round serves both the centrality (the 2 n_c nearest) and the heeded
        // neighbours (the nearest outside the blind cone): those are the first visible ones of
        // the list, unless the list ran out of visible birds before the search did.
        let heeds = self.heeds(id).min(ctx.cap);
        let ring = self.centrality_count();
        let mut around = [(0.0, 0u32, V::ZERO); MAX_NEAREST];
        let kept = ring.max(heeds);
        let m = grid.nearest_where(k, self.max_radius, &mut around[..kept], |_, _| true);
        let centrality = centrality_of(&around[..m.min(ring)]);
        let min_cos = self.blind_min_cos();
        let mut near = [(0.0, 0u32, V::ZERO); MAX_NEAREST];
        let mut n = 0;
        for &(d2, j, d) in &around[..m] {
            if n == heeds {
                break;
            }
            if d.dot(heading) >= min_cos * d2.sqrt() {
                near[n] = (d2, j, d);
                n += 1;
            }
        }
        if n < heeds && m == kept {
            n = self.heeded(grid, k, heeds, &mut near);
        }

        let (mut repel, mut headings, mut centre) = (V::ZERO, V::ZERO, V::ZERO);
        let sep2 = self.separation_radius * self.separation_radius;
        let two_sigma2 = 2.0 * self.separation_sigma * self.separation_sigma;
        for &(d2, j, d) in &near[..n] {
            let dist = d2.sqrt();
            let unit = if dist > 0.0 { d / dist } else { V::ZERO };
            if d2 < sep2 {
                let beyond = (dist - self.hard_core).max(0.0);
                repel -= unit * (-beyond * beyond / two_sigma2).exp();
            }
            headings += grid.vel(j as usize).normalize_or_zero();
            centre += d;
        }
        let mut force = V::ZERO;
        if n > 0 {
            let nf = n as f32;
            force += repel * self.separation_weight;
            let aligned = (headings / nf).normalize_or(heading);
            force += (aligned - heading) * self.alignment_weight;
            let edge = ((centrality - self.critical_centrality)
                / (1.0 - self.critical_centrality).max(f32::MIN_POSITIVE))
            .max(0.0);
            force += (centre / nf).normalize_or_zero() * (self.cohesion_weight * edge);
        }
        let h = hash_words(&[ctx.seed, id as u64, ctx.tick, RANDOM_FORCE]);
        force += unit_direction::<V>(h) * self.random_weight;
        let force = force + self.roost_force(p);

        // Flight: thrust against drag brings the speed back to cruise; lift, tilted by the
        // bank, turns the bird, at most g tan(max_bank) square to its flight.
        let along = force.dot(heading);
        let forward = along / self.mass + (self.cruise_speed - speed) / self.speed_relaxation;
        let most = G * self.max_bank.clamp(0.0, 89.0).to_radians().tan();
        let side = ((force - heading * along) / self.mass).clamp_length_max(most);
        ((heading * forward + side) * (dt * dt), n as u32)
    }

    /// How many nearest birds a bird's centrality is read from: 2 n_c.
    fn centrality_count(&self) -> usize {
        ((2.0 * self.topological_range).round() as usize).clamp(1, MAX_NEAREST)
    }

    /// The cosine of the blind cone's edge: a neighbour is seen when the cosine between the
    /// bird's heading and the direction to it is at least this.
    fn blind_min_cos(&self) -> f32 {
        -(self.blind_angle.to_radians() * 0.5).cos()
    }

    /// How one-sided boid `k`'s surroundings are: the length of the mean direction to its
    /// `2 n_c` nearest birds, all round (0 amid the flock, towards 1 at its edge).
    pub fn centrality<V: Vector>(&self, grid: &NeighbourGrid<V>, k: usize) -> f32 {
        let mut around = [(0.0, 0u32, V::ZERO); MAX_NEAREST];
        let want = self.centrality_count();
        let n = grid.nearest_where(k, self.max_radius, &mut around[..want], |_, _| true);
        centrality_of(&around[..n])
    }

    /// The roost's pull on a bird at `p`: horizontally back towards the roost once outside its
    /// radius, vertically towards the preferred height (capped).
    fn roost_force<V: Vector>(&self, p: V) -> V {
        let mut flat = p;
        *flat.axis_mut(1) = 0.0;
        let out = flat.length();
        let mut f = V::ZERO;
        if out > self.roost_radius {
            f -= flat * ((out - self.roost_radius) * self.roost_pull / out);
        }
        let above = p.axis(1) - self.roost_height;
        *f.axis_mut(1) =
            (-above * self.height_pull).clamp(-self.max_height_pull, self.max_height_pull);
        f
    }

    /// The steering result is a change of velocity.
    #[inline]
    pub(super) fn integrate_velocity<V: Vector>(&self, v: V, a: V) -> V {
        v + a
    }

    pub(super) fn validate(&self) -> Result<(), (&'static str, String)> {
        check("time_step", self.time_step, f32::MIN_POSITIVE)?;
        check("mass", self.mass, f32::MIN_POSITIVE)?;
        check("cruise_speed", self.cruise_speed, 0.0)?;
        check("speed_relaxation", self.speed_relaxation, f32::MIN_POSITIVE)?;
        check("max_bank", self.max_bank, 0.0)?;
        if self.max_bank > 89.0 {
            return Err((
                "max_bank",
                format!("at most 89 degrees, got {}", self.max_bank),
            ));
        }
        check("topological_range", self.topological_range, 0.0)?;
        if self.topological_range > MAX_NEAREST as f32 {
            return Err((
                "topological_range",
                format!(
                    "at most {MAX_NEAREST} neighbours, got {}",
                    self.topological_range
                ),
            ));
        }
        check("max_radius", self.max_radius, f32::MIN_POSITIVE)?;
        check("cell", self.cell, f32::MIN_POSITIVE)?;
        check("hard_core", self.hard_core, 0.0)?;
        check("separation_radius", self.separation_radius, 0.0)?;
        check("separation_sigma", self.separation_sigma, f32::MIN_POSITIVE)?;
        check("separation_weight", self.separation_weight, 0.0)?;
        check("alignment_weight", self.alignment_weight, 0.0)?;
        check("cohesion_weight", self.cohesion_weight, 0.0)?;
        check("critical_centrality", self.critical_centrality, 0.0)?;
        if self.critical_centrality >= 1.0 {
            return Err((
                "critical_centrality",
                format!("must be below 1, got {}", self.critical_centrality),
            ));
        }
        check("random_weight", self.random_weight, 0.0)?;
        check("blind_angle", self.blind_angle, 0.0)?;
        if self.blind_angle > 360.0 {
            return Err((
                "blind_angle",
                format!("at most 360 degrees, got {}", self.blind_angle),
            ));
        }
        check("roost_radius", self.roost_radius, 0.0)?;
        check("roost_pull", self.roost_pull, 0.0)?;
        check("roost_height", self.roost_height, f32::MIN)?;
        check("height_pull", self.height_pull, 0.0)?;
        check("max_height_pull", self.max_height_pull, 0.0)?;
        check("start_spread", self.start_spread, 0.0)
    }
}

/// The length of the mean unit vector towards the neighbours `(distance², index, offset)`.
fn centrality_of<V: Vector>(around: &[(f32, u32, V)]) -> f32 {
    if around.is_empty() {
        return 0.0;
    }
    let mut towards = V::ZERO;
    for &(d2, _, d) in around {
        if d2 > 0.0 {
            towards += d / d2.sqrt();
        }
    }
    (towards / around.len() as f32).length()
}
