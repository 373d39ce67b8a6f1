//! Ticks per second of the 48-bird board model on one core:
//! `cargo run --release -p murmur_microboids --example tick_rate [-- a412|bfee0c8|article]`.

use murmur_microboids::{Flock, Revision};
use std::time::{Duration, Instant};

fn main() {
    let revision = std::env::args()
        .nth(1)
        .map(|name| Revision::from_name(&name).expect("a412, bfee0c8 or article"))
        .unwrap_or(Revision::A412);
    let mut flock: Flock = Flock::new(revision, 48, 0x1234_5678).expect("a valid flock");
    // A fixed number of ticks instead of 3 s (for instruction counting under callgrind).
    let fixed: Option<u64> = std::env::args()
        .nth(2)
        .map(|n| n.parse().expect("a tick count"));
    let started = Instant::now();
    let mut ticks = 0u64;
    while fixed.map_or(started.elapsed() < Duration::from_secs(3), |n| ticks < n) {
        for _ in 0..1000 {
            flock.tick(None);
        }
        ticks += 1000;
    }
    let rate = ticks as f64 / started.elapsed().as_secs_f64();
    let check: i64 = flock.birds().iter().map(|b| b.x.to_bits() as i64).sum();
    println!(
        "{{\"kind\":\"q15\",\"revision\":\"{}\",\"birds\":48,\"ticks_per_s\":{rate:.0},\"state_check\":{check}}}",
        revision.name()
    );
}
