//! The portable level: plain Rust, no target features. It is the code of
//! every architecture but x86-64, and on x86-64 the level the others are
//! tested against. The kernel's lanes are arrays, which LLVM vectorises
//! with whatever the target has.

use super::generic::Step;
use super::generic::{LANES, Lane, QUERIES};
use super::isa::Isa;

/// The portable level's token. It needs nothing of the CPU, so anyone may
/// make one.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Portable;

impl Isa for Portable {
    type Wide = Portable;

    #[inline(always)]
    fn wide(self) -> Portable {
        self
    }

    #[inline(always)]
    fn run<R>(self, f: impl FnOnce() -> R) -> R {
        f()
    }
}

/// Lane counters are `u32` for the narrow word: a lane gains at most one
/// per step per query, and the buckets of one file set hold fewer than a
/// chunk's 2^24 words (see `crate::unit::CHUNK_BYTES`), so a lane stays
/// below QUERIES · 2^24 / LANES = 2^23. Every level's narrow kernel keeps
/// its lanes so.
impl Step<u32> for Portable {
    type Lanes = [u32; LANES];
    type Counts = [u32; LANES];

    #[inline(always)]
    fn splat(self, word: u32) -> [u32; LANES] {
        [word; LANES]
    }

    #[inline(always)]
    fn load(self, step: &[u32; LANES]) -> [u32; LANES] {
        *step
    }

    #[inline(always)]
    fn zero(self) -> [u32; LANES] {
        [0; LANES]
    }

    #[inline(always)]
    fn add_disjoint(
        self,
        counts: [u32; LANES],
        bottoms: [u32; LANES],
        query: [u32; LANES],
    ) -> [u32; LANES] {
        disjoint_lanes(counts, bottoms, query)
    }

    #[inline(always)]
    fn sum(self, counts: [[u32; LANES]; QUERIES]) -> u64 {
        counts.iter().flatten().map(|&lane| u64::from(lane)).sum()
    }
}

impl Step<u64> for Portable {
    type Lanes = [u64; LANES];
    type Counts = [u64; LANES];

    #[inline(always)]
    fn splat(self, word: u64) -> [u64; LANES] {
        [word; LANES]
    }

    #[inline(always)]
    fn load(self, step: &[u64; LANES]) -> [u64; LANES] {
        *step
    }

    #[inline(always)]
    fn zero(self) -> [u64; LANES] {
        [0; LANES]
    }

    #[inline(always)]
    fn add_disjoint(
        self,
        counts: [u64; LANES],
        bottoms: [u64; LANES],
        query: [u64; LANES],
    ) -> [u64; LANES] {
        disjoint_lanes(counts, bottoms, query)
    }

    #[inline(always)]
    fn sum(self, counts: [[u64; LANES]; QUERIES]) -> u64 {
        counts.iter().flatten().sum()
    }
}

/// Each lane's count, plus one where bottom AND query is zero.
#[inline(always)]
fn disjoint_lanes<W: Lane + std::ops::Add<Output = W> + From<bool>>(
    counts: [W; LANES],
    bottoms: [W; LANES],
    query: [W; LANES],
) -> [W; LANES] {
    std::array::from_fn(|lane| counts[lane] + W::from(bottoms[lane] & query[lane] == W::default()))
}
