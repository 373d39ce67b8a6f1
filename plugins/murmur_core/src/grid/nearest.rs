//! Exact nearest-neighbour distances, by searching rings of cells outwards.

use super::NeighbourGrid;
use glam::Vec2;

impl NeighbourGrid {
    /// Distance from boid `k` (a sorted index) to its nearest other boid, or `None` when it is
    /// alone. Exact at any distance: rings of cells are searched outwards until no unvisited cell
    /// can hold anything closer.
    pub fn nearest_distance(&self, k: usize) -> Option<f32> {
        if self.len() < 2 {
            return None;
        }
        let l = &self.layout;
        let p = self.pos(k);
        let cell = l.cell_index(p);
        let (cx, cy) = (cell % l.nx, cell / l.nx);
        let min_side = l.cell.x.min(l.cell.y);
        let mut best2 = f32::INFINITY;
        let max_ring = l.nx.max(l.ny);
        for ring in 0..=max_ring {
            // On a torus a ring wider than the grid would visit cells twice: finish by brute force.
            if l.wrapped && (2 * ring + 1 > l.nx || 2 * ring + 1 > l.ny) {
                return self.nearest_by_scan(k).map(f32::sqrt);
            }
            let r = ring as isize;
            for dy in -r..=r {
                for dx in -r..=r {
                    if dx.abs() != r && dy.abs() != r {
                        continue; // inside the ring: already visited
                    }
                    let Some((cell, shift)) = self.neighbour_cell(cx, cy, dx, dy) else {
                        continue;
                    };
                    for j in self.cell_range(cell) {
                        if j != k {
                            best2 = best2.min((self.pos(j) + shift - p).length_squared());
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

    /// The cell `(dx, dy)` away from `(cx, cy)` and the shift of its boids' images, or `None`
    /// outside a bounded grid.
    fn neighbour_cell(&self, cx: usize, cy: usize, dx: isize, dy: isize) -> Option<(usize, Vec2)> {
        let l = &self.layout;
        let axis = |c: usize, d: isize, n: usize, extent: f32| -> Option<(usize, f32)> {
            let t = c as isize + d;
            if (0..n as isize).contains(&t) {
                Some((t as usize, 0.0))
            } else if l.wrapped {
                let wrapped = t.rem_euclid(n as isize) as usize;
                Some((wrapped, if t < 0 { -extent } else { extent }))
            } else {
                None
            }
        };
        let (x, sx) = axis(cx, dx, l.nx, l.size.x)?;
        let (y, sy) = axis(cy, dy, l.ny, l.size.y)?;
        Some((y * l.nx + x, Vec2::new(sx, sy)))
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
