//! AVX-512's kernel steps (F and VL): per query one `vptestnm` (the mask
//! of the lanes where bottom AND query is zero) and one masked add of 1;
//! eight `u32` in a 256-bit register (VL), eight `u64` in a 512-bit one. A
//! run's last partial step is one masked load (masked lanes are not read
//! and take PAD). And the quarters' `fit`, by a compress.
//!
//! As in AVX2's steps, each intrinsic is called in an `unsafe` block whose
//! argument is the token, which only exists where the CPU has AVX-512F and
//! VL; the code runs inlined into [`Avx512`]'s `enter`.

use std::arch::x86_64::*;

use super::tokens::Avx512;
use crate::arch::generic::{LANES, Lane, QUERIES, Step};
use crate::arch::isa::{FIT_SLACK, Isa};

impl Step<u32> for Avx512 {
    type Lanes = __m256i;
    type Counts = __m256i;

    #[inline(always)]
    fn splat(self, word: u32) -> __m256i {
        // SAFETY: `self` proves the CPU has AVX-512F and VL.
        unsafe { _mm256_set1_epi32(word as i32) }
    }

    #[inline(always)]
    fn load(self, step: &[u32; LANES]) -> __m256i {
        // SAFETY: as above; `step` is eight `u32`, the 32 bytes the
        // unaligned load reads.
        unsafe { _mm256_loadu_si256(step.as_ptr().cast()) }
    }

    #[inline(always)]
    fn load_partial(self, rest: &[u32]) -> __m256i {
        debug_assert!(rest.len() < LANES);
        let lanes = (1u8 << rest.len()) - 1;
        // SAFETY: as above; the masked load reads only the first
        // `rest.len()` words, those of `rest`.
        unsafe {
            _mm256_mask_loadu_epi32(
                _mm256_set1_epi32(u32::PAD as i32),
                lanes,
                rest.as_ptr().cast(),
            )
        }
    }

    #[inline(always)]
    fn zero(self) -> __m256i {
        // SAFETY: `self` proves the CPU has AVX-512F and VL.
        unsafe { _mm256_setzero_si256() }
    }

    #[inline(always)]
    fn add_disjoint(self, counts: __m256i, bottoms: __m256i, query: __m256i) -> __m256i {
        // SAFETY: `self` proves the CPU has AVX-512F and VL.
        unsafe {
            let disjoint = _mm256_testn_epi32_mask(bottoms, query);
            _mm256_mask_add_epi32(counts, disjoint, counts, _mm256_set1_epi32(1))
        }
    }

    #[inline(always)]
    fn sum(self, counts: [__m256i; QUERIES]) -> u64 {
        let mut lanes = [0u32; LANES];
        // SAFETY: as above; the store writes 32 bytes into `lanes`, 32
        // bytes long.
        unsafe {
            let sum = counts[1..]
                .iter()
                .fold(counts[0], |sum, &c| _mm256_add_epi32(sum, c));
            _mm256_storeu_si256(lanes.as_mut_ptr().cast(), sum);
        }
        lanes.iter().map(|&lane| u64::from(lane)).sum()
    }
}

impl Step<u64> for Avx512 {
    type Lanes = __m512i;
    type Counts = __m512i;

    #[inline(always)]
    fn splat(self, word: u64) -> __m512i {
        // SAFETY: `self` proves the CPU has AVX-512F.
        unsafe { _mm512_set1_epi64(word as i64) }
    }

    #[inline(always)]
    fn load(self, step: &[u64; LANES]) -> __m512i {
        // SAFETY: as above; `step` is eight `u64`, the 64 bytes the
        // unaligned load reads.
        unsafe { _mm512_loadu_si512(step.as_ptr().cast()) }
    }

    #[inline(always)]
    fn load_partial(self, rest: &[u64]) -> __m512i {
        debug_assert!(rest.len() < LANES);
        let lanes = (1u8 << rest.len()) - 1;
        // SAFETY: as above; the masked load reads only the first
        // `rest.len()` words, those of `rest`.
        unsafe {
            _mm512_mask_loadu_epi64(
                _mm512_set1_epi64(u64::PAD as i64),
                lanes,
                rest.as_ptr().cast(),
            )
        }
    }

    #[inline(always)]
    fn zero(self) -> __m512i {
        // SAFETY: `self` proves the CPU has AVX-512F.
        unsafe { _mm512_setzero_si512() }
    }

    #[inline(always)]
    fn add_disjoint(self, counts: __m512i, bottoms: __m512i, query: __m512i) -> __m512i {
        // SAFETY: `self` proves the CPU has AVX-512F.
        unsafe {
            let disjoint = _mm512_testn_epi64_mask(bottoms, query);
            _mm512_mask_add_epi64(counts, disjoint, counts, _mm512_set1_epi64(1))
        }
    }

    #[inline(always)]
    fn sum(self, counts: [__m512i; QUERIES]) -> u64 {
        // SAFETY: `self` proves the CPU has AVX-512F.
        unsafe {
            let sum = counts[1..]
                .iter()
                .fold(counts[0], |sum, &c| _mm512_add_epi64(sum, c));
            _mm512_reduce_add_epi64(sum) as u64
        }
    }
}

impl Isa for Avx512 {
    type Wide = Avx512;
    const PEXT: bool = true;

    #[inline(always)]
    fn wide(self) -> Avx512 {
        self
    }

    #[inline(always)]
    fn run<R>(self, f: impl FnOnce() -> R) -> R {
        self.enter(f)
    }

    #[inline(always)]
    fn pext(self, value: u64, mask: u64) -> u64 {
        // SAFETY: `self` proves the CPU has BMI2.
        unsafe { _pext_u64(value, mask) }
    }

    /// The quarters' `fit` (see [`crate::arch::isa::fit_scalar`]) eight
    /// right pieces at a time: one test of their side keys gives the mask
    /// of those that fit, and a compress packs their halves together for
    /// one store. (The scalar loop spends a store and an add on every pair,
    /// kept or not.)
    #[inline(always)]
    fn fit(
        self,
        key: u64,
        side: u32,
        right_keys: &[u64],
        right_sides: &[u32],
        out: &mut [u64],
    ) -> usize {
        let pieces = right_keys.len();
        assert!(right_sides.len() == pieces && out.len() >= pieces + FIT_SLACK);
        let mut len = 0;
        // SAFETY: `self` proves the CPU has AVX-512F and VL. Step `at`
        // reads right keys and sides at..at + 8, masked to those below
        // `right_keys.len()` (masked lanes are not read), and writes eight
        // words at out[len..], where len <= at < right_keys.len(): inside
        // `out` by the assert.
        unsafe {
            let key = _mm512_set1_epi64(key as i64);
            let side = _mm256_set1_epi32(side as i32);
            for at in (0..pieces).step_by(8) {
                let lanes = (u8::MAX as u16 >> (at + 8).saturating_sub(pieces)) as u8;
                let sides = _mm256_maskz_loadu_epi32(lanes, right_sides.as_ptr().add(at).cast());
                let keys = _mm512_maskz_loadu_epi64(lanes, right_keys.as_ptr().add(at).cast());
                let fits = _mm256_mask_testn_epi32_mask(lanes, sides, side);
                let halves = _mm512_maskz_compress_epi64(fits, _mm512_or_si512(keys, key));
                _mm512_storeu_si512(out.as_mut_ptr().add(len).cast(), halves);
                len += fits.count_ones() as usize;
            }
        }
        len
    }
}
