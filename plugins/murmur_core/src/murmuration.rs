//! The figures field studies of starling flocks report, measured on a flock: how many
//! neighbours each bird heeds, how dense the border is against the inside, and how far
//! velocity fluctuations stay correlated.

use crate::grid::NeighbourGrid;
use crate::models::Model;
use crate::params::FlockParams;
use crate::space::Vector;
use glam::DVec3;
use rayon::prelude::*;
use serde::Serialize;

/// Neighbours whose directions give a bird's centrality (how one-sided its neighbourhood is).
pub const CENTRALITY_NEIGHBOURS: usize = 12;

/// A bird whose centrality is at least this lies in the flock's outer layer.
pub const BORDER_CENTRALITY: f64 = 0.35;

/// Birds closer than this are in one group, metres (about twice a murmuration's spacing).
pub const GROUP_LINK: f32 = 3.0;

/// A group counts when it holds at least this share of the birds (stragglers do not).
pub const GROUP_SHARE: f64 = 0.05;

/// Distance bins across the flock for the velocity correlation function.
const CORRELATION_BINS: usize = 200;

/// Field-study figures of one flock (see `docs/starlings.md` for their sources).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct MurmurationFigures {
    /// Mean number of neighbours a bird heeds: for the starling model its topological
    /// neighbours (those it found), for a metric model those within its interaction radius.
    pub interaction_neighbours: f64,
    /// Density in the flock's outer layer over density inside it (above 1: denser border).
    /// Each density is read from the distance to the nearest bird in the half-space facing the
    /// flock's inside (for a bird inside, any half), so that a border bird's empty outside
    /// does not count as sparseness: a uniform gas gives 1. `None` when either part is empty.
    pub border_density_ratio: Option<f64>,
    /// Distance at which the connected correlation of velocity fluctuations (each bird's
    /// velocity less the flock's mean) first falls to zero (Cavagna et al. 2010); `None` when
    /// it never does.
    pub correlation_length: Option<f64>,
    /// The flock's size L: the largest distance between two of its birds.
    pub flock_size: f64,
    /// Groups the flock is in: sets of birds linked by gaps under [`GROUP_LINK`], counting
    /// those of at least [`GROUP_SHARE`] of the birds. 1: one flock; more: it has split.
    pub groups: usize,
}

impl MurmurationFigures {
    /// Measures birds at `pos` flying at `vel` (input order, stable ids `ids`) under `params`.
    pub fn measure<V: Vector>(params: &FlockParams, pos: &[V], vel: &[V], ids: &[u32]) -> Self {
        assert!(
            pos.len() == vel.len() && pos.len() == ids.len(),
            "one entry per bird"
        );
        let n = pos.len();
        if n < 2 {
            return Self::default();
        }
        let mut grid = NeighbourGrid::new();
        crate::sim::collect_neighbours(&mut grid, params, pos, vel);
        let per_bird: Vec<(usize, f64, f64)> = (0..n)
            .into_par_iter()
            .map(|k| {
                let heeded = heeded_count(&grid, params, k, ids);
                let (centrality, reach3) = border_reading(&grid, k);
                (heeded, centrality, reach3)
            })
            .collect();
        let heeded: usize = per_bird.iter().map(|b| b.0).sum();
        let (mut inner, mut outer) = ((0.0, 0usize), (0.0, 0usize));
        for &(_, centrality, reach3) in &per_bird {
            let side = if centrality >= BORDER_CENTRALITY {
                &mut outer
            } else {
                &mut inner
            };
            side.0 += reach3;
            side.1 += 1;
        }
        // Density goes as 1 / (distance to the nearest bird)^3.
        let border_density_ratio = (inner.1 > 0 && outer.1 > 0 && outer.0 > 0.0)
            .then(|| (inner.0 / inner.1 as f64) / (outer.0 / outer.1 as f64));
        let (correlation_length, flock_size) = correlation_length(pos, vel);
        Self {
            interaction_neighbours: heeded as f64 / n as f64,
            border_density_ratio,
            correlation_length,
            flock_size,
            groups: groups(params, pos, vel),
        }
    }
}

/// The groups of at least [`GROUP_SHARE`] of the birds, birds linked by gaps under
/// [`GROUP_LINK`] (connected components, by union-find over a grid of that radius).
fn groups<V: Vector>(params: &FlockParams, pos: &[V], vel: &[V]) -> usize {
    let n = pos.len();
    let mut grid = NeighbourGrid::new();
    let bounds = crate::sim::grid_bounds(params, pos.iter().copied());
    grid.rebuild(&bounds, GROUP_LINK, pos, vel);
    let mut parent: Vec<u32> = (0..n as u32).collect();
    fn root(parent: &mut [u32], mut i: u32) -> u32 {
        while parent[i as usize] != i {
            let up = parent[parent[i as usize] as usize];
            parent[i as usize] = up;
            i = up;
        }
        i
    }
    for k in 0..n {
        grid.for_each_neighbour(k, GROUP_LINK, usize::MAX, |j, _, _| {
            let (a, b) = (root(&mut parent, k as u32), root(&mut parent, j as u32));
            if a != b {
                parent[a.max(b) as usize] = a.min(b);
            }
        });
    }
    let mut sizes = vec![0usize; n];
    for k in 0..n {
        sizes[root(&mut parent, k as u32) as usize] += 1;
    }
    let least = ((GROUP_SHARE * n as f64).ceil() as usize).max(1);
    sizes.iter().filter(|&&s| s >= least).count()
}

/// How many neighbours boid `k` (sorted) heeds under `params`.
fn heeded_count<V: Vector>(
    grid: &NeighbourGrid<V>,
    params: &FlockParams,
    k: usize,
    ids: &[u32],
) -> usize {
    match &params.model {
        Model::Starlings(m) => {
            let mut near = [(0.0, 0u32, V::ZERO); crate::grid::MAX_NEAREST];
            let id = ids[grid.order()[k] as usize];
            m.heeded(grid, k, m.heeds(id), &mut near)
        }
        model => grid.for_each_neighbour(k, model.interaction_radius(), usize::MAX, |_, _, _| ()),
    }
}

/// Boid `k`'s centrality (length of the mean unit vector to its nearest neighbours: 0 with
/// neighbours all round, towards 1 with all on one side) and the cube of the distance to its
/// nearest bird on the side the mean points to.
fn border_reading<V: Vector>(grid: &NeighbourGrid<V>, k: usize) -> (f64, f64) {
    let mut near = [(0.0, 0u32, V::ZERO); CENTRALITY_NEIGHBOURS];
    let found = grid.nearest_where(k, f32::INFINITY, &mut near, |_, _| true);
    if found == 0 {
        return (0.0, 0.0);
    }
    let mut towards = DVec3::ZERO;
    for &(d2, _, d) in &near[..found] {
        if d2 > 0.0 {
            towards += d.as_dvec3() / (d2 as f64).sqrt();
        }
    }
    towards /= found as f64;
    let centrality = towards.length();
    let inward = towards.normalize_or_zero();
    let mut half = [(0.0, 0u32, V::ZERO); 1];
    let reach = if inward == DVec3::ZERO {
        near[0].0 as f64
    } else {
        match grid.nearest_where(k, f32::INFINITY, &mut half, |d, _| {
            d.as_dvec3().dot(inward) > 0.0
        }) {
            1 => half[0].0 as f64,
            _ => near[0].0 as f64,
        }
    };
    (centrality, reach * reach.sqrt())
}

/// The first zero of the connected velocity correlation C(r) = <u_i . u_j> over pairs at
/// distance r (u: velocity less the mean), and the flock's size (largest pair distance).
/// Every pair, in a fixed order.
fn correlation_length<V: Vector>(pos: &[V], vel: &[V]) -> (Option<f64>, f64) {
    let n = pos.len();
    let p: Vec<DVec3> = pos.iter().map(|p| p.as_dvec3()).collect();
    let mean = vel.iter().fold(DVec3::ZERO, |s, v| s + v.as_dvec3()) / n as f64;
    let u: Vec<DVec3> = vel.iter().map(|v| v.as_dvec3() - mean).collect();
    let (lo, hi) = p
        .iter()
        .fold((p[0], p[0]), |(lo, hi), q| (lo.min(*q), hi.max(*q)));
    let span = (hi - lo).length().max(f64::MIN_POSITIVE);
    let width = span / CORRELATION_BINS as f64;
    // Each bird's row of pairs (with the birds after it), summed by row in order.
    let rows: Vec<(
        [f64; CORRELATION_BINS + 1],
        [u32; CORRELATION_BINS + 1],
        f64,
    )> = (0..n)
        .into_par_iter()
        .map(|i| {
            let (mut sum, mut count, mut far) = (
                [0.0; CORRELATION_BINS + 1],
                [0u32; CORRELATION_BINS + 1],
                0.0f64,
            );
            for j in i + 1..n {
                let r = (p[j] - p[i]).length();
                far = far.max(r);
                let b = ((r / width) as usize).min(CORRELATION_BINS);
                sum[b] += u[i].dot(u[j]);
                count[b] += 1;
            }
            (sum, count, far)
        })
        .collect();
    let (mut sum, mut count, mut size) = (
        [0.0; CORRELATION_BINS + 1],
        [0u64; CORRELATION_BINS + 1],
        0.0f64,
    );
    for (s, c, far) in &rows {
        for b in 0..=CORRELATION_BINS {
            sum[b] += s[b];
            count[b] += c[b] as u64;
        }
        size = size.max(*far);
    }
    // A bin of a handful of pairs (the closest, the farthest) is noise, not a zero.
    let enough = (n as u64 / 10).max(50);
    let mut previous: Option<(f64, f64)> = None;
    for b in 0..=CORRELATION_BINS {
        if count[b] < enough {
            continue;
        }
        let (r, c) = ((b as f64 + 0.5) * width, sum[b] / count[b] as f64);
        if c <= 0.0 {
            return (
                Some(match previous {
                    // Linear between the last positive bin and this one.
                    Some((r0, c0)) => r0 + (r - r0) * c0 / (c0 - c),
                    None => r,
                }),
                size,
            );
        }
        previous = Some((r, c));
    }
    (None, size)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::preset::Preset;
    use glam::Vec3;
    use rand::rngs::Xoshiro256PlusPlus;
    use rand::{RngExt, SeedableRng};

    fn gas(n: usize, size: Vec3, seed: u64) -> Vec<Vec3> {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        (0..n)
            .map(|_| Vec3::new(rng.random(), rng.random(), rng.random()) * size - size * 0.5)
            .collect()
    }

    fn params() -> FlockParams {
        let mut preset = Preset::load("starlings").expect("built in");
        preset.world.width = 60.0;
        preset.world.height = 12.0;
        preset.world.depth = 40.0;
        preset.flock_params()
    }

    fn figures(pos: &[Vec3], vel: &[Vec3]) -> MurmurationFigures {
        let ids: Vec<u32> = (0..pos.len() as u32).collect();
        MurmurationFigures::measure(&params(), pos, vel, &ids)
    }

    #[test]
    fn a_uniform_gas_is_as_dense_at_its_border_as_inside() {
        for seed in 1..4 {
            let pos = gas(3000, Vec3::new(60.0, 12.0, 40.0), seed);
            let vel = vec![Vec3::X; pos.len()];
            let ratio = figures(&pos, &vel)
                .border_density_ratio
                .expect("both parts");
            assert!((0.88..1.08).contains(&ratio), "seed {seed}: {ratio}");
        }
    }

    #[test]
    fn a_gas_packed_at_its_border_reads_denser_there() {
        // The same box, its outer 2 m holding twice the density of the inside.
        let size = Vec3::new(60.0, 12.0, 40.0);
        let mut pos = gas(3000, size, 7);
        let inside = |p: &Vec3| (p.abs() - (size * 0.5 - 2.0)).max_element() < 0.0;
        let extra: Vec<Vec3> = gas(6000, size, 8)
            .into_iter()
            .filter(|p| !inside(p))
            .collect();
        let outer_now = pos.iter().filter(|p| !inside(p)).count();
        pos.extend(extra.into_iter().take(outer_now));
        let vel = vec![Vec3::X; pos.len()];
        let ratio = figures(&pos, &vel)
            .border_density_ratio
            .expect("both parts");
        // Reads 1.22 (the layer is two spacings deep; its inner birds count as inside).
        assert!(ratio > 1.15, "{ratio}");
    }

    #[test]
    fn velocity_correlations_reach_across_a_flock_with_one_large_mode_and_not_with_noise() {
        let size = Vec3::new(60.0, 12.0, 40.0);
        let pos = gas(2000, size, 3);
        // A flock turning as a whole (fluctuations a smooth function of position) ...
        let smooth: Vec<Vec3> = pos
            .iter()
            .map(|p| Vec3::X * 10.0 + Vec3::Z * (p.x / 30.0))
            .collect();
        let f = figures(&pos, &smooth);
        let xi = f.correlation_length.expect("crosses zero");
        assert!(xi / f.flock_size > 0.15, "{xi} of {}", f.flock_size);
        // ... against fluctuations drawn independently for each bird.
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(4);
        let noisy: Vec<Vec3> = pos
            .iter()
            .map(|_| Vec3::X * 10.0 + (Vec3::new(rng.random(), rng.random(), rng.random()) - 0.5))
            .collect();
        let f = figures(&pos, &noisy);
        let xi = f.correlation_length.expect("crosses zero");
        assert!(xi / f.flock_size < 0.05, "{xi} of {}", f.flock_size);
    }

    #[test]
    fn two_flocks_apart_are_two_groups_and_one_with_stragglers_is_one() {
        let size = Vec3::new(20.0, 6.0, 20.0);
        let mut pos = gas(1000, size, 9);
        let vel = vec![Vec3::X; 2000];
        assert_eq!(figures(&pos, &vel[..1000]).groups, 1);
        // A few stragglers far off are no group...
        let mut with_stragglers = pos.clone();
        with_stragglers.extend((0..10).map(|i| Vec3::new(100.0 + 20.0 * i as f32, 0.0, 0.0)));
        assert_eq!(figures(&with_stragglers, &vel[..1010]).groups, 1);
        // ... a second flock 30 m off is.
        pos.extend(gas(1000, size, 10).into_iter().map(|p| p + Vec3::X * 50.0));
        assert_eq!(figures(&pos, &vel).groups, 2);
    }

    #[test]
    fn a_metric_models_count_is_its_neighbours_within_its_radius() {
        let preset = Preset::load("reynolds3d").expect("built in");
        let params = preset.flock_params();
        let pos = gas(500, Vec3::splat(100.0), 5);
        let vel = vec![Vec3::X; pos.len()];
        let ids: Vec<u32> = (0..500).collect();
        let f = MurmurationFigures::measure(&params, &pos, &vel, &ids);
        let r = params.model.interaction_radius();
        let brute = pos
            .iter()
            .map(|p| {
                pos.iter()
                    .filter(|q| (**q - *p).length() < r && *q != p)
                    .count()
            })
            .sum::<usize>() as f64
            / 500.0;
        assert!(
            (f.interaction_neighbours - brute).abs() < 1e-9,
            "{} {brute}",
            f.interaction_neighbours
        );
    }
}
