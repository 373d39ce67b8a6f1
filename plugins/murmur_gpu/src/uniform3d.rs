//! A 3D flock's parameters as its kernels read them: one uniform block laid out as WGSL's
//! `Params` in `shaders/flock3d.wgsl` (vec3s on 16-byte boundaries, a 64-byte leader and a
//! 48-byte solid stride).

use crate::context::GpuError;
use crate::uniform::{MAX_LEADERS, NO_PLAYER, edge_mode_number, leader_mode_number, model_numbers};
use bytemuck::{Pod, Zeroable};
use glam::{Vec2, Vec3};
use murmur_core::grid::GridLayout;
use murmur_core::params::FlockParams;
use murmur_core::sim::LeaderState;
use murmur_core::solids::Solid;

/// Solids a 3D GPU flock flies round at once.
pub const MAX_SOLIDS: usize = 8;

/// One leader of a 3D flock (WGSL `Leader`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct LeaderUniform3d {
    /// Where it is.
    pub pos: [f32; 3],
    /// 0 follow, 1 flee, 2 off.
    pub mode: u32,
    /// The unit axis of the ring the flock circles on.
    pub axis: [f32; 3],
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
    /// +1 counter-clockwise about the axis, -1 clockwise.
    pub orbit_direction: f32,
    /// Birds farther than this ignore a following leader (0: none do).
    pub follow_range: f32,
    _pad: f32,
}

/// One solid (WGSL `Solid`): a sphere, a box turned about the vertical, or the ground.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct SolidUniform {
    /// The centre (sphere, box).
    pub centre: [f32; 3],
    /// 0 sphere, 1 box, 2 ground.
    pub kind: u32,
    /// Half the box's sides.
    pub half: [f32; 3],
    /// The sphere's radius, or the ground's height.
    pub size: f32,
    /// The box's turn about the vertical as the rotation `(cos, sin)` into the world's frame.
    pub turn: [f32; 2],
    /// The opposite rotation, into the box's own frame (each as glam's `Vec2::from_angle`
    /// gives it, so that both paths turn by the same bits).
    pub unturn: [f32; 2],
}

/// Everything one tick's 3D kernels read (WGSL `Params`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct FlockUniform3d {
    /// Birds.
    pub n: u32,
    /// Cells of the grid.
    pub cells: u32,
    /// Cells across (x).
    pub nx: u32,
    /// Cells up (y).
    pub ny: u32,
    /// Cells deep (z).
    pub nz: u32,
    /// Cells visited either side along x (the grid's `reach_x`).
    pub reach_x: u32,
    /// 1 on a torus.
    pub wrapped: u32,
    /// 0 turn, 1 wrap, 2 bounce, 3 none.
    pub edge_mode: u32,
    /// The lowest corner of the world (and of cell (0, 0, 0)).
    pub min: [f32; 3],
    /// Turning margin.
    pub margin: f32,
    /// World size.
    pub size: [f32; 3],
    /// Turning acceleration.
    pub turn_factor: f32,
    /// Reciprocal of a cell's sides.
    pub inv_cell: [f32; 3],
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
    /// Leaders in use.
    pub leader_count: u32,
    /// Solids in use.
    pub solid_count: u32,
    _pad: u32,
    /// Model parameters, first four.
    pub m0: [f32; 4],
    /// Model parameters, next four.
    pub m1: [f32; 4],
    /// Avoidance: look-ahead, force, clearance, and the model's near radius.
    pub avoid: [f32; 4],
    /// The leaders.
    pub leaders: [LeaderUniform3d; MAX_LEADERS],
    /// The solids.
    pub solids: [SolidUniform; MAX_SOLIDS],
}

impl FlockUniform3d {
    /// The block for `n` birds under `params` on the 3D grid `layout`; fails for models and
    /// settings the kernels do not have.
    pub fn new(
        params: &FlockParams,
        layout: &GridLayout<Vec3>,
        n: usize,
        leaders: &[LeaderState<Vec3>],
        player: Option<u32>,
        solids: &[Solid],
    ) -> Result<Self, GpuError> {
        crate::uniform::check(params)?;
        let (model, sight, near, m0, m1) = model_numbers(params);
        let a = &params.avoidance;
        let mut block = Self {
            n: n as u32,
            cells: layout.cell_count() as u32,
            nx: layout.nx as u32,
            ny: layout.ny as u32,
            nz: layout.nz as u32,
            reach_x: layout.reach_x as u32,
            wrapped: layout.wrapped as u32,
            edge_mode: edge_mode_number(params),
            min: layout.min.to_array(),
            margin: params.edges.margin,
            size: layout.size.to_array(),
            turn_factor: params.edges.turn_factor,
            inv_cell: layout.inv_cell.to_array(),
            model,
            view_min_cos: params.view_min_cos(),
            sight2: sight * sight,
            near2: near * near,
            cruise_speed: params.model.cruise_speed(),
            player: player.unwrap_or(NO_PLAYER),
            leader_count: 0,
            solid_count: 0,
            _pad: 0,
            m0,
            m1,
            avoid: [
                a.look_ahead,
                a.force,
                a.clearance,
                params.model.near_radius(),
            ],
            leaders: [LeaderUniform3d::default(); MAX_LEADERS],
            solids: [SolidUniform::default(); MAX_SOLIDS],
        };
        block.set_leaders(leaders);
        block.set_solids(solids)?;
        Ok(block)
    }

    /// Puts the first [`MAX_LEADERS`] leaders in.
    pub fn set_leaders(&mut self, leaders: &[LeaderState<Vec3>]) {
        let used = leaders.len().min(MAX_LEADERS);
        self.leader_count = used as u32;
        self.leaders = [LeaderUniform3d::default(); MAX_LEADERS];
        for (slot, leader) in self.leaders.iter_mut().zip(&leaders[..used]) {
            let p = &leader.params;
            *slot = LeaderUniform3d {
                pos: leader.pos.to_array(),
                mode: leader_mode_number(p.mode),
                axis: p.axis().to_array(),
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

    /// Puts the solids in; fails for more than [`MAX_SOLIDS`].
    pub fn set_solids(&mut self, solids: &[Solid]) -> Result<(), GpuError> {
        if solids.len() > MAX_SOLIDS {
            return Err(GpuError::TooManySolids {
                solids: solids.len(),
                most: MAX_SOLIDS,
            });
        }
        self.solid_count = solids.len() as u32;
        self.solids = [SolidUniform::default(); MAX_SOLIDS];
        for (slot, solid) in self.solids.iter_mut().zip(solids) {
            *slot = match *solid {
                Solid::Sphere { centre, radius } => SolidUniform {
                    centre: centre.to_array(),
                    kind: 0,
                    size: radius,
                    ..SolidUniform::default()
                },
                Solid::Cuboid { centre, half, yaw } => SolidUniform {
                    centre: centre.to_array(),
                    kind: 1,
                    half: half.to_array(),
                    turn: Vec2::from_angle(yaw).to_array(),
                    unturn: Vec2::from_angle(-yaw).to_array(),
                    ..SolidUniform::default()
                },
                Solid::Ground { height } => SolidUniform {
                    kind: 2,
                    size: height,
                    ..SolidUniform::default()
                },
            };
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_block_matches_the_shader_layout() {
        // WGSL: 160 bytes of scalars and vectors, then 8 leaders of 64 and 8 solids of 48.
        assert_eq!(std::mem::size_of::<LeaderUniform3d>(), 64);
        assert_eq!(std::mem::size_of::<SolidUniform>(), 48);
        assert_eq!(std::mem::offset_of!(FlockUniform3d, min), 32);
        assert_eq!(std::mem::offset_of!(FlockUniform3d, m0), 112);
        assert_eq!(std::mem::offset_of!(FlockUniform3d, leaders), 160);
        assert_eq!(std::mem::offset_of!(FlockUniform3d, solids), 160 + 8 * 64);
        assert_eq!(std::mem::size_of::<FlockUniform3d>(), 160 + 8 * 64 + 8 * 48);
    }

    #[test]
    fn more_solids_than_the_block_holds_are_refused() {
        let params = murmur_core::preset::Preset::load("reynolds3d")
            .unwrap()
            .flock_params();
        let layout = GridLayout::<Vec3>::new(&params.bounds_in(), 50.0, 10);
        let ground = [Solid::Ground { height: 0.0 }; MAX_SOLIDS + 1];
        let err = FlockUniform3d::new(&params, &layout, 10, &[], None, &ground).unwrap_err();
        assert!(err.to_string().contains("at most 8"), "{err}");
        assert!(FlockUniform3d::new(&params, &layout, 10, &[], None, &ground[1..]).is_ok());
    }
}
