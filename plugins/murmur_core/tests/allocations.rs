//! After warm-up, a tick allocates nothing: every buffer is reused.

use murmur_core::prelude::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Every worker thread started and through its first search for work before anything is
/// counted: a thread's first steal registers it with the work queues' memory reclamation (an
/// allocation of the thread pool's, not the flock's), which a busy machine can delay past the
/// warm-up ticks.
fn settle_threads(pool: &rayon::ThreadPool) {
    for _ in 0..3 {
        pool.broadcast(|_| std::thread::yield_now());
    }
}

#[test]
fn ticks_after_warm_up_do_not_allocate() {
    for preset in ["cornell", "reynolds", "spaceboids"] {
        let mut p = Preset::load(preset).unwrap();
        p.apply_overrides(&["edges.mode=wrap", "width=2000", "height=2000"])
            .unwrap();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        settle_threads(&pool);
        pool.install(|| {
            let params = p.flock_params();
            let mut fast = FastFlock::new(params.clone(), 20_000, 3);
            let mut sim = FlockSim::new(params.clone(), 20_000, 3);
            let (pos, vel) = murmur_core::sim::initial_boids(&params, 20_000, 3);
            let mut phased = SortedFlock::from_state(&pos, &vel, 3);
            // The phases one by one (the Bevy plugins' way), the move worked out with the
            // steering on some ticks and dropped (the accelerations touched) on others.
            let mut phases = |tick: usize| {
                phased.sort(&params);
                phased.steer(&params);
                if tick.is_multiple_of(3) {
                    phased.acc_mut();
                }
                phased.integrate(&params);
            };
            for tick in 0..5 {
                fast.step();
                sim.step();
                phases(tick);
            }
            let before = ALLOCATIONS.load(Ordering::Relaxed);
            for tick in 0..20 {
                fast.step();
                sim.step();
                phases(tick);
            }
            let during = ALLOCATIONS.load(Ordering::Relaxed) - before;
            assert_eq!(during, 0, "{preset}: {during} allocations in 20 ticks");
        });
    }
}
