//! Exact nearest-neighbour distances, by searching shells of cells outwards.

use super::NeighbourGrid;
use crate::space::Vector;

impl<V: Vector> NeighbourGrid<V> {
    /// Distance from boid `k` (a sorted index) to its nearest other boid, or `None` when it is
    /// alone. Exact at any distance: rings (shells in 3D) of cells are searched outwards until no
    /// unvisited cell can hold anything closer.
    pub fn nearest_distance(&self, k: usize) -> Option<f32> {
        if self.len() < 2 {
            return None;
        }
        let l = &self.layout;
        let p = self.pos(k);
        let c = l.cell_coords(p);
        let counts = l.counts();
        let mut min_side = f32::INFINITY;
        for a in 0..V::DIM {
            min_side = min_side.min(l.cell.axis(a));
        }
        let mut best2 = f32::INFINITY;
        let max_ring = counts.into_iter().max().unwrap_or(1);
        for ring in 0..=max_ring {
            // On a torus a ring wider than the grid would visit cells twice: finish by brute force.
            if l.wrapped && counts[..V::DIM].iter().any(|&n| 2 * ring + 1 > n) {
                return self.nearest_by_scan(k).map(f32::sqrt);
            }
            let r = ring as isize;
            let rz = if V::DIM == 3 { r } else { 0 };
            for dz in -rz..=rz {
                for dy in -r..=r {
                    for dx in -r..=r {
                        if dx.abs() != r && dy.abs() != r && dz.abs() != r {
                            continue; // inside the ring: already visited
                        }
                        let Some((cell, shift)) = self.neighbour_cell(c, [dx, dy, dz]) else {
                            continue;
                        };
                        for j in self.cell_range(cell) {
                            if j != k {
                                best2 = best2.min((self.pos(j) + shift - p).length_squared());
                            }
                        }
                    }
                }
            }
            // Every unvisited boid is at least `ring` whole cells away.
            let bound = ring as f32 * min_side;
            if best2.is_finite() && best2 <= bound * bound {
                break;
            }
        }
        best2.is_finite().then(|| best2.sqrt())
    }

    /// The cell `d` away from `c` and the shift of its boids' images, or `None` outside a
    /// bounded grid.
    fn neighbour_cell(&self, c: [usize; 3], d: [isize; 3]) -> Option<(usize, V)> {
        let l = &self.layout;
        let counts = l.counts();
        let mut at = [0usize; 3];
        let mut shift = V::ZERO;
        for a in 0..V::DIM {
            let (n, extent) = (counts[a], l.size.axis(a));
            let t = c[a] as isize + d[a];
            if (0..n as isize).contains(&t) {
                at[a] = t as usize;
            } else if l.wrapped {
                at[a] = t.rem_euclid(n as isize) as usize;
                *shift.axis_mut(a) = if t < 0 { -extent } else { extent };
            } else {
                return None;
            }
        }
        Some((l.index_of(at), shift))
    }

    /// Squared distance to the nearest other boid by scanning them all (nearest images).
    fn nearest_by_scan(&self, k: usize) -> Option<f32> {
        let l = &self.layout;
        let p = self.pos(k);
        (0..self.len())
            .filter(|&j| j != k)
            .map(|j| {
                let mut d = self.pos(j) - p;
                if l.wrapped {
                    d -= l.size * (d / l.size).round();
                }
                d.length_squared()
            })
            .min_by(f32::total_cmp)
    }
}

/// Most neighbours [`NeighbourGrid::nearest_where`] keeps for one boid.
pub const MAX_NEAREST: usize = 32;

impl<V: Vector> NeighbourGrid<V> {
    /// The `out.len()` (at most [`MAX_NEAREST`]) nearest other boids of boid `k` (a sorted
    /// index) closer than `max_radius` that `accept(offset, distance_squared)` takes, nearest
    /// first, as `(distance_squared, sorted index, offset to its nearest image)`; returns how
    /// many it found. Exact at any distance: cells are searched in shells outwards until no
    /// unvisited cell can hold anything closer. Ties in distance go to the lower sorted index,
    /// so the answer does not depend on the order cells are visited in.
    pub fn nearest_where<F: FnMut(V, f32) -> bool>(
        &self,
        k: usize,
        max_radius: f32,
        out: &mut [(f32, u32, V)],
        mut accept: F,
    ) -> usize {
        let want = out.len().min(MAX_NEAREST);
        if want == 0 || self.len() < 2 {
            return 0;
        }
        let l = &self.layout;
        let p = self.pos(k);
        let max2 = if max_radius.is_nan() {
            0.0
        } else {
            max_radius * max_radius
        };
        let mut found = 0usize;
        // Keeps `out[..found]` sorted by (distance², index), the nearest `want`.
        let mut offer = |out: &mut [(f32, u32, V)], j: usize, d: V, found: &mut usize| {
            let d2 = d.length_squared();
            if d2.is_nan() || d2 >= max2 || j == k {
                return;
            }
            let key = (d2, j as u32);
            let less = |a: (f32, u32), b: (f32, u32)| a.0 < b.0 || (a.0 == b.0 && a.1 < b.1);
            if *found == want && !less(key, (out[want - 1].0, out[want - 1].1)) {
                return;
            }
            if !accept(d, d2) {
                return;
            }
            let mut at = if *found < want {
                *found += 1;
                *found - 1
            } else {
                want - 1
            };
            while at > 0 && less(key, (out[at - 1].0, out[at - 1].1)) {
                out[at] = out[at - 1];
                at -= 1;
            }
            out[at] = (d2, j as u32, d);
        };
        let counts = l.counts();
        let reach = l.reach_x.max(1) as isize;
        // The distance every cell outside shell r is at least r times this away.
        let mut unit = l.cell.axis(0) * reach as f32;
        for a in 1..V::DIM {
            unit = unit.min(l.cell.axis(a));
        }
        let c = l.cell_coords(p);
        let shells = counts[0].div_ceil(reach as usize);
        let shells = shells
            .max(counts[1])
            .max(if V::DIM == 3 { counts[2] } else { 1 });
        for ring in 0..=shells {
            let r = ring as isize;
            // On a torus a shell wider than the grid would meet cells twice: scan everyone.
            if l.wrapped
                && (((2 * r * reach + 1) as usize) > counts[0]
                    || (1..V::DIM).any(|a| (2 * ring + 1) > counts[a]))
            {
                found = 0;
                for j in 0..self.len() {
                    let mut d = self.pos(j) - p;
                    d -= l.size * (d / l.size).round();
                    offer(out, j, d, &mut found);
                }
                return found;
            }
            let rz = if V::DIM == 3 { r } else { 0 };
            // Shell r: the cells whose farthest axis (x counted in `reach` cells) is r away;
            // a row along x inside the shell's faces has only its two ends in it.
            let (outer, inner) = (r * reach, (r - 1).max(0) * reach);
            for dz in -rz..=rz {
                for dy in -r..=r {
                    let on_face = r == 0 || dy.abs() == r || dz.abs() == r;
                    let ends = [(-outer, -inner - 1), (inner + 1, outer)];
                    let whole = [(-outer, outer)];
                    let spans: &[(isize, isize)] = if on_face { &whole } else { &ends };
                    for &(from, to) in spans {
                        for dx in from..=to {
                            let Some((cell, shift)) = self.neighbour_cell(c, [dx, dy, dz]) else {
                                continue;
                            };
                            for j in self.cell_range(cell) {
                                offer(out, j, self.pos(j) + shift - p, &mut found);
                            }
                        }
                    }
                }
            }
            let bound = ring as f32 * unit;
            if bound * bound >= max2 || (found == want && out[want - 1].0 <= bound * bound) {
                break;
            }
        }
        found
    }
}
