//! AVX2's kernel steps: as SSE2's, in one 256-bit register of eight `u32`,
//! or two of four `u64` (AVX2 has the 64-bit compare SSE2 lacks).
//!
//! The arithmetic intrinsics are safe only in a function compiled with
//! AVX2, and a trait method cannot be one: each is called in an `unsafe`
//! block whose argument is the token, which only exists where the CPU has
//! AVX2. The code runs inlined into [`Avx2`]'s `enter`, which is
//! compiled with it.

use std::arch::x86_64::*;

use super::tokens::Avx2;
use crate::arch::generic::{LANES, QUERIES, Step};
use crate::arch::isa::Isa;

impl Step<u32> for Avx2 {
    type Lanes = __m256i;
    type Counts = __m256i;

    #[inline(always)]
    fn splat(self, word: u32) -> __m256i {
        // SAFETY: `self` proves the CPU has AVX2.
        unsafe { _mm256_set1_epi32(word as i32) }
    }

    #[inline(always)]
    fn load(self, step: &[u32; LANES]) -> __m256i {
        // SAFETY: AVX2 as above; `step` is eight `u32`, the 32 bytes the
        // unaligned load reads.
        unsafe { _mm256_loadu_si256(step.as_ptr().cast()) }
    }

    #[inline(always)]
    fn zero(self) -> __m256i {
        // SAFETY: `self` proves the CPU has AVX2.
        unsafe { _mm256_setzero_si256() }
    }

    #[inline(always)]
    fn add_disjoint(self, counts: __m256i, bottoms: __m256i, query: __m256i) -> __m256i {
        // SAFETY: `self` proves the CPU has AVX2.
        unsafe {
            let disjoint =
                _mm256_cmpeq_epi32(_mm256_and_si256(bottoms, query), _mm256_setzero_si256());
            _mm256_sub_epi32(counts, disjoint)
        }
    }

    #[inline(always)]
    fn sum(self, counts: [__m256i; QUERIES]) -> u64 {
        let mut lanes = [0u32; LANES];
        // SAFETY: AVX2 as above; the store writes 32 bytes into `lanes`,
        // 32 bytes long.
        unsafe {
            let sum = counts[1..]
                .iter()
                .fold(counts[0], |sum, &c| _mm256_add_epi32(sum, c));
            _mm256_storeu_si256(lanes.as_mut_ptr().cast(), sum);
        }
        lanes.iter().map(|&lane| u64::from(lane)).sum()
    }
}

impl Step<u64> for Avx2 {
    /// The low and the high four lanes.
    type Lanes = [__m256i; 2];
    type Counts = [__m256i; 2];

    #[inline(always)]
    fn splat(self, word: u64) -> [__m256i; 2] {
        // SAFETY: `self` proves the CPU has AVX2.
        [unsafe { _mm256_set1_epi64x(word as i64) }; 2]
    }

    #[inline(always)]
    fn load(self, step: &[u64; LANES]) -> [__m256i; 2] {
        let words = step.as_ptr();
        // SAFETY: AVX2 as above; `step` is eight `u64`, 64 bytes: the
        // unaligned loads read 32 bytes at offsets 0 and 32.
        unsafe {
            [
                _mm256_loadu_si256(words.cast()),
                _mm256_loadu_si256(words.add(4).cast()),
            ]
        }
    }

    #[inline(always)]
    fn zero(self) -> [__m256i; 2] {
        // SAFETY: `self` proves the CPU has AVX2.
        [unsafe { _mm256_setzero_si256() }; 2]
    }

    #[inline(always)]
    fn add_disjoint(
        self,
        counts: [__m256i; 2],
        bottoms: [__m256i; 2],
        query: [__m256i; 2],
    ) -> [__m256i; 2] {
        std::array::from_fn(|half| {
            // SAFETY: `self` proves the CPU has AVX2.
            unsafe {
                let and = _mm256_and_si256(bottoms[half], query[half]);
                let disjoint = _mm256_cmpeq_epi64(and, _mm256_setzero_si256());
                _mm256_sub_epi64(counts[half], disjoint)
            }
        })
    }

    #[inline(always)]
    fn sum(self, counts: [[__m256i; 2]; QUERIES]) -> u64 {
        let mut lanes = [0u64; 4];
        // SAFETY: AVX2 as above; the store writes 32 bytes into `lanes`,
        // 32 bytes long.
        unsafe {
            let sum = (counts.iter().flatten())
                .fold(_mm256_setzero_si256(), |sum, &c| _mm256_add_epi64(sum, c));
            _mm256_storeu_si256(lanes.as_mut_ptr().cast(), sum);
        }
        lanes.iter().sum()
    }
}

impl Isa for Avx2 {
    type Wide = Avx2;
    const PEXT: bool = true;

    #[inline(always)]
    fn wide(self) -> Avx2 {
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
}
