//! A 3D flock on the GPU against murmur_core's 3D CPU path: the counting sort gives the CPU
//! grid's cells exactly (crowds included); one tick gives every bird exactly the CPU's
//! neighbour count and positions to rounding (with leaders, solids, a blind cone, each edge
//! mode and the player); the same start gives the same hash twice; and long runs give the CPU's
//! figures.

mod common;

use murmur_core::Vec3;
use murmur_core::edges::EdgeMode;
use murmur_core::leader::{LeaderMode, LeaderParams};
use murmur_core::params::FlockParams;
use murmur_core::preset::Preset;
use murmur_core::sim::{FlockSim, LeaderState, initial_boids};
use murmur_core::solids::Solid;
use murmur_gpu::{GpuError, GpuFlock};

/// A 3D preset's parameters and solids.
fn preset3d(name: &str) -> (FlockParams, Vec<Solid>) {
    let preset = Preset::load(name).expect("a built-in preset");
    let solids = preset
        .scene()
        .obstacles
        .iter()
        .filter_map(|o| o.solid())
        .collect();
    (preset.flock_params(), solids)
}

fn compare_cells(
    gpu: &murmur_gpu::GpuContext,
    params: FlockParams,
    pos: Vec<Vec3>,
    vel: Vec<Vec3>,
) {
    let layout = common::compare_cells(gpu, params, pos, vel);
    assert!(layout.nz > 2, "a grid with depth");
}

#[test]
#[ignore = "needs a GPU (Vulkan; lavapipe will do)"]
fn the_counting_sort_gives_the_cpu_grids_cells_in_a_box_and_on_a_torus() {
    let gpu = common::gpu();
    let (params, _) = preset3d("reynolds3d");
    let (pos, vel) = initial_boids::<Vec3>(&params, 20_000, 11);
    compare_cells(&gpu, params.clone(), pos, vel);
    let mut torus = params;
    torus.edges.mode = EdgeMode::Wrap;
    let (pos, vel) = initial_boids::<Vec3>(&torus, 12_000, 12);
    compare_cells(&gpu, torus, pos, vel);
    // Birds outside a box go to its border cells, as on the CPU.
    let (params, _) = preset3d("cornell3d");
    let (mut pos, vel) = initial_boids::<Vec3>(&params, 6_000, 5);
    for p in pos.iter_mut().step_by(7) {
        *p *= 1.8;
    }
    compare_cells(&gpu, params, pos, vel);
}

/// One tick from the same state on both paths: the neighbour counts equal, the states within
/// rounding. Returns the largest position difference.
fn one_tick(
    gpu: &murmur_gpu::GpuContext,
    params: FlockParams,
    n: usize,
    leaders: &[LeaderState<Vec3>],
    solids: &[Solid],
) -> f32 {
    let (pos, vel) = initial_boids::<Vec3>(&params, n, 3);
    let mut cpu = FlockSim::<Vec3>::from_state(params.clone(), pos.clone(), vel.clone(), 3);
    cpu.leaders = leaders.to_vec();
    cpu.solids = solids.to_vec();
    cpu.step();
    let mut flock = GpuFlock::new(gpu, params.clone(), &pos, &vel).unwrap();
    flock.set_leaders(leaders);
    flock.set_solids(solids).unwrap();
    flock.step();
    let neighbours = flock.read_neighbours();
    let wrong = (0..n)
        .filter(|&i| neighbours[i] != cpu.neighbours[i])
        .count();
    assert_eq!(
        wrong, 0,
        "birds whose neighbour count differs from the CPU's"
    );
    let mean = neighbours.iter().map(|&c| c as f64).sum::<f64>() / n as f64;
    assert!(
        mean > 2.0,
        "a flock whose birds see each other (mean {mean})"
    );
    let (gpos, gvel) = flock.read_state();
    let world = params.bounds_in::<Vec3>();
    let (mut dp, mut dv) = (0.0f32, 0.0f32);
    for i in 0..n {
        dp = dp.max(world.delta(cpu.pos[i], gpos[i]).length());
        dv = dv.max((cpu.vel[i] - gvel[i]).length());
    }
    eprintln!(
        "{:?} ({:?} edges, {} solids, {} leaders): mean {mean:.1} neighbours; largest \
         differences after one tick: position {dp:e}, velocity {dv:e}",
        params.model.kind(),
        params.edges.mode,
        solids.len(),
        leaders.len()
    );
    assert!(dp < 1e-3 && dv < 1e-3, "position {dp}, velocity {dv}");
    let moved = pos.iter().zip(&gpos).filter(|(a, b)| a != b).count();
    assert!(moved > n * 9 / 10, "the tick moved the birds");
    dp
}

#[test]
#[ignore = "needs a GPU (Vulkan; lavapipe will do)"]
fn one_tick_of_reynolds3d_with_its_solids_and_a_leader() {
    let gpu = common::gpu();
    let (params, solids) = preset3d("reynolds3d");
    assert_eq!(solids.len(), 3, "the ground, a column and a hill");
    let leader = LeaderState {
        pos: Vec3::new(100.0, 20.0, -50.0),
        params: Preset::load("reynolds3d").unwrap().leader,
    };
    one_tick(&gpu, params, 20_000, &[leader], &solids);
}

#[test]
#[ignore = "needs a GPU (Vulkan; lavapipe will do)"]
fn one_tick_of_cornell3d_with_a_blind_cone_and_a_tilted_ring() {
    let gpu = common::gpu();
    let (mut params, solids) = preset3d("cornell3d");
    params.blind_angle = 90.0;
    let leader = LeaderState {
        pos: Vec3::new(-60.0, 40.0, 30.0),
        params: LeaderParams {
            orbit_axis: [1.0, 1.0, 0.0],
            orbit_direction: -1.0,
            ..Preset::load("cornell3d").unwrap().leader
        },
    };
    one_tick(&gpu, params, 8_000, &[leader], &solids);
}

#[test]
#[ignore = "needs a GPU (Vulkan; lavapipe will do)"]
fn one_tick_on_a_torus_when_bouncing_and_in_an_open_world() {
    let gpu = common::gpu();
    let (base, solids) = preset3d("reynolds3d");
    let mut wrap = base.clone();
    wrap.edges.mode = EdgeMode::Wrap;
    one_tick(&gpu, wrap, 12_000, &[], &[]);
    let mut bounce = base.clone();
    bounce.edges.mode = EdgeMode::Bounce;
    let flee = LeaderState {
        pos: Vec3::new(0.0, 0.0, 0.0),
        params: LeaderParams {
            mode: LeaderMode::Flee,
            ..LeaderParams::default()
        },
    };
    one_tick(&gpu, bounce, 12_000, &[flee], &solids);
    let mut open = base;
    open.edges.mode = EdgeMode::None;
    one_tick(&gpu, open, 6_000, &[], &[]);
}

#[test]
#[ignore = "needs a GPU (Vulkan; lavapipe will do)"]
fn solids_change_the_tick_and_keep_birds_out() {
    // Negative control for the tests above: without its solids the same tick differs from
    // the CPU's with them, so agreeing with them is not agreeing with nothing.
    let gpu = common::gpu();
    let (params, solids) = preset3d("reynolds3d");
    let (pos, vel) = initial_boids::<Vec3>(&params, 8_000, 3);
    let mut cpu = FlockSim::<Vec3>::from_state(params.clone(), pos.clone(), vel.clone(), 3);
    cpu.solids = solids.clone();
    cpu.step();
    let mut bare = GpuFlock::new(&gpu, params.clone(), &pos, &vel).unwrap();
    bare.step();
    let (gpos, _) = bare.read_state();
    let apart = (0..pos.len())
        .filter(|&i| (gpos[i] - cpu.pos[i]).length() > 1e-2)
        .count();
    assert!(apart > 50, "{apart} birds steer round the solids");
    // With them, 200 ticks: no bird below the ground or in the hill, none deeper than its
    // clearance in the column. (A bird pinned where the column meets the ground can stay there,
    // just inside the column's foot, on the CPU as on the GPU: each surface takes away the
    // velocity into it, the ground last.)
    let clearance = params.avoidance.clearance;
    let mut flock = GpuFlock::new(&gpu, params, &pos, &vel).unwrap();
    flock.set_solids(&solids).unwrap();
    flock.step_many(200);
    let (gpos, gvel) = flock.read_state();
    assert!(gpos.iter().chain(&gvel).all(|v| v.is_finite()));
    for solid in &solids {
        let deepest = gpos
            .iter()
            .map(|&p| solid.distance(p))
            .fold(f32::INFINITY, f32::min);
        eprintln!("{solid:?}: nearest bird {deepest}");
        match solid {
            Solid::Cuboid { .. } => assert!(deepest >= -clearance - 1e-3, "{solid:?}: {deepest}"),
            _ => assert!(deepest >= 0.0, "a bird {deepest} inside {solid:?}"),
        }
    }
}

#[test]
#[ignore = "needs a GPU (Vulkan; lavapipe will do)"]
fn new_parameters_take_effect_on_the_next_tick() {
    // As the panel's sliders do: a wider sight (another grid) and slower birds.
    let gpu = common::gpu();
    let (params, solids) = preset3d("reynolds3d");
    let (pos, vel) = initial_boids::<Vec3>(&params, 8_000, 4);
    let mut flock = GpuFlock::new(&gpu, params.clone(), &pos, &vel).unwrap();
    flock.set_solids(&solids).unwrap();
    flock.step();
    let (pos, vel) = flock.read_state();
    let mut changed = params.clone();
    if let murmur_core::models::Model::Reynolds(m) = &mut changed.model {
        m.perception_radius = 80.0;
        m.max_speed = 2.0;
    }
    let before = flock.grid_layout().cell_count();
    flock.set_params(changed.clone()).unwrap();
    assert_ne!(
        flock.grid_layout().cell_count(),
        before,
        "a grid for the new sight"
    );
    flock.step();
    let mut cpu = FlockSim::<Vec3>::from_state(changed, pos, vel, 4);
    cpu.solids = solids;
    cpu.step();
    assert_eq!(flock.read_neighbours(), cpu.neighbours);
    let fastest = flock
        .read_state()
        .1
        .iter()
        .map(|v| v.length())
        .fold(0.0f32, f32::max);
    assert!(
        fastest <= 2.0 + 1e-4,
        "the new speed limit holds: {fastest}"
    );
}

#[test]
#[ignore = "needs a GPU (Vulkan; lavapipe will do)"]
fn the_player_is_seen_but_moved_only_by_the_game() {
    let gpu = common::gpu();
    let (params, _) = preset3d("reynolds3d");
    let (mut pos, mut vel) = initial_boids::<Vec3>(&params, 4_000, 8);
    let n = pos.len();
    let (player_pos, player_vel) = (Vec3::new(10.0, 20.0, -30.0), Vec3::X * 9.0);
    (pos[n - 1], vel[n - 1]) = (player_pos, player_vel);
    let mut flock = GpuFlock::new(&gpu, params.clone(), &pos, &vel).unwrap();
    flock.set_player(Some(n as u32 - 1));
    flock.step();
    let (gpos, gvel) = flock.read_state();
    assert_eq!((gpos[n - 1], gvel[n - 1]), (player_pos, player_vel));
    let mut cpu = FlockSim::<Vec3>::from_state(params, pos, vel, 8);
    cpu.step();
    assert_eq!(flock.read_neighbours(), cpu.neighbours);
    let moved = Vec3::new(-100.0, 5.0, 40.0);
    flock.put_bird(n as u32 - 1, moved, player_vel);
    flock.step();
    assert_eq!(flock.read_state().0[n - 1], moved);
}

#[test]
#[ignore = "needs a GPU (Vulkan; lavapipe will do)"]
fn the_same_start_gives_the_same_hash() {
    let gpu = common::gpu();
    let (params, solids) = preset3d("reynolds3d");
    let (pos, vel) = initial_boids::<Vec3>(&params, 10_000, 21);
    let hash = || {
        let mut flock = GpuFlock::new(&gpu, params.clone(), &pos, &vel).unwrap();
        flock.set_solids(&solids).unwrap();
        flock.step_many(60);
        flock.state_hash()
    };
    let first = hash();
    assert_eq!(hash(), first);
    // Negative control: one tick fewer is another state.
    let mut shorter = GpuFlock::new(&gpu, params.clone(), &pos, &vel).unwrap();
    shorter.set_solids(&solids).unwrap();
    shorter.step_many(59);
    assert_ne!(shorter.state_hash(), first);
}

#[test]
#[ignore = "needs a GPU (Vulkan; lavapipe will do)"]
fn a_3d_world_refuses_a_flat_flock_and_a_flat_world_a_3d_one() {
    let gpu = common::gpu();
    let (params, _) = preset3d("reynolds3d");
    let flat = [murmur_core::Vec2::ZERO];
    let err = GpuFlock::new(&gpu, params, &flat, &flat).unwrap_err();
    assert_eq!(
        err,
        GpuError::Space {
            world: "3D",
            flock: "2D"
        }
    );
    let params = common::preset("reynolds");
    let deep = [Vec3::ZERO];
    let err = GpuFlock::new(&gpu, params, &deep, &deep).unwrap_err();
    assert_eq!(
        err,
        GpuError::Space {
            world: "2D",
            flock: "3D"
        }
    );
}

/// Polarization, mean nearest-neighbour distance and the flock's thickness over its width (its
/// shape), averaged over the last 100 of `ticks`: on the GPU, on the CPU from the same start,
/// and on the CPU from a start nudged by a rounding error (the run's own chaos, for scale).
fn figures3d(
    params: &FlockParams,
    solids: &[Solid],
    n: usize,
    seed: u64,
    ticks: u32,
) -> [[f64; 3]; 3] {
    let gpu = common::gpu();
    let (pos, vel) = initial_boids::<Vec3>(params, n, seed);
    let cpu_from = |pos: Vec<Vec3>| {
        let mut cpu = FlockSim::<Vec3>::from_state(params.clone(), pos, vel.clone(), seed);
        cpu.solids = solids.to_vec();
        cpu
    };
    let mut cpu = cpu_from(pos.clone());
    let mut nudged = cpu_from(pos.iter().map(|p| *p * (1.0 + 1e-6)).collect());
    let mut flock = GpuFlock::new(&gpu, params.clone(), &pos, &vel).unwrap();
    flock.set_solids(solids).unwrap();
    let world = params.bounds_in::<Vec3>();
    let mut sums = [[0.0; 3]; 3];
    let mut samples = 0.0;
    for t in (20..=ticks).step_by(20) {
        flock.step_many(20);
        for _ in 0..20 {
            cpu.step();
            nudged.step();
        }
        let (gpos, gvel) = flock.read_state();
        assert!(
            gpos.iter().chain(&gvel).all(|v| v.is_finite()),
            "a NaN by tick {t}"
        );
        assert!(
            gpos.iter().all(|&p| world.contains(p)),
            "a bird left the world"
        );
        if t > ticks - 100 {
            let states = [
                (&gpos, &gvel),
                (&cpu.pos, &cpu.vel),
                (&nudged.pos, &nudged.vel),
            ];
            for (sum, (p, v)) in sums.iter_mut().zip(states) {
                let m =
                    FlockSim::<Vec3>::from_state(params.clone(), p.clone(), v.clone(), 0).metrics();
                sum[0] += m.polarization;
                sum[1] += m.mean_nn_distance.expect("more than one bird");
                sum[2] += thickness(p);
            }
            samples += 1.0;
        }
    }
    sums.map(|s| s.map(|x| x / samples))
}

/// The spread of the flock along its thinnest axis over that along its widest (of x, y, z).
fn thickness(pos: &[Vec3]) -> f64 {
    let n = pos.len() as f64;
    let mean = pos.iter().fold(glam::DVec3::ZERO, |m, p| m + p.as_dvec3()) / n;
    let var = pos.iter().fold(glam::DVec3::ZERO, |s, p| {
        let d = p.as_dvec3() - mean;
        s + d * d
    }) / n;
    (var.min_element() / var.max_element()).sqrt()
}

#[test]
#[ignore = "needs a GPU (Vulkan; lavapipe will do)"]
fn long_runs_give_the_cpus_figures() {
    // Each figure, averaged over eight seeds: the GPU's distance from the CPU's is held to
    // twice the CPU's own distance from a run started a rounding error away (what chaos alone
    // gives), plus 3%.
    const WHAT: [&str; 3] = ["polarization", "nearest-neighbour distance", "thickness"];
    for name in ["reynolds3d", "cornell3d"] {
        let (params, solids) = preset3d(name);
        let (mut gpu_off, mut chaos, mut cpu) = ([0.0; 3], [0.0; 3], [0.0; 3]);
        let seeds = [1, 2, 3, 4, 5, 6, 7, 8];
        for seed in seeds {
            let [g, c, c2] = figures3d(&params, &solids, 3_000, seed, 400);
            eprintln!(
                "{name} seed {seed}: GPU {:.3} {:.2} {:.3}; CPU {:.3} {:.2} {:.3}; \
                 CPU nudged {:.3} {:.2} {:.3} (polarization, nn distance, thickness)",
                g[0], g[1], g[2], c[0], c[1], c[2], c2[0], c2[1], c2[2]
            );
            for a in 0..3 {
                gpu_off[a] += (g[a] - c[a]) / seeds.len() as f64;
                chaos[a] += (c2[a] - c[a]).abs() / seeds.len() as f64;
                cpu[a] += c[a] / seeds.len() as f64;
            }
        }
        for a in 0..3 {
            let allowed = 2.0 * chaos[a] + 0.03 * cpu[a].abs();
            eprintln!(
                "{name}: {}: GPU - CPU {:+.4} (mean CPU {:.3}); chaos {:.4}; allowed {:.4}",
                WHAT[a], gpu_off[a], cpu[a], chaos[a], allowed
            );
            assert!(
                gpu_off[a].abs() <= allowed,
                "{name}: {}: the GPU is {} from the CPU, over {allowed}",
                WHAT[a],
                gpu_off[a]
            );
        }
    }
}
