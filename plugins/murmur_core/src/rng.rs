//! Counter-based randomness: a value is a pure function of (seed, boid, tick, stream), so any
//! thread may draw any boid's number in any order and the flock stays deterministic.

use crate::space::Vector;
use glam::Vec2;

/// SplitMix64's finaliser: a cheap, well-mixed 64-bit hash.
#[inline]
pub fn mix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A hash of several words, order-sensitive.
#[inline]
pub fn hash_words(words: &[u64]) -> u64 {
    words
        .iter()
        .fold(0x243F_6A88_85A3_08D3, |h, &w| mix64(h ^ mix64(w)))
}

/// A uniform number in `[0, 1)` from a hash (its top 24 bits).
#[inline]
pub fn unit_f32(h: u64) -> f32 {
    (h >> 40) as f32 * (1.0 / (1u64 << 24) as f32)
}

/// A uniform unit vector from a hash.
#[inline]
pub fn unit_vector(h: u64) -> Vec2 {
    let angle = unit_f32(h) * std::f32::consts::TAU;
    Vec2::from_angle(angle)
}

/// A uniform direction in space `V` from a hash: in 2D [`unit_vector`]'s; in 3D a point on the
/// sphere, its second number drawn from the hash hashed again.
#[inline]
pub fn unit_direction<V: Vector>(h: u64) -> V {
    let second = if V::DIM == 3 {
        unit_f32(mix64(h ^ 0x5350_4845_5245_3344))
    } else {
        0.0
    };
    V::direction_from(unit_f32(h), second)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unit_values_cover_the_interval_evenly() {
        let n = 100_000;
        let mut buckets = [0u32; 10];
        for i in 0..n {
            let u = unit_f32(hash_words(&[42, i]));
            assert!((0.0..1.0).contains(&u));
            buckets[(u * 10.0) as usize] += 1;
        }
        for b in buckets {
            assert!((b as i64 - n as i64 / 10).abs() < 600, "{buckets:?}");
        }
    }

    #[test]
    fn hashes_depend_on_every_word_and_their_order() {
        assert_ne!(hash_words(&[1, 2]), hash_words(&[2, 1]));
        assert_ne!(hash_words(&[1, 2]), hash_words(&[1, 3]));
        assert_eq!(hash_words(&[7, 8, 9]), hash_words(&[7, 8, 9]));
    }
}
