//! After the counting sort: each cell's boids put in the order of a key (the birds' ids), so
//! that the order in which a boid's neighbours are summed — and with it every rounding — depends
//! only on where the birds are, not on the order they were stored in before. A grid rebuilt from
//! columns in id order and a grid kept in cell order from tick to tick then hold the very same
//! sequence.
//!
//! Birds move little between ticks, so a cell is usually sorted already, or nearly (a bird or
//! two came in from a neighbouring cell): insertion sort, cell by cell, in parallel. A large
//! cell far from sorted (only a flock loaded in a shuffled order, all in one place) is sorted
//! apart, with a scratch buffer the grid keeps (room for every boid, allocated the first time
//! such a cell turns up).

use super::Columns;
use crate::space::Vector;
use rayon::prelude::*;

/// Cells up to this size are insertion-sorted in place; larger unsorted ones are sorted apart.
const INSERTION_MAX: usize = 48;

/// Below this many boids one thread does it all.
const PARALLEL_FROM: usize = 16_384;

/// A boid being moved during the sort: its key and its columns (positions then velocities,
/// the first `2 * DIM` used).
#[derive(Clone, Copy, Debug)]
pub(super) struct Entry {
    key: u32,
    order: u32,
    values: [f32; 6],
}

/// Raw pointers to the columns (the first `2 * DIM` of them), for parts that own disjoint
/// ranges of them.
struct Parts<V> {
    columns: [*mut f32; 6],
    order: *mut u32,
    space: std::marker::PhantomData<fn() -> V>,
}

impl<V> Clone for Parts<V> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<V> Copy for Parts<V> {}

// SAFETY: each part only touches the sorted indices of its own cells (disjoint ranges).
unsafe impl<V> Sync for Parts<V> {}
// SAFETY: as above.
unsafe impl<V> Send for Parts<V> {}

/// Views of one range of the columns (the first `2 * dim` of them).
struct Range<'a, V> {
    columns: [&'a mut [f32]; 6],
    order: &'a mut [u32],
    space: std::marker::PhantomData<fn() -> V>,
}

impl<V: Vector> Parts<V> {
    /// # Safety
    /// `start..end` lies within the columns and no other live `Range` overlaps it.
    unsafe fn range<'a>(self, start: usize, end: usize) -> Range<'a, V> {
        let len = end - start;
        // SAFETY: passed on from the caller; the columns past `2 * DIM` are empty views.
        unsafe {
            Range {
                columns: std::array::from_fn(|c| {
                    if c < 2 * V::DIM {
                        std::slice::from_raw_parts_mut(self.columns[c].add(start), len)
                    } else {
                        &mut []
                    }
                }),
                order: std::slice::from_raw_parts_mut(self.order.add(start), len),
                space: std::marker::PhantomData,
            }
        }
    }
}

impl<V: Vector> Range<'_, V> {
    fn get(&self, keys: &[u32], i: usize) -> Entry {
        let order = self.order[i];
        let c = &self.columns;
        let mut values = [c[0][i], c[1][i], c[2][i], c[3][i], 0.0, 0.0];
        if V::DIM == 3 {
            (values[4], values[5]) = (c[4][i], c[5][i]);
        }
        Entry {
            key: keys[order as usize],
            order,
            values,
        }
    }

    fn set(&mut self, i: usize, e: Entry) {
        self.order[i] = e.order;
        let [c0, c1, c2, c3, c4, c5] = &mut self.columns;
        (c0[i], c1[i], c2[i], c3[i]) = (e.values[0], e.values[1], e.values[2], e.values[3]);
        if V::DIM == 3 {
            (c4[i], c5[i]) = (e.values[4], e.values[5]);
        }
    }

    /// Sorts `from..to` by key with insertion sort (stable; keys are unique in practice).
    fn insertion_sort(&mut self, keys: &[u32], from: usize, to: usize) {
        for i in from + 1..to {
            let key = keys[self.order[i] as usize];
            if keys[self.order[i - 1] as usize] <= key {
                continue;
            }
            let moving = self.get(keys, i);
            let mut j = i;
            while j > from && keys[self.order[j - 1] as usize] > key {
                let prev = self.get(keys, j - 1);
                self.set(j, prev);
                j -= 1;
            }
            self.set(j, moving);
        }
    }

    fn is_sorted(&self, keys: &[u32], from: usize, to: usize) -> bool {
        self.order[from..to]
            .windows(2)
            .all(|w| keys[w[0] as usize] <= keys[w[1] as usize])
    }
}

/// Puts the boids of every cell in key order: `keys[i]` is the key of the boid whose index
/// before the sort was `i` (`order` maps sorted indices to those). `scratch` is kept between
/// calls for large cells.
pub(super) fn order_cells_by_key<V: Vector>(
    cell_start: &[u32],
    keys: &[u32],
    cols: &mut Columns<V>,
    order: &mut [u32],
    scratch: &mut Vec<Entry>,
) {
    let n = order.len();
    let cells = cell_start.len().saturating_sub(1);
    assert!(
        keys.len() == n && cols.len() == n && cell_start.last().is_none_or(|&e| e as usize == n),
        "one key per boid"
    );
    let parts = if n < PARALLEL_FROM {
        1
    } else {
        (4 * rayon::current_num_threads()).clamp(1, 256)
    };
    let mut columns = [std::ptr::null_mut(); 6];
    for (c, column) in columns.iter_mut().zip(cols.all_mut()) {
        *c = column.as_mut_ptr();
    }
    let ptrs = Parts::<V> {
        columns,
        order: order.as_mut_ptr(),
        space: std::marker::PhantomData,
    };
    let cells_per_part = cells.div_ceil(parts).max(1);
    // Each part: its cells, insertion-sorted where small; says whether a large one is unsorted.
    let part = |p: usize| {
        let (c0, c1) = (
            (p * cells_per_part).min(cells),
            ((p + 1) * cells_per_part).min(cells),
        );
        let (start, end) = (cell_start[c0] as usize, cell_start[c1] as usize);
        // SAFETY: the parts' cell ranges are disjoint, so are their sorted index ranges
        // (cell_start is non-decreasing and ends at n).
        let mut range = unsafe { ptrs.range(start, end) };
        let mut big = false;
        for c in c0..c1 {
            let (from, to) = (
                cell_start[c] as usize - start,
                cell_start[c + 1] as usize - start,
            );
            if to - from < 2 || range.is_sorted(keys, from, to) {
                continue;
            }
            if to - from <= INSERTION_MAX {
                range.insertion_sort(keys, from, to);
            } else {
                big = true;
            }
        }
        big
    };
    // One part runs here: a small flock's tick is too short to hand work to the pool.
    let big_unsorted = if parts == 1 {
        part(0)
    } else {
        (0..parts)
            .into_par_iter()
            .map(part)
            .reduce(|| false, |a, b| a | b)
    };
    if !big_unsorted {
        return;
    }
    // SAFETY: no part is alive any more; this range is all of the columns.
    let mut all = unsafe { ptrs.range(0, n) };
    // Room for any cell at once, so that the scratch is allocated once, not again each time
    // the crowd in the densest cell grows.
    scratch.clear();
    scratch.reserve(n);
    for c in 0..cells {
        let (from, to) = (cell_start[c] as usize, cell_start[c + 1] as usize);
        if to - from <= INSERTION_MAX || all.is_sorted(keys, from, to) {
            continue;
        }
        scratch.clear();
        scratch.extend((from..to).map(|i| all.get(keys, i)));
        scratch.sort_unstable_by_key(|e| (e.key, e.order));
        for (i, &e) in (from..to).zip(scratch.iter()) {
            all.set(i, e);
        }
    }
}
