//! One tick of every model on every edge, in 2D and in 3D, against a brute-force reference: each
//! bird's neighbours found by testing every other bird (the nearest image on a torus) and summed
//! in doubles, then the model's own steering rule on those sums and the tick's later phases. The
//! grid (cells, seams, spans, lanes) must find the same neighbours and reach the same state, to
//! float rounding. Couzin's zones, which visit neighbours one by one, are re-implemented here.

// Loops over a space's axes index several per-axis arrays at once.
#![allow(clippy::needless_range_loop)]

use murmur_core::grid::{NeighbourGrid, NeighbourSums};
use murmur_core::leader::{LeaderMode, LeaderParams};
use murmur_core::models::{Model, SteerContext};
use murmur_core::params::FlockParams;
use murmur_core::predator::{PredatorParams, PredatorState};
use murmur_core::prelude::{Preset, Solid};
use murmur_core::sim::{self, FlockSim, LeaderState};
use murmur_core::{Vec2, Vec3, Vector};

/// Pairs or views this close to a boundary may fall either side of it through rounding.
const BORDER: f32 = 2e-5;

fn params(preset: &str, overrides: &[String]) -> FlockParams {
    let mut p = Preset::load(preset).unwrap();
    p.apply_overrides(overrides).unwrap();
    p.flock_params()
}

/// The brute-force sums of bird `i`, and whether a pair or a view lies on a boundary.
fn brute_sums<V: Vector>(
    p: &FlockParams,
    pos: &[V],
    vel: &[V],
    i: usize,
    sight: f32,
    near: f32,
) -> (NeighbourSums<V>, bool) {
    let world = p.bounds_in::<V>();
    let min_cos = p.view_min_cos();
    let heading = vel[i].normalize_or_zero();
    let mut s = NeighbourSums::<V>::default();
    let (mut offset, mut velocity, mut near_offset, mut inverse) =
        ([0f64; 3], [0f64; 3], [0f64; 3], [0f64; 3]);
    let mut borderline = false;
    for j in (0..pos.len()).filter(|&j| j != i) {
        let d = world.delta(pos[i], pos[j]);
        let dist = d.length();
        for r in [sight, near] {
            borderline |= (dist - r).abs() < BORDER * r.max(1.0);
        }
        if min_cos > -1.0 && heading != V::ZERO {
            let cos = heading.dot(d) / dist;
            borderline |= (cos - min_cos).abs() < 1e-5 && dist < sight.max(near);
            // Outside the field of view (or not a number).
            if heading
                .dot(d)
                .partial_cmp(&(min_cos * dist))
                .is_none_or(|o| o.is_lt())
            {
                continue;
            }
        }
        let d2 = dist * dist;
        if dist < sight {
            s.seen += 1;
            for a in 0..V::DIM {
                offset[a] += d.axis(a) as f64;
                velocity[a] += vel[j].axis(a) as f64;
            }
        }
        if dist < near {
            for a in 0..V::DIM {
                near_offset[a] += d.axis(a) as f64;
            }
            if d2 > 0.0 {
                s.near_apart += 1;
                for a in 0..V::DIM {
                    inverse[a] += (d.axis(a) / d2) as f64;
                }
            }
        }
    }
    let back = |x: [f64; 3]| V::from_axes(x.map(|v| v as f32));
    s.seen_offset = back(offset);
    s.seen_velocity = back(velocity);
    s.near_offset = back(near_offset);
    s.near_inverse = back(inverse);
    (s, borderline)
}

/// Couzin's rule written out plainly (no noise): repulsion overrides; else orientation and
/// attraction; then a turn of at most theta * tau. Returns the new velocity, the neighbours
/// and whether a pair lies on a zone's boundary.
fn brute_couzin<V: Vector>(p: &FlockParams, pos: &[V], vel: &[V], i: usize) -> (V, u32, bool) {
    let Model::Couzin(m) = &p.model else {
        unreachable!()
    };
    let world = p.bounds_in::<V>();
    let heading = vel[i].normalize_or(V::X);
    let min_cos = -(m.blind_angle.to_radians() * 0.5).cos();
    let (mut repel, mut orient, mut attract) = (V::ZERO, V::ZERO, V::ZERO);
    let (mut n_r, mut n_o, mut n_a) = (0, 0, 0);
    let mut borderline = false;
    for j in (0..pos.len()).filter(|&j| j != i) {
        let d = world.delta(pos[i], pos[j]);
        let dist = d.length();
        for r in [m.r_r, m.r_o(), m.r_a()] {
            borderline |= (dist - r).abs() < BORDER * r;
        }
        if dist >= m.r_a() || dist == 0.0 {
            continue;
        }
        let towards = d / dist;
        borderline |= (towards.dot(heading) - min_cos).abs() < 1e-5;
        if towards.dot(heading) < min_cos {
            continue;
        }
        if dist < m.r_r {
            repel -= towards;
            n_r += 1;
        } else if dist < m.r_o() {
            orient += vel[j].normalize_or_zero();
            n_o += 1;
        } else {
            attract += towards;
            n_a += 1;
        }
    }
    let desired = if n_r > 0 {
        repel
    } else {
        match (n_o > 0, n_a > 0) {
            (true, true) => {
                ((orient + heading).normalize_or_zero() + attract.normalize_or_zero()) * 0.5
            }
            (true, false) => orient + heading,
            (false, true) => attract,
            (false, false) => heading,
        }
    };
    let desired = desired.normalize_or(heading);
    let max_turn = m.turning_rate.to_radians() * m.time_step;
    let new_heading = V::turn_towards(heading, desired, max_turn);
    (
        new_heading * m.speed * m.time_step,
        n_r + n_o + n_a,
        borderline,
    )
}

/// One tick by brute force from `pos`, `vel`: the new state, each bird's neighbour count, and
/// which birds sit on a boundary (left out of the comparison).
fn reference_tick<V: Vector>(
    p: &FlockParams,
    pos: &[V],
    vel: &[V],
    leaders: &[LeaderState<V>],
    predators: &[PredatorState<V>],
    solids: &[Solid],
    seed: u64,
) -> (Vec<V>, Vec<V>, Vec<u32>, Vec<bool>) {
    let n = pos.len();
    // A grid only for what the model's steering reads besides the sums: the bird's velocity
    // and id.
    let mut grid = NeighbourGrid::<V>::new();
    sim::collect_neighbours(&mut grid, p, pos, vel);
    let ids: Vec<u32> = (0..n as u32).collect();
    let ctx = SteerContext {
        tick: 0,
        seed,
        cap: p.cap(),
        view_min_cos: p.view_min_cos(),
        ids: &ids,
        block: None,
    };
    let (mut acc, mut counts, mut skip) = (vec![V::ZERO; n], vec![0; n], vec![false; n]);
    for i in 0..n {
        let k = grid.rank()[i] as usize;
        let (a, count, borderline) = match p.model.sums_request() {
            Some(request) => {
                let (sums, borderline) = brute_sums(p, pos, vel, i, request.sight, request.near);
                let (a, count) = p.model.steer_by_sums(&grid, k, &sums, &ctx);
                (a, count, borderline)
            }
            None => brute_couzin(p, pos, vel, i),
        };
        (acc[i], counts[i], skip[i]) = (a, count, borderline);
    }
    let (mut pos, mut vel) = (pos.to_vec(), vel.to_vec());
    sim::follow_leaders(p, leaders, &pos, &vel, &mut acc);
    sim::flee_predators(p, predators, &pos, &mut acc);
    sim::avoid_solids(p, solids, &pos, &vel, &mut acc);
    sim::turn_at_edges(p, &pos, &mut acc);
    sim::integrate(p, solids, &mut pos, &mut vel, &acc, None);
    (pos, vel, counts, skip)
}

fn check<V: Vector>(preset: &str, edges: &str, n: usize, others: bool) {
    let mut overrides = vec![format!("edges.mode={edges}")];
    if preset.starts_with("couzin") {
        overrides.push("noise=0".into());
    }
    if preset == "abm3d" {
        // The preset's box is sparse for this few birds.
        for side in ["width", "height", "depth"] {
            overrides.push(format!("{side}=30"));
        }
    }
    let p = params(preset, &overrides);
    let solids: Vec<Solid> = Preset::load(preset)
        .unwrap()
        .obstacles
        .iter()
        .filter_map(|o| o.solid())
        .collect();
    let seed = 5;
    // A flock part way into its flight: clumped, so that birds have many neighbours.
    let mut warm = FlockSim::<V>::new(p.clone(), n, seed);
    for _ in 0..30 {
        warm.step();
    }
    let world = p.bounds_in::<V>();
    let leaders: Vec<LeaderState<V>> = others
        .then(|| LeaderState {
            pos: world.centre() + world.size * 0.2,
            params: LeaderParams {
                mode: LeaderMode::Follow,
                ..LeaderParams::default()
            },
        })
        .into_iter()
        .collect();
    let predators: Vec<PredatorState<V>> = others
        .then(|| PredatorState {
            pos: world.centre() - world.size * 0.25,
            params: PredatorParams {
                range: world.size.axis(0) * 0.3,
                ..PredatorParams::default()
            },
        })
        .into_iter()
        .collect();
    let (pos, vel) = (warm.pos.clone(), warm.vel.clone());
    let mut flock = FlockSim::from_state(p.clone(), pos.clone(), vel.clone(), seed);
    flock.leaders = leaders.clone();
    flock.predators = predators.clone();
    flock.solids = solids.clone();
    flock.step();
    let (want_pos, want_vel, want_counts, skip) =
        reference_tick(&p, &pos, &vel, &leaders, &predators, &solids, seed);
    let scale = p.model.cruise_speed().max(1e-3);
    let (mut compared, mut seen) = (0, 0u64);
    for i in 0..n {
        if skip[i] {
            continue;
        }
        compared += 1;
        seen += want_counts[i] as u64;
        let what = format!(
            "{preset} ({}), {edges} edges, others {others}, bird {i}",
            V::NAME
        );
        assert_eq!(flock.neighbours[i], want_counts[i], "{what}: neighbours");
        let dv = (flock.vel[i] - want_vel[i]).length();
        assert!(
            dv <= 1e-3 * scale,
            "{what}: velocity {:?} vs {:?}",
            flock.vel[i],
            want_vel[i]
        );
        let dp = world.delta(want_pos[i], flock.pos[i]).length();
        assert!(
            dp <= 1e-3 * scale,
            "{what}: position {:?} vs {:?}",
            flock.pos[i],
            want_pos[i]
        );
    }
    // Negative controls: most birds were compared, and they had neighbours to find.
    assert!(
        compared * 10 >= n * 8,
        "{preset} {edges}: only {compared} of {n} compared"
    );
    assert!(
        seen as usize >= compared,
        "{preset} {edges}: too few neighbours ({seen})"
    );
}

const MODELS: [&str; 6] = [
    "reynolds",
    "cornell",
    "spaceboids",
    "vicsek",
    "couzin",
    "abm",
];
const EDGES: [&str; 4] = ["wrap", "turn", "bounce", "none"];

#[test]
fn every_model_on_every_edge_in_2d_matches_the_brute_force_tick() {
    for model in MODELS {
        for edges in EDGES {
            check::<Vec2>(model, edges, 400, edges == "wrap");
        }
    }
}

#[test]
fn every_model_on_every_edge_in_3d_matches_the_brute_force_tick() {
    for model in MODELS {
        for edges in EDGES {
            check::<Vec3>(&format!("{model}3d"), edges, 600, edges != "none");
        }
    }
}

#[test]
fn a_blind_cone_matches_too() {
    // A blind cone behind each bird: the sums over what it sees.
    for (preset, extra) in [
        ("reynolds3d", "blind_angle=120"),
        ("cornell", "blind_angle=90"),
    ] {
        let overrides = vec![extra.to_string(), "edges.mode=wrap".to_string()];
        let params = params(preset, &overrides);
        assert!(params.view_min_cos() > -1.0);
        if params.is_3d() {
            check_with::<Vec3>(params);
        } else {
            check_with::<Vec2>(params);
        }
    }
}

/// [`check`]'s comparison for given parameters, without leaders or solids.
fn check_with<V: Vector>(p: FlockParams) {
    let n = 500;
    let mut warm = FlockSim::<V>::new(p.clone(), n, 8);
    for _ in 0..20 {
        warm.step();
    }
    let (pos, vel) = (warm.pos.clone(), warm.vel.clone());
    let mut flock = FlockSim::from_state(p.clone(), pos.clone(), vel.clone(), 8);
    flock.step();
    let (want_pos, want_vel, want_counts, skip) = reference_tick(&p, &pos, &vel, &[], &[], &[], 8);
    let mut compared = 0;
    for i in (0..n).filter(|&i| !skip[i]) {
        compared += 1;
        assert_eq!(flock.neighbours[i], want_counts[i], "bird {i}");
        assert!((flock.vel[i] - want_vel[i]).length() < 1e-3);
        assert!((p.bounds_in::<V>().delta(want_pos[i], flock.pos[i])).length() < 1e-3);
    }
    assert!(compared * 10 >= n * 7, "compared {compared}");
}
