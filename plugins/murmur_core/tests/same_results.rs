//! The flock's results, pinned: hashes of the state after a hundred ticks of each model whose
//! tick uses only the basic IEEE operations (no `sin`, `cos` or `ln`, whose last bits differ
//! between C libraries; SpaceBoids' wander directions alone use them, see [`compared_here`]),
//! on every edge, sparse and dense, with and without a leader and a predator. A change made for
//! speed must leave every one of them as it is; a change to what a model computes changes them,
//! and says so here.
//!
//! The starting states are drawn by integer arithmetic and square roots alone, so the hashes do
//! not depend on the platform. `same_bits.rs` checks that `FlockSim`, `FastFlock` and the phases
//! one by one agree with each other; this file checks that they all still give what they gave.

use murmur_core::leader::{LeaderMode, LeaderParams};
use murmur_core::predator::{PredatorParams, PredatorState};
use murmur_core::prelude::*;
use murmur_core::sim::LeaderState;

/// A flock of `n` birds spread over the world, each at a speed between half and all of the
/// model's cruising speed, drawn from `seed` by a xorshift generator.
fn start(p: &FlockParams, n: usize, seed: u64) -> (Vec<Vec2>, Vec<Vec2>) {
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        // 24 random bits: exact in an f32.
        (state >> 40) as f32 / (1u32 << 24) as f32
    };
    let world = p.bounds();
    let speed = p.model.cruise_speed();
    (0..n)
        .map(|_| {
            let pos = world.min + world.size * Vec2::new(next(), next());
            let dir = Vec2::new(next() - 0.5, next() - 0.5).normalize_or(Vec2::X);
            (pos, dir * speed * (0.5 + 0.5 * next()))
        })
        .unzip()
}

/// The hash of a flock after `ticks` ticks of `FastFlock` (the path `murmur bench` times).
fn hash_after(p: &FlockParams, n: usize, ticks: usize, others: bool) -> u64 {
    let (pos, vel) = start(p, n, 7);
    let mut flock = FastFlock::from_state(p.clone(), &pos, &vel, 7);
    if others {
        let world = p.bounds();
        flock.leaders.push(LeaderState {
            pos: world.min + world.size * Vec2::new(0.7, 0.35),
            params: LeaderParams {
                mode: LeaderMode::Follow,
                ..LeaderParams::default()
            },
        });
        flock.predators.push(PredatorState {
            pos: world.min + world.size * Vec2::new(0.2, 0.8),
            params: PredatorParams::default(),
        });
    }
    for _ in 0..ticks {
        flock.step();
    }
    flock.state_hash()
}

/// The flocks pinned: (preset, overrides, birds, leader and predator).
fn cases() -> Vec<(&'static str, Vec<String>, usize, bool)> {
    let mut cases = Vec::new();
    for preset in ["reynolds", "cornell", "spaceboids", "abm"] {
        for edges in ["wrap", "turn", "bounce", "none"] {
            for others in [false, true] {
                cases.push((preset, vec![format!("edges.mode={edges}")], 700, others));
            }
        }
    }
    // The ABM frameworks comparison's two sizes (`murmur bench --only abm`): a sparse flock
    // whose blocks are short spans, and a dense one whose spans take several chunks.
    cases.push(("abm", vec![], 200, false));
    let large = ["vision=15", "width=150", "height=150"];
    cases.push(("abm", large.map(String::from).to_vec(), 400, false));
    // Crowded cells in every model.
    for preset in ["reynolds", "cornell", "spaceboids", "abm"] {
        cases.push((
            preset,
            vec!["width=300".into(), "height=300".into()],
            3000,
            false,
        ));
    }
    cases
}

/// Whether a case's pinned hash holds on this target. SpaceBoids draws its wander directions
/// through `sin` and `cos`, whose last bits are the maths library's: its hashes were pinned with
/// glibc's (Linux on x86-64), and Rust's own (the web page's wasm32 build, where
/// `scripts/test-wasm.sh` runs this file) differs in a few of them. The other models use only
/// `+ - * /` and square roots, the same bits everywhere.
fn compared_here(case: &str) -> bool {
    !case.starts_with("spaceboids") || cfg!(all(target_os = "linux", target_env = "gnu"))
}

/// What the cases gave when they were pinned, in the order of [`cases`].
const PINNED: &[u64] = &[
    0x1c25fa3a85daff2c, // reynolds ["edges.mode=wrap"] 700 birds, others false
    0xd3cca2297a20681c, // reynolds ["edges.mode=wrap"] 700 birds, others true
    0x0c474660045e6526, // reynolds ["edges.mode=turn"] 700 birds, others false
    0x8120c0c883bfd2a3, // reynolds ["edges.mode=turn"] 700 birds, others true
    0x5adf474e05e4acea, // reynolds ["edges.mode=bounce"] 700 birds, others false
    0x0528ee7ba4e4ecd2, // reynolds ["edges.mode=bounce"] 700 birds, others true
    0x2236d870b5572f7d, // reynolds ["edges.mode=none"] 700 birds, others false
    0x7258b2dfecf0b7fb, // reynolds ["edges.mode=none"] 700 birds, others true
    0xf521e29874744aa6, // cornell ["edges.mode=wrap"] 700 birds, others false
    0x7b024fdc868df073, // cornell ["edges.mode=wrap"] 700 birds, others true
    0x4c6cb4fb28f8fc4c, // cornell ["edges.mode=turn"] 700 birds, others false
    0x29f2d4fe00a54f2a, // cornell ["edges.mode=turn"] 700 birds, others true
    0xf5c5dfe2d9ec7bf4, // cornell ["edges.mode=bounce"] 700 birds, others false
    0xd1a95cd2154827c1, // cornell ["edges.mode=bounce"] 700 birds, others true
    0x349f28cb3d5a096c, // cornell ["edges.mode=none"] 700 birds, others false
    0x670164d260a58332, // cornell ["edges.mode=none"] 700 birds, others true
    0xfa68389474a5cedb, // spaceboids ["edges.mode=wrap"] 700 birds, others false
    0x4785367caffc807f, // spaceboids ["edges.mode=wrap"] 700 birds, others true
    0x1ccff73bccf5699c, // spaceboids ["edges.mode=turn"] 700 birds, others false
    0xc8e84339f2906776, // spaceboids ["edges.mode=turn"] 700 birds, others true
    0x7b74a12a73f102ea, // spaceboids ["edges.mode=bounce"] 700 birds, others false
    0x5d2da6d11142ac92, // spaceboids ["edges.mode=bounce"] 700 birds, others true
    0x79db415ecb2fa42a, // spaceboids ["edges.mode=none"] 700 birds, others false
    0x72406d954e16f870, // spaceboids ["edges.mode=none"] 700 birds, others true
    0x455a944315a9ab34, // abm ["edges.mode=wrap"] 700 birds, others false
    0x912b1546dba33d63, // abm ["edges.mode=wrap"] 700 birds, others true
    0x2e388b373f02be6c, // abm ["edges.mode=turn"] 700 birds, others false
    0x32ac6588dedb94a2, // abm ["edges.mode=turn"] 700 birds, others true
    0xad366d78d819d16b, // abm ["edges.mode=bounce"] 700 birds, others false
    0x00e5e443d818e1e8, // abm ["edges.mode=bounce"] 700 birds, others true
    0xb12d8131c8a96115, // abm ["edges.mode=none"] 700 birds, others false
    0xd24461cf23a6ca95, // abm ["edges.mode=none"] 700 birds, others true
    0x9c732c09af062c1f, // abm [] 200 birds, others false
    0x70eaf982f8d770ae, // abm ["vision=15", "width=150", "height=150"] 400 birds, others false
    0x0f32abe4ed24c74d, // reynolds ["width=300", "height=300"] 3000 birds, others false
    0xd4c555860c3aafef, // cornell ["width=300", "height=300"] 3000 birds, others false
    0xc3eb8c7dbe8498bf, // spaceboids ["width=300", "height=300"] 3000 birds, others false
    0xfa17ab5c71503a11, // abm ["width=300", "height=300"] 3000 birds, others false
];

#[test]
fn every_pinned_flock_ends_where_it_did() {
    let mut got = Vec::new();
    for (preset, overrides, n, others) in cases() {
        let mut preset_file = Preset::load(preset).unwrap();
        let overrides: Vec<&str> = overrides.iter().map(String::as_str).collect();
        preset_file.apply_overrides(&overrides).unwrap();
        let p = preset_file.flock_params();
        assert_eq!(
            p.view_min_cos(),
            -1.0,
            "{preset}: no field of view (it needs a cosine)"
        );
        got.push((
            format!("{preset} {overrides:?} {n} birds, others {others}"),
            hash_after(&p, n, 100, others),
        ));
    }
    if std::env::var_os("MURMUR_PRINT_HASHES").is_some() {
        for (what, hash) in &got {
            println!("    {hash:#018x}, // {what}");
        }
    }
    assert_eq!(got.len(), PINNED.len(), "one pinned hash per case");
    let mut compared = 0;
    for ((what, hash), pinned) in got.iter().zip(PINNED) {
        if !compared_here(what) {
            eprintln!(
                "not compared on this target (sin and cos from another maths library): {what}"
            );
            continue;
        }
        assert_eq!(hash, pinned, "{what}: the flock ended elsewhere");
        compared += 1;
    }
    assert!(compared >= 28, "only {compared} cases compared");
}

#[test]
fn a_changed_result_is_caught() {
    // The negative control: one bird moved by the least amount an f32 can move changes the
    // hash a hundred ticks later, so the pinned hashes do see a change in the last bit.
    let p = Preset::load("abm").unwrap().flock_params();
    let (mut pos, vel) = start(&p, 200, 7);
    let mut flock = FastFlock::from_state(p.clone(), &pos, &vel, 7);
    pos[100].x = f32::from_bits(pos[100].x.to_bits() + 1);
    let mut nudged = FastFlock::from_state(p, &pos, &vel, 7);
    for _ in 0..100 {
        flock.step();
        nudged.step();
    }
    assert_ne!(flock.state_hash(), nudged.state_hash());
}

/// A hash of a flock's positions and velocities, bit for bit.
fn bits_hash<V: murmur_core::Vector>(pos: &[V], vel: &[V]) -> u64 {
    let words = pos
        .iter()
        .chain(vel)
        .flat_map(|v| (0..V::DIM).map(move |a| v.axis(a).to_bits() as u64));
    words.fold(0xcbf2_9ce4_8422_2325, |h, w| {
        (h ^ w).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

#[test]
fn the_first_flock_is_the_same_on_every_platform() {
    // The app's first flock (`initial_boids`: the seed's positions and headings) is what the web
    // page and the native app both start from, so the page's results can equal the native
    // app's. Its headings take `sin` and `cos` from Rust's own maths library; this file runs under
    // wasm too (`scripts/test-wasm.sh`), where the pins must hold as they do natively.
    use murmur_core::sim::initial_boids;
    let flat = Preset::load("reynolds").unwrap().flock_params();
    let (pos, vel) = initial_boids::<Vec2>(&flat, 2000, 1);
    let deep = Preset::load("reynolds3d").unwrap().flock_params();
    let (pos3, vel3) = initial_boids::<murmur_core::Vec3>(&deep, 3000, 1);
    let got = [bits_hash(&pos, &vel), bits_hash(&pos3, &vel3)];
    if std::env::var_os("MURMUR_PRINT_HASHES").is_some() {
        println!("first flocks: {got:#018x?}");
    }
    assert_eq!(
        got,
        [0x330047d68e3d0488, 0x4c27e818ae80dbc7],
        "the first flock (2D, 3D) changed"
    );
}

#[test]
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn the_platforms_sin_and_cos_would_change_the_first_flock() {
    // The negative control: glibc's `sin_cos` (what `direction_from` uses) differs in the last
    // bit from the portable one for some of the angles a first flock is drawn from, so a first
    // flock drawn with it would not match the pins above.
    let differ = (0..1u32 << 16)
        .map(|k| k as f32 / (1u32 << 16) as f32)
        .filter(|&u| Vec2::direction_from(u, 0.0) != Vec2::first_direction(u, 0.0))
        .count();
    eprintln!("glibc's sin and cos give another heading for {differ} of 65536 angles");
    assert!(differ > 100, "only {differ} of 65536 angles differ");
}
