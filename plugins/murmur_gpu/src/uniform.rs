//! The flock's parameters as the kernels read them: one uniform block laid out as WGSL's
//! `Params` in `shaders/flock.wgsl` (16-byte aligned vectors, a 48-byte leader stride).

use crate::context::GpuError;
use bytemuck::{Pod, Zeroable};
use murmur_core::edges::EdgeMode;
use murmur_core::grid::GridLayout;
use murmur_core::leader::LeaderMode;
use murmur_core::models::Model;
use murmur_core::params::FlockParams;
use murmur_core::sim::LeaderState;

/// Leaders a GPU flock reacts to at once; more are left out.
pub const MAX_LEADERS: usize = 8;

/// "No player" in [`FlockUniform::player`].
pub const NO_PLAYER: u32 = u32::MAX;

/// One leader (WGSL `Leader`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct LeaderUniform {
    /// Where it is.
    pub pos: [f32; 2],
    /// 0 follow, 1 flee, 2 off.
    pub mode: u32,
    /// See [`murmur_core::leader::LeaderParams`], as are the fields below.
    pub orbit_radius: f32,
    /// The band in which seeking turns into circling.
    pub slowing_radius: f32,
    /// Largest steering change per tick.
    pub max_force: f32,
    /// Weight of the leader's pull.
    pub weight: f32,
    /// Birds closer than this flee a fleeing leader.
    pub flee_radius: f32,
    /// Largest steering change while fleeing.
    pub flee_force: f32,
    /// +1 counter-clockwise, -1 clockwise.
    pub orbit_direction: f32,
    /// Birds farther than this ignore a following leader (0: none do).
    pub follow_range: f32,
    _pad: f32,
}

/// Everything one tick's kernels read (WGSL `Params`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct FlockUniform {
    /// Birds.
    pub n: u32,
    /// Cells of the grid.
    pub cells: u32,
    /// Cells across.
    pub nx: u32,
    /// Cells down.
    pub ny: u32,
    /// Lower-left corner of the world (and of cell (0, 0)).
    pub min: [f32; 2],
    /// World size.
    pub size: [f32; 2],
    /// Reciprocal of a cell's sides.
    pub inv_cell: [f32; 2],
    /// 1 on a torus.
    pub wrapped: u32,
    /// 0 turn, 1 wrap, 2 bounce, 3 none.
    pub edge_mode: u32,
    /// Turning margin.
    pub margin: f32,
    /// Turning acceleration.
    pub turn_factor: f32,
    /// 0 reynolds, 1 cornell.
    pub model: u32,
    /// The least cosine to a neighbour that is seen (-1: all round).
    pub view_min_cos: f32,
    /// Squared sight radius.
    pub sight2: f32,
    /// Squared near (separation) radius.
    pub near2: f32,
    /// The model's cruising speed (the leaders' desired speed).
    pub cruise_speed: f32,
    /// The player's bird id, or [`NO_PLAYER`].
    pub player: u32,
    /// Model parameters, first four.
    pub m0: [f32; 4],
    /// Model parameters, next four.
    pub m1: [f32; 4],
    /// Leaders in use.
    pub leader_count: u32,
    _pad: [u32; 3],
    /// The leaders.
    pub leaders: [LeaderUniform; MAX_LEADERS],
}

impl FlockUniform {
    /// The block for `n` birds under `params` on the flat grid `layout`; fails for models and
    /// settings the kernels do not have.
    pub fn new(
        params: &FlockParams,
        layout: &GridLayout,
        n: usize,
        leaders: &[LeaderState],
        player: Option<u32>,
    ) -> Result<Self, GpuError> {
        check(params)?;
        let (model, sight, near, m0, m1) = model_numbers(params);
        let mut block = Self {
            n: n as u32,
            cells: layout.cell_count() as u32,
            nx: layout.nx as u32,
            ny: layout.ny as u32,
            min: layout.min.to_array(),
            size: layout.size.to_array(),
            inv_cell: layout.inv_cell.to_array(),
            wrapped: layout.wrapped as u32,
            edge_mode: edge_mode_number(params),
            margin: params.edges.margin,
            turn_factor: params.edges.turn_factor,
            model,
            view_min_cos: params.view_min_cos(),
            sight2: sight * sight,
            near2: near * near,
            cruise_speed: params.model.cruise_speed(),
            player: player.unwrap_or(NO_PLAYER),
            m0,
            m1,
            leader_count: 0,
            _pad: [0; 3],
            leaders: [LeaderUniform::default(); MAX_LEADERS],
        };
        block.set_leaders(leaders);
        Ok(block)
    }

    /// Puts the first [`MAX_LEADERS`] leaders in.
    pub fn set_leaders(&mut self, leaders: &[LeaderState]) {
        let used = leaders.len().min(MAX_LEADERS);
        self.leader_count = used as u32;
        self.leaders = [LeaderUniform::default(); MAX_LEADERS];
        for (slot, leader) in self.leaders.iter_mut().zip(&leaders[..used]) {
            let p = &leader.params;
            *slot = LeaderUniform {
                pos: leader.pos.to_array(),
                mode: leader_mode_number(p.mode),
                orbit_radius: p.orbit_radius,
                slowing_radius: p.slowing_radius,
                max_force: p.max_force,
                weight: p.weight,
                flee_radius: p.flee_radius,
                flee_force: p.flee_force,
                orbit_direction: p.orbit_direction,
                follow_range: p.follow_range,
                _pad: 0.0,
            };
        }
    }
}

/// The model's number in the kernels, its sight and near radii, and its parameters as the
/// kernels read them (`m0`, `m1`); reynolds or cornell (checked first).
pub(crate) fn model_numbers(params: &FlockParams) -> (u32, f32, f32, [f32; 4], [f32; 4]) {
    match &params.model {
        Model::Reynolds(m) => (
            0,
            m.perception_radius,
            m.separation_radius,
            [
                m.max_speed,
                m.max_force,
                m.separation_force_factor,
                m.separation_weight,
            ],
            [m.alignment_weight, m.cohesion_weight, 0.0, 0.0],
        ),
        Model::Cornell(m) => (
            1,
            m.visual_range,
            m.protected_range,
            [
                m.centering_factor,
                m.avoid_factor,
                m.matching_factor,
                m.max_speed,
            ],
            [m.min_speed, 0.0, 0.0, 0.0],
        ),
        other => unreachable!("checked: {} has no kernel", other.kind().name()),
    }
}

/// The edge mode's number in the kernels.
pub(crate) fn edge_mode_number(params: &FlockParams) -> u32 {
    match params.edges.mode {
        EdgeMode::Turn => 0,
        EdgeMode::Wrap => 1,
        EdgeMode::Bounce => 2,
        EdgeMode::None => 3,
    }
}

/// The leader mode's number in the kernels.
pub(crate) fn leader_mode_number(mode: LeaderMode) -> u32 {
    match mode {
        LeaderMode::Follow => 0,
        LeaderMode::Flee => 1,
        LeaderMode::Off => 2,
    }
}

/// Fails for what the kernels do not do: models other than reynolds and cornell (in 2D or 3D),
/// a neighbour cap.
pub fn check(params: &FlockParams) -> Result<(), GpuError> {
    match &params.model {
        Model::Reynolds(_) | Model::Cornell(_) => {}
        other => return Err(GpuError::UnsupportedModel(other.kind().name())),
    }
    if params.max_neighbours != 0 {
        return Err(GpuError::NeighbourCap(params.max_neighbours));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_block_matches_the_shader_layout() {
        // WGSL: 112 bytes of scalars and vectors, 16 of padding, then 8 leaders of 48.
        assert_eq!(std::mem::size_of::<LeaderUniform>(), 48);
        assert_eq!(std::mem::size_of::<FlockUniform>(), 128 + 8 * 48);
        assert_eq!(std::mem::offset_of!(FlockUniform, m0), 80);
        assert_eq!(std::mem::offset_of!(FlockUniform, leaders), 128);
    }

    #[test]
    fn models_without_a_kernel_are_refused_by_name() {
        let params = FlockParams {
            model: Model::default_for(murmur_core::models::ModelKind::Vicsek),
            ..FlockParams::default()
        };
        let err = check(&params).unwrap_err();
        assert_eq!(err, GpuError::UnsupportedModel("vicsek"));
        assert!(err.to_string().contains("reynolds and cornell"));
    }
}
