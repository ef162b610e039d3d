//! AVX2's kernel steps: as SSE2's, in one 256-bit register of eight `u32`,
//! or two of four `u64` (AVX2 has the 64-bit compare SSE2 lacks).
//!
//! A run's last partial step is one masked load (`vpmaskmov`, which reads
//! only the lanes its mask selects and zeroes the rest) OR-ed with the
//! mask's complement, so that the missing lanes read as PAD: a copy into a
//! padded step instead was a variable-length `memcpy` per run, and runs are
//! mostly a few steps long (about a sixth of a count at n = 18, perf).
//!
//! The quarters' `fit` takes four right pieces at a time: their side keys
//! tested at once give a four-bit mask, and a permutation from a table of
//! sixteen moves the fitting halves to the front of one store (AVX2 has no
//! compress; the scalar loop spends a store and an add on every pair).
//!
//! The arithmetic intrinsics are safe only in a function compiled with
//! AVX2, and a trait method cannot be one: each is called in an `unsafe`
//! block whose argument is the token, which only exists where the CPU has
//! AVX2. The code runs inlined into [`Avx2`]'s `enter`, which is
//! compiled with it.

use std::arch::x86_64::*;

use super::tokens::Avx2;
use crate::arch::generic::{LANES, QUERIES, Step};

/// Eight `i64` lanes selected, then eight not: a sliding window, whose
/// step starting `len` lanes before the unselected ones selects a step's
/// first `len` lanes (one load).
const WINDOW: [i64; 2 * LANES] = {
    let mut window = [0; 2 * LANES];
    let mut lane = 0;
    while lane < LANES {
        window[lane] = -1;
        lane += 1;
    }
    window
};

/// For each mask of four `u64` lanes, the `i32` lane permutation that
/// moves the selected lanes, in order, to the front (the rest take lane 0).
const COMPRESS: [[i32; 8]; 16] = {
    let mut table = [[0; 8]; 16];
    let mut mask = 0;
    while mask < 16 {
        let (mut lane, mut to) = (0, 0);
        while lane < 4 {
            if mask >> lane & 1 == 1 {
                table[mask][2 * to] = 2 * lane;
                table[mask][2 * to + 1] = 2 * lane + 1;
                to += 1;
            }
            lane += 1;
        }
        mask += 1;
    }
    table
};

/// The mask of a step's first `len` lanes, as `i32` lanes (`-1` selected):
/// read from [`WINDOW`] seen as 32 `i32`s (each `i64` two of the same), 16
/// selected then 16 not, `len` lanes before the unselected ones.
#[inline(always)]
fn first_lanes_32(len: usize) -> __m256i {
    debug_assert!(len <= LANES);
    // SAFETY: AVX2 is enabled where this is inlined (its callers hold the
    // token); WINDOW is 128 bytes and the load reads 32 of them, from
    // byte 4 · (16 - len), at most 64.
    unsafe {
        let window = WINDOW.as_ptr().cast::<i32>();
        _mm256_loadu_si256(window.add(2 * LANES - len).cast())
    }
}

/// The mask of a step's first `len` lanes, as `i64` lanes, in two halves.
#[inline(always)]
fn first_lanes_64(len: usize) -> [__m256i; 2] {
    debug_assert!(len <= LANES);
    // SAFETY: as in `first_lanes_32`; the loads read 64 bytes from
    // byte 8 · (8 - len), at most 64, of WINDOW's 128.
    unsafe {
        let window = WINDOW.as_ptr().add(LANES - len);
        [
            _mm256_loadu_si256(window.cast()),
            _mm256_loadu_si256(window.add(4).cast()),
        ]
    }
}
use crate::arch::isa::{FIT_SLACK, Isa, fit_scalar};

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
    fn load_partial(self, rest: &[u32]) -> __m256i {
        debug_assert!(rest.len() < LANES);
        let mask = first_lanes_32(rest.len());
        // SAFETY: AVX2 as above; the masked load reads only the lanes
        // `mask` selects, the first `rest.len()` words: those of `rest`.
        unsafe {
            let words = _mm256_maskload_epi32(rest.as_ptr().cast(), mask);
            // Unselected lanes read 0; OR-ing the complement makes them PAD.
            _mm256_or_si256(words, _mm256_xor_si256(mask, _mm256_set1_epi32(-1)))
        }
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
    fn load_partial(self, rest: &[u64]) -> [__m256i; 2] {
        debug_assert!(rest.len() < LANES);
        let masks = first_lanes_64(rest.len());
        let words = rest.as_ptr();
        std::array::from_fn(|half| {
            // SAFETY: AVX2 as above; each masked load reads only the lanes
            // its mask selects, of the first `rest.len()` words: those of
            // `rest` (the second half's pointer is in bounds or one past
            // the end whenever the first half's mask takes all four lanes,
            // and reads nothing otherwise).
            unsafe {
                let at = words.wrapping_add(4 * half);
                let loaded = _mm256_maskload_epi64(at.cast(), masks[half]);
                _mm256_or_si256(
                    loaded,
                    _mm256_xor_si256(masks[half], _mm256_set1_epi64x(-1)),
                )
            }
        })
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

    /// Four right pieces at a time (see the module's doc), the last few
    /// one at a time.
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
        let whole = pieces - pieces % 4;
        let mut len = 0;
        // SAFETY: `self` proves the CPU has AVX2 and POPCNT. Step `at`
        // reads right keys and sides at..at + 4, below `whole` <=
        // `pieces`, and writes four words at out[len..], where len <= at <
        // pieces: inside `out` by the assert.
        unsafe {
            let keys_or = _mm256_set1_epi64x(key as i64);
            let side_and = _mm_set1_epi32(side as i32);
            for at in (0..whole).step_by(4) {
                let sides = _mm_loadu_si128(right_sides.as_ptr().add(at).cast());
                let keys = _mm256_loadu_si256(right_keys.as_ptr().add(at).cast());
                let disjoint = _mm_cmpeq_epi32(_mm_and_si128(sides, side_and), _mm_setzero_si128());
                let fits = _mm_movemask_ps(_mm_castsi128_ps(disjoint)) as usize;
                let order = _mm256_loadu_si256(COMPRESS[fits].as_ptr().cast());
                let halves = _mm256_permutevar8x32_epi32(_mm256_or_si256(keys, keys_or), order);
                _mm256_storeu_si256(out.as_mut_ptr().add(len).cast(), halves);
                len += fits.count_ones() as usize;
            }
        }
        len + fit_scalar(
            key,
            side,
            &right_keys[whole..],
            &right_sides[whole..],
            &mut out[len..],
        )
    }

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
