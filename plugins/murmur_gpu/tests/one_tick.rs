//! One tick from the same state on the GPU and on the CPU: every bird sees exactly the same
//! neighbours; positions and velocities agree to rounding.
//!
//! They are not bit-equal because the neighbour sums are added in a different order (the CPU
//! adds eight lanes at a time and then the lanes; the GPU one neighbour after another) and a
//! driver may fuse a multiply and an add; which birds count as neighbours does not change, as
//! both compute each offset and squared distance in the same operations.

mod common;

use murmur_core::params::FlockParams;
use murmur_core::sim::{FlockSim, LeaderState, initial_boids};
use murmur_gpu::GpuFlock;

fn one_tick(gpu: &murmur_gpu::GpuContext, params: FlockParams, n: usize, leaders: &[LeaderState]) {
    let (pos, vel) = initial_boids::<murmur_core::Vec2>(&params, n, 3);
    let mut cpu = FlockSim::from_state(params.clone(), pos.clone(), vel.clone(), 3);
    cpu.leaders = leaders.to_vec();
    cpu.step();
    let mut flock = GpuFlock::new(gpu, params.clone(), &pos, &vel).unwrap();
    flock.set_leaders(leaders);
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
    let world = params.bounds();
    let (mut dp, mut dv) = (0.0f32, 0.0f32);
    for i in 0..n {
        dp = dp.max(world.delta(cpu.pos[i], gpos[i]).length());
        dv = dv.max((cpu.vel[i] - gvel[i]).length());
    }
    eprintln!(
        "{:?}: largest differences after one tick: position {dp:e}, velocity {dv:e}",
        params.model.kind()
    );
    assert!(dp < 1e-3 && dv < 1e-3, "position {dp}, velocity {dv}");
    // The tick did move the birds (the comparison is not of two untouched states).
    let moved = pos.iter().zip(&gpos).filter(|(a, b)| a != b).count();
    assert!(moved > n * 9 / 10);
}

#[test]
#[ignore = "needs a GPU (Vulkan; lavapipe will do)"]
fn reynolds_on_a_torus() {
    let gpu = common::gpu();
    one_tick(&gpu, common::preset("reynolds"), 20_000, &[]);
}

#[test]
#[ignore = "needs a GPU (Vulkan; lavapipe will do)"]
fn cornell_turning_at_the_edges() {
    let gpu = common::gpu();
    one_tick(&gpu, common::preset("cornell"), 6_000, &[]);
}

#[test]
#[ignore = "needs a GPU (Vulkan; lavapipe will do)"]
fn with_a_leader_a_field_of_view_and_bouncing_edges() {
    let gpu = common::gpu();
    let mut params = common::preset("reynolds");
    params.blind_angle = 90.0;
    params.edges.mode = murmur_core::edges::EdgeMode::Bounce;
    let leader = LeaderState {
        pos: murmur_core::Vec2::new(100.0, -50.0),
        params: common::leader_params("reynolds"),
    };
    one_tick(&gpu, params, 10_000, &[leader]);
}

#[test]
#[ignore = "needs a GPU (Vulkan; lavapipe will do)"]
fn a_fleeing_leader_in_an_open_world() {
    let gpu = common::gpu();
    let mut params = common::preset("cornell");
    params.edges.mode = murmur_core::edges::EdgeMode::None;
    let leader = LeaderState {
        pos: murmur_core::Vec2::new(-60.0, 40.0),
        params: murmur_core::leader::LeaderParams {
            mode: murmur_core::leader::LeaderMode::Flee,
            ..common::leader_params("cornell")
        },
    };
    one_tick(&gpu, params, 5_000, &[leader]);
}

#[test]
#[ignore = "needs a GPU (Vulkan; lavapipe will do)"]
fn new_parameters_take_effect_on_the_next_tick() {
    // As the panel's sliders do: a wider sight (more cells' worth of neighbours, another grid).
    let gpu = common::gpu();
    let params = common::preset("reynolds");
    let (pos, vel) = initial_boids::<murmur_core::Vec2>(&params, 8_000, 4);
    let mut flock = GpuFlock::new(&gpu, params.clone(), &pos, &vel).unwrap();
    flock.step();
    let (pos, vel) = flock.read_state();
    let mut wider = params.clone();
    if let murmur_core::models::Model::Reynolds(m) = &mut wider.model {
        m.perception_radius = 90.0;
    }
    flock.set_params(wider.clone()).unwrap();
    assert_ne!(flock.grid_layout().cell_count(), {
        let old = murmur_core::grid::GridLayout::new(
            &params.bounds(),
            params.model.interaction_radius(),
            8_000,
        );
        old.cell_count()
    });
    flock.step();
    let mut cpu = FlockSim::from_state(wider, pos, vel, 4);
    cpu.step();
    assert_eq!(flock.read_neighbours(), cpu.neighbours);
}

#[test]
#[ignore = "needs a GPU (Vulkan; lavapipe will do)"]
fn the_player_is_seen_but_moved_only_by_the_game() {
    let gpu = common::gpu();
    let params = common::preset("reynolds");
    let (mut pos, mut vel) = initial_boids::<murmur_core::Vec2>(&params, 4_000, 8);
    let n = pos.len();
    // The player: the last bird, in the middle of the flock.
    let (player_pos, player_vel) = (
        murmur_core::Vec2::new(10.0, 20.0),
        murmur_core::Vec2::X * 9.0,
    );
    (pos[n - 1], vel[n - 1]) = (player_pos, player_vel);
    let mut flock = GpuFlock::new(&gpu, params.clone(), &pos, &vel).unwrap();
    flock.set_player(Some(n as u32 - 1));
    flock.step();
    let (gpos, gvel) = flock.read_state();
    assert_eq!(
        (gpos[n - 1], gvel[n - 1]),
        (player_pos, player_vel),
        "the kernels left it alone"
    );
    // The birds around it count it, as the CPU's do.
    let mut cpu = FlockSim::from_state(params, pos, vel, 8);
    cpu.step();
    assert_eq!(flock.read_neighbours(), cpu.neighbours);
    // The game moves it.
    let moved = murmur_core::Vec2::new(-100.0, 5.0);
    flock.put_bird(n as u32 - 1, moved, player_vel);
    flock.step();
    assert_eq!(flock.read_state().0[n - 1], moved);
}
