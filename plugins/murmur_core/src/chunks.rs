//! Passes over a flock a chunk of birds at a time, on all threads or on this one: each chunk's
//! part of every column handed to the pass as its own slices. (The columns a 2D flock lacks,
//! its z, stay empty; iterator zips would stop at them.)

use crate::grid::Columns;
use crate::space::Vector;
use rayon::prelude::*;
use std::marker::PhantomData;

/// A slice cut into chunks that passes on different threads take one each.
pub(crate) struct Parts<'a, T> {
    ptr: *mut T,
    len: usize,
    slice: PhantomData<&'a mut [T]>,
}

// SAFETY: a `Parts` hands out disjoint chunks only (see `chunk`), each to one pass.
unsafe impl<T: Send> Sync for Parts<'_, T> {}
// SAFETY: as above.
unsafe impl<T: Send> Send for Parts<'_, T> {}

impl<'a, T> Parts<'a, T> {
    /// `slice`, to be cut.
    pub(crate) fn new(slice: &'a mut [T]) -> Self {
        Self {
            ptr: slice.as_mut_ptr(),
            len: slice.len(),
            slice: PhantomData,
        }
    }

    /// Chunk `c` of `size` (the last one shorter; empty past the end).
    ///
    /// # Safety
    /// No other live reference into this chunk: each chunk is taken once, by one pass.
    #[inline]
    #[allow(clippy::mut_from_ref)]
    pub(crate) unsafe fn chunk(&self, c: usize, size: usize) -> &'a mut [T] {
        let start = (c * size).min(self.len);
        let end = (start + size).min(self.len);
        // SAFETY: `start..end` lies within the slice; the caller vouches that it is not shared.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.add(start), end - start) }
    }
}

/// One chunk of a flock's columns: positions and velocities, one slice per axis (the axes past
/// the space's empty).
pub(crate) struct ChunkColumns<'a> {
    pub(crate) pos: [&'a mut [f32]; 3],
    pub(crate) vel: [&'a mut [f32]; 3],
}

/// A flock's columns cut into chunks.
pub(crate) struct ColumnParts<'a, V> {
    pos: [Parts<'a, f32>; 3],
    vel: [Parts<'a, f32>; 3],
    space: PhantomData<fn() -> V>,
}

impl<'a, V: Vector> ColumnParts<'a, V> {
    /// `columns`, to be cut.
    pub(crate) fn new(columns: &'a mut Columns<V>) -> Self {
        let [px, py, pz] = &mut columns.pos;
        let [vx, vy, vz] = &mut columns.vel;
        Self {
            pos: [Parts::new(px), Parts::new(py), Parts::new(pz)],
            vel: [Parts::new(vx), Parts::new(vy), Parts::new(vz)],
            space: PhantomData,
        }
    }

    /// Chunk `c` of `size` of every column.
    ///
    /// # Safety
    /// As [`Parts::chunk`].
    #[inline]
    pub(crate) unsafe fn chunk(&self, c: usize, size: usize) -> ChunkColumns<'a> {
        // SAFETY: passed on from the caller.
        unsafe {
            ChunkColumns {
                pos: std::array::from_fn(|a| {
                    if a < V::DIM {
                        self.pos[a].chunk(c, size)
                    } else {
                        &mut []
                    }
                }),
                vel: std::array::from_fn(|a| {
                    if a < V::DIM {
                        self.vel[a].chunk(c, size)
                    } else {
                        &mut []
                    }
                }),
            }
        }
    }
}

/// Calls `f(c)` for every chunk `c` of `size` of `n` birds, on all threads or on this one.
#[inline]
pub(crate) fn for_each_chunk(
    parallel: bool,
    n: usize,
    size: usize,
    f: impl Fn(usize) + Sync + Send,
) {
    let chunks = n.div_ceil(size);
    if parallel {
        (0..chunks).into_par_iter().for_each(f);
    } else {
        (0..chunks).for_each(f);
    }
}
