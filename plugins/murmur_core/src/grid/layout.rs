//! Cell geometry: how a world rectangle and an interaction radius become nx x ny cells.

use crate::lanes::{LANES, Lane};
use crate::world::WorldBounds;
use glam::Vec2;

/// Cells are made this much wider than the radius so that float rounding at a cell border can
/// never put two boids closer than the radius more than one cell apart.
const CELL_SLACK: f32 = 1.0 + 1e-3;

/// Upper bound on the number of cells, whatever the radius: beyond it cells grow instead.
const MAX_CELLS: usize = 1 << 24;

/// The grid's cell geometry.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GridLayout {
    /// Lower-left corner of cell (0, 0).
    pub min: Vec2,
    /// World size (the period on a torus).
    pub size: Vec2,
    /// Side lengths of one cell; each at least the interaction radius.
    pub cell: Vec2,
    /// Reciprocal of `cell`.
    pub inv_cell: Vec2,
    /// Cells across.
    pub nx: usize,
    /// Cells down.
    pub ny: usize,
    /// The grid tiles a torus.
    pub wrapped: bool,
}

impl Default for GridLayout {
    fn default() -> Self {
        Self::new(&WorldBounds::centred(1.0, 1.0, false), 1.0, 0)
    }
}

impl GridLayout {
    /// Lays cells of side >= `radius` over `bounds`. A non-finite or non-positive radius gives a
    /// single cell (every boid sees every other), which is slow but never wrong.
    pub fn new(bounds: &WorldBounds, radius: f32, boids: usize) -> Self {
        let size = bounds.size.max(Vec2::splat(f32::MIN_POSITIVE));
        let side = if radius.is_finite() && radius > 0.0 {
            radius * CELL_SLACK
        } else {
            f32::INFINITY
        };
        let cells_on = |extent: f32| -> usize {
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
        let (mut nx, mut ny) = (cells_on(size.x), cells_on(size.y));
        // Keep memory bounded for tiny radii in huge worlds: more cells than a few per boid only
        // cost time in the prefix sum.
        let limit = MAX_CELLS.min(boids.saturating_mul(4).max(1 << 16));
        while nx.saturating_mul(ny) > limit {
            nx = nx.div_ceil(2);
            ny = ny.div_ceil(2);
        }
        let cell = if bounds.wrapped {
            size / Vec2::new(nx as f32, ny as f32)
        } else {
            // Bounded: cells may overhang the far edge; what matters is side >= radius.
            Vec2::new(
                (size.x / nx as f32).max(side.min(size.x)),
                (size.y / ny as f32).max(side.min(size.y)),
            )
        };
        Self {
            min: bounds.min,
            size,
            cell,
            inv_cell: cell.recip(),
            nx,
            ny,
            wrapped: bounds.wrapped,
        }
    }

    /// Number of cells.
    pub fn cell_count(&self) -> usize {
        self.nx * self.ny
    }

    /// Column and row of the cell holding `p` (clamped to the grid; wrapped first on a torus).
    #[inline]
    pub fn cell_coords(&self, p: Vec2) -> (usize, usize) {
        let mut u = (p - self.min) * self.inv_cell;
        let n = Vec2::new(self.nx as f32, self.ny as f32);
        // Positions are normally wrapped already; the (slow) remainder is for the rest.
        if self.wrapped && !(u.cmpge(Vec2::ZERO).all() && u.cmplt(n).all()) {
            u = u.rem_euclid(n);
        }
        // Clamped as floats first (`max` turns NaN into 0; the largest index is exact in f32 as
        // there are at most 2^24 cells), so the truncation needs no range fix-ups.
        let cx = u.x.max(0.0).min((self.nx - 1) as f32);
        let cy = u.y.max(0.0).min((self.ny - 1) as f32);
        // SAFETY: both are finite and within 0..2^24 after the clamps (NaN became 0), so the
        // truncation is exact; this spares the saturating conversion's range checks.
        unsafe {
            (
                cx.to_int_unchecked::<u32>() as usize,
                cy.to_int_unchecked::<u32>() as usize,
            )
        }
    }

    /// [`GridLayout::cell_index`] for a group of positions.
    #[inline]
    pub(crate) fn cell_indices(&self, x: &Lane, y: &Lane) -> [u32; LANES] {
        let (nx, ny) = (self.nx as f32, self.ny as f32);
        let mut ux = [0.0; LANES];
        let mut uy = [0.0; LANES];
        let mut inside = true;
        for l in 0..LANES {
            ux[l] = (x[l] - self.min.x) * self.inv_cell.x;
            uy[l] = (y[l] - self.min.y) * self.inv_cell.y;
            inside &= (ux[l] >= 0.0) & (uy[l] >= 0.0) & (ux[l] < nx) & (uy[l] < ny);
        }
        let mut out = [0; LANES];
        if self.wrapped && !inside {
            for l in 0..LANES {
                out[l] = self.cell_index(Vec2::new(x[l], y[l])) as u32;
            }
            return out;
        }
        let (last_x, last_y) = ((self.nx - 1) as f32, (self.ny - 1) as f32);
        for l in 0..LANES {
            let cx = ux[l].max(0.0).min(last_x);
            let cy = uy[l].max(0.0).min(last_y);
            // SAFETY: as in `cell_coords`: finite, and within 0..2^24 after the clamps.
            let (cx, cy) = unsafe { (cx.to_int_unchecked::<i32>(), cy.to_int_unchecked::<i32>()) };
            out[l] = (cy as u32) * self.nx as u32 + cx as u32;
        }
        out
    }

    /// Index of the cell holding `p`.
    #[inline]
    pub fn cell_index(&self, p: Vec2) -> usize {
        let (cx, cy) = self.cell_coords(p);
        cy * self.nx + cx
    }
}
