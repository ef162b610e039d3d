//! SSE2's kernel steps: a step of eight `u32` in two 128-bit registers,
//! each ANDed with the query, compared with zero (all ones where disjoint)
//! and subtracted from the counters. SSE2 has no 64-bit compare: the wide
//! word takes the portable steps, which LLVM vectorises with SSE2 (inside
//! this level's entry, as everything the level runs).
//!
//! As in the other levels, each intrinsic is called in an `unsafe` block
//! whose argument is the token (SSE2 is in the x86-64 baseline, but Rust
//! lets only a function that enables a feature call its intrinsics safely,
//! and a trait method cannot enable one).

use std::arch::x86_64::*;

use super::tokens::Sse2;
use crate::arch::generic::{LANES, QUERIES, Step};
use crate::arch::isa::Isa;
use crate::arch::portable::Portable;

impl Step<u32> for Sse2 {
    /// The low and the high four lanes.
    type Lanes = [__m128i; 2];
    type Counts = [__m128i; 2];

    #[inline(always)]
    fn splat(self, word: u32) -> [__m128i; 2] {
        // SAFETY: `self` proves the CPU has SSE2.
        [unsafe { _mm_set1_epi32(word as i32) }; 2]
    }

    #[inline(always)]
    fn load(self, step: &[u32; LANES]) -> [__m128i; 2] {
        let words = step.as_ptr();
        // SAFETY: SSE2 as above; `step` is eight `u32`, 32 bytes: the
        // unaligned loads read 16 bytes at offsets 0 and 16.
        unsafe {
            [
                _mm_loadu_si128(words.cast()),
                _mm_loadu_si128(words.add(4).cast()),
            ]
        }
    }

    #[inline(always)]
    fn zero(self) -> [__m128i; 2] {
        // SAFETY: `self` proves the CPU has SSE2.
        [unsafe { _mm_setzero_si128() }; 2]
    }

    #[inline(always)]
    fn add_disjoint(
        self,
        counts: [__m128i; 2],
        bottoms: [__m128i; 2],
        query: [__m128i; 2],
    ) -> [__m128i; 2] {
        std::array::from_fn(|half| {
            // SAFETY: `self` proves the CPU has SSE2.
            unsafe {
                let and = _mm_and_si128(bottoms[half], query[half]);
                _mm_sub_epi32(counts[half], _mm_cmpeq_epi32(and, _mm_setzero_si128()))
            }
        })
    }

    #[inline(always)]
    fn sum(self, counts: [[__m128i; 2]; QUERIES]) -> u64 {
        let mut lanes = [0u32; 4];
        // SAFETY: SSE2 as above; the store writes 16 bytes into `lanes`,
        // 16 bytes long.
        unsafe {
            let sum = (counts.iter().flatten())
                .fold(_mm_setzero_si128(), |sum, &c| _mm_add_epi32(sum, c));
            _mm_storeu_si128(lanes.as_mut_ptr().cast(), sum);
        }
        lanes.iter().map(|&lane| u64::from(lane)).sum()
    }
}

impl Isa for Sse2 {
    type Wide = Portable;

    #[inline(always)]
    fn wide(self) -> Portable {
        Portable
    }

    #[inline(always)]
    fn run<R>(self, f: impl FnOnce() -> R) -> R {
        self.enter(f)
    }
}
