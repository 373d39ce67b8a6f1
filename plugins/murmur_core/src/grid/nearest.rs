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
