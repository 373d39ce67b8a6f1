//! A stable fingerprint of flock state, for determinism checks.

use crate::space::Vector;

/// FNV-1a over the bit patterns of the positions and velocities, in the order given.
pub fn state_hash<V: Vector>(positions: &[V], velocities: &[V]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |x: f32| {
        for b in x.to_bits().to_le_bytes() {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    };
    for (p, v) in positions.iter().zip(velocities) {
        for a in 0..V::DIM {
            eat(p.axis(a));
        }
        for a in 0..V::DIM {
            eat(v.axis(a));
        }
    }
    h
}
