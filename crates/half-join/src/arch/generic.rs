//! The join's kernel, written once over a small vector trait ([`Step`])
//! that each level implements with its own registers.
//!
//! A kernel counts, for a group of [`QUERIES`] tops, the bottoms whose
//! words are disjoint from each: it walks the bottoms a step of [`LANES`]
//! words at a time, loads the step once, and for each query ANDs it with
//! the query broadcast to every lane and adds one to the lanes where that
//! is zero. Each load so serves four queries, and the four queries' lane
//! counters give the core independent work. The counters are kept across
//! every run of bottoms a group visits and summed once at the end: summing
//! lanes is a horizontal add as dear as several steps, and most runs are a
//! few steps long.
//!
//! A run's last partial step is read as if its missing lanes held
//! [`Lane::PAD`], which meets nothing: by a masked load where the level
//! has one, else from a copy padded to a whole step.

/// Words compared per step: one 256-bit register of `u32`, or one 512-bit
/// register of `u64`, at the AVX-512 level.
pub(crate) const LANES: usize = 8;

/// Queries (tops) compared against each loaded step of bottoms.
pub(crate) const QUERIES: usize = 4;

/// A word the kernels compare: `u32` or `u64`.
pub(crate) trait Lane:
    Copy + Default + PartialEq + std::ops::BitAnd<Output = Self> + std::fmt::Debug + Send + 'static
{
    /// Every bit set. The join marks every real top and every real bottom
    /// with a bit of its own side (see `crate::join`), so padding meets
    /// no real word of either side.
    const PAD: Self;
}

impl Lane for u32 {
    const PAD: u32 = u32::MAX;
}

impl Lane for u64 {
    const PAD: u64 = u64::MAX;
}

/// A level's registers for one step of [`LANES`] words of `W`, and the
/// three operations the kernel needs of them. Implemented by the level's
/// token (see [`crate::arch`]), so holding `self` proves the CPU has the
/// instructions.
pub(crate) trait Step<W: Lane>: Copy {
    /// A step of words in registers (or a query in every lane).
    type Lanes: Copy;
    /// One query's counters, one per lane.
    type Counts: Copy;

    /// `word` in every lane.
    fn splat(self, word: W) -> Self::Lanes;
    /// A whole step.
    fn load(self, step: &[W; LANES]) -> Self::Lanes;
    /// A last partial step (fewer than [`LANES`] words), the missing lanes
    /// reading as PAD.
    #[inline(always)]
    fn load_partial(self, rest: &[W]) -> Self::Lanes {
        self.load(&padded(rest))
    }
    /// Counters at zero.
    fn zero(self) -> Self::Counts;
    /// `counts` plus one in each lane where `bottoms & query` is zero.
    fn add_disjoint(
        self,
        counts: Self::Counts,
        bottoms: Self::Lanes,
        query: Self::Lanes,
    ) -> Self::Counts;
    /// Every lane of every query's counters, added up.
    fn sum(self, counts: [Self::Counts; QUERIES]) -> u64;
}

/// One group's counters, per query.
pub(crate) type Counters<S, W> = [<S as Step<W>>::Counts; QUERIES];

/// Counters at zero.
#[inline(always)]
pub(crate) fn counters<W: Lane, S: Step<W>>(isa: S) -> Counters<S, W> {
    [isa.zero(); QUERIES]
}

/// Adds the bottoms disjoint from each query to its counters. Any number
/// of bottoms: a last partial step counts as if padded with PAD.
#[inline(always)]
pub(crate) fn add<W: Lane, S: Step<W>>(
    isa: S,
    counters: &mut Counters<S, W>,
    queries: &[W; QUERIES],
    bottoms: &[W],
) {
    let queries = queries.map(|query| isa.splat(query));
    let mut test = |step: S::Lanes| {
        for (counts, &query) in counters.iter_mut().zip(&queries) {
            *counts = isa.add_disjoint(*counts, step, query);
        }
    };
    // Unrolled by hand: LLVM unrolls this loop itself only when it tunes
    // for a known CPU (`target-cpu`), and the portable build tunes for
    // none. The inner loop has a constant count, which LLVM always unrolls.
    let (blocks, rest) = bottoms.as_chunks::<{ UNROLL * LANES }>();
    for block in blocks {
        for step in block.as_chunks::<LANES>().0 {
            test(isa.load(step));
        }
    }
    let (steps, rest) = rest.as_chunks::<LANES>();
    for step in steps {
        test(isa.load(step));
    }
    if !rest.is_empty() {
        test(isa.load_partial(rest));
    }
}

/// Steps per iteration of the kernel's main loop.
const UNROLL: usize = 4;

/// The counters' total.
#[inline(always)]
pub(crate) fn sum<W: Lane, S: Step<W>>(isa: S, counters: Counters<S, W>) -> u64 {
    isa.sum(counters)
}

/// One group's count against one run of bottoms, from zero.
#[inline(always)]
pub(crate) fn count<W: Lane, S: Step<W>>(isa: S, queries: &[W; QUERIES], bottoms: &[W]) -> u64 {
    let mut counters = counters(isa);
    add(isa, &mut counters, queries, bottoms);
    sum(isa, counters)
}

/// A run's last partial step, padded with PAD to a whole one (for the
/// levels without masked loads). Lane by lane, with a select per lane: a
/// `copy_from_slice` of the run's length was a call to `memcpy` per run,
/// whose branches on the length cost more than the step's tests.
#[inline(always)]
pub(crate) fn padded<W: Lane>(rest: &[W]) -> [W; LANES] {
    std::array::from_fn(|lane| rest.get(lane).copied().unwrap_or(W::PAD))
}
