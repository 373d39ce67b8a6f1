//! The uniform neighbour grid: boids counting-sorted by cell into contiguous columns.
//!
//! Each rebuild counts the boids per cell, turns the counts into offsets with a prefix sum and
//! scatters positions and velocities into cell order, so a query walks a few short, contiguous
//! runs of memory: in 2D three rows of three cells (nine runs across the seams of a torus), in
//! 3D nine rows of cells along x, each one run.

mod key_order;
mod lanes;
mod layout;
mod nearest;
#[cfg(target_arch = "x86_64")]
mod pairs;
mod scatter;
mod sums;

pub use layout::{GridLayout, REACH_X_3D};
pub use nearest::MAX_NEAREST;
pub use sums::{NeighbourSums, SumsRequest, lane_form_name};

use crate::space::Vector;
use crate::world::WorldBounds;
use glam::Vec2;
use rayon::prelude::*;
use std::marker::PhantomData;

/// Counting-sorted boid columns plus the per-cell offsets into them.
///
/// Indices handed out by queries are *sorted* indices (positions in the columns);
/// [`NeighbourGrid::order`] maps them back to the caller's input order. Columns are stored one
/// array per axis so the neighbour loops vectorise.
#[derive(Clone, Debug, Default)]
pub struct NeighbourGrid<V: Vector = Vec2> {
    layout: GridLayout<V>,
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
    cols: Columns<V>,
    /// A second set of columns for [`NeighbourGrid::resort`] and in-place updates.
    back: Columns<V>,
    /// A second cell column for [`NeighbourGrid::replace_columns_with_cells`].
    spare_cells: Vec<u32>,
    /// `cell_of_input` already holds every boid's cell under this layout (handed in with the
    /// columns), so the next resort under the same layout need not work them out.
    cells_known: Option<GridLayout<V>>,
    /// Scratch for cells too large to insertion-sort by key (see [`NeighbourGrid::resort`]).
    key_scratch: Vec<key_order::Entry>,
    /// Scratch for a resort by keys `0..n`: the index of each key.
    slot_of_key: Vec<u32>,
}

/// Positions and velocities, one array per axis: x, y and, in 3D, z (the z arrays of a 2D
/// flock stay empty).
#[derive(Clone, Debug)]
pub struct Columns<V: Vector = Vec2> {
    /// Positions: x, y, z.
    pub pos: [Vec<f32>; 3],
    /// Velocities: x, y, z.
    pub vel: [Vec<f32>; 3],
    space: PhantomData<fn() -> V>,
}

impl<V: Vector> Default for Columns<V> {
    fn default() -> Self {
        Self {
            pos: Default::default(),
            vel: Default::default(),
            space: PhantomData,
        }
    }
}

impl<V: Vector> Columns<V> {
    /// Columns holding `pos` and `vel` (one velocity per position).
    pub fn from_state(pos: &[V], vel: &[V]) -> Self {
        assert_eq!(pos.len(), vel.len(), "one velocity per position");
        let mut c = Self::default();
        for a in 0..V::DIM {
            c.pos[a] = pos.iter().map(|p| p.axis(a)).collect();
            c.vel[a] = vel.iter().map(|v| v.axis(a)).collect();
        }
        c
    }

    /// Number of boids.
    pub fn len(&self) -> usize {
        self.pos[0].len()
    }

    /// True without boids.
    pub fn is_empty(&self) -> bool {
        self.pos[0].is_empty()
    }

    /// The space's columns: positions then velocities, `2 * DIM` of them.
    pub(crate) fn all(&self) -> impl Iterator<Item = &Vec<f32>> {
        self.pos[..V::DIM].iter().chain(&self.vel[..V::DIM])
    }

    /// The space's columns, to change: positions then velocities.
    pub(crate) fn all_mut(&mut self) -> impl Iterator<Item = &mut Vec<f32>> {
        self.pos[..V::DIM].iter_mut().chain(&mut self.vel[..V::DIM])
    }

    fn resize(&mut self, n: usize) {
        for c in self.all_mut() {
            c.resize(n, 0.0);
        }
    }

    fn capacity(&self) -> usize {
        self.all().map(Vec::capacity).sum()
    }

    /// Boid `k`'s position and velocity.
    #[inline]
    pub fn get(&self, k: usize) -> (V, V) {
        (self.pos_of(k), self.vel_of(k))
    }

    /// Boid `k`'s position.
    #[inline]
    pub fn pos_of(&self, k: usize) -> V {
        let mut p = V::ZERO;
        for a in 0..V::DIM {
            *p.axis_mut(a) = self.pos[a][k];
        }
        p
    }

    /// Boid `k`'s velocity.
    #[inline]
    pub fn vel_of(&self, k: usize) -> V {
        let mut v = V::ZERO;
        for a in 0..V::DIM {
            *v.axis_mut(a) = self.vel[a][k];
        }
        v
    }

    /// Sets boid `k`'s position and velocity.
    #[inline]
    pub fn set(&mut self, k: usize, p: V, v: V) {
        for a in 0..V::DIM {
            self.pos[a][k] = p.axis(a);
            self.vel[a][k] = v.axis(a);
        }
    }

    /// Sets boid `k`'s position.
    #[inline]
    pub fn set_pos(&mut self, k: usize, p: V) {
        for a in 0..V::DIM {
            self.pos[a][k] = p.axis(a);
        }
    }

    fn push(&mut self, p: V, v: V) {
        for a in 0..V::DIM {
            self.pos[a].push(p.axis(a));
            self.vel[a].push(v.axis(a));
        }
    }

    fn swap_remove(&mut self, k: usize) {
        for c in self.all_mut() {
            c.swap_remove(k);
        }
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
    /// The axis has too few cells on a torus for the runs either side not to meet: every cell
    /// is visited once and the nearest image is taken per pair instead of per run.
    min_image: bool,
}

impl Runs {
    /// The runs' cells, each with its shift, in order.
    #[inline]
    fn cells(&self) -> impl Iterator<Item = (usize, f32)> + '_ {
        self.runs[..self.len]
            .iter()
            .flat_map(|r| (r.first..=r.last).map(move |c| (c, r.shift)))
    }
}

/// A contiguous range of sorted indices to visit, with the shift of their images.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Span<V: Vector> {
    pub start: usize,
    pub end: usize,
    pub shift: V,
}

/// What a boid of one cell visits: the contiguous spans of the block of cells around it, built
/// by [`NeighbourGrid::block`] (in 2D three rows of three cells, in 3D nine rows along x, each
/// one span away from the seams of a torus). Every boid of the cell shares it.
#[derive(Clone, Copy, Debug)]
pub struct CellBlock<V: Vector = Vec2> {
    cell: usize,
    spans: V::Blocks<Span<V>>,
    /// Number of spans; `None` when an axis of a torus has too few cells for whole spans
    /// (queries then take the nearest image per pair).
    len: Option<usize>,
}

impl<V: Vector> CellBlock<V> {
    /// An empty block.
    pub(crate) fn empty() -> Self {
        Self {
            cell: 0,
            spans: Default::default(),
            len: None,
        }
    }

    /// The cell whose block this is.
    pub fn cell(&self) -> usize {
        self.cell
    }

    pub(crate) fn spans(&self) -> Option<&[Span<V>]> {
        self.len.map(|n| &self.spans.as_ref()[..n])
    }
}

impl<V: Vector> NeighbourGrid<V> {
    /// An empty grid; call [`NeighbourGrid::rebuild`] before querying it.
    pub fn new() -> Self {
        Self {
            layout: GridLayout::default(),
            cell_start: Vec::new(),
            cell_of_input: Vec::new(),
            cursor: Vec::new(),
            order: Vec::new(),
            rank: Vec::new(),
            cols: Columns::default(),
            back: Columns::default(),
            spare_cells: Vec::new(),
            cells_known: None,
            key_scratch: Vec::new(),
            slot_of_key: Vec::new(),
        }
    }

    /// Sorts `positions` (with their `velocities`) into cells whose side is at least `radius`.
    ///
    /// In a wrapped world the cells tile the torus exactly. In a bounded world, boids outside the
    /// box are counted in the nearest border cell, which keeps queries correct (only slower);
    /// callers whose boids roam far outside should pass a box that covers them. Buffers are
    /// reused, so after the first call with a given boid count nothing is allocated.
    pub fn rebuild(
        &mut self,
        bounds: &WorldBounds<V>,
        radius: f32,
        positions: &[V],
        velocities: &[V],
    ) {
        V::grid_rebuild(self, bounds, radius, positions, velocities)
    }

    /// The body of [`Self::rebuild`], compiled in this crate for each space (see
    /// [`crate::space::Compiled`]).
    pub(crate) fn rebuild_here(
        &mut self,
        bounds: &WorldBounds<V>,
        radius: f32,
        positions: &[V],
        velocities: &[V],
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
            self.cols.set(k, bounds.wrap(positions[i]), velocities[i]);
        }
        self.cursor = cursor;
    }

    /// Loads boids without sorting them (for [`NeighbourGrid::resort`], which sorts in place).
    pub fn load(&mut self, positions: &[V], velocities: &[V]) {
        assert_eq!(
            positions.len(),
            velocities.len(),
            "one velocity per position"
        );
        let n = positions.len();
        self.cols.resize(n);
        for (k, (&p, &v)) in positions.iter().zip(velocities).enumerate() {
            self.cols.set(k, p, v);
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
    pub fn resort(&mut self, bounds: &WorldBounds<V>, radius: f32, keys: &[u32]) {
        V::grid_resort(self, bounds, radius, keys)
    }

    /// The body of [`Self::resort`], compiled in this crate for each space (see
    /// [`crate::space::Compiled`]).
    pub(crate) fn resort_here(&mut self, bounds: &WorldBounds<V>, radius: f32, keys: &[u32]) {
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
        if !known {
            let [px, py, pz] = &mut self.cols.pos;
            let find =
                |((xs, ys), (zs, cells)): ((&mut [f32], &mut [f32]), (&mut [f32], &mut [u32]))| {
                    for (i, cell) in cells.iter_mut().enumerate() {
                        let mut p = V::ZERO;
                        for (a, col) in [&*xs, &*ys, &*zs].into_iter().enumerate().take(V::DIM) {
                            *p.axis_mut(a) = col[i];
                        }
                        let p = bounds.wrap(p);
                        for (a, col) in [&mut *xs, &mut *ys, &mut *zs]
                            .into_iter()
                            .enumerate()
                            .take(V::DIM)
                        {
                            col[i] = p.axis(a);
                        }
                        *cell = layout.cell_index(p) as u32;
                    }
                };
            const PART: usize = 4096;
            if V::DIM == 2 {
                px.par_chunks_mut(PART)
                    .zip(py.par_chunks_mut(PART))
                    .zip(self.cell_of_input.par_chunks_mut(PART))
                    .for_each(|((xs, ys), cells)| find(((xs, ys), (&mut [], cells))));
            } else {
                px.par_chunks_mut(PART)
                    .zip(py.par_chunks_mut(PART))
                    .zip(
                        pz.par_chunks_mut(PART)
                            .zip(self.cell_of_input.par_chunks_mut(PART)),
                    )
                    .for_each(find);
            }
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
    pub fn columns_mut(&mut self) -> &mut Columns<V> {
        self.cells_known = None;
        &mut self.cols
    }

    /// Appends a boid at index `len()` (unsorted until the next [`NeighbourGrid::resort`]).
    pub fn push(&mut self, pos: V, vel: V) {
        self.cols.push(pos, vel);
        self.cells_known = None;
    }

    /// Removes boid `k`, moving the last boid into its place (unsorted until the next
    /// [`NeighbourGrid::resort`]).
    pub fn swap_remove(&mut self, k: usize) {
        self.cols.swap_remove(k);
        self.cells_known = None;
    }

    /// Sets boid `k`'s position and velocity. Its cell, if the grid knows the cells for the
    /// next resort, is worked out again, so the resort still skips the others'.
    pub fn set(&mut self, k: usize, pos: V, vel: V) {
        self.cols.set(k, pos, vel);
        if self.cells_known.is_some() {
            let l = &self.layout;
            let world = WorldBounds {
                min: l.min,
                size: l.size,
                wrapped: l.wrapped,
            };
            let p = world.wrap(pos);
            self.cols.set_pos(k, p);
            self.cell_of_input[k] = l.cell_index(p) as u32;
        }
    }

    /// The columns and a cell per boid to update in place: whoever calls this writes every
    /// boid's new state and its cell under the current layout (`self.layout().cell_index(p)` of
    /// its position, wrapped into the world on a torus), as for
    /// [`NeighbourGrid::replace_columns_with_cells`].
    pub fn columns_and_cells_mut(&mut self) -> (&mut Columns<V>, &mut [u32]) {
        self.cell_of_input.resize(self.cols.len(), 0);
        self.cells_known = Some(self.layout);
        (&mut self.cols, &mut self.cell_of_input)
    }

    /// Takes the spare columns (sized like the grid) to write a new state into while the grid
    /// is read; give them back with [`NeighbourGrid::replace_columns`].
    pub fn take_spare(&mut self) -> Columns<V> {
        let mut spare = std::mem::take(&mut self.back);
        spare.resize(self.len());
        spare
    }

    /// Gives back, unused, the spare columns and cells taken with [`NeighbourGrid::take_spare`]
    /// and [`NeighbourGrid::take_spare_cells`] (so that the next take allocates nothing).
    pub fn return_spare(&mut self, columns: Columns<V>, cells: Vec<u32>) {
        self.back = columns;
        self.spare_cells = cells;
    }

    /// Makes `columns` the grid's boids (same order) and keeps the old ones as spare.
    pub fn replace_columns(&mut self, columns: Columns<V>) {
        assert_eq!(columns.len(), self.len(), "one entry per boid");
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
    pub fn replace_columns_with_cells(&mut self, columns: Columns<V>, cells: Vec<u32>) {
        assert_eq!(cells.len(), columns.len(), "one cell per boid");
        self.replace_columns(columns);
        self.spare_cells = std::mem::replace(&mut self.cell_of_input, cells);
        self.cells_known = Some(self.layout);
    }

    /// The boids' columns.
    pub fn columns(&self) -> &Columns<V> {
        &self.cols
    }

    fn prefix_sum(&mut self) {
        for c in 0..self.cell_start.len() - 1 {
            self.cell_start[c + 1] += self.cell_start[c];
        }
    }

    /// Number of boids in the grid.
    pub fn len(&self) -> usize {
        self.cols.len()
    }

    /// True when the grid holds no boid.
    pub fn is_empty(&self) -> bool {
        self.cols.is_empty()
    }

    /// The cell geometry of the last rebuild.
    pub fn layout(&self) -> &GridLayout<V> {
        &self.layout
    }

    /// Position of boid `k` (sorted index).
    #[inline]
    pub fn pos(&self, k: usize) -> V {
        self.cols.pos_of(k)
    }

    /// Velocity of boid `k` (sorted index).
    #[inline]
    pub fn vel(&self, k: usize) -> V {
        self.cols.vel_of(k)
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

    /// The cell holding sorted boid `k` and its coordinates: as the last sort found it (the
    /// cell the sort gave the boid that came to index `k`), which is where the cell ranges have
    /// it; should that not hold it (a position changed since), the cell whose range holds `k`.
    /// `k` must be an index of the grid; `inv_nx` is `1.0 / nx as f64`.
    #[inline(always)]
    pub(crate) fn cell_holding(&self, k: usize, inv_nx: f64) -> (usize, [usize; 3]) {
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
        let row = unsafe { ((cell as f64 + 0.5) * inv_nx).to_int_unchecked::<u32>() } as usize;
        let cx = cell - row * self.layout.nx;
        if V::DIM == 2 {
            (cell, [cx, row, 0])
        } else {
            let ny = self.layout.ny;
            (cell, [cx, row % ny, row / ny])
        }
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
    pub fn block(&self, cell: usize) -> CellBlock<V> {
        let mut block = CellBlock::empty();
        self.fill_block(cell, &mut block);
        block
    }

    /// [`NeighbourGrid::block`] into a block already at hand (spans past its length are stale).
    #[inline]
    pub(crate) fn fill_block(&self, cell: usize, block: &mut CellBlock<V>) {
        let coords = self.layout.coords_of(cell);
        self.fill_block_at(cell, coords, block);
    }

    /// [`NeighbourGrid::fill_block`] for the cell at `coords` (column, row, layer).
    #[inline]
    pub(crate) fn fill_block_at(
        &self,
        cell: usize,
        [cx, cy, cz]: [usize; 3],
        block: &mut CellBlock<V>,
    ) {
        let l = &self.layout;
        block.cell = cell;
        block.len = None;
        let rx = l.reach_x;
        let inside = |c: usize, n: usize, r: usize| c >= r && c + r < n;
        if V::DIM == 2 {
            if (1..l.nx.saturating_sub(1)).contains(&cx)
                && (1..l.ny.saturating_sub(1)).contains(&cy)
            {
                // Away from the grid's edges (most cells): three rows of three cells, no shifts —
                // what the general case below gives, worked out directly.
                for (r, span) in block.spans.as_mut()[..3].iter_mut().enumerate() {
                    let first = (cy + r - 1) * l.nx + cx - 1;
                    *span = Span {
                        start: self.cell_start[first] as usize,
                        end: self.cell_start[first + 3] as usize,
                        shift: V::ZERO,
                    };
                }
                block.len = Some(3);
                return;
            }
        } else if inside(cx, l.nx, rx) && inside(cy, l.ny, 1) && inside(cz, l.nz, 1) {
            // Away from the grid's faces: nine rows along x, no shifts.
            let spans = &mut block.spans.as_mut()[..9];
            for (r, span) in spans.iter_mut().enumerate() {
                let (y, z) = (cy + r % 3 - 1, cz + r / 3 - 1);
                let first = (z * l.ny + y) * l.nx + cx - rx;
                *span = Span {
                    start: self.cell_start[first] as usize,
                    end: self.cell_start[first + 2 * rx + 1] as usize,
                    shift: V::ZERO,
                };
            }
            block.len = Some(9);
            return;
        }
        self.fill_block_by_runs(cell, block);
    }

    /// The runs of cells to visit on each axis around the cell at `coords`.
    #[inline]
    fn runs_at(&self, coords: [usize; 3]) -> [Runs; 3] {
        let l = &self.layout;
        let counts = l.counts();
        let mut out = [Runs::single(); 3];
        for a in 0..V::DIM {
            let reach = if a == 0 { l.reach_x } else { 1 };
            out[a] = runs(coords[a], counts[a], reach, l.wrapped, l.size.axis(a));
        }
        out
    }

    /// [`NeighbourGrid::fill_block`] for any cell: the runs of columns, rows and layers around
    /// it.
    fn fill_block_by_runs(&self, cell: usize, block: &mut CellBlock<V>) {
        let l = &self.layout;
        block.cell = cell;
        block.len = None;
        let [cols, rows, layers] = self.runs_at(l.coords_of(cell));
        if cols.min_image || rows.min_image || layers.min_image {
            return;
        }
        let spans = block.spans.as_mut();
        let mut n = 0;
        for (z, z_shift) in layers.cells() {
            for (y, y_shift) in rows.cells() {
                let base = l.index_of([0, y, z]);
                for col in &cols.runs[..cols.len] {
                    spans[n] = Span {
                        start: self.cell_start[base + col.first] as usize,
                        end: self.cell_start[base + col.last + 1] as usize,
                        shift: V::from_axes([col.shift, y_shift, z_shift]),
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
    pub fn for_each_neighbour<F: FnMut(usize, V, f32)>(
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
        let runs = self.runs_at(l.cell_coords(p));
        let [cols, rows, layers] = runs;
        let r2 = radius * radius;
        let mut found = 0;
        for (z, z_shift) in layers.cells() {
            for (y, y_shift) in rows.cells() {
                let base = l.index_of([0, y, z]);
                for col_run in &cols.runs[..cols.len] {
                    let start = self.cell_start[base + col_run.first] as usize;
                    let end = self.cell_start[base + col_run.last + 1] as usize;
                    let shift = V::from_axes([col_run.shift, y_shift, z_shift]);
                    for j in start..end {
                        if j == k {
                            continue;
                        }
                        let mut d = self.pos(j) + shift - p;
                        for (a, axis_runs) in runs.iter().enumerate().take(V::DIM) {
                            if axis_runs.min_image {
                                let e = l.size.axis(a);
                                let x = d.axis_mut(a);
                                *x -= e * (*x / e).round();
                            }
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

impl Runs {
    /// One run of one cell (an axis the space does not have).
    const fn single() -> Self {
        let one = Run {
            first: 0,
            last: 0,
            shift: 0.0,
        };
        Self {
            runs: [one; 3],
            len: 1,
            min_image: false,
        }
    }
}

/// The cells to visit on one axis around cell `c` of `n`: `reach` cells either side.
#[inline]
fn runs(c: usize, n: usize, reach: usize, wrapped: bool, extent: f32) -> Runs {
    let one = |first, last, shift| Run { first, last, shift };
    let mut out = Runs::single();
    if wrapped && n < 2 * reach + 1 {
        out.runs[0] = one(0, n - 1, 0.0);
        out.min_image = true;
    } else if !wrapped || (c >= reach && c + reach < n) {
        out.runs[0] = one(c.saturating_sub(reach), (c + reach).min(n - 1), 0.0);
    } else if c < reach {
        // The last cells sit just below us across the seam.
        out.runs[0] = one(n - (reach - c), n - 1, -extent);
        out.runs[1] = one(0, c + reach, 0.0);
        out.len = 2;
    } else {
        // Near the top: the first cells sit just above us across the seam.
        out.runs[0] = one(c - reach, n - 1, 0.0);
        out.runs[1] = one(0, c + reach - n, extent);
        out.len = 2;
    }
    out
}

#[cfg(test)]
mod tests;
