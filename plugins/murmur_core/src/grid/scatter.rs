//! The counting sort's scatter on every thread: the boids are cut into parts, each part counts
//! its boids per cell, one pass over the cells turns the counts into each part's write position
//! in each cell, and the parts then scatter side by side. Within a cell, earlier parts' boids
//! come first and each part keeps its order, so the result is the one a single thread gives,
//! whatever the number of parts.

use super::Columns;
use crate::disjoint::DisjointWrites;
use crate::space::Vector;
use rayon::prelude::*;

/// Below this many boids one part does it all (threads cost more than they save).
const PARALLEL_FROM: usize = 16_384;

/// Sorts boid `i` (`cell_of[i]` its cell, `from` its columns) into `to` in cell order, stable:
/// fills `cell_start` (`cells + 1` offsets) and `order` (new index -> old index). `counts` is
/// scratch, kept between calls.
pub(super) fn sort_in_parallel<V: Vector>(
    cell_of: &[u32],
    cells: usize,
    cell_start: &mut [u32],
    counts: &mut Vec<u32>,
    from: &Columns<V>,
    to: &mut Columns<V>,
    order: &mut [u32],
) {
    let n = cell_of.len();
    assert!(
        from.len() == n && to.len() == n && order.len() == n && cell_start.len() == cells + 1,
        "one entry per boid"
    );
    let parts = if n < PARALLEL_FROM {
        1
    } else {
        rayon::current_num_threads().clamp(1, 64)
    };
    let part_len = n.div_ceil(parts).max(1);
    // counts[p * cells + c]: boids of part p in cell c, then where part p writes in cell c.
    counts.clear();
    counts.resize(parts * cells, 0);
    let count_part = |(count, part): (&mut [u32], &[u32])| {
        for &c in part {
            count[c as usize] += 1;
        }
    };
    // One part runs here: a small flock's tick is too short to hand work to the pool.
    if parts == 1 {
        count_part((&mut counts[..], cell_of));
    } else {
        counts
            .par_chunks_mut(cells.max(1))
            .zip(cell_of.par_chunks(part_len))
            .for_each(count_part);
    }
    let mut next = 0u32;
    for c in 0..cells {
        cell_start[c] = next;
        for p in 0..parts {
            let here = counts[p * cells + c];
            counts[p * cells + c] = next;
            next += here;
        }
    }
    cell_start[cells] = next;
    debug_assert_eq!(next as usize, n);

    // The space's columns as targets (positions then velocities; a 2D flock's unused z
    // columns never written), and their sources, each held in its own variable so that the
    // loop keeps them in registers.
    let mut targets = [DisjointWrites::unused(); 6];
    for (t, column) in targets.iter_mut().zip(to.all_mut()) {
        *t = DisjointWrites::new(column);
    }
    let [t0, t1, t2, t3, t4, t5] = targets;
    let mut sources: [&[f32]; 6] = [&[]; 6];
    for (s, column) in sources.iter_mut().zip(from.all()) {
        *s = column;
    }
    let [s0, s1, s2, s3, s4, s5] = sources;
    let order_target = DisjointWrites::new(order);
    let scatter_part = move |(p, cursor): (usize, &mut [u32])| {
        let first = (p * part_len).min(n);
        let last = (first + part_len).min(n);
        for (i, &c) in (first..last).zip(&cell_of[first..last]) {
            let c = c as usize;
            let k = cursor[c] as usize;
            cursor[c] += 1;
            assert!(k < n, "write positions within the columns");
            // SAFETY: the write positions of all parts in all cells are disjoint ranges
            // that together tile 0..n (built from the counts above), and each part
            // advances only its own cursor within its own range, so every k < n is
            // written exactly once, by one part.
            unsafe {
                t0.write(k, s0[i]);
                t1.write(k, s1[i]);
                t2.write(k, s2[i]);
                t3.write(k, s3[i]);
                if V::DIM == 3 {
                    t4.write(k, s4[i]);
                    t5.write(k, s5[i]);
                }
                order_target.write(k, i as u32);
            }
        }
    };
    if parts == 1 {
        scatter_part((0, &mut counts[..]));
    } else {
        counts
            .par_chunks_mut(cells.max(1))
            .enumerate()
            .for_each(scatter_part);
    }
}

/// The counting sort with each cell's boids in key order at once, for a flock on one thread
/// whose keys are `0..n` in some order (bird ids without gaps): the boids are scattered in
/// key order, so a stable pass leaves every cell sorted by key and no second pass is needed.
/// Fills what [`sort_in_parallel`] fills; `slot_of_key` is scratch. Returns false, having
/// written nothing but scratch, when the keys are not `0..n` or the flock is too large for
/// one thread.
#[allow(clippy::too_many_arguments)]
pub(super) fn sort_by_dense_keys<V: Vector>(
    cell_of: &[u32],
    keys: &[u32],
    cells: usize,
    cell_start: &mut [u32],
    counts: &mut Vec<u32>,
    slot_of_key: &mut Vec<u32>,
    from: &Columns<V>,
    to: &mut Columns<V>,
    order: &mut [u32],
) -> bool {
    let n = cell_of.len();
    assert!(
        keys.len() == n
            && from.len() == n
            && to.len() == n
            && order.len() == n
            && cell_start.len() == cells + 1,
        "one entry per boid"
    );
    if n >= PARALLEL_FROM {
        return false;
    }
    slot_of_key.clear();
    slot_of_key.resize(n, u32::MAX);
    for (slot, &key) in keys.iter().enumerate() {
        match slot_of_key.get_mut(key as usize) {
            Some(entry) if *entry == u32::MAX => *entry = slot as u32,
            // A key past `n` or twice: not `0..n`.
            _ => return false,
        }
    }
    counts.clear();
    counts.resize(cells, 0);
    for &c in cell_of {
        counts[c as usize] += 1;
    }
    let mut next = 0u32;
    for (start, count) in cell_start.iter_mut().zip(counts.iter_mut()) {
        *start = next;
        next += std::mem::replace(count, next);
    }
    cell_start[cells] = next;
    // Every key is in `slot_of_key` once (n distinct keys below n), so every slot is moved once.
    for &slot in slot_of_key.iter() {
        let i = slot as usize;
        let c = cell_of[i] as usize;
        let k = counts[c] as usize;
        counts[c] += 1;
        for a in 0..V::DIM {
            to.pos[a][k] = from.pos[a][i];
            to.vel[a][k] = from.vel[a][i];
        }
        order[k] = slot;
    }
    true
}
