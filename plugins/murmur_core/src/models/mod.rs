//! The steering models: each turns a boid's neighbourhood into an acceleration for this tick and
//! says how velocity follows from it (speed limits, drag).

mod abm;
mod cornell;
mod couzin;
mod reynolds;
mod spaceboids;
mod starlings;
mod vicsek;

pub use abm::AbmFlocking;
pub use cornell::Cornell;
pub use couzin::Couzin;
pub use reynolds::Reynolds;
pub use spaceboids::SpaceBoids;
pub use starlings::{Heeded, Starlings};
pub use vicsek::Vicsek;

use crate::grid::{CellBlock, NeighbourGrid, NeighbourSums, SumsRequest};
use crate::lanes::{LANES, Lane};
use crate::space::Vector;
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// Which model a flock runs.
#[cfg_attr(feature = "reflect", derive(bevy_reflect::Reflect))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ModelKind {
    /// Craig Reynolds' steering as in the p5 leader sketch.
    Reynolds,
    /// The velocity-factor model of the Cornell / DE1-SoC boids.
    Cornell,
    /// SpaceBoids' weighted sum of normalised directions.
    SpaceBoids,
    /// Vicsek et al. (1995): mean heading of the neighbourhood plus noise.
    Vicsek,
    /// Couzin et al. (2002): zones of repulsion, orientation and attraction.
    Couzin,
    /// The agent-based-modelling frameworks comparison's "Flocking" benchmark model.
    Abm,
    /// Starlings after StarDisplay: topological neighbours, flight by banking, a roost.
    Starlings,
}

impl ModelKind {
    /// All kinds, in the order a picker shows them.
    pub const ALL: [ModelKind; 7] = [
        Self::Reynolds,
        Self::Cornell,
        Self::SpaceBoids,
        Self::Vicsek,
        Self::Couzin,
        Self::Abm,
        Self::Starlings,
    ];

    /// The name preset files use (also the name of the model's table).
    pub fn name(self) -> &'static str {
        match self {
            Self::Reynolds => "reynolds",
            Self::Cornell => "cornell",
            Self::SpaceBoids => "spaceboids",
            Self::Vicsek => "vicsek",
            Self::Couzin => "couzin",
            Self::Abm => "abm",
            Self::Starlings => "starlings",
        }
    }
}

/// A model with its parameters.
#[cfg_attr(feature = "reflect", derive(bevy_reflect::Reflect))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Model {
    /// See [`Reynolds`].
    Reynolds(Reynolds),
    /// See [`Cornell`].
    Cornell(Cornell),
    /// See [`SpaceBoids`].
    SpaceBoids(SpaceBoids),
    /// See [`Vicsek`].
    Vicsek(Vicsek),
    /// See [`Couzin`].
    Couzin(Couzin),
    /// See [`AbmFlocking`].
    Abm(AbmFlocking),
    /// See [`Starlings`].
    Starlings(Starlings),
}

/// Per-tick facts a model may need besides the neighbourhood.
#[derive(Clone, Copy, Debug)]
pub struct SteerContext<'a, V: Vector = Vec2> {
    /// Ticks since the flock started.
    pub tick: u64,
    /// The run's seed.
    pub seed: u64,
    /// Most neighbours a boid considers (`usize::MAX`: all).
    pub cap: usize,
    /// A neighbour counts only when the cosine between the boid's heading and the direction to
    /// it is at least this (-1: seen all round; see `FlockParams::view_min_cos`).
    pub view_min_cos: f32,
    /// Stable identity of each boid, by input index.
    pub ids: &'a [u32],
    /// The cells the boid being steered visits, when the caller has them at hand (a pass in
    /// cell order builds each block once for all the boids of a cell); `None` builds it per boid.
    pub block: Option<&'a CellBlock<V>>,
}

impl<V: Vector> SteerContext<'_, V> {
    /// Boid `k`'s neighbourhood sums (see [`NeighbourGrid::neighbour_sums`]) under this tick's
    /// neighbour cap and field of view.
    #[inline]
    pub fn sums(
        &self,
        grid: &NeighbourGrid<V>,
        k: usize,
        request: SumsRequest,
    ) -> NeighbourSums<V> {
        let SumsRequest { sight, near, .. } = request;
        let (cap, view) = (self.cap, self.view_min_cos);
        if cap == usize::MAX {
            let own;
            let block = match self.block {
                Some(block) => block,
                None => {
                    own = grid.block(grid.cell_of(k));
                    &own
                }
            };
            let mut out = [NeighbourSums::default()];
            grid.cell_sums(block, k..k + 1, request, view, &mut out);
            out[0]
        } else {
            match (request.near_offsets, request.inverse) {
                (false, false) => grid.neighbour_sums::<false, false>(k, sight, near, cap, view),
                (false, true) => grid.neighbour_sums::<false, true>(k, sight, near, cap, view),
                (true, false) => grid.neighbour_sums::<true, false>(k, sight, near, cap, view),
                (true, true) => grid.neighbour_sums::<true, true>(k, sight, near, cap, view),
            }
        }
    }
}

impl Model {
    /// The default parameters of a kind.
    pub fn default_for(kind: ModelKind) -> Self {
        match kind {
            ModelKind::Reynolds => Self::Reynolds(Reynolds::default()),
            ModelKind::Cornell => Self::Cornell(Cornell::default()),
            ModelKind::SpaceBoids => Self::SpaceBoids(SpaceBoids::default()),
            ModelKind::Vicsek => Self::Vicsek(Vicsek::default()),
            ModelKind::Couzin => Self::Couzin(Couzin::default()),
            ModelKind::Abm => Self::Abm(AbmFlocking::default()),
            ModelKind::Starlings => Self::Starlings(Starlings::default()),
        }
    }

    /// Which kind this is.
    pub fn kind(&self) -> ModelKind {
        match self {
            Self::Reynolds(_) => ModelKind::Reynolds,
            Self::Cornell(_) => ModelKind::Cornell,
            Self::SpaceBoids(_) => ModelKind::SpaceBoids,
            Self::Vicsek(_) => ModelKind::Vicsek,
            Self::Couzin(_) => ModelKind::Couzin,
            Self::Abm(_) => ModelKind::Abm,
            Self::Starlings(_) => ModelKind::Starlings,
        }
    }

    /// The largest distance at which a boid reacts to another: the grid's cell side.
    pub fn interaction_radius(&self) -> f32 {
        match self {
            Self::Reynolds(m) => m.perception_radius.max(m.separation_radius),
            Self::Cornell(m) => m.visual_range.max(m.protected_range),
            Self::SpaceBoids(m) => m.sight_range.max(m.near_range),
            Self::Vicsek(m) => m.radius,
            Self::Couzin(m) => m.r_a(),
            Self::Abm(m) => m.vision.max(m.separation),
            // The nearest neighbours are searched outwards from the bird's cell.
            Self::Starlings(m) => m.cell,
        }
    }

    /// The distance inside which a boid pushes others away (its personal space).
    pub fn near_radius(&self) -> f32 {
        match self {
            Self::Reynolds(m) => m.separation_radius,
            Self::Cornell(m) => m.protected_range,
            Self::SpaceBoids(m) => m.near_range,
            Self::Vicsek(m) => m.radius,
            Self::Couzin(m) => m.r_r,
            Self::Abm(m) => m.separation,
            Self::Starlings(m) => m.separation_sigma,
        }
    }

    /// Typical flying speed, used for leader steering and initial velocities.
    pub fn cruise_speed(&self) -> f32 {
        match self {
            Self::Reynolds(m) => m.max_speed,
            Self::Cornell(m) => 0.5 * (m.min_speed + m.max_speed),
            Self::SpaceBoids(m) => m.max_speed,
            Self::Vicsek(m) => m.speed,
            Self::Couzin(m) => m.speed * m.time_step,
            Self::Abm(m) => m.speed,
            Self::Starlings(m) => m.cruise_speed * m.time_step,
        }
    }

    /// The acceleration of boid `k` (a sorted index of `grid`) this tick, and how many
    /// neighbours it considered.
    #[inline]
    pub fn steer<V: Vector>(
        &self,
        grid: &NeighbourGrid<V>,
        k: usize,
        ctx: &SteerContext<V>,
    ) -> (V, u32) {
        match self.sums_request() {
            Some(request) => {
                let sums = ctx.sums(grid, k, request);
                self.steer_by_sums(grid, k, &sums, ctx)
            }
            None => match self {
                Self::Couzin(m) => m.steer(grid, k, ctx),
                Self::Starlings(m) => m.steer(grid, k, ctx),
                _ => unreachable!("every other model steers by sums"),
            },
        }
    }

    /// The neighbourhood sums the model steers by; `None` for a model that visits its
    /// neighbours one by one (Couzin's zones).
    #[inline]
    pub fn sums_request(&self) -> Option<SumsRequest> {
        match self {
            Self::Reynolds(m) => Some(m.request()),
            Self::Cornell(m) => Some(m.request()),
            Self::SpaceBoids(m) => Some(m.request()),
            Self::Vicsek(m) => Some(m.request()),
            Self::Couzin(_) | Self::Starlings(_) => None,
            Self::Abm(m) => Some(m.request()),
        }
    }

    /// [`Model::steer`] from sums already taken as [`Model::sums_request`] asks (under the
    /// context's cap and field of view), so that a pass can sum a whole cell at once. A model
    /// without a request ignores `sums`.
    #[inline]
    pub fn steer_by_sums<V: Vector>(
        &self,
        grid: &NeighbourGrid<V>,
        k: usize,
        sums: &NeighbourSums<V>,
        ctx: &SteerContext<V>,
    ) -> (V, u32) {
        match self {
            Self::Reynolds(m) => m.steer(grid, k, sums, ctx),
            Self::Cornell(m) => m.steer(grid, k, sums, ctx),
            Self::SpaceBoids(m) => m.steer(grid, k, sums, ctx),
            Self::Vicsek(m) => m.steer(grid, k, sums, ctx),
            Self::Couzin(m) => m.steer(grid, k, ctx),
            Self::Abm(m) => m.steer(grid, k, sums, ctx),
            Self::Starlings(m) => m.steer(grid, k, ctx),
        }
    }

    /// [`Model::steer_by_sums`] for the consecutive boids `first..first + sums.len()` (their
    /// sums), each result handed to `out(k, acceleration, neighbours)`: the same bits, several
    /// boids at a time where the model has a form for it.
    #[inline]
    pub fn steer_run_by_sums<V: Vector>(
        &self,
        grid: &NeighbourGrid<V>,
        first: usize,
        sums: &[NeighbourSums<V>],
        ctx: &SteerContext<V>,
        mut out: impl FnMut(usize, V, u32),
    ) {
        match self {
            Self::Abm(m) => m.steer_run(grid, first, sums, out),
            _ => {
                for (k, s) in (first..).zip(sums) {
                    let (a, count) = self.steer_by_sums(grid, k, s, ctx);
                    out(k, a, count);
                }
            }
        }
    }

    /// [`Model::integrate_velocity`] for a group of boids (velocities `v`, one lane array per
    /// axis, replaced; accelerations `a`): the same bits, eight at a time where the model has a
    /// form for it. The axes past the space's are left alone.
    #[inline]
    pub(crate) fn integrate_lanes<V: Vector>(&self, v: &mut [Lane; 3], a: &[Lane; 3]) {
        match self {
            Self::Cornell(m) => m.integrate_lanes::<V>(v, a),
            Self::Reynolds(m) => m.integrate_lanes::<V>(v, a),
            // The steering result is the new velocity.
            Self::Abm(_) => v[..V::DIM].copy_from_slice(&a[..V::DIM]),
            _ => {
                for l in 0..LANES {
                    let old = V::from_axes([v[0][l], v[1][l], v[2][l]]);
                    let new =
                        self.integrate_velocity(old, V::from_axes([a[0][l], a[1][l], a[2][l]]));
                    for (axis, lanes) in v.iter_mut().enumerate().take(V::DIM) {
                        lanes[l] = new.axis(axis);
                    }
                }
                return;
            }
        }
        // As `integrate_velocity`: a non-finite result becomes a stop.
        for l in 0..LANES {
            let mut finite = true;
            for lanes in v.iter().take(V::DIM) {
                finite &= lanes[l].is_finite();
            }
            for lanes in v.iter_mut().take(V::DIM) {
                lanes[l] = if finite { lanes[l] } else { 0.0 };
            }
        }
    }

    /// The new velocity from the old one and this tick's total acceleration.
    #[inline]
    pub fn integrate_velocity<V: Vector>(&self, v: V, a: V) -> V {
        let v = match self {
            Self::Reynolds(m) => m.integrate_velocity(v, a),
            Self::Cornell(m) => m.integrate_velocity(v, a),
            Self::SpaceBoids(m) => m.integrate_velocity(v, a),
            Self::Vicsek(m) => m.integrate_velocity(v, a),
            Self::Couzin(m) => m.integrate_velocity(v, a),
            Self::Abm(m) => m.integrate_velocity(v, a),
            Self::Starlings(m) => m.integrate_velocity(v, a),
        };
        // A non-finite acceleration (from a non-finite parameter) must not poison the flock.
        if v.is_finite() { v } else { V::ZERO }
    }

    /// Checks the parameters, naming the first bad field.
    pub fn validate(&self) -> Result<(), (&'static str, String)> {
        match self {
            Self::Reynolds(m) => m.validate(),
            Self::Cornell(m) => m.validate(),
            Self::SpaceBoids(m) => m.validate(),
            Self::Vicsek(m) => m.validate(),
            Self::Couzin(m) => m.validate(),
            Self::Abm(m) => m.validate(),
            Self::Starlings(m) => m.validate(),
        }
    }
}

/// `v` scaled to length `len`, or zero when `v` has no direction (p5's `setMag`).
#[inline]
pub(crate) fn with_length<V: Vector>(v: V, len: f32) -> V {
    v.normalize_or_zero() * len
}

/// Fails with the field's name unless `value` is finite and at least `min`.
pub(crate) fn check(
    field: &'static str,
    value: f32,
    min: f32,
) -> Result<(), (&'static str, String)> {
    if value.is_finite() && value >= min {
        Ok(())
    } else {
        // The smallest positive float stands for "above 0"; the lowest float for "any".
        let bound = if min == f32::MIN_POSITIVE {
            " > 0".to_string()
        } else if min == f32::MIN {
            String::new()
        } else {
            format!(" >= {min}")
        };
        Err((
            field,
            format!("must be a finite number{bound}, got {value}"),
        ))
    }
}
