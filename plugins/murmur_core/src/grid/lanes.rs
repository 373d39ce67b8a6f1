//! Eight float lanes for the neighbour sums, five ways: one AVX register with AVX-512 mask
//! registers, one AVX register, two SSE registers, two WebAssembly `v128` registers (a web build
//! with `simd128`), or a plain array. Each form does the same IEEE operation on every lane (no
//! fused multiply-adds), so whichever one a CPU runs, the sums come out bit for bit the same.

/// Number of lanes in every form: the crate's one group width (the per-boid update's too).
pub(super) use crate::lanes::LANES;

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

/// Eight-lane float arithmetic with lane masks.
///
/// # Safety
/// Implementations may need CPU features; callers make sure the CPU has them (see
/// [`super::sums`]'s dispatch), and `load` reads eight floats from its pointer.
pub(super) trait Lanes {
    /// Eight floats.
    type V: Copy;
    /// All lanes `x`.
    unsafe fn splat(x: f32) -> Self::V;
    /// One flag per lane.
    type M: Copy;
    /// Eight floats from `p` (no alignment needed).
    unsafe fn load(p: *const f32) -> Self::V;
    /// The mask of the first `r` lanes (`r <= 8`).
    unsafe fn tail(r: usize) -> Self::M;
    /// Lane-wise sum.
    unsafe fn add(a: Self::V, b: Self::V) -> Self::V;
    /// Lane-wise product.
    unsafe fn mul(a: Self::V, b: Self::V) -> Self::V;
    /// Lane-wise quotient.
    unsafe fn div(a: Self::V, b: Self::V) -> Self::V;
    /// Lane-wise square root.
    unsafe fn sqrt(a: Self::V) -> Self::V;
    /// Mask of `a < b` (false for NaN).
    unsafe fn lt(a: Self::V, b: Self::V) -> Self::M;
    /// Mask of `a >= b` (false for NaN).
    unsafe fn ge(a: Self::V, b: Self::V) -> Self::M;
    /// Number of lanes set.
    unsafe fn count(m: Self::M) -> u32;
    /// Lanes set in both masks.
    unsafe fn both(a: Self::M, b: Self::M) -> Self::M;
    /// `acc + v` in the lanes of `mask`, `acc` in the others. The vector forms add `+0.0` in the
    /// others, which is the same: the sums start at `+0.0` and never become `-0.0` (a rounded
    /// sum is `-0.0` only when both terms are).
    unsafe fn add_where(acc: Self::V, mask: Self::M, v: Self::V) -> Self::V;
    /// The lane totals of four vectors, each summed by the one tree every form uses:
    /// `((l0 + l1) + (l2 + l3)) + ((l4 + l5) + (l6 + l7))`.
    unsafe fn totals(a: Self::V, b: Self::V, c: Self::V, d: Self::V) -> [f32; 4];
}

/// [`Lanes::totals`]' tree over one stored vector.
#[inline(always)]
fn tree(l: [f32; LANES]) -> f32 {
    ((l[0] + l[1]) + (l[2] + l[3])) + ((l[4] + l[5]) + (l[6] + l[7]))
}

/// Plain arrays: for targets without a vector form (a web build without `simd128` among them).
#[cfg_attr(
    any(
        target_arch = "x86_64",
        all(target_arch = "wasm32", target_feature = "simd128")
    ),
    allow(dead_code)
)]
pub(super) struct Plain;

fn lane_mask(on: bool) -> f32 {
    f32::from_bits((on as u32).wrapping_neg())
}

/// `v` where `mask` is set, `+0.0` elsewhere.
#[inline(always)]
fn plain_and(mask: [f32; LANES], v: [f32; LANES]) -> [f32; LANES] {
    std::array::from_fn(|l| f32::from_bits(mask[l].to_bits() & v[l].to_bits()))
}

impl Lanes for Plain {
    type V = [f32; LANES];
    type M = [f32; LANES];
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
    unsafe fn tail(r: usize) -> Self::M {
        TAIL[r].map(f32::from_bits)
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
    unsafe fn lt(a: Self::V, b: Self::V) -> Self::M {
        std::array::from_fn(|l| lane_mask(a[l] < b[l]))
    }
    #[inline(always)]
    unsafe fn ge(a: Self::V, b: Self::V) -> Self::M {
        std::array::from_fn(|l| lane_mask(a[l] >= b[l]))
    }
    #[inline(always)]
    unsafe fn count(m: Self::M) -> u32 {
        m.iter().map(|l| l.to_bits() & 1).sum()
    }
    #[inline(always)]
    unsafe fn both(a: Self::M, b: Self::M) -> Self::M {
        plain_and(a, b)
    }
    #[inline(always)]
    unsafe fn add_where(acc: Self::V, mask: Self::M, v: Self::V) -> Self::V {
        // SAFETY: plain arithmetic.
        unsafe { Self::add(acc, plain_and(mask, v)) }
    }
    #[inline(always)]
    unsafe fn totals(a: Self::V, b: Self::V, c: Self::V, d: Self::V) -> [f32; 4] {
        [a, b, c, d].map(tree)
    }
}

#[cfg(target_arch = "x86_64")]
pub(super) use x86::{Avx, Avx512, Sse};

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::{LANES, Lanes, TAIL, tree};
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
        type M = (__m128, __m128);
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
        unsafe fn tail(r: usize) -> Self::M {
            // SAFETY: a row of `TAIL` holds eight lanes.
            unsafe { Self::load(TAIL[r].as_ptr().cast()) }
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
        unsafe fn lt(a: Self::V, b: Self::V) -> Self::M {
            // SAFETY: register arithmetic; the caller vouches for the CPU features.
            unsafe { (_mm_cmplt_ps(a.0, b.0), _mm_cmplt_ps(a.1, b.1)) }
        }
        #[inline(always)]
        unsafe fn ge(a: Self::V, b: Self::V) -> Self::M {
            // SAFETY: register arithmetic; the caller vouches for the CPU features.
            unsafe { (_mm_cmpge_ps(a.0, b.0), _mm_cmpge_ps(a.1, b.1)) }
        }
        #[inline(always)]
        unsafe fn count(m: Self::M) -> u32 {
            // SAFETY: register arithmetic; the caller vouches for the CPU features.
            unsafe { (_mm_movemask_ps(m.0) | (_mm_movemask_ps(m.1) << 4)).count_ones() }
        }
        #[inline(always)]
        unsafe fn both(a: Self::M, b: Self::M) -> Self::M {
            // SAFETY: register arithmetic; the caller vouches for the CPU features.
            unsafe { (_mm_and_ps(a.0, b.0), _mm_and_ps(a.1, b.1)) }
        }
        #[inline(always)]
        unsafe fn add_where(acc: Self::V, mask: Self::M, v: Self::V) -> Self::V {
            // SAFETY: register arithmetic; the caller vouches for the CPU features.
            unsafe { Self::add(acc, Self::both(mask, v)) }
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

    /// One AVX register. Its methods need the `avx` and `popcnt` features, which the dispatch
    /// checks for before running code built on them.
    pub(in super::super) struct Avx;

    impl Lanes for Avx {
        type V = __m256;
        type M = __m256;
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
        unsafe fn tail(r: usize) -> Self::M {
            // SAFETY: a row of `TAIL` holds eight lanes.
            unsafe { _mm256_loadu_ps(TAIL[r].as_ptr().cast()) }
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
        unsafe fn lt(a: Self::V, b: Self::V) -> Self::M {
            _mm256_cmp_ps::<_CMP_LT_OQ>(a, b)
        }
        #[inline]
        #[target_feature(enable = "avx")]
        unsafe fn ge(a: Self::V, b: Self::V) -> Self::M {
            _mm256_cmp_ps::<_CMP_GE_OQ>(a, b)
        }
        #[inline]
        #[target_feature(enable = "avx,popcnt")]
        unsafe fn count(m: Self::M) -> u32 {
            _mm256_movemask_ps(m).count_ones()
        }
        #[inline]
        #[target_feature(enable = "avx")]
        unsafe fn both(a: Self::M, b: Self::M) -> Self::M {
            _mm256_and_ps(a, b)
        }
        #[inline]
        #[target_feature(enable = "avx")]
        unsafe fn add_where(acc: Self::V, mask: Self::M, v: Self::V) -> Self::V {
            _mm256_add_ps(acc, _mm256_and_ps(mask, v))
        }
        #[inline]
        #[target_feature(enable = "avx")]
        unsafe fn totals(a: Self::V, b: Self::V, c: Self::V, d: Self::V) -> [f32; 4] {
            avx_totals(a, b, c, d)
        }
    }

    /// [`Lanes::totals`] on AVX registers: pairs, then pairs of pairs, within each 128-bit half;
    /// then the halves: the same tree as the other forms.
    #[inline]
    #[target_feature(enable = "avx")]
    fn avx_totals(a: __m256, b: __m256, c: __m256, d: __m256) -> [f32; 4] {
        let h = _mm256_hadd_ps(_mm256_hadd_ps(a, b), _mm256_hadd_ps(c, d));
        let sum = _mm_add_ps(_mm256_castps256_ps128(h), _mm256_extractf128_ps::<1>(h));
        let mut out = [0.0; 4];
        // SAFETY: `out` holds four floats.
        unsafe { _mm_storeu_ps(out.as_mut_ptr(), sum) };
        out
    }

    /// One AVX register with AVX-512's mask registers: a compare writes a mask register and a
    /// masked add takes it, one instruction where the other forms need an `and` and an add.
    /// Its methods need `avx512f`, `avx512vl` and `popcnt`, which the dispatch checks for.
    pub(in super::super) struct Avx512;

    impl Lanes for Avx512 {
        type V = __m256;
        type M = __mmask8;
        #[inline]
        #[target_feature(enable = "avx512f,avx512vl,popcnt")]
        unsafe fn splat(x: f32) -> Self::V {
            _mm256_set1_ps(x)
        }
        #[inline]
        #[target_feature(enable = "avx512f,avx512vl,popcnt")]
        unsafe fn load(p: *const f32) -> Self::V {
            // SAFETY: the caller hands a pointer to eight readable floats.
            unsafe { _mm256_loadu_ps(p) }
        }
        #[inline]
        #[target_feature(enable = "avx512f,avx512vl,popcnt")]
        unsafe fn tail(r: usize) -> Self::M {
            ((1u32 << r) - 1) as __mmask8
        }
        #[inline]
        #[target_feature(enable = "avx512f,avx512vl,popcnt")]
        unsafe fn add(a: Self::V, b: Self::V) -> Self::V {
            _mm256_add_ps(a, b)
        }
        #[inline]
        #[target_feature(enable = "avx512f,avx512vl,popcnt")]
        unsafe fn mul(a: Self::V, b: Self::V) -> Self::V {
            _mm256_mul_ps(a, b)
        }
        #[inline]
        #[target_feature(enable = "avx512f,avx512vl,popcnt")]
        unsafe fn div(a: Self::V, b: Self::V) -> Self::V {
            _mm256_div_ps(a, b)
        }
        #[inline]
        #[target_feature(enable = "avx512f,avx512vl,popcnt")]
        unsafe fn sqrt(a: Self::V) -> Self::V {
            _mm256_sqrt_ps(a)
        }
        #[inline]
        #[target_feature(enable = "avx512f,avx512vl,popcnt")]
        unsafe fn lt(a: Self::V, b: Self::V) -> Self::M {
            _mm256_cmp_ps_mask::<_CMP_LT_OQ>(a, b)
        }
        #[inline]
        #[target_feature(enable = "avx512f,avx512vl,popcnt")]
        unsafe fn ge(a: Self::V, b: Self::V) -> Self::M {
            _mm256_cmp_ps_mask::<_CMP_GE_OQ>(a, b)
        }
        #[inline]
        #[target_feature(enable = "avx512f,avx512vl,popcnt")]
        unsafe fn count(m: Self::M) -> u32 {
            m.count_ones()
        }
        #[inline]
        #[target_feature(enable = "avx512f,avx512vl,popcnt")]
        unsafe fn both(a: Self::M, b: Self::M) -> Self::M {
            a & b
        }
        #[inline]
        #[target_feature(enable = "avx512f,avx512vl,popcnt")]
        unsafe fn add_where(acc: Self::V, mask: Self::M, v: Self::V) -> Self::V {
            _mm256_mask_add_ps(acc, mask, acc, v)
        }
        #[inline]
        #[target_feature(enable = "avx512f,avx512vl,popcnt")]
        unsafe fn totals(a: Self::V, b: Self::V, c: Self::V, d: Self::V) -> [f32; 4] {
            avx_totals(a, b, c, d)
        }
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub(super) use wasm::Simd128;

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod wasm {
    use super::{LANES, Lanes, TAIL, tree};
    use core::arch::wasm32::*;

    /// Two WebAssembly `v128` registers, lanes 0-3 and 4-7, for a build with `simd128` (which
    /// a wasm engine checks when it loads the module: no run-time detection). Its `f32x4`
    /// arithmetic is IEEE's, rounded to nearest as on x86, and the masks are all-ones lanes as
    /// SSE's are, so the sums match the other forms bit for bit.
    pub(in super::super) struct Simd128;

    impl Simd128 {
        /// Writes the lanes to `out`.
        #[inline(always)]
        fn store(v: (v128, v128), out: &mut [f32; LANES]) {
            // SAFETY: `out` holds eight floats; wasm's loads and stores need no alignment.
            unsafe {
                v128_store(out.as_mut_ptr().cast(), v.0);
                v128_store(out.as_mut_ptr().add(4).cast(), v.1);
            }
        }
    }

    impl Lanes for Simd128 {
        type V = (v128, v128);
        type M = (v128, v128);
        #[inline(always)]
        unsafe fn splat(x: f32) -> Self::V {
            let v = f32x4_splat(x);
            (v, v)
        }
        #[inline(always)]
        unsafe fn load(p: *const f32) -> Self::V {
            // SAFETY: the caller hands a pointer to eight readable floats.
            unsafe { (v128_load(p.cast()), v128_load(p.add(4).cast())) }
        }
        #[inline(always)]
        unsafe fn tail(r: usize) -> Self::M {
            // SAFETY: a row of `TAIL` holds eight lanes.
            unsafe { Self::load(TAIL[r].as_ptr().cast()) }
        }
        #[inline(always)]
        unsafe fn add(a: Self::V, b: Self::V) -> Self::V {
            (f32x4_add(a.0, b.0), f32x4_add(a.1, b.1))
        }
        #[inline(always)]
        unsafe fn mul(a: Self::V, b: Self::V) -> Self::V {
            (f32x4_mul(a.0, b.0), f32x4_mul(a.1, b.1))
        }
        #[inline(always)]
        unsafe fn div(a: Self::V, b: Self::V) -> Self::V {
            (f32x4_div(a.0, b.0), f32x4_div(a.1, b.1))
        }
        #[inline(always)]
        unsafe fn sqrt(a: Self::V) -> Self::V {
            (f32x4_sqrt(a.0), f32x4_sqrt(a.1))
        }
        #[inline(always)]
        unsafe fn lt(a: Self::V, b: Self::V) -> Self::M {
            (f32x4_lt(a.0, b.0), f32x4_lt(a.1, b.1))
        }
        #[inline(always)]
        unsafe fn ge(a: Self::V, b: Self::V) -> Self::M {
            (f32x4_ge(a.0, b.0), f32x4_ge(a.1, b.1))
        }
        #[inline(always)]
        unsafe fn count(m: Self::M) -> u32 {
            (i32x4_bitmask(m.0) | (i32x4_bitmask(m.1) << 4)).count_ones()
        }
        #[inline(always)]
        unsafe fn both(a: Self::M, b: Self::M) -> Self::M {
            (v128_and(a.0, b.0), v128_and(a.1, b.1))
        }
        #[inline(always)]
        unsafe fn add_where(acc: Self::V, mask: Self::M, v: Self::V) -> Self::V {
            // SAFETY: register arithmetic.
            unsafe { Self::add(acc, Self::both(mask, v)) }
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
}
