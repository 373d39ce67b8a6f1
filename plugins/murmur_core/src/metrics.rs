//! Figures of a flock: order (polarization), spacing (nearest-neighbour distances), speed and
//! neighbourhood size.

use crate::grid::NeighbourGrid;
use crate::params::FlockParams;
use rayon::prelude::*;
use serde::Serialize;

/// What a flock looks like at one instant.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct FlockMetrics {
    /// Number of boids.
    pub boids: usize,
    /// Length of the mean unit velocity: 0 for random headings, 1 when all fly the same way.
    pub polarization: f64,
    /// Mean distance to the nearest other boid (`None` with fewer than two boids).
    pub mean_nn_distance: Option<f64>,
    /// Smallest distance between two boids (`None` with fewer than two boids).
    pub min_nn_distance: Option<f64>,
    /// Mean speed, in world units per tick.
    pub mean_speed: f64,
    /// Mean number of other boids within the interaction radius (before any cap).
    pub mean_neighbours: f64,
    /// Couzin's m_group: |sum of r_ic x v_i| / N with r_ic the unit vector from the group's
    /// centre (mean position) to boid i and v_i its unit heading; 0 without rotation, 1 for a
    /// perfect mill. (On a torus the centre is the plain mean of the coordinates.)
    pub angular_momentum: f64,
}

impl FlockMetrics {
    /// Measures the flock sorted into `grid` (whose radius is the model's interaction radius).
    /// Sums run in a fixed order, so the figures do not depend on the thread count.
    pub fn measure(grid: &NeighbourGrid, params: &FlockParams) -> Self {
        let n = grid.len();
        if n == 0 {
            return Self::default();
        }
        let radius = params.model.interaction_radius();
        let per_boid: Vec<(f32, f32, f32, Option<f32>, usize)> = (0..n)
            .into_par_iter()
            .map(|k| {
                let v = grid.vel(k);
                let unit = v.normalize_or_zero();
                let neighbours = grid.for_each_neighbour(k, radius, usize::MAX, |_, _, _| ());
                (
                    unit.x,
                    unit.y,
                    v.length(),
                    grid.nearest_distance(k),
                    neighbours,
                )
            })
            .collect();
        let (mut ux, mut uy, mut speed, mut nn_sum, mut neighbours) = (0.0, 0.0, 0.0, 0.0, 0usize);
        let mut nn_min = f64::INFINITY;
        let mut nn_count = 0usize;
        for &(x, y, s, nn, count) in &per_boid {
            ux += x as f64;
            uy += y as f64;
            speed += s as f64;
            neighbours += count;
            if let Some(d) = nn {
                nn_sum += d as f64;
                nn_min = nn_min.min(d as f64);
                nn_count += 1;
            }
        }
        let nf = n as f64;
        let centre = (0..n).fold(glam::DVec2::ZERO, |c, k| c + grid.pos(k).as_dvec2()) / nf;
        let spin: f64 = (0..n)
            .map(|k| {
                let r = (grid.pos(k).as_dvec2() - centre).normalize_or_zero();
                r.perp_dot(grid.vel(k).as_dvec2().normalize_or_zero())
            })
            .sum();
        Self {
            boids: n,
            polarization: (ux * ux + uy * uy).sqrt() / nf,
            mean_nn_distance: (nn_count > 0).then(|| nn_sum / nn_count as f64),
            min_nn_distance: (nn_count > 0).then_some(nn_min),
            mean_speed: speed / nf,
            mean_neighbours: neighbours as f64 / nf,
            angular_momentum: spin.abs() / nf,
        }
    }
}

/// How a flock sits round a point (a leader): the mean distance from `centre` and the mean of
/// (r x v) / (|r| |v|) about it, +1 when every bird circles it counter-clockwise; offsets the
/// short way round in a wrapped `world`. Sums in input order.
pub fn orbit_about(
    world: &crate::world::WorldBounds,
    centre: glam::Vec2,
    pos: &[glam::Vec2],
    vel: &[glam::Vec2],
) -> (f64, f64) {
    let n = pos.len().max(1) as f64;
    let (mut distance, mut spin) = (0.0, 0.0);
    for (p, v) in pos.iter().zip(vel) {
        let r = world.delta(centre, *p);
        distance += r.length() as f64;
        spin += (r.perp_dot(*v) / (r.length() * v.length()).max(1e-6)) as f64;
    }
    (distance / n, spin / n)
}

/// The two order parameters alone, cheaply (no neighbour search): polarization (|mean unit
/// velocity|, Vicsek's v_a and Couzin's p_group) and angular momentum (Couzin's m_group, about
/// the mean position). Sums in input order.
pub fn order_parameters(pos: &[glam::Vec2], vel: &[glam::Vec2]) -> (f64, f64) {
    let n = pos.len();
    if n == 0 {
        return (0.0, 0.0);
    }
    let nf = n as f64;
    let centre = pos.iter().fold(glam::DVec2::ZERO, |c, p| c + p.as_dvec2()) / nf;
    let (mut heading, mut spin) = (glam::DVec2::ZERO, 0.0);
    for (p, v) in pos.iter().zip(vel) {
        let unit = v.as_dvec2().normalize_or_zero();
        heading += unit;
        spin += (p.as_dvec2() - centre).normalize_or_zero().perp_dot(unit);
    }
    (heading.length() / nf, spin.abs() / nf)
}

/// The collective states of Couzin et al. (2002), told apart by the order parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Regime {
    /// Cohesive, neither polarised nor rotating (p < 0.5, m < 0.5).
    Swarm,
    /// Milling round an empty core (m >= 0.5, p < 0.5).
    Torus,
    /// Moving together, loosely (0.5 <= p < 0.9).
    DynamicParallel,
    /// Moving in lock step (p >= 0.9).
    HighlyParallel,
}

impl Regime {
    /// All regimes, in the paper's order.
    pub const ALL: [Regime; 4] = [
        Self::Swarm,
        Self::Torus,
        Self::DynamicParallel,
        Self::HighlyParallel,
    ];

    /// Classifies time-averaged order parameters.
    pub fn classify(polarization: f64, angular_momentum: f64) -> Self {
        if polarization >= 0.9 {
            Self::HighlyParallel
        } else if polarization >= 0.5 {
            Self::DynamicParallel
        } else if angular_momentum >= 0.5 {
            Self::Torus
        } else {
            Self::Swarm
        }
    }

    /// A name for people.
    pub fn name(self) -> &'static str {
        match self {
            Self::Swarm => "swarm",
            Self::Torus => "torus",
            Self::DynamicParallel => "dynamic parallel",
            Self::HighlyParallel => "highly parallel",
        }
    }
}
