//! Cell geometry: how a world box and an interaction radius become nx x ny (x nz) cells.

// Loops over a space's axes index several per-axis arrays at once (`for a in 0..DIM`).
#![allow(clippy::needless_range_loop)]

use crate::lanes::{LANES, Lane};
use crate::space::Vector;
use crate::world::WorldBounds;
use glam::Vec2;

/// Cells are made this much wider than the radius so that float rounding at a cell border can
/// never put two boids closer than the radius more than one cell apart.
const CELL_SLACK: f32 = 1.0 + 1e-3;

/// Upper bound on the number of cells, whatever the radius: beyond it cells grow instead.
const MAX_CELLS: usize = 1 << 24;

/// How many cells a 3D grid's cells along x are narrower than the radius: a bird then visits
/// this many cells either side of its own along x (each row of cells along x is one run of
/// memory), which trims the candidates of a 27-cell block from 3 radii along x to
/// (2 + 1 / REACH_X_3D) radii. 2D grids keep cells one radius wide.
pub const REACH_X_3D: usize = 2;

/// The grid's cell geometry.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GridLayout<V: Vector = Vec2> {
    /// Lowest corner of cell (0, 0(, 0)).
    pub min: V,
    /// World size (the period on a torus).
    pub size: V,
    /// Side lengths of one cell: at least the interaction radius, along x at least the radius
    /// over `reach_x`.
    pub cell: V,
    /// Reciprocal of `cell`.
    pub inv_cell: V,
    /// Cells across (x).
    pub nx: usize,
    /// Cells down (y).
    pub ny: usize,
    /// Cells deep (z): 1 in 2D.
    pub nz: usize,
    /// Cells a bird visits either side of its own along x (1 in 2D, [`REACH_X_3D`] in 3D);
    /// along y and z, one.
    pub reach_x: usize,
    /// The grid tiles a torus.
    pub wrapped: bool,
}

impl<V: Vector> Default for GridLayout<V> {
    fn default() -> Self {
        Self::new(&WorldBounds::centred_on_size(V::ONE, false), 1.0, 0)
    }
}

impl<V: Vector> GridLayout<V> {
    /// Lays cells of side >= `radius` over `bounds`. A non-finite or non-positive radius gives a
    /// single cell (every boid sees every other), which is slow but never wrong.
    pub fn new(bounds: &WorldBounds<V>, radius: f32, boids: usize) -> Self {
        let size = bounds.size.max(V::splat(f32::MIN_POSITIVE));
        let side = if radius.is_finite() && radius > 0.0 {
            radius * CELL_SLACK
        } else {
            f32::INFINITY
        };
        let reach_x = if V::DIM == 3 { REACH_X_3D } else { 1 };
        let side_x = if reach_x == 1 {
            side
        } else {
            side / reach_x as f32
        };
        let cells_on = |extent: f32, side: f32| -> usize {
            let n = if bounds.wrapped {
                (extent / side).floor()
            } else {
                (extent / side).ceil()
            };
            if n.is_finite() {
                n.max(1.0) as usize
            } else {
                1
            }
        };
        let mut n = [1usize; 3];
        for (a, n) in n.iter_mut().enumerate().take(V::DIM) {
            *n = cells_on(size.axis(a), if a == 0 { side_x } else { side });
        }
        // Keep memory bounded for tiny radii in huge worlds: more cells than a few per boid only
        // cost time in the prefix sum.
        let limit = MAX_CELLS.min(boids.saturating_mul(4).max(1 << 16));
        while n[0].saturating_mul(n[1]).saturating_mul(n[2]) > limit {
            for n in n.iter_mut().take(V::DIM) {
                *n = n.div_ceil(2);
            }
        }
        let mut cell = V::ZERO;
        for a in 0..V::DIM {
            let (extent, count) = (size.axis(a), n[a] as f32);
            let side = if a == 0 { side_x } else { side };
            *cell.axis_mut(a) = if bounds.wrapped {
                extent / count
            } else {
                // Bounded: cells may overhang the far edge; what matters is side >= radius.
                (extent / count).max(side.min(extent))
            };
        }
        Self {
            min: bounds.min,
            size,
            cell,
            inv_cell: cell.recip(),
            nx: n[0],
            ny: n[1],
            nz: n[2],
            reach_x,
            wrapped: bounds.wrapped,
        }
    }

    /// Number of cells.
    pub fn cell_count(&self) -> usize {
        self.nx * self.ny * self.nz
    }

    /// Cells along each axis (`nz` is 1 in 2D).
    pub fn counts(&self) -> [usize; 3] {
        [self.nx, self.ny, self.nz]
    }

    /// Column, row (and layer) of the cell holding `p` (clamped to the grid; wrapped first on a
    /// torus); the layer is 0 in 2D.
    #[inline]
    pub fn cell_coords(&self, p: V) -> [usize; 3] {
        let mut u = (p - self.min) * self.inv_cell;
        let counts = self.counts();
        let n = V::from_axes(counts.map(|c| c as f32));
        // Positions are normally wrapped already; the (slow) remainder is for the rest.
        if self.wrapped && !(u.all_ge(V::ZERO) && u.all_lt(n)) {
            u = u.rem_euclid(n);
        }
        let mut out = [0; 3];
        for a in 0..V::DIM {
            // Clamped as floats first (`max` turns NaN into 0; the largest index is exact in
            // f32 as there are at most 2^24 cells), so the truncation needs no range fix-ups.
            let c = u.axis(a).max(0.0).min((counts[a] - 1) as f32);
            // SAFETY: finite and within 0..2^24 after the clamps (NaN became 0), so the
            // truncation is exact; this spares the saturating conversion's range checks.
            out[a] = unsafe { c.to_int_unchecked::<u32>() } as usize;
        }
        out
    }

    /// The index of the cell at `coords` (column, row, layer).
    #[inline(always)]
    pub fn index_of(&self, [cx, cy, cz]: [usize; 3]) -> usize {
        if V::DIM == 2 {
            cy * self.nx + cx
        } else {
            (cz * self.ny + cy) * self.nx + cx
        }
    }

    /// The coordinates (column, row, layer) of cell `cell`.
    #[inline]
    pub fn coords_of(&self, cell: usize) -> [usize; 3] {
        let (cx, rest) = (cell % self.nx, cell / self.nx);
        [cx, rest % self.ny, rest / self.ny]
    }

    /// [`GridLayout::cell_index`] for a group of positions (one lane array per axis; the axes
    /// past the space's are not read).
    #[inline]
    pub(crate) fn cell_indices(&self, p: &[Lane; 3]) -> [u32; LANES] {
        let counts = self.counts().map(|c| c as f32);
        let mut u = [[0.0; LANES]; 3];
        let mut inside = true;
        for l in 0..LANES {
            for a in 0..V::DIM {
                u[a][l] = (p[a][l] - self.min.axis(a)) * self.inv_cell.axis(a);
                inside &= (u[a][l] >= 0.0) & (u[a][l] < counts[a]);
            }
        }
        let mut out = [0; LANES];
        if self.wrapped && !inside {
            for (l, out) in out.iter_mut().enumerate() {
                *out = self.cell_index(V::from_axes([p[0][l], p[1][l], p[2][l]])) as u32;
            }
            return out;
        }
        let last = self.counts().map(|c| (c - 1) as f32);
        for (l, out) in out.iter_mut().enumerate() {
            let mut c = [0u32; 3];
            for a in 0..V::DIM {
                let x = u[a][l].max(0.0).min(last[a]);
                // SAFETY: as in `cell_coords`: finite, and within 0..2^24 after the clamps.
                c[a] = unsafe { x.to_int_unchecked::<i32>() } as u32;
            }
            *out = if V::DIM == 2 {
                c[1] * self.nx as u32 + c[0]
            } else {
                (c[2] * self.ny as u32 + c[1]) * self.nx as u32 + c[0]
            };
        }
        out
    }

    /// Index of the cell holding `p`.
    #[inline]
    pub fn cell_index(&self, p: V) -> usize {
        self.index_of(self.cell_coords(p))
    }
}
