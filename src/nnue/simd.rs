//! The two kernels of the network — the accumulator update and the output
//! layer — with an AVX2 path (`std::arch`) and a portable scalar path.
//! Integer arithmetic makes both give identical results (tested).
//!
//! Which path runs is decided once, when a network is built
//! ([`Kernels::detect`]), not on every call.

use super::network::{HIDDEN, QA};

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

    /// `dst = src + Σ adds − Σ subs` (wrapping `i16` arithmetic).
    #[inline]
    pub fn apply(self, dst: &mut [i16; HIDDEN], src: &[i16; HIDDEN], adds: &[&[i16; HIDDEN]], subs: &[&[i16; HIDDEN]]) {
        match self {
            Kernels::Scalar => apply_scalar(dst, src, adds, subs),
            // SAFETY: `Avx2` is only built by `detect` when the CPU has AVX2.
            #[cfg(target_arch = "x86_64")]
            Kernels::Avx2 => unsafe { avx2::apply(dst, src, adds, subs) },
        }
    }

    /// `Σ clamp(us, 0, QA)² · w[..HIDDEN] + Σ clamp(them, 0, QA)² · w[HIDDEN..]`.
    #[inline]
    pub fn screlu_dot(self, us: &[i16; HIDDEN], them: &[i16; HIDDEN], w: &[i16; 2 * HIDDEN]) -> i64 {
        match self {
            Kernels::Scalar => screlu_dot_scalar(us, them, w),
            // SAFETY: `Avx2` is only built by `detect` when the CPU has AVX2.
            #[cfg(target_arch = "x86_64")]
            Kernels::Avx2 => unsafe { avx2::screlu_dot(us, them, w) },
        }
    }
}

fn apply_scalar(dst: &mut [i16; HIDDEN], src: &[i16; HIDDEN], adds: &[&[i16; HIDDEN]], subs: &[&[i16; HIDDEN]]) {
    *dst = *src;
    for a in adds {
        for (d, &w) in dst.iter_mut().zip(a.iter()) {
            *d = d.wrapping_add(w);
        }
    }
    for s in subs {
        for (d, &w) in dst.iter_mut().zip(s.iter()) {
            *d = d.wrapping_sub(w);
        }
    }
}

fn screlu_dot_scalar(us: &[i16; HIDDEN], them: &[i16; HIDDEN], w: &[i16; 2 * HIDDEN]) -> i64 {
    let half = |acc: &[i16; HIDDEN], w: &[i16]| -> i64 {
        acc.iter()
            .zip(w)
            .map(|(&a, &w)| {
                let c = (a as i32).clamp(0, QA);
                (c * c * w as i32) as i64
            })
            .sum()
    };
    half(us, &w[..HIDDEN]) + half(them, &w[HIDDEN..])
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{HIDDEN, QA};
    use std::arch::x86_64::*;

    const LANES: usize = 16;
    const _: () = assert!(HIDDEN.is_multiple_of(LANES));

    #[target_feature(enable = "avx2")]
    pub unsafe fn apply(
        dst: &mut [i16; HIDDEN],
        src: &[i16; HIDDEN],
        adds: &[&[i16; HIDDEN]],
        subs: &[&[i16; HIDDEN]],
    ) {
        for c in 0..HIDDEN / LANES {
            let at = c * LANES;
            // SAFETY: `at + LANES <= HIDDEN` for every array read or
            // written; unaligned loads and stores need no alignment.
            unsafe {
                let mut v = _mm256_loadu_si256(src.as_ptr().add(at) as *const __m256i);
                for a in adds {
                    v = _mm256_add_epi16(v, _mm256_loadu_si256(a.as_ptr().add(at) as *const __m256i));
                }
                for s in subs {
                    v = _mm256_sub_epi16(v, _mm256_loadu_si256(s.as_ptr().add(at) as *const __m256i));
                }
                _mm256_storeu_si256(dst.as_mut_ptr().add(at) as *mut __m256i, v);
            }
        }
    }

    #[target_feature(enable = "avx2")]
    pub unsafe fn screlu_dot(us: &[i16; HIDDEN], them: &[i16; HIDDEN], w: &[i16; 2 * HIDDEN]) -> i64 {
        let zero = _mm256_setzero_si256();
        let qa = _mm256_set1_epi16(QA as i16);
        let mut sum = _mm256_setzero_si256();
        for (half, acc) in [us, them].into_iter().enumerate() {
            for c in 0..HIDDEN / LANES {
                let at = c * LANES;
                // SAFETY: `at + LANES <= HIDDEN` and `half * HIDDEN + at
                // + LANES <= 2 * HIDDEN`: every load is in bounds.
                unsafe {
                    let a = _mm256_loadu_si256(acc.as_ptr().add(at) as *const __m256i);
                    let wv = _mm256_loadu_si256(w.as_ptr().add(half * HIDDEN + at) as *const __m256i);
                    let clipped = _mm256_min_epi16(_mm256_max_epi16(a, zero), qa);
                    // Widened to i32: the square (up to 255²) times the
                    // weight does not fit 16 bits.
                    for (c16, w16) in [
                        (_mm256_castsi256_si128(clipped), _mm256_castsi256_si128(wv)),
                        (_mm256_extracti128_si256::<1>(clipped), _mm256_extracti128_si256::<1>(wv)),
                    ] {
                        let c32 = _mm256_cvtepi16_epi32(c16);
                        let w32 = _mm256_cvtepi16_epi32(w16);
                        sum = _mm256_add_epi32(sum, _mm256_mullo_epi32(_mm256_mullo_epi32(c32, c32), w32));
                    }
                }
            }
        }
        let mut lanes = [0i32; 8];
        // SAFETY: `lanes` holds exactly 8 i32, 32 bytes.
        unsafe { _mm256_storeu_si256(lanes.as_mut_ptr() as *mut __m256i, sum) };
        lanes.iter().map(|&x| x as i64).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::network::MAX_OUTPUT_WEIGHT;
    use crate::types::SplitMix;

    #[test]
    fn scalar_and_simd_kernels_agree() {
        let fast = Kernels::detect();
        let slow = Kernels::Scalar;
        let mut rng = SplitMix::new(3);
        let mut v = || {
            let mut a = [0i16; HIDDEN];
            a.iter_mut().for_each(|x| *x = (rng.next_u64() % 1200) as i16 - 400);
            a
        };
        let (src, a1, a2, s1) = (v(), v(), v(), v());
        let mut w = [0i16; 2 * HIDDEN];
        let (w1, w2) = (v(), v());
        w[..HIDDEN].iter_mut().zip(w1).for_each(|(d, x)| *d = x % MAX_OUTPUT_WEIGHT as i16);
        w[HIDDEN..].iter_mut().zip(w2).for_each(|(d, x)| *d = x % MAX_OUTPUT_WEIGHT as i16);
        // The extremes: every value clipped at QA against the largest weights.
        let top = [QA as i16 + 5; HIDDEN];
        let wmax = [MAX_OUTPUT_WEIGHT as i16; 2 * HIDDEN];
        assert_eq!(fast.screlu_dot(&top, &top, &wmax), slow.screlu_dot(&top, &top, &wmax));
        let wmin = [-(MAX_OUTPUT_WEIGHT as i16); 2 * HIDDEN];
        assert_eq!(fast.screlu_dot(&top, &top, &wmin), -slow.screlu_dot(&top, &top, &wmax));
        let (mut f, mut s) = ([0i16; HIDDEN], [0i16; HIDDEN]);
        fast.apply(&mut f, &src, &[&a1, &a2], &[&s1]);
        slow.apply(&mut s, &src, &[&a1, &a2], &[&s1]);
        assert_eq!(f, s);
        assert_eq!(fast.screlu_dot(&src, &a1, &w), slow.screlu_dot(&src, &a1, &w));
        assert_ne!(slow.screlu_dot(&src, &a1, &w), 0);
    }
}
