//! Splits the flock plugins' tick from FastFlock's on the core side: from one state, alternately,
//! FastFlock's fused tick (`SortedFlock::step`) and the calls the plugins make
//! (`sort_with` keeping a slot index, `steer`, `integrate`), at the bench density (about 20
//! neighbours within the interaction radius, torus). What remains of the plugins' tick is the
//! ECS side (taking changes in, the write-back): `murmur bench --only ecs` gives the whole.
//! `cargo run --release --manifest-path plugins/murmur_bench/Cargo.toml --example pluginprof -- 100000 30` (birds, rounds).

use murmur_core::prelude::*;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Instant;

/// Milliseconds since `started`.
fn ms(started: Instant) -> f64 {
    started.elapsed().as_secs_f64() * 1e3
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args
        .next()
        .map_or(100_000, |a| a.parse().expect("a bird count"));
    let rounds: usize = args
        .next()
        .map_or(30, |a| a.parse().expect("a round count"));
    let mut params = Preset::load("cornell").expect("built in").flock_params();
    let r = params.model.interaction_radius();
    params.world_size = Vec2::splat((n as f32 * std::f32::consts::PI * r * r / 20.0).sqrt());
    params.edges.mode = EdgeMode::Wrap;
    let mut fast = FastFlock::new(params.clone(), n, 1);
    for _ in 0..4 {
        fast.step();
    }
    let start = fast.birds().clone();
    // The plugins' index of slots by bird id, written as the sort moves the ids.
    let slots: Vec<AtomicU32> = (0..n).map(|_| AtomicU32::new(0)).collect();
    let on_slot = |slot: usize, id: u32| slots[id as usize].store(slot as u32, Ordering::Relaxed);
    let (mut fused, mut fused_sort) = (Vec::new(), Vec::new());
    let (mut plugins, mut sort, mut steer, mut integrate) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for _ in 0..rounds {
        // Each timed tick follows an untimed one of the same kind (warm caches, and for the
        // plugins' calls the move worked out with the steering, as in a running app).
        let mut birds = start.clone();
        birds.step(&params, &[], &[]);
        let started = Instant::now();
        birds.step(&params, &[], &[]);
        fused.push(ms(started));
        let mut birds = start.clone();
        birds.step(&params, &[], &[]);
        let started = Instant::now();
        birds.sort(&params);
        fused_sort.push(ms(started));

        let mut birds = start.clone();
        for _ in 0..2 {
            birds.sort_with(&params, on_slot);
            birds.steer(&params);
            birds.integrate(&params);
        }
        let started = Instant::now();
        birds.sort_with(&params, on_slot);
        let sorted = ms(started);
        birds.steer(&params);
        let steered = ms(started);
        birds.integrate(&params);
        let moved = ms(started);
        plugins.push(moved);
        sort.push(sorted);
        steer.push(steered - sorted);
        integrate.push(moved - steered);
    }
    println!(
        "{n} birds, medians of {rounds} rounds: FastFlock tick {:.3} ms (its sort {:.3}); \
         plugins' core calls {:.3} ms (sort_with {:.3}, steer {:.3}, integrate {:.3})",
        median(fused),
        median(fused_sort),
        median(plugins),
        median(sort),
        median(steer),
        median(integrate)
    );
}
