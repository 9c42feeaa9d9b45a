//! The two kernels of the network — the accumulator update and the output
//! layer — with an AVX2 path (`std::arch`) and a portable scalar path, for
//! any hidden width that is a multiple of 16. Integer arithmetic makes both
//! give identical results (tested at every width).
//!
//! The AVX2 output layer uses multiply-add: `_mm256_madd_epi16(c·w, c)`
//! adds `c²·w` for neighbouring pairs into 32-bit lanes, two instructions
//! for 16 values, as the field does it. That needs `c·w` to fit 16 bits,
//! and with activations up to 255 and weights up to 1000 it does not; so
//! each weight is split as `w = 16·hi + lo` (`lo` in 0..16, `|hi|` ≤ 63),
//! both products fit, and the two sums are kept apart and combined as
//! `16·Σhi + Σlo` in 64 bits: exact, with no coarser quantisation.
//!
//! Which path runs is decided once, when a network is built
//! ([`Kernels::detect`]), not on every call.

use super::network::QA;

/// The kernel set a network uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernels {
    /// Portable code, any CPU.
    Scalar,
    /// 256-bit integer SIMD; only ever built by [`Kernels::detect`] on a
    /// CPU that has AVX2.
    #[cfg(target_arch = "x86_64")]
    Avx2,
}

impl Kernels {
    /// The fastest kernels this CPU runs.
    pub fn detect() -> Kernels {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            return Kernels::Avx2;
        }
        Kernels::Scalar
    }

    /// `dst = src + Σ adds − Σ subs` (wrapping `i16` arithmetic), where
    /// each entry of `adds` and `subs` is the index of a column of
    /// `weights` (columns of `dst.len()` values, stored one after another).
    /// `dst.len()` is a multiple of 16; panics on a length or index that
    /// does not fit.
    #[inline]
    pub fn apply(self, dst: &mut [i16], src: &[i16], weights: &[i16], adds: &[u16], subs: &[u16]) {
        let n = dst.len();
        assert!(n.is_multiple_of(16) && n > 0 && src.len() == n, "kernel slices of one width, a multiple of 16");
        let columns = weights.len() / n;
        assert!(adds.iter().chain(subs).all(|&c| (c as usize) < columns), "a column outside the weights");
        match self {
            Kernels::Scalar => apply_scalar(dst, src, weights, adds, subs),
            // SAFETY: `Avx2` is only built by `detect` when the CPU has AVX2;
            // `src` has `n` values and every column index is below
            // `weights.len() / n`, as checked above.
            #[cfg(target_arch = "x86_64")]
            Kernels::Avx2 => unsafe { avx2::apply(dst, src, weights, adds, subs) },
        }
    }

    /// `Σ clamp(us, 0, QA)² · w[..H] + Σ clamp(them, 0, QA)² · w[H..]` for
    /// `H = us.len()`, weights up to 1023 in magnitude and H up to 1024.
    #[inline]
    pub fn screlu_dot(self, us: &[i16], them: &[i16], w: &[i16]) -> i64 {
        let h = us.len();
        assert!(h.is_multiple_of(16) && them.len() == h && w.len() == 2 * h, "output slices of one width");
        match self {
            Kernels::Scalar => screlu_dot_scalar(us, them, w),
            // SAFETY: `Avx2` is only built by `detect` when the CPU has AVX2;
            // the lengths are checked above.
            #[cfg(target_arch = "x86_64")]
            Kernels::Avx2 => unsafe { avx2::screlu_dot(us, them, w) },
        }
    }
}

fn apply_scalar(dst: &mut [i16], src: &[i16], weights: &[i16], adds: &[u16], subs: &[u16]) {
    let n = dst.len();
    let column = |c: u16| &weights[c as usize * n..(c as usize + 1) * n];
    dst.copy_from_slice(src);
    for &a in adds {
        for (d, &w) in dst.iter_mut().zip(column(a)) {
            *d = d.wrapping_add(w);
        }
    }
    for &s in subs {
        for (d, &w) in dst.iter_mut().zip(column(s)) {
            *d = d.wrapping_sub(w);
        }
    }
}

fn screlu_dot_scalar(us: &[i16], them: &[i16], w: &[i16]) -> i64 {
    let h = us.len();
    let half = |acc: &[i16], w: &[i16]| -> i64 {
        acc.iter()
            .zip(w)
            .map(|(&a, &w)| {
                let c = (a as i32).clamp(0, QA);
                (c * c * w as i32) as i64
            })
            .sum()
    };
    half(us, &w[..h]) + half(them, &w[h..])
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::QA;
    use std::arch::x86_64::*;

    const LANES: usize = 16;

    /// Values kept in registers at once: 8 of the 16 ymm registers.
    const TILE: usize = 8 * LANES;

    /// # Safety
    /// AVX2; `src` has `dst.len()` values, a multiple of 16, and every
    /// column index is below `weights.len() / dst.len()`.
    ///
    /// Register tiling, as the field does it: a tile of 128 values is
    /// loaded once, every column is added to it or taken from it, and it is
    /// stored once.
    #[target_feature(enable = "avx2")]
    pub unsafe fn apply(dst: &mut [i16], src: &[i16], weights: &[i16], adds: &[u16], subs: &[u16]) {
        let n = dst.len();
        let w = weights.as_ptr();
        // SAFETY (for every pointer below): column `c` spans `c * n .. (c +
        // 1) * n` within `weights`, `src` and `dst` have `n` values, and
        // every offset read or written is below `n`; unaligned loads and
        // stores need no alignment.
        // SAFETY: `c < weights.len() / n`, so the column starts inside `weights`.
        let column = |c: u16| unsafe { w.add(c as usize * n) };
        let add_cols: arrayvec::ArrayVec<*const i16, 64> = adds.iter().map(|&c| column(c)).collect();
        let sub_cols: arrayvec::ArrayVec<*const i16, 64> = subs.iter().map(|&c| column(c)).collect();
        // SAFETY: `p` is `src` or a column start, `at + LANES <= n`.
        let load = |p: *const i16, at: usize| unsafe { _mm256_loadu_si256(p.add(at) as *const __m256i) };
        let mut at = 0;
        while at + TILE <= n {
            let mut regs: [__m256i; 8] = std::array::from_fn(|k| load(src.as_ptr(), at + k * LANES));
            for &c in &add_cols {
                for (k, r) in regs.iter_mut().enumerate() {
                    *r = _mm256_add_epi16(*r, load(c, at + k * LANES));
                }
            }
            for &c in &sub_cols {
                for (k, r) in regs.iter_mut().enumerate() {
                    *r = _mm256_sub_epi16(*r, load(c, at + k * LANES));
                }
            }
            for (k, r) in regs.iter().enumerate() {
                // SAFETY: `at + k * LANES + LANES <= at + TILE <= n`.
                unsafe { _mm256_storeu_si256(dst.as_mut_ptr().add(at + k * LANES) as *mut __m256i, *r) };
            }
            at += TILE;
        }
        while at < n {
            let mut v = load(src.as_ptr(), at);
            for &c in &add_cols {
                v = _mm256_add_epi16(v, load(c, at));
            }
            for &c in &sub_cols {
                v = _mm256_sub_epi16(v, load(c, at));
            }
            // SAFETY: `n` is a multiple of LANES, so `at + LANES <= n`.
            unsafe { _mm256_storeu_si256(dst.as_mut_ptr().add(at) as *mut __m256i, v) };
            at += LANES;
        }
    }

    /// The sum of the 8 `i32` lanes.
    #[target_feature(enable = "avx2")]
    fn lane_sum(sum: __m256i) -> i64 {
        let mut lanes = [0i32; 8];
        // SAFETY: `lanes` holds exactly 8 i32, 32 bytes.
        unsafe { _mm256_storeu_si256(lanes.as_mut_ptr() as *mut __m256i, sum) };
        lanes.iter().map(|&x| x as i64).sum()
    }

    /// Multiply-add with split weights (see the module documentation).
    ///
    /// # Safety
    /// AVX2; `them` has `us.len()` values (a multiple of 16, at most 1024),
    /// `w` twice that, every `|w|` below 1024.
    #[target_feature(enable = "avx2")]
    pub unsafe fn screlu_dot(us: &[i16], them: &[i16], w: &[i16]) -> i64 {
        let h = us.len();
        let zero = _mm256_setzero_si256();
        let qa = _mm256_set1_epi16(QA as i16);
        let low = _mm256_set1_epi16(15);
        let (mut hi_sum, mut lo_sum) = (_mm256_setzero_si256(), _mm256_setzero_si256());
        for (half, acc) in [us, them].into_iter().enumerate() {
            for at in (0..h).step_by(LANES) {
                // SAFETY: `at + LANES <= h` and `half * h + at + LANES <=
                // 2 * h`: every load is in bounds.
                unsafe {
                    let a = _mm256_loadu_si256(acc.as_ptr().add(at) as *const __m256i);
                    let wv = _mm256_loadu_si256(w.as_ptr().add(half * h + at) as *const __m256i);
                    let c = _mm256_min_epi16(_mm256_max_epi16(a, zero), qa);
                    // w = 16·hi + lo: c·hi and c·lo fit 16 bits.
                    let hi = _mm256_srai_epi16::<4>(wv);
                    let lo = _mm256_and_si256(wv, low);
                    hi_sum = _mm256_add_epi32(hi_sum, _mm256_madd_epi16(_mm256_mullo_epi16(c, hi), c));
                    lo_sum = _mm256_add_epi32(lo_sum, _mm256_madd_epi16(_mm256_mullo_epi16(c, lo), c));
                }
            }
        }
        16 * lane_sum(hi_sum) + lane_sum(lo_sum)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::network::{HIDDEN_STEP, MAX_HIDDEN, MAX_OUTPUT_WEIGHT};
    use crate::types::SplitMix;

    /// At every width, random and extreme inputs: the SIMD kernels give
    /// exactly the scalar results, and those are the sums by hand.
    #[test]
    fn scalar_and_simd_kernels_agree_at_every_width() {
        let fast = Kernels::detect();
        let slow = Kernels::Scalar;
        let mut rng = SplitMix::new(3);
        let wmax = MAX_OUTPUT_WEIGHT as i16;
        for h in (HIDDEN_STEP..=MAX_HIDDEN).step_by(HIDDEN_STEP) {
            let mut v = |n: usize, lo: i64, hi: i64| -> Vec<i16> {
                (0..n).map(|_| (lo + (rng.next_u64() % (hi - lo + 1) as u64) as i64) as i16).collect()
            };
            let (src, a1) = (v(h, -400, 800), v(h, -400, 800));
            let columns = v(5 * h, -400, 800);
            let w = v(2 * h, -(wmax as i64), wmax as i64);
            let (mut f, mut s) = (vec![0i16; h], vec![0i16; h]);
            fast.apply(&mut f, &src, &columns, &[0, 3, 4], &[1, 4]);
            slow.apply(&mut s, &src, &columns, &[0, 3, 4], &[1, 4]);
            assert_eq!(f, s, "apply, width {h}");
            let by_hand: Vec<i16> = (0..h)
                .map(|i| {
                    let c = |k: usize| columns[k * h + i];
                    src[i]
                        .wrapping_add(c(0))
                        .wrapping_add(c(3))
                        .wrapping_add(c(4))
                        .wrapping_sub(c(1))
                        .wrapping_sub(c(4))
                })
                .collect();
            assert_eq!(s, by_hand, "width {h}");
            assert_eq!(fast.screlu_dot(&src, &a1, &w), slow.screlu_dot(&src, &a1, &w), "width {h}");
            // The extremes: every value clipped at QA against the largest
            // weights of both signs (the sums nearest overflow), and weights
            // whose split parts are at their ends.
            let top = vec![QA as i16 + 5; h];
            for wx in [wmax, -wmax, 1023, -1023, 15, -16, -1, 16] {
                let ws = vec![wx; 2 * h];
                let expected = 2 * h as i64 * (QA * QA) as i64 * wx as i64;
                assert_eq!(fast.screlu_dot(&top, &top, &ws), expected, "width {h}, weight {wx}");
                assert_eq!(slow.screlu_dot(&top, &top, &ws), expected);
            }
        }
    }
}
