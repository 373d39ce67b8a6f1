//! A tick of the Bevy plugins after warm-up allocates nothing: every buffer is reused. A file of
//! its own, as the allocator that counts sees every thread of the process: a sibling test
//! running beside it would be counted too.

use bevy::prelude::*;
use murmur_flock::prelude::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

fn params() -> FlockParams {
    let mut p = Preset::load("reynolds").unwrap().flock_params();
    p.edges.mode = EdgeMode::Wrap;
    p
}

/// Counts allocations while switched on.
struct Counting;

static COUNTING: AtomicBool = AtomicBool::new(false);
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards to the system allocator, only counting.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTING.load(Ordering::Relaxed) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        // SAFETY: as the caller promises for `GlobalAlloc::alloc`.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as the caller promises for `GlobalAlloc::dealloc`.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Allocations in `ticks` runs of the flock's schedule, after `warm` runs.
fn allocations(world: &mut World, warm: u64, ticks: u64) -> usize {
    for _ in 0..warm {
        world.run_schedule(FixedUpdate);
    }
    ALLOCATIONS.store(0, Ordering::Relaxed);
    COUNTING.store(true, Ordering::Relaxed);
    for _ in 0..ticks {
        world.run_schedule(FixedUpdate);
    }
    COUNTING.store(false, Ordering::Relaxed);
    ALLOCATIONS.load(Ordering::Relaxed)
}

#[test]
fn a_tick_after_warm_up_allocates_nothing() {
    // The flock's systems alone, run in order on this thread (Bevy's own per-frame work and
    // its multi-threaded executor allocate; the flock must not).
    let mut app = App::new();
    app.add_plugins(FlockPlugin::default())
        .edit_schedule(FixedUpdate, |schedule| {
            schedule.set_executor(bevy::ecs::schedule::SingleThreadedExecutor::new());
        });
    let flock = app.world_mut().spawn_flock(params(), 20_000, 1);
    app.world_mut().spawn((
        Leader::new(LeaderParams::default()),
        Position(Vec2::new(10.0, 10.0)),
    ));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    // Every worker thread started and through its first search for work before anything is
    // counted: a thread's first steal registers it with the work queues' memory reclamation
    // (an allocation of the thread pool's), which a busy machine can delay past the warm-up.
    for _ in 0..3 {
        pool.broadcast(|_| std::thread::yield_now());
    }
    let world = app.world_mut();
    let count = pool.install(|| allocations(world, 20, 50));
    let ticked = app.world().get::<FlockColumns>(flock).unwrap().tick();
    assert_eq!(ticked, 70, "the flock ticked");
    assert_eq!(
        count, 0,
        "allocations in 50 ticks of 20,000 birds and a leader"
    );
}
