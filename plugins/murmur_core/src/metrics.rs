//! Figures of a flock: order (polarization, angular momentum), spacing (nearest-neighbour
//! distances), speed, neighbourhood size and, in 3D, its shape.

use crate::grid::NeighbourGrid;
use crate::params::FlockParams;
use crate::space::Vector;
use glam::{DMat3, DVec3};
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
    /// A 3D flock's shape: the lengths of the three principal axes of its spread, shortest
    /// first (thickness, width, length), each the side of the uniform slab with the same
    /// variance along that axis (sqrt(12 var)). `None` for a flat flock.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shape: Option<[f64; 3]>,
}

impl FlockMetrics {
    /// Measures the flock sorted into `grid` (whose radius is the model's interaction radius).
    /// Sums run in a fixed order, so the figures do not depend on the thread count.
    pub fn measure<V: Vector>(grid: &NeighbourGrid<V>, params: &FlockParams) -> Self {
        V::measure(grid, params)
    }

    /// The body of [`Self::measure`], compiled in this crate for each space (see
    /// [`crate::space::Compiled`]).
    pub(crate) fn measure_here<V: Vector>(grid: &NeighbourGrid<V>, params: &FlockParams) -> Self {
        let n = grid.len();
        if n == 0 {
            return Self::default();
        }
        let radius = params.model.interaction_radius();
        let per_boid: Vec<(V, f32, Option<f32>, usize)> = (0..n)
            .into_par_iter()
            .map(|k| {
                let v = grid.vel(k);
                let neighbours = grid.for_each_neighbour(k, radius, usize::MAX, |_, _, _| ());
                (
                    v.normalize_or_zero(),
                    v.length(),
                    grid.nearest_distance(k),
                    neighbours,
                )
            })
            .collect();
        let (mut heading, mut speed, mut nn_sum, mut neighbours) = (DVec3::ZERO, 0.0, 0.0, 0usize);
        let mut nn_min = f64::INFINITY;
        let mut nn_count = 0usize;
        for &(unit, s, nn, count) in &per_boid {
            heading += unit.as_dvec3();
            speed += s as f64;
            neighbours += count;
            if let Some(d) = nn {
                nn_sum += d as f64;
                nn_min = nn_min.min(d as f64);
                nn_count += 1;
            }
        }
        let nf = n as f64;
        let pos: Vec<V> = (0..n).map(|k| grid.pos(k)).collect();
        let vel: Vec<V> = (0..n).map(|k| grid.vel(k)).collect();
        let (_, spin) = order_parameters(&pos, &vel);
        Self {
            boids: n,
            polarization: heading.length() / nf,
            mean_nn_distance: (nn_count > 0).then(|| nn_sum / nn_count as f64),
            min_nn_distance: (nn_count > 0).then_some(nn_min),
            mean_speed: speed / nf,
            mean_neighbours: neighbours as f64 / nf,
            angular_momentum: spin,
            shape: (V::DIM == 3).then(|| shape(&pos)),
        }
    }
}

/// The lengths of the three principal axes of the positions' spread, shortest first: the
/// square roots of the covariance's eigenvalues, times sqrt(12) (the side of the uniform slab
/// with that variance). Sums in input order.
pub fn shape<V: Vector>(pos: &[V]) -> [f64; 3] {
    let n = pos.len();
    if n < 2 {
        return [0.0; 3];
    }
    let nf = n as f64;
    let centre = pos.iter().fold(DVec3::ZERO, |c, p| c + p.as_dvec3()) / nf;
    let mut cov = [[0.0f64; 3]; 3];
    for p in pos {
        let d = p.as_dvec3() - centre;
        let d = d.to_array();
        for i in 0..3 {
            for j in 0..3 {
                cov[i][j] += d[i] * d[j];
            }
        }
    }
    for row in &mut cov {
        for x in row.iter_mut() {
            *x /= nf;
        }
    }
    let mut values = symmetric_eigenvalues(cov);
    values.sort_by(f64::total_cmp);
    values.map(|v| (12.0 * v.max(0.0)).sqrt())
}

/// The eigenvalues of a symmetric 3x3 matrix, by Jacobi rotations (exact to double rounding
/// after a few sweeps; the figures need no more).
fn symmetric_eigenvalues(mut a: [[f64; 3]; 3]) -> [f64; 3] {
    for _ in 0..50 {
        let off = a[0][1].powi(2) + a[0][2].powi(2) + a[1][2].powi(2);
        let scale = a[0][0].powi(2) + a[1][1].powi(2) + a[2][2].powi(2);
        if off <= 1e-30 * scale.max(f64::MIN_POSITIVE) {
            break;
        }
        for (p, q) in [(0, 1), (0, 2), (1, 2)] {
            if a[p][q] == 0.0 {
                continue;
            }
            let theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
            let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
            let t = if theta == 0.0 { 1.0 } else { t };
            let c = 1.0 / (t * t + 1.0).sqrt();
            let s = t * c;
            let m = DMat3::from_cols_array_2d(&a);
            let mut r = DMat3::IDENTITY;
            r.col_mut(p)[p] = c;
            r.col_mut(q)[q] = c;
            r.col_mut(q)[p] = s;
            r.col_mut(p)[q] = -s;
            a = (r.transpose() * m * r).to_cols_array_2d();
        }
    }
    [a[0][0], a[1][1], a[2][2]]
}

/// How a flock sits round a point (a leader): the mean distance from `centre` and the mean of
/// (r x v) / (|r| |v|) about it, +1 when every bird circles it counter-clockwise; offsets the
/// short way round in a wrapped `world`. Sums in input order. In 3D the circling is about the
/// vertical axis (the component of r x v along +y).
pub fn orbit_about<V: Vector>(
    world: &crate::world::WorldBounds<V>,
    centre: V,
    pos: &[V],
    vel: &[V],
) -> (f64, f64) {
    let n = pos.len().max(1) as f64;
    let (mut distance, mut spin) = (0.0, 0.0);
    for (p, v) in pos.iter().zip(vel) {
        let r = world.delta(centre, *p);
        distance += r.length() as f64;
        spin += (about_normal(r, *v) / (r.length() * v.length()).max(1e-6)) as f64;
    }
    (distance / n, spin / n)
}

/// The rotation of `v` about the plane's normal at `r` (2D: the perp dot product), or about
/// +y in 3D (counter-clockwise seen from above).
#[inline]
fn about_normal<V: Vector>(r: V, v: V) -> f32 {
    if V::DIM == 2 {
        r.to_vec2().perp_dot(v.to_vec2())
    } else {
        r.to_vec3().cross(v.to_vec3()).y
    }
}

/// The two order parameters alone, cheaply (no neighbour search): polarization (|mean unit
/// velocity|, Vicsek's v_a and Couzin's p_group) and angular momentum (Couzin's m_group, about
/// the mean position: in 3D the length of the mean of r_ic x v_i). Sums in input order.
pub fn order_parameters<V: Vector>(pos: &[V], vel: &[V]) -> (f64, f64) {
    let n = pos.len();
    if n == 0 {
        return (0.0, 0.0);
    }
    let nf = n as f64;
    if V::DIM == 2 {
        let centre = pos
            .iter()
            .fold(glam::DVec2::ZERO, |c, p| c + p.to_vec2().as_dvec2())
            / nf;
        let (mut heading, mut spin) = (glam::DVec2::ZERO, 0.0);
        for (p, v) in pos.iter().zip(vel) {
            let unit = v.to_vec2().as_dvec2().normalize_or_zero();
            heading += unit;
            spin += (p.to_vec2().as_dvec2() - centre)
                .normalize_or_zero()
                .perp_dot(unit);
        }
        return (heading.length() / nf, spin.abs() / nf);
    }
    let centre = pos.iter().fold(DVec3::ZERO, |c, p| c + p.as_dvec3()) / nf;
    let (mut heading, mut spin) = (DVec3::ZERO, DVec3::ZERO);
    for (p, v) in pos.iter().zip(vel) {
        let unit = v.as_dvec3().normalize_or_zero();
        heading += unit;
        spin += (p.as_dvec3() - centre).normalize_or_zero().cross(unit);
    }
    (heading.length() / nf, spin.length() / nf)
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
