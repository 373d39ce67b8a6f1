//! Eight float lanes for the neighbour sums, three ways: one AVX register, two SSE registers, or a
//! plain array. Each form does the same IEEE operation on every lane (no fused multiply-adds), so
//! whichever one a CPU runs, the sums come out bit for bit the same.

/// Number of lanes in every form.
pub(super) const LANES: usize = 8;

/// Lane masks for a short last chunk: `TAIL[r]` has its first `r` lanes all ones.
pub(super) static TAIL: [[u32; LANES]; LANES + 1] = {
    let mut t = [[0u32; LANES]; LANES + 1];
    let mut r = 0;
    while r <= LANES {
        let mut l = 0;
        while l < r {
            t[r][l] = u32::MAX;
            l += 1;
        }
        r += 1;
    }
    t
};

/// Eight-lane float arithmetic. Masks are vectors whose lanes are all ones or all zeros.
///
/// # Safety
/// Implementations may need CPU features; callers make sure the CPU has them (see
/// [`super::sums`]'s dispatch), and `load` reads eight floats from its pointer.
pub(super) trait Lanes {
    /// Eight floats.
    type V: Copy;
    /// All lanes `x`.
    unsafe fn splat(x: f32) -> Self::V;
    /// Eight floats from `p` (no alignment needed).
    unsafe fn load(p: *const f32) -> Self::V;
    /// Eight lane masks from `p`.
    unsafe fn load_mask(p: *const u32) -> Self::V;
    /// Lane-wise sum.
    unsafe fn add(a: Self::V, b: Self::V) -> Self::V;
    /// Lane-wise product.
    unsafe fn mul(a: Self::V, b: Self::V) -> Self::V;
    /// Lane-wise quotient.
    unsafe fn div(a: Self::V, b: Self::V) -> Self::V;
    /// Lane-wise square root.
    unsafe fn sqrt(a: Self::V) -> Self::V;
    /// Mask of `a < b` (false for NaN).
    unsafe fn lt(a: Self::V, b: Self::V) -> Self::V;
    /// Mask of `a >= b` (false for NaN).
    unsafe fn ge(a: Self::V, b: Self::V) -> Self::V;
    /// Bitwise and: `v` where `mask` is set, `+0.0` elsewhere.
    unsafe fn and(mask: Self::V, v: Self::V) -> Self::V;
    /// The lane totals of four vectors, each summed by the one tree every form uses:
    /// `((l0 + l1) + (l2 + l3)) + ((l4 + l5) + (l6 + l7))`.
    unsafe fn totals(a: Self::V, b: Self::V, c: Self::V, d: Self::V) -> [f32; 4];
}

/// [`Lanes::totals`]' tree over one stored vector.
#[inline(always)]
fn tree(l: [f32; LANES]) -> f32 {
    ((l[0] + l[1]) + (l[2] + l[3])) + ((l[4] + l[5]) + (l[6] + l[7]))
}

/// Plain arrays: for targets without the x86 forms (the web build among them).
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
pub(super) struct Plain;

fn lane_mask(on: bool) -> f32 {
    f32::from_bits((on as u32).wrapping_neg())
}

impl Lanes for Plain {
    type V = [f32; LANES];
    #[inline(always)]
    unsafe fn splat(x: f32) -> Self::V {
        [x; LANES]
    }
    #[inline(always)]
    unsafe fn load(p: *const f32) -> Self::V {
        // SAFETY: the caller hands a pointer to eight readable floats.
        unsafe { p.cast::<[f32; LANES]>().read_unaligned() }
    }
    #[inline(always)]
    unsafe fn load_mask(p: *const u32) -> Self::V {
        // SAFETY: as for `load`.
        unsafe { p.cast::<[f32; LANES]>().read_unaligned() }
    }
    #[inline(always)]
    unsafe fn add(a: Self::V, b: Self::V) -> Self::V {
        std::array::from_fn(|l| a[l] + b[l])
    }
    #[inline(always)]
    unsafe fn mul(a: Self::V, b: Self::V) -> Self::V {
        std::array::from_fn(|l| a[l] * b[l])
    }
    #[inline(always)]
    unsafe fn div(a: Self::V, b: Self::V) -> Self::V {
        std::array::from_fn(|l| a[l] / b[l])
    }
    #[inline(always)]
    unsafe fn sqrt(a: Self::V) -> Self::V {
        std::array::from_fn(|l| a[l].sqrt())
    }
    #[inline(always)]
    unsafe fn lt(a: Self::V, b: Self::V) -> Self::V {
        std::array::from_fn(|l| lane_mask(a[l] < b[l]))
    }
    #[inline(always)]
    unsafe fn ge(a: Self::V, b: Self::V) -> Self::V {
        std::array::from_fn(|l| lane_mask(a[l] >= b[l]))
    }
    #[inline(always)]
    unsafe fn and(mask: Self::V, v: Self::V) -> Self::V {
        std::array::from_fn(|l| f32::from_bits(mask[l].to_bits() & v[l].to_bits()))
    }
    #[inline(always)]
    unsafe fn totals(a: Self::V, b: Self::V, c: Self::V, d: Self::V) -> [f32; 4] {
        [a, b, c, d].map(tree)
    }
}

#[cfg(target_arch = "x86_64")]
pub(super) use x86::{Avx, Sse};

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::{LANES, Lanes, tree};
    use std::arch::x86_64::*;

    /// Two SSE registers, lanes 0-3 and 4-7 (SSE2 is part of every x86-64 CPU).
    pub(in super::super) struct Sse;

    impl Sse {
        /// Writes the lanes to `out`.
        #[inline(always)]
        fn store(v: (__m128, __m128), out: &mut [f32; LANES]) {
            // SAFETY: `out` holds eight floats; SSE is part of every x86-64 CPU.
            unsafe {
                _mm_storeu_ps(out.as_mut_ptr(), v.0);
                _mm_storeu_ps(out.as_mut_ptr().add(4), v.1);
            }
        }
    }

    impl Lanes for Sse {
        type V = (__m128, __m128);
        #[inline(always)]
        unsafe fn splat(x: f32) -> Self::V {
            // SAFETY: register arithmetic; the caller vouches for the CPU features.
            unsafe {
                let v = _mm_set1_ps(x);
                (v, v)
            }
        }
        #[inline(always)]
        unsafe fn load(p: *const f32) -> Self::V {
            // SAFETY: the caller hands a pointer to eight readable floats.
            unsafe { (_mm_loadu_ps(p), _mm_loadu_ps(p.add(4))) }
        }
        #[inline(always)]
        unsafe fn load_mask(p: *const u32) -> Self::V {
            // SAFETY: as for `load`.
            unsafe { Self::load(p.cast()) }
        }
        #[inline(always)]
        unsafe fn add(a: Self::V, b: Self::V) -> Self::V {
            // SAFETY: register arithmetic; the caller vouches for the CPU features.
            unsafe { (_mm_add_ps(a.0, b.0), _mm_add_ps(a.1, b.1)) }
        }
        #[inline(always)]
        unsafe fn mul(a: Self::V, b: Self::V) -> Self::V {
            // SAFETY: register arithmetic; the caller vouches for the CPU features.
            unsafe { (_mm_mul_ps(a.0, b.0), _mm_mul_ps(a.1, b.1)) }
        }
        #[inline(always)]
        unsafe fn div(a: Self::V, b: Self::V) -> Self::V {
            // SAFETY: register arithmetic; the caller vouches for the CPU features.
            unsafe { (_mm_div_ps(a.0, b.0), _mm_div_ps(a.1, b.1)) }
        }
        #[inline(always)]
        unsafe fn sqrt(a: Self::V) -> Self::V {
            // SAFETY: register arithmetic; the caller vouches for the CPU features.
            unsafe { (_mm_sqrt_ps(a.0), _mm_sqrt_ps(a.1)) }
        }
        #[inline(always)]
        unsafe fn lt(a: Self::V, b: Self::V) -> Self::V {
            // SAFETY: register arithmetic; the caller vouches for the CPU features.
            unsafe { (_mm_cmplt_ps(a.0, b.0), _mm_cmplt_ps(a.1, b.1)) }
        }
        #[inline(always)]
        unsafe fn ge(a: Self::V, b: Self::V) -> Self::V {
            // SAFETY: register arithmetic; the caller vouches for the CPU features.
            unsafe { (_mm_cmpge_ps(a.0, b.0), _mm_cmpge_ps(a.1, b.1)) }
        }
        #[inline(always)]
        unsafe fn and(mask: Self::V, v: Self::V) -> Self::V {
            // SAFETY: register arithmetic; the caller vouches for the CPU features.
            unsafe { (_mm_and_ps(mask.0, v.0), _mm_and_ps(mask.1, v.1)) }
        }
        #[inline(always)]
        unsafe fn totals(a: Self::V, b: Self::V, c: Self::V, d: Self::V) -> [f32; 4] {
            let stored = |v: Self::V| {
                let mut out = [0.0; LANES];
                Self::store(v, &mut out);
                tree(out)
            };
            [stored(a), stored(b), stored(c), stored(d)]
        }
    }

    /// One AVX register. Its methods need the `avx` feature, which the dispatch checks for
    /// before running code built on them.
    pub(in super::super) struct Avx;

    impl Lanes for Avx {
        type V = __m256;
        #[inline]
        #[target_feature(enable = "avx")]
        unsafe fn splat(x: f32) -> Self::V {
            _mm256_set1_ps(x)
        }
        #[inline]
        #[target_feature(enable = "avx")]
        unsafe fn load(p: *const f32) -> Self::V {
            // SAFETY: the caller hands a pointer to eight readable floats.
            unsafe { _mm256_loadu_ps(p) }
        }
        #[inline]
        #[target_feature(enable = "avx")]
        unsafe fn load_mask(p: *const u32) -> Self::V {
            // SAFETY: as for `load`.
            unsafe { _mm256_loadu_ps(p.cast()) }
        }
        #[inline]
        #[target_feature(enable = "avx")]
        unsafe fn add(a: Self::V, b: Self::V) -> Self::V {
            _mm256_add_ps(a, b)
        }
        #[inline]
        #[target_feature(enable = "avx")]
        unsafe fn mul(a: Self::V, b: Self::V) -> Self::V {
            _mm256_mul_ps(a, b)
        }
        #[inline]
        #[target_feature(enable = "avx")]
        unsafe fn div(a: Self::V, b: Self::V) -> Self::V {
            _mm256_div_ps(a, b)
        }
        #[inline]
        #[target_feature(enable = "avx")]
        unsafe fn sqrt(a: Self::V) -> Self::V {
            _mm256_sqrt_ps(a)
        }
        #[inline]
        #[target_feature(enable = "avx")]
        unsafe fn lt(a: Self::V, b: Self::V) -> Self::V {
            _mm256_cmp_ps::<_CMP_LT_OQ>(a, b)
        }
        #[inline]
        #[target_feature(enable = "avx")]
        unsafe fn ge(a: Self::V, b: Self::V) -> Self::V {
            _mm256_cmp_ps::<_CMP_GE_OQ>(a, b)
        }
        #[inline]
        #[target_feature(enable = "avx")]
        unsafe fn and(mask: Self::V, v: Self::V) -> Self::V {
            _mm256_and_ps(mask, v)
        }
        #[inline]
        #[target_feature(enable = "avx")]
        unsafe fn totals(a: Self::V, b: Self::V, c: Self::V, d: Self::V) -> [f32; 4] {
            // Pairs, then pairs of pairs, within each 128-bit half; then the halves: the same
            // tree as the other forms.
            let h = _mm256_hadd_ps(_mm256_hadd_ps(a, b), _mm256_hadd_ps(c, d));
            let sum = _mm_add_ps(_mm256_castps256_ps128(h), _mm256_extractf128_ps::<1>(h));
            let mut out = [0.0; 4];
            // SAFETY: `out` holds four floats.
            unsafe { _mm_storeu_ps(out.as_mut_ptr(), sum) };
            out
        }
    }
}
