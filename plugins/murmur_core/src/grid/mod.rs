//! The uniform neighbour grid: boids counting-sorted by cell into contiguous columns.
//!
//! Each rebuild counts the boids per cell, turns the counts into offsets with a prefix sum and
//! scatters positions and velocities into cell order, so a query walks at most nine short,
//! contiguous runs of memory (three when the 3x3 block does not cross an edge of the grid).

mod key_order;
mod lanes;
mod layout;
mod nearest;
#[cfg(target_arch = "x86_64")]
mod pairs;
mod scatter;
mod sums;

pub use layout::GridLayout;
pub use sums::{NeighbourSums, SumsRequest};

use crate::world::WorldBounds;
use glam::Vec2;
use rayon::prelude::*;

/// Counting-sorted boid columns plus the per-cell offsets into them.
///
/// Indices handed out by queries are *sorted* indices (positions in the columns);
/// [`NeighbourGrid::order`] maps them back to the caller's input order. Columns are stored as
/// separate x and y arrays so the neighbour loops vectorise.
#[derive(Clone, Debug, Default)]
pub struct NeighbourGrid {
    layout: GridLayout,
    /// `cell_start[c]..cell_start[c + 1]` are the sorted indices of the boids in cell `c`.
    cell_start: Vec<u32>,
    /// Cell of each boid before sorting (scratch for the scatter pass).
    cell_of_input: Vec<u32>,
    /// Write position per cell during the scatter (scratch, kept to avoid allocating).
    cursor: Vec<u32>,
    /// Sorted index -> input index (for [`NeighbourGrid::resort`]: the previous sorted index).
    order: Vec<u32>,
    /// Input index -> sorted index (filled by [`NeighbourGrid::rebuild`] only).
    rank: Vec<u32>,
    /// Positions and velocities in cell order.
    cols: Columns,
    /// A second set of columns for [`NeighbourGrid::resort`] and in-place updates.
    back: Columns,
    /// A second cell column for [`NeighbourGrid::replace_columns_with_cells`].
    spare_cells: Vec<u32>,
    /// `cell_of_input` already holds every boid's cell under this layout (handed in with the
    /// columns), so the next resort under the same layout need not work them out.
    cells_known: Option<GridLayout>,
    /// Scratch for cells too large to insertion-sort by key (see [`NeighbourGrid::resort`]).
    key_scratch: Vec<key_order::Entry>,
    /// Scratch for a resort by keys `0..n`: the index of each key.
    slot_of_key: Vec<u32>,
}

/// Positions and velocities as separate x and y arrays.
#[derive(Clone, Debug, Default)]
pub struct Columns {
    /// x positions.
    pub px: Vec<f32>,
    /// y positions.
    pub py: Vec<f32>,
    /// x velocities.
    pub vx: Vec<f32>,
    /// y velocities.
    pub vy: Vec<f32>,
}

impl Columns {
    fn resize(&mut self, n: usize) {
        for c in [&mut self.px, &mut self.py, &mut self.vx, &mut self.vy] {
            c.resize(n, 0.0);
        }
    }

    fn capacity(&self) -> usize {
        self.px.capacity() + self.py.capacity() + self.vx.capacity() + self.vy.capacity()
    }

    /// Boid `k`'s position and velocity.
    #[inline]
    pub fn get(&self, k: usize) -> (Vec2, Vec2) {
        (
            Vec2::new(self.px[k], self.py[k]),
            Vec2::new(self.vx[k], self.vy[k]),
        )
    }
}

/// A run of consecutive cells on one axis and the shift that brings their boids next to the
/// query point (non-zero only across the seam of a wrapped world).
#[derive(Clone, Copy, Debug)]
struct Run {
    first: usize,
    last: usize,
    shift: f32,
}

/// Up to three runs per axis.
#[derive(Clone, Copy, Debug)]
struct Runs {
    runs: [Run; 3],
    len: usize,
    /// The axis has fewer than three cells on a torus: every cell is visited once and the
    /// nearest image is taken per pair instead of per run.
    min_image: bool,
}

/// A contiguous range of sorted indices to visit, with the shift of their images.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Span {
    pub start: usize,
    pub end: usize,
    pub shift: Vec2,
}

/// What a boid of one cell visits: the contiguous spans of the 3x3 block of cells around it
/// (three when the block does not cross the seam of a torus), built by
/// [`NeighbourGrid::block`]. Every boid of the cell shares it.
#[derive(Clone, Copy, Debug)]
pub struct CellBlock {
    cell: usize,
    spans: [Span; 9],
    /// Number of spans; `None` when an axis of a torus has fewer than three cells (queries then
    /// take the nearest image per pair).
    len: Option<usize>,
}

impl CellBlock {
    /// The cell whose block this is.
    pub fn cell(&self) -> usize {
        self.cell
    }

    pub(crate) fn spans(&self) -> Option<&[Span]> {
        self.len.map(|n| &self.spans[..n])
    }
}

impl NeighbourGrid {
    /// An empty grid; call [`NeighbourGrid::rebuild`] before querying it.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sorts `positions` (with their `velocities`) into cells whose side is at least `radius`.
    ///
    /// In a wrapped world the cells tile the torus exactly. In a bounded world, boids outside the
    /// rectangle are counted in the nearest border cell, which keeps queries correct (only
    /// slower); callers whose boids roam far outside should pass a rectangle that covers them.
    /// Buffers are reused, so after the first call with a given boid count nothing is allocated.
    pub fn rebuild(
        &mut self,
        bounds: &WorldBounds,
        radius: f32,
        positions: &[Vec2],
        velocities: &[Vec2],
    ) {
        assert_eq!(
            positions.len(),
            velocities.len(),
            "one velocity per position"
        );
        self.layout = GridLayout::new(bounds, radius, positions.len());
        self.cells_known = None;
        let n = positions.len();
        let cells = self.layout.cell_count();

        self.cell_start.clear();
        self.cell_start.resize(cells + 1, 0);
        for column in [&mut self.cell_of_input, &mut self.order, &mut self.rank] {
            column.resize(n, 0);
        }
        self.cols.resize(n);

        // Count: cell_start[c + 1] holds the number of boids in cell c. On a torus positions
        // are wrapped first: the queries' seam shifts assume positions inside the period, and
        // a boid's cell is always the cell of its stored position.
        for (i, &p) in positions.iter().enumerate() {
            let c = self.layout.cell_index(bounds.wrap(p));
            self.cell_of_input[i] = c as u32;
            self.cell_start[c + 1] += 1;
        }
        self.prefix_sum();
        // Scatter, stable in input order.
        let mut cursor = std::mem::take(&mut self.cursor);
        cursor.clear();
        cursor.extend_from_slice(&self.cell_start[..cells]);
        for i in 0..n {
            let c = self.cell_of_input[i] as usize;
            let k = cursor[c] as usize;
            cursor[c] += 1;
            self.order[k] = i as u32;
            self.rank[i] = k as u32;
            let p = bounds.wrap(positions[i]);
            self.cols.px[k] = p.x;
            self.cols.py[k] = p.y;
            self.cols.vx[k] = velocities[i].x;
            self.cols.vy[k] = velocities[i].y;
        }
        self.cursor = cursor;
    }

    /// Loads boids without sorting them (for [`NeighbourGrid::resort`], which sorts in place).
    pub fn load(&mut self, positions: &[Vec2], velocities: &[Vec2]) {
        assert_eq!(
            positions.len(),
            velocities.len(),
            "one velocity per position"
        );
        let n = positions.len();
        self.cols.resize(n);
        for (k, (p, v)) in positions.iter().zip(velocities).enumerate() {
            (
                self.cols.px[k],
                self.cols.py[k],
                self.cols.vx[k],
                self.cols.vy[k],
            ) = (p.x, p.y, v.x, v.y);
        }
        self.order.clear();
        self.order.extend(0..n as u32);
        self.rank.clear();
        self.cells_known = None;
    }

    /// Sorts the grid's own boids into cells for `bounds` and `radius`: the counting sort of
    /// [`NeighbourGrid::rebuild`] without copying them in, then each cell's boids in the order
    /// of `keys` (`keys[k]`: the key of the boid now at index `k`, such as its bird id). Kept in
    /// cell order from step to step, the boids move little, so this pass reads and writes memory
    /// nearly in order. With keys in input order, the result is what [`NeighbourGrid::rebuild`]
    /// gives; [`NeighbourGrid::order`] then maps each new index to the index before the sort.
    pub fn resort(&mut self, bounds: &WorldBounds, radius: f32, keys: &[u32]) {
        let n = self.len();
        assert_eq!(keys.len(), n, "one key per boid");
        self.layout = GridLayout::new(bounds, radius, n);
        let cells = self.layout.cell_count();
        self.cell_start.clear();
        self.cell_start.resize(cells + 1, 0);
        self.cell_of_input.resize(n, 0);
        self.order.resize(n, 0);
        self.rank.clear();
        // Wrap, then find cells, in parallel (unless whoever wrote the boids did).
        let layout = self.layout;
        let known = self.cells_known.take() == Some(layout);
        let cols = &mut self.cols;
        if !known {
            cols.px
                .par_chunks_mut(4096)
                .zip(cols.py.par_chunks_mut(4096))
                .zip(self.cell_of_input.par_chunks_mut(4096))
                .for_each(|((xs, ys), cells)| {
                    for ((x, y), cell) in xs.iter_mut().zip(ys.iter_mut()).zip(cells) {
                        let p = bounds.wrap(Vec2::new(*x, *y));
                        (*x, *y) = (p.x, p.y);
                        *cell = layout.cell_index(p) as u32;
                    }
                });
        }
        self.back.resize(n);
        if scatter::sort_by_dense_keys(
            &self.cell_of_input,
            keys,
            cells,
            &mut self.cell_start,
            &mut self.cursor,
            &mut self.slot_of_key,
            &self.cols,
            &mut self.back,
            &mut self.order,
        ) {
            std::mem::swap(&mut self.cols, &mut self.back);
            return;
        }
        scatter::sort_in_parallel(
            &self.cell_of_input,
            cells,
            &mut self.cell_start,
            &mut self.cursor,
            &self.cols,
            &mut self.back,
            &mut self.order,
        );
        std::mem::swap(&mut self.cols, &mut self.back);
        key_order::order_cells_by_key(
            &self.cell_start,
            keys,
            &mut self.cols,
            &mut self.order,
            &mut self.key_scratch,
        );
    }

    /// Forgets the cells handed in with [`NeighbourGrid::replace_columns_with_cells`] (after the
    /// columns were changed some other way).
    pub fn forget_cells(&mut self) {
        self.cells_known = None;
    }

    /// The columns to change in place (the boids' cells are then worked out again).
    pub fn columns_mut(&mut self) -> &mut Columns {
        self.cells_known = None;
        &mut self.cols
    }

    /// Appends a boid at index `len()` (unsorted until the next [`NeighbourGrid::resort`]).
    pub fn push(&mut self, pos: Vec2, vel: Vec2) {
        let c = &mut self.cols;
        c.px.push(pos.x);
        c.py.push(pos.y);
        c.vx.push(vel.x);
        c.vy.push(vel.y);
        self.cells_known = None;
    }

    /// Removes boid `k`, moving the last boid into its place (unsorted until the next
    /// [`NeighbourGrid::resort`]).
    pub fn swap_remove(&mut self, k: usize) {
        let c = &mut self.cols;
        c.px.swap_remove(k);
        c.py.swap_remove(k);
        c.vx.swap_remove(k);
        c.vy.swap_remove(k);
        self.cells_known = None;
    }

    /// Sets boid `k`'s position and velocity. Its cell, if the grid knows the cells for the
    /// next resort, is worked out again, so the resort still skips the others'.
    pub fn set(&mut self, k: usize, pos: Vec2, vel: Vec2) {
        let c = &mut self.cols;
        (c.px[k], c.py[k], c.vx[k], c.vy[k]) = (pos.x, pos.y, vel.x, vel.y);
        if self.cells_known.is_some() {
            let l = &self.layout;
            let world = WorldBounds {
                min: l.min,
                size: l.size,
                wrapped: l.wrapped,
            };
            let p = world.wrap(pos);
            (c.px[k], c.py[k]) = (p.x, p.y);
            self.cell_of_input[k] = l.cell_index(p) as u32;
        }
    }

    /// The columns and a cell per boid to update in place: whoever calls this writes every
    /// boid's new state and its cell under the current layout (`self.layout().cell_index(p)` of
    /// its position, wrapped into the world on a torus), as for
    /// [`NeighbourGrid::replace_columns_with_cells`].
    pub fn columns_and_cells_mut(&mut self) -> (&mut Columns, &mut [u32]) {
        self.cell_of_input.resize(self.cols.px.len(), 0);
        self.cells_known = Some(self.layout);
        (&mut self.cols, &mut self.cell_of_input)
    }

    /// Takes the spare columns (sized like the grid) to write a new state into while the grid
    /// is read; give them back with [`NeighbourGrid::replace_columns`].
    pub fn take_spare(&mut self) -> Columns {
        let mut spare = std::mem::take(&mut self.back);
        spare.resize(self.len());
        spare
    }

    /// Gives back, unused, the spare columns and cells taken with [`NeighbourGrid::take_spare`]
    /// and [`NeighbourGrid::take_spare_cells`] (so that the next take allocates nothing).
    pub fn return_spare(&mut self, columns: Columns, cells: Vec<u32>) {
        self.back = columns;
        self.spare_cells = cells;
    }

    /// Makes `columns` the grid's boids (same order) and keeps the old ones as spare.
    pub fn replace_columns(&mut self, columns: Columns) {
        assert_eq!(columns.px.len(), self.len(), "one entry per boid");
        self.back = std::mem::replace(&mut self.cols, columns);
        self.cells_known = None;
    }

    /// A spare cell column sized like the grid, for [`NeighbourGrid::replace_columns_with_cells`].
    pub fn take_spare_cells(&mut self) -> Vec<u32> {
        let mut cells = std::mem::take(&mut self.spare_cells);
        cells.resize(self.len(), 0);
        cells
    }

    /// [`NeighbourGrid::replace_columns`], with each new boid's cell under the current layout
    /// (`self.layout().cell_index(p)` of its position, which is wrapped into the world if the
    /// world is a torus): the next [`NeighbourGrid::resort`] under the same layout then skips
    /// working them out. Wrong cells would misplace boids, so only pass what `cell_index` gave.
    pub fn replace_columns_with_cells(&mut self, columns: Columns, cells: Vec<u32>) {
        assert_eq!(cells.len(), columns.px.len(), "one cell per boid");
        self.replace_columns(columns);
        self.spare_cells = std::mem::replace(&mut self.cell_of_input, cells);
        self.cells_known = Some(self.layout);
    }

    /// The boids' columns.
    pub fn columns(&self) -> &Columns {
        &self.cols
    }

    fn prefix_sum(&mut self) {
        for c in 0..self.cell_start.len() - 1 {
            self.cell_start[c + 1] += self.cell_start[c];
        }
    }

    /// Number of boids in the grid.
    pub fn len(&self) -> usize {
        self.cols.px.len()
    }

    /// True when the grid holds no boid.
    pub fn is_empty(&self) -> bool {
        self.cols.px.is_empty()
    }

    /// The cell geometry of the last rebuild.
    pub fn layout(&self) -> &GridLayout {
        &self.layout
    }

    /// Position of boid `k` (sorted index).
    #[inline]
    pub fn pos(&self, k: usize) -> Vec2 {
        Vec2::new(self.cols.px[k], self.cols.py[k])
    }

    /// Velocity of boid `k` (sorted index).
    #[inline]
    pub fn vel(&self, k: usize) -> Vec2 {
        Vec2::new(self.cols.vx[k], self.cols.vy[k])
    }

    /// Sorted index -> input index.
    pub fn order(&self) -> &[u32] {
        &self.order
    }

    /// Input index -> sorted index.
    pub fn rank(&self) -> &[u32] {
        &self.rank
    }

    /// Sorted indices of the boids in `cell`.
    pub fn cell_range(&self, cell: usize) -> std::ops::Range<usize> {
        self.cell_start[cell] as usize..self.cell_start[cell + 1] as usize
    }

    /// Bytes held per boid by the grid's columns (capacity, not just length).
    pub fn bytes_per_boid(&self) -> f64 {
        let n = self.len().max(1) as f64;
        let u32s = self.cell_of_input.capacity()
            + self.spare_cells.capacity()
            + self.cursor.capacity()
            + self.order.capacity()
            + self.rank.capacity()
            + self.slot_of_key.capacity()
            + self.cell_start.capacity();
        let f32s = self.cols.capacity() + self.back.capacity();
        (4 * (u32s + f32s)) as f64 / n
    }

    /// The cell holding sorted boid `k` and its column and row: as the last sort found it
    /// (the cell the sort gave the boid that came to index `k`), which is where the cell
    /// ranges have it; should that not hold it (a position changed since), the cell whose
    /// range holds `k`. `k` must be an index of the grid; `inv_nx` is `1.0 / nx as f64`.
    #[inline(always)]
    pub(crate) fn cell_holding(&self, k: usize, inv_nx: f64) -> (usize, usize, usize) {
        let starts = &self.cell_start;
        let last = starts.len() - 2;
        let sorted = self
            .order
            .get(k)
            .and_then(|&i| self.cell_of_input.get(i as usize))
            .map_or(usize::MAX, |&c| c as usize);
        let mut cell = sorted.min(last);
        if !(starts[cell] as usize <= k && k < starts[cell + 1] as usize) {
            cell = self.cell_by_ranges(k);
        }
        // The row by a double's division, exact below 2^24 cells: the quotient's fraction is at
        // least 0.5 / nx away from a whole number, far more than a double's rounding.
        // SAFETY: the product is finite and between 0 and the number of rows.
        let cy = unsafe { ((cell as f64 + 0.5) * inv_nx).to_int_unchecked::<u32>() } as usize;
        (cell, cell - cy * self.layout.nx, cy)
    }

    /// The cell whose range holds sorted boid `k`, looked for from the cell of its position.
    #[cold]
    fn cell_by_ranges(&self, k: usize) -> usize {
        let starts = &self.cell_start;
        let mut cell = self.cell_of(k).min(starts.len() - 2);
        while cell > 0 && starts[cell] as usize > k {
            cell -= 1;
        }
        while starts[cell + 1] as usize <= k {
            cell += 1;
        }
        cell
    }

    /// The cell holding boid `k` (a sorted index).
    #[inline]
    pub fn cell_of(&self, k: usize) -> usize {
        self.layout.cell_index(self.pos(k))
    }

    /// The block of cells every boid of `cell` visits.
    #[inline]
    pub fn block(&self, cell: usize) -> CellBlock {
        let mut block = CellBlock {
            cell,
            spans: [Span::default(); 9],
            len: None,
        };
        self.fill_block(cell, &mut block);
        block
    }

    /// [`NeighbourGrid::block`] into a block already at hand (spans past its length are stale).
    #[inline]
    pub(crate) fn fill_block(&self, cell: usize, block: &mut CellBlock) {
        let l = &self.layout;
        self.fill_block_at(cell, cell % l.nx, cell / l.nx, block);
    }

    /// [`NeighbourGrid::fill_block`] for the cell in column `cx` and row `cy`.
    #[inline]
    pub(crate) fn fill_block_at(&self, cell: usize, cx: usize, cy: usize, block: &mut CellBlock) {
        let l = &self.layout;
        block.cell = cell;
        block.len = None;
        if (1..l.nx.saturating_sub(1)).contains(&cx) && (1..l.ny.saturating_sub(1)).contains(&cy) {
            // Away from the grid's edges (most cells): three rows of three cells, no shifts —
            // what the general case below gives, worked out directly.
            for (r, span) in block.spans[..3].iter_mut().enumerate() {
                let first = (cy + r - 1) * l.nx + cx - 1;
                *span = Span {
                    start: self.cell_start[first] as usize,
                    end: self.cell_start[first + 3] as usize,
                    shift: Vec2::ZERO,
                };
            }
            block.len = Some(3);
            return;
        }
        self.fill_block_by_runs(cell, block);
    }

    /// [`NeighbourGrid::fill_block`] for any cell: the runs of columns and rows around it.
    fn fill_block_by_runs(&self, cell: usize, block: &mut CellBlock) {
        let l = &self.layout;
        block.cell = cell;
        block.len = None;
        let cols = runs(cell % l.nx, l.nx, l.wrapped, l.size.x);
        let rows = runs(cell / l.nx, l.ny, l.wrapped, l.size.y);
        if cols.min_image || rows.min_image {
            return;
        }
        let mut n = 0;
        for row in &rows.runs[..rows.len] {
            for ry in row.first..=row.last {
                let base = ry * l.nx;
                for col in &cols.runs[..cols.len] {
                    block.spans[n] = Span {
                        start: self.cell_start[base + col.first] as usize,
                        end: self.cell_start[base + col.last + 1] as usize,
                        shift: Vec2::new(col.shift, row.shift),
                    };
                    n += 1;
                }
            }
        }
        block.len = Some(n);
    }

    /// Pairs a full neighbour pass tests: for every boid, the other boids in its block of cells.
    pub fn candidate_pairs(&self) -> u64 {
        (0..self.len())
            .into_par_iter()
            .map(|k| match self.block(self.cell_of(k)).spans() {
                Some(spans) => spans.iter().map(|s| (s.end - s.start) as u64).sum::<u64>() - 1,
                None => self.len() as u64 - 1,
            })
            .sum()
    }

    /// Calls `visit(j, offset, distance_squared)` for every other boid `j` (a sorted index) closer
    /// than `radius` to boid `k` (also sorted), where `offset` points from `k` to `j`'s nearest
    /// image. Visits cells in a fixed order, so results do not depend on threads. Stops after
    /// `cap` neighbours (the firmware's MAX_NEARBY idea); pass `usize::MAX` for no cap.
    /// Returns the number of neighbours visited.
    #[inline]
    pub fn for_each_neighbour<F: FnMut(usize, Vec2, f32)>(
        &self,
        k: usize,
        radius: f32,
        cap: usize,
        mut visit: F,
    ) -> usize {
        if cap == 0 {
            return 0;
        }
        let l = &self.layout;
        let p = self.pos(k);
        let cell = l.cell_index(p);
        let cols = runs(cell % l.nx, l.nx, l.wrapped, l.size.x);
        let rows = runs(cell / l.nx, l.ny, l.wrapped, l.size.y);
        let r2 = radius * radius;
        let mut found = 0;
        for row_run in &rows.runs[..rows.len] {
            for ry in row_run.first..=row_run.last {
                let row_base = ry * l.nx;
                for col_run in &cols.runs[..cols.len] {
                    let start = self.cell_start[row_base + col_run.first] as usize;
                    let end = self.cell_start[row_base + col_run.last + 1] as usize;
                    let shift = Vec2::new(col_run.shift, row_run.shift);
                    for j in start..end {
                        if j == k {
                            continue;
                        }
                        let mut d = self.pos(j) + shift - p;
                        if cols.min_image {
                            d.x -= l.size.x * (d.x / l.size.x).round();
                        }
                        if rows.min_image {
                            d.y -= l.size.y * (d.y / l.size.y).round();
                        }
                        let d2 = d.length_squared();
                        if d2 < r2 {
                            visit(j, d, d2);
                            found += 1;
                            if found >= cap {
                                return found;
                            }
                        }
                    }
                }
            }
        }
        found
    }
}

/// The cells to visit on one axis around cell `c` of `n`.
#[inline]
fn runs(c: usize, n: usize, wrapped: bool, extent: f32) -> Runs {
    let one = |first, last, shift| Run { first, last, shift };
    let mut out = Runs {
        runs: [one(0, 0, 0.0); 3],
        len: 1,
        min_image: false,
    };
    if wrapped && n < 3 {
        out.runs[0] = one(0, n - 1, 0.0);
        out.min_image = true;
    } else if !wrapped || (c > 0 && c + 1 < n) {
        out.runs[0] = one(c.saturating_sub(1), (c + 1).min(n - 1), 0.0);
    } else if c == 0 {
        // The last cell sits just below us across the seam.
        out.runs[0] = one(n - 1, n - 1, -extent);
        out.runs[1] = one(0, 1, 0.0);
        out.len = 2;
    } else {
        // c == n - 1: the first cell sits just above us across the seam.
        out.runs[0] = one(n - 2, n - 1, 0.0);
        out.runs[1] = one(0, 0, extent);
        out.len = 2;
    }
    out
}

#[cfg(test)]
mod tests;
