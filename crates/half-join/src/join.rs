//! Counting the pairs (top, bottom) whose keys are disjoint.
//!
//! Each side's halves are sorted (one counting sort) into buckets by file set
//! and, within a set, by index bits (`key >> 32`). Tops with index bits q
//! can only meet bottoms whose index bits are a subset of !q, so each bucket
//! of tops visits only those buckets of bottoms. There it compares low
//! words: [`QUERIES`] tops at a time against [`LANES`] bottoms at a time, AND
//! and compare-with-zero, each load of bottoms serving four tops.
//!
//! In the narrow layout ([`Word::GATHERS`]), a bucket of tops with many
//! groups of queries first copies the runs of bottoms it may meet end to
//! end ([`GATHER_MIN_QUERIES`]): every group then makes one pass over one
//! contiguous run instead of one short pass per bucket of bottoms (on large
//! boards most runs are a few steps long, and a group visits tens of them).
//!
//! Buckets of tops are padded to whole groups with [`Lane::PAD`], which can
//! never meet anything: every real top carries [`Word::TOP_MARK`] and every
//! real bottom [`Word::BOTTOM_MARK`], and PAD has both bits. Buckets of
//! bottoms are not padded: a kernel reads a run's last partial step as if
//! the missing lanes held PAD (a masked load, or a copy into a padded
//! step), so a run costs its whole steps and one partial step at most.
//!
//! The compared word is a `u32` in the narrow layout and a `u64` in the wide
//! one (see [`crate::layout`]); [`Word`] is what the join needs of either.
//! The kernels, one per instruction-set level, are in [`crate::arch`].

pub(crate) use crate::arch::generic::{Lane, QUERIES};
use crate::arch::{Isa, Step, generic};

/// Key bits left for the narrow low word beside the marks.
pub(crate) const LOW_BITS: usize = 30;

/// The word a layout compares: its marks, how a key splits into bucket and
/// word, and the kernel.
pub(crate) trait Word: Lane {
    /// Set in every top's word.
    const TOP_MARK: Self;
    /// Set in every bottom's word.
    const BOTTOM_MARK: Self;
    /// Whether a large bucket of tops gathers its runs of bottoms (see
    /// [`GATHER_MIN_QUERIES`]). Narrow words do; for wide ones it was no
    /// faster (a slice of n = 24, timed side by side), so they read the
    /// runs where they lie.
    const GATHERS: bool;
    /// A key's index bits (its bucket within its file set) and the word
    /// compared, unmarked.
    fn split(key: u64, index_bits: usize) -> (u32, Self);
    /// The word with a mark set.
    fn marked(self, mark: Self) -> Self;
    /// `isa`'s kernel steps on this word.
    fn step<L: Isa>(isa: L) -> impl Step<Self>;
}

/// The narrow layout: index bits in the key's high word, the rest in the
/// low `u32`.
impl Word for u32 {
    const TOP_MARK: u32 = 1 << 31;
    const BOTTOM_MARK: u32 = 1 << 30;
    const GATHERS: bool = true;

    #[inline(always)]
    fn split(key: u64, _: usize) -> (u32, u32) {
        ((key >> 32) as u32, key as u32)
    }

    #[inline(always)]
    fn marked(self, mark: u32) -> u32 {
        self | mark
    }

    #[inline(always)]
    fn step<L: Isa>(isa: L) -> impl Step<u32> {
        isa
    }
}

/// The wide layout: index bits at the bottom of the key, the whole key
/// compared.
impl Word for u64 {
    const TOP_MARK: u64 = 1 << 63;
    const BOTTOM_MARK: u64 = 1 << 62;
    const GATHERS: bool = false;

    #[inline(always)]
    fn split(key: u64, index_bits: usize) -> (u32, u64) {
        ((key & ((1 << index_bits) - 1)) as u32, key)
    }

    #[inline(always)]
    fn marked(self, mark: u64) -> u64 {
        self | mark
    }

    #[inline(always)]
    fn step<L: Isa>(isa: L) -> impl Step<u64> {
        isa.wide()
    }
}

/// Which side of the join: a top (a query) or a bottom.
#[derive(Clone, Copy)]
pub(crate) enum Role {
    Top,
    Bottom,
}

impl Role {
    /// How this side's buckets are filled: the mark on its words, and the
    /// multiple each bucket is padded to (tops to whole groups of queries;
    /// bottoms not at all, see the module's doc).
    pub(crate) fn filling<W: Word>(self) -> (W, usize) {
        match self {
            Role::Top => (W::TOP_MARK, QUERIES),
            Role::Bottom => (W::BOTTOM_MARK, 1),
        }
    }
}

/// One side of a unit: halves in buckets by (file set, index bits).
pub(crate) struct Side<W> {
    index_bits: usize,
    /// Every index bit some entry has (of any set): a top need not visit
    /// buckets with other bits, which are empty (bottoms never take the
    /// long diagonals, for one).
    present: u32,
    /// starts[b]..starts[b + 1] is bucket b in `low`; b = set << index_bits
    /// | index bits.
    starts: Vec<u32>,
    low: Vec<W>,
}

impl<W> Default for Side<W> {
    fn default() -> Self {
        Side {
            index_bits: 0,
            present: 0,
            starts: Vec::new(),
            low: Vec::new(),
        }
    }
}

impl<W: Word> Side<W> {
    /// Sorts `(bucket, word)` entries into buckets, each padded to a
    /// multiple of `step` ([`QUERIES`] for tops, 1 for bottoms). `counts[b]`
    /// must hold bucket b's size on entry; it is used up as the placing
    /// cursors (saving a copy of `starts`).
    pub(crate) fn fill(
        &mut self,
        index_bits: usize,
        counts: &mut [u32],
        entries: &[(u32, W)],
        step: usize,
    ) {
        self.index_bits = index_bits;
        let index_mask = (1 << index_bits) - 1;
        self.present = (counts.iter().enumerate())
            .filter(|&(_, &count)| count != 0)
            .fold(0, |present, (bucket, _)| {
                present | bucket as u32 & index_mask
            });
        self.starts.clear();
        self.starts.push(0);
        let mut end = 0u32;
        for count in counts.iter_mut() {
            let start = end;
            end += count.next_multiple_of(step as u32);
            self.starts.push(end);
            *count = start;
        }
        // Every word below `end` is written below, entries or padding: the
        // last set's words are left in place rather than cleared first (a
        // `memset` of the whole side, about 2 % of a count's instructions
        // at n = 16, callgrind).
        self.low.resize(end as usize, W::PAD);
        for &(bucket, low) in entries {
            let slot = &mut counts[bucket as usize];
            self.low[*slot as usize] = low;
            *slot += 1;
        }
        if step > 1 {
            // Each bucket's cursor now ends its entries: pad to the next.
            for (&filled, bounds) in counts.iter().zip(self.starts.windows(2)) {
                self.low[filled as usize..bounds[1] as usize].fill(W::PAD);
            }
        }
    }

    /// Where bucket (set, index) lies in `low`: start and end.
    fn run(&self, set: usize, index: u32) -> (u32, u32) {
        let b = (set << self.index_bits) | index as usize;
        (self.starts[b], self.starts[b + 1])
    }

    fn bucket(&self, set: usize, index: u32) -> &[W] {
        let (start, end) = self.run(set, index);
        &self.low[start as usize..end as usize]
    }

    fn has_set(&self, set: usize) -> bool {
        let first = set << self.index_bits;
        let last = first + (1 << self.index_bits);
        self.starts[first] != self.starts[last]
    }
}

/// Queries (four groups) from which a bucket of tops gathers its runs of
/// bottoms end to end before the kernel (see the module's doc). The copy
/// is paid once and saved on every group's pass, so it needs several
/// groups to pay. Timed side by side (one thread, whole counts, CPU time,
/// interleaved medians) at 2, 4 and 8 groups: on a slice of n = 22, 4 and
/// 8 were best and equal; at n = 17, 4 groups took 4 to 8 % less time than
/// 8 at the AVX2, AVX-512 and SSE2 levels, and 2 about as long as 4 (less
/// at one level, more at another); at n = 19 (AVX2) 4 took 5 % less than
/// 8; at n = 16 and 18 all three took the same time.
pub(crate) const GATHER_MIN_QUERIES: usize = 4 * QUERIES;

/// The most bottoms a bucket of tops gathers (1 MiB of narrow words); more
/// are read where they lie. This bounds the copy's memory whatever n is;
/// so many bottoms lie mostly in long runs, which gain little from the copy
/// (timed on a slice of n = 22: 2^16 to 2^18 as fast as no bound, 2^12
/// slower).
pub(crate) const GATHER_MAX_WORDS: usize = 1 << 18;

/// The runs of bottoms one bucket of tops may meet, listed, and gathered
/// end to end: the join's buffers, kept from one set to the next.
pub(crate) struct BottomRuns<W> {
    runs: Vec<(u32, u32)>,
    gathered: Vec<W>,
    /// [`GATHER_MIN_QUERIES`] where the word gathers ([`Word::GATHERS`]),
    /// else never (tests gather always, or never, in either layout).
    gather_min_queries: usize,
    /// The pairs (top, bottom) the kernel compared since
    /// [`BottomRuns::take_tested`] last read them: every real top of a
    /// bucket against every bottom of the runs it may meet (the lanes of
    /// padding are the kernel's, not pairs). The join's work, reported
    /// beside the nodes.
    tested: u64,
}

impl<W> BottomRuns<W> {
    /// The pairs compared since the last call, and a fresh start.
    pub(crate) fn take_tested(&mut self) -> u64 {
        std::mem::take(&mut self.tested)
    }
}

impl<W: Word> Default for BottomRuns<W> {
    fn default() -> Self {
        BottomRuns {
            runs: Vec::new(),
            gathered: Vec::new(),
            gather_min_queries: if W::GATHERS {
                GATHER_MIN_QUERIES
            } else {
                usize::MAX
            },
            tested: 0,
        }
    }
}

/// Pairs (top with file set `top_set`, bottom with file set `bottom_set`)
/// whose keys are disjoint. Sets are packed indices. A top counts double
/// for each of its index bits in `doubling` (the long diagonals, see
/// [`crate::tuning::KLEIN_MIN_N`]; 0 for a plain count).
///
/// For each bucket of tops, the bottom buckets it may meet are listed once;
/// then each group of [`QUERIES`] tops goes through all of them with one
/// set of lane counters, summed once per group. A bucket of at least
/// [`GATHER_MIN_QUERIES`] tops goes through a gathered copy of them.
///
/// The kernel is `isa`'s (see [`crate::arch`]), and the whole join runs
/// compiled for it.
pub(crate) fn count_pairs<W: Word, L: Isa>(
    isa: L,
    tops: &Side<W>,
    top_set: usize,
    bottoms: &Side<W>,
    bottom_set: usize,
    doubling: u32,
    bottom_runs: &mut BottomRuns<W>,
) -> u64 {
    isa.run(
        #[inline(always)]
        || {
            count_pairs_in(
                W::step(isa),
                tops,
                top_set,
                bottoms,
                bottom_set,
                doubling,
                bottom_runs,
            )
        },
    )
}

/// [`count_pairs`], inlined into the level's code.
#[inline(always)]
fn count_pairs_in<W: Word>(
    isa: impl Step<W>,
    tops: &Side<W>,
    top_set: usize,
    bottoms: &Side<W>,
    bottom_set: usize,
    doubling: u32,
    bottom_runs: &mut BottomRuns<W>,
) -> u64 {
    let BottomRuns {
        runs,
        gathered,
        gather_min_queries,
        tested,
    } = bottom_runs;
    let mut total = 0u64;
    for_each_bucket(
        tops,
        top_set,
        bottoms,
        bottom_set,
        runs,
        |index, queries, runs| {
            let mut pairs = 0;
            let groups = queries
                .chunks_exact(QUERIES)
                .map(|group| -> &[W; QUERIES] { group.try_into().expect("exact chunk") });
            // Once per bucket, not per pair: the count of tests costs
            // nothing beside the tests. Its real tops, without the padding
            // (only the last group has any).
            let met: usize = runs
                .iter()
                .map(|&(start, end)| (end - start) as usize)
                .sum();
            let padding = queries
                .iter()
                .rev()
                .take_while(|&&word| word == W::PAD)
                .count();
            *tested += ((queries.len() - padding) * met) as u64;
            let gathering =
                queries.len() >= *gather_min_queries && runs.len() > 1 && met <= GATHER_MAX_WORDS;
            if gathering {
                let gathered = gather(&bottoms.low, runs, gathered);
                for group in groups {
                    pairs += generic::count(isa, group, gathered);
                }
            } else {
                for group in groups {
                    let mut counters = generic::counters(isa);
                    for &(start, end) in runs {
                        let run = &bottoms.low[start as usize..end as usize];
                        generic::add(isa, &mut counters, group, run);
                    }
                    pairs += generic::sum(isa, counters);
                }
            }
            // Every top of the bucket has these index bits: one weight.
            total += pairs << (index & doubling).count_ones();
        },
    );
    total
}

/// The runs `start..end` of `low` end to end, in `gathered`.
fn gather<'a, W: Word>(low: &[W], runs: &[(u32, u32)], gathered: &'a mut Vec<W>) -> &'a [W] {
    gathered.clear();
    for &(start, end) in runs {
        gathered.extend_from_slice(&low[start as usize..end as usize]);
    }
    gathered
}

/// Calls `visit(index bits, tops, runs)` for each non-empty bucket of tops
/// of `top_set`, with the runs of `bottom_set`'s bottoms it may meet (in
/// `runs`, listed once per bucket of tops). Inlined, so that the kernel in
/// `visit` is compiled for its level.
#[inline(always)]
fn for_each_bucket<W: Word>(
    tops: &Side<W>,
    top_set: usize,
    bottoms: &Side<W>,
    bottom_set: usize,
    runs: &mut Vec<(u32, u32)>,
    mut visit: impl FnMut(u32, &[W], &[(u32, u32)]),
) {
    if !tops.has_set(top_set) || !bottoms.has_set(bottom_set) {
        return;
    }
    let index_mask = (1u32 << tops.index_bits) - 1;
    for index in 0..=index_mask {
        let queries = tops.bucket(top_set, index);
        if queries.is_empty() {
            continue;
        }
        // Every subset's run is written and only a non-empty one kept (the
        // next overwrites an empty one): whether a bucket is empty follows
        // no pattern, and as a branch it was mispredicted about as often
        // as not.
        let free = !index & index_mask & bottoms.present;
        let most = 1 << free.count_ones();
        if runs.len() < most {
            runs.resize(most, (0, 0));
        }
        let mut kept = 0;
        for subset in subsets(free) {
            let (start, end) = bottoms.run(bottom_set, subset);
            runs[kept] = (start, end);
            kept += usize::from(start != end);
        }
        visit(index, queries, &runs[..kept]);
    }
}

/// Every subset of `free`, largest first, down to the empty set: the index
/// bits a bottom may have to meet a top whose index bits are `!free`.
fn subsets(free: u32) -> impl Iterator<Item = u32> {
    let mut next = Some(free);
    std::iter::from_fn(move || {
        let subset = next?;
        next = (subset != 0).then(|| (subset - 1) & free);
        Some(subset)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arch::generic::LANES;
    use crate::arch::{Level, Task, dispatch_to};
    use proptest::prelude::*;

    impl<W: Word> Side<W> {
        /// Bytes held (capacity, not length): the side's share of a thread's
        /// memory.
        pub(crate) fn bytes(&self) -> usize {
            self.starts.capacity() * size_of::<u32>() + self.low.capacity() * size_of::<W>()
        }
    }

    impl<W: Word> BottomRuns<W> {
        /// Buffers for a join that gathers from `gather_min_queries` tops in a
        /// bucket.
        fn gathering_from(gather_min_queries: usize) -> Self {
            BottomRuns {
                gather_min_queries,
                ..BottomRuns::default()
            }
        }

        /// Bytes held (capacity): the buffers' share of a thread's memory. The
        /// gathered runs are at most [`GATHER_MAX_WORDS`] words.
        pub(crate) fn bytes(&self) -> usize {
            self.runs.capacity() * size_of::<(u32, u32)>()
                + self.gathered.capacity() * size_of::<W>()
        }
    }

    const PAD: u32 = <u32 as Lane>::PAD;
    const TOP_MARK: u32 = <u32 as Word>::TOP_MARK;
    const BOTTOM_MARK: u32 = <u32 as Word>::BOTTOM_MARK;

    /// One group's count against `bottoms` by the kernel of each level
    /// this CPU has (see [`crate::arch::tests::tested_levels`]).
    fn count_group<W: Word>(queries: &[W; QUERIES], bottoms: &[W]) -> Vec<(Level, u64)> {
        struct Group<'a, W> {
            queries: &'a [W; QUERIES],
            bottoms: &'a [W],
        }
        impl<W: Word> Task for Group<'_, W> {
            type Output = u64;
            fn run<L: Isa>(self, isa: L) -> u64 {
                isa.run(
                    #[inline(always)]
                    || generic::count(W::step(isa), self.queries, self.bottoms),
                )
            }
        }
        (crate::arch::tests::tested_levels().into_iter())
            .map(|level| {
                let group = Group { queries, bottoms };
                (
                    level,
                    dispatch_to(level, group).expect("a level this CPU has"),
                )
            })
            .collect()
    }

    /// [`count_pairs`] at each level this CPU has: the disjoint pairs, and
    /// the pairs tested.
    fn count_pairs_each<W: Word>(
        tops: &Side<W>,
        top_set: usize,
        bottoms: &Side<W>,
        bottom_set: usize,
        gather_min_queries: usize,
    ) -> Vec<(Level, (u64, u64))> {
        struct Join<'a, W> {
            sides: (&'a Side<W>, usize, &'a Side<W>, usize),
            gather_min_queries: usize,
        }
        impl<W: Word> Task for Join<'_, W> {
            type Output = (u64, u64);
            fn run<L: Isa>(self, isa: L) -> (u64, u64) {
                let (tops, top_set, bottoms, bottom_set) = self.sides;
                let runs = &mut BottomRuns::gathering_from(self.gather_min_queries);
                let count = count_pairs(isa, tops, top_set, bottoms, bottom_set, 0, runs);
                (count, runs.take_tested())
            }
        }
        (crate::arch::tests::tested_levels().into_iter())
            .map(|level| {
                let sides = (tops, top_set, bottoms, bottom_set);
                let join = Join {
                    sides,
                    gather_min_queries,
                };
                (
                    level,
                    dispatch_to(level, join).expect("a level this CPU has"),
                )
            })
            .collect()
    }

    /// Spreads a test word's 16 bits to both ends of a `u64`, so the wide
    /// join sees high bits too; two words are disjoint exactly when their
    /// spreads are.
    fn spread(low: u32) -> u64 {
        u64::from(low) | u64::from(low) << 44
    }

    /// The words padded with PAD to whole steps: what a kernel reads.
    fn padded_to_steps<W: Word>(words: &[W]) -> Vec<W> {
        let mut padded = words.to_vec();
        padded.resize(words.len().next_multiple_of(LANES), W::PAD);
        padded
    }

    /// The pairs whose index bits are disjoint: those the buckets let
    /// through to the kernel, so the pairs the join must say it tested.
    fn naive_tested(tops: &[(u32, u32)], bottoms: &[(u32, u32)]) -> u64 {
        let disjoint = |&(top, _): &(u32, u32), &(bottom, _): &(u32, u32)| top & bottom == 0;
        (tops.iter())
            .map(|top| bottoms.iter().filter(|b| disjoint(top, b)).count() as u64)
            .sum()
    }

    /// Disjoint pairs counted one pair at a time: the definition the join
    /// must agree with.
    fn naive(tops: &[(u32, u32)], bottoms: &[(u32, u32)]) -> u64 {
        let mut pairs = 0;
        for &(top_index, top_low) in tops {
            for &(bottom_index, bottom_low) in bottoms {
                if top_index & bottom_index == 0 && top_low & bottom_low == 0 {
                    pairs += 1;
                }
            }
        }
        pairs
    }

    /// A side of one or more file sets from (set, index bits, key bits)
    /// halves, marked as the join marks them, filled as a unit fills it.
    fn side(index_bits: usize, sets: usize, halves: &[Half], top: bool) -> Side<u32> {
        side_of(index_bits, sets, halves, top, |low| low)
    }

    /// The same in any layout's word, each key bit moved by `word`.
    fn side_of<W: Word>(
        index_bits: usize,
        sets: usize,
        halves: &[Half],
        top: bool,
        word: fn(u32) -> W,
    ) -> Side<W> {
        let (mark, step) = if top { Role::Top } else { Role::Bottom }.filling::<W>();
        let mut counts = vec![0u32; sets << index_bits];
        let entries: Vec<(u32, W)> = halves
            .iter()
            .map(|&(set, index, low)| {
                let bucket = (set << index_bits) | index as usize;
                counts[bucket] += 1;
                (bucket as u32, word(low).marked(mark))
            })
            .collect();
        let mut side = Side::default();
        side.fill(index_bits, &mut counts, &entries, step);
        side
    }

    /// A half for the tests: (file set, index bits, key bits).
    type Half = (usize, u32, u32);

    /// Halves with few key bits, so that disjoint pairs are common and
    /// both outcomes of the comparison are exercised.
    fn halves(index_bits: usize, sets: usize) -> impl Strategy<Value = Vec<Half>> {
        let index_mask = (1u32 << index_bits) - 1;
        prop::collection::vec(
            (0..sets, any::<u32>(), any::<u32>()).prop_map(move |(set, index, low)| {
                (set, index & index_mask, low & low >> 7 & 0xFFFF)
            }),
            0..70,
        )
    }

    fn case() -> impl Strategy<Value = (usize, usize, Vec<Half>, Vec<Half>)> {
        (0usize..=3, 1usize..=3).prop_flat_map(|(index_bits, sets)| {
            (
                Just(index_bits),
                Just(sets),
                halves(index_bits, sets),
                halves(index_bits, sets),
            )
        })
    }

    proptest! {
        /// The whole join (buckets, subsets of free index bits, padding,
        /// gathering, the kernel and its partial steps) against the
        /// pair-by-pair definition, for every pair of file sets; and the
        /// pairs it says it tested are exactly those its buckets let
        /// through, padding left out.
        #[test]
        fn the_join_counts_exactly_the_disjoint_pairs((index_bits, sets, top_halves, bottom_halves) in case()) {
            let tops = side(index_bits, sets, &top_halves, true);
            let bottoms = side(index_bits, sets, &bottom_halves, false);
            let wide_tops = side_of(index_bits, sets, &top_halves, true, spread);
            let wide_bottoms = side_of(index_bits, sets, &bottom_halves, false, spread);
            for top_set in 0..sets {
                for bottom_set in 0..sets {
                    let of = |halves: &[Half], set: usize| -> Vec<(u32, u32)> {
                        halves.iter().filter(|h| h.0 == set).map(|h| (h.1, h.2)).collect()
                    };
                    let (set_tops, set_bottoms) = (of(&top_halves, top_set), of(&bottom_halves, bottom_set));
                    let expected = (naive(&set_tops, &set_bottoms), naive_tested(&set_tops, &set_bottoms));
                    // Gathering from every bucket of tops, from none, and
                    // from the threshold the engine uses.
                    for gather_min_queries in [0, usize::MAX, GATHER_MIN_QUERIES] {
                        for (level, counted) in count_pairs_each(&tops, top_set, &bottoms, bottom_set, gather_min_queries) {
                            prop_assert_eq!(
                                counted, expected,
                                "{:?}, sets {} and {}, gathering from {}", level, top_set, bottom_set, gather_min_queries
                            );
                        }
                        for (level, counted) in count_pairs_each(&wide_tops, top_set, &wide_bottoms, bottom_set, gather_min_queries) {
                            prop_assert_eq!(
                                counted, expected,
                                "{:?}, wide, sets {} and {}, gathering from {}", level, top_set, bottom_set, gather_min_queries
                            );
                        }
                    }
                }
            }
        }

        /// Every level's narrow kernel counts exactly the disjoint pairs
        /// of any words at all, padding included, and of any number of
        /// them (a last partial step reads as padding).
        #[test]
        fn every_narrow_kernel_counts_the_disjoint_pairs(
            queries in prop::array::uniform4(prop_oneof![any::<u32>(), Just(PAD), Just(0u32)]),
            bottoms in prop::collection::vec(prop_oneof![any::<u32>(), Just(PAD), Just(0u32)], 0..40),
        ) {
            let expected = naive_group(&queries, &bottoms);
            for (level, counted) in count_group(&queries, &bottoms) {
                prop_assert_eq!(counted, expected, "{:?}", level);
            }
        }

        /// The same of every level's wide kernel.
        #[test]
        fn every_wide_kernel_counts_the_disjoint_pairs(
            queries in prop::array::uniform4(prop_oneof![any::<u64>(), Just(u64::PAD), Just(0u64), Just(u64::TOP_MARK)]),
            bottoms in prop::collection::vec(prop_oneof![any::<u64>(), Just(u64::PAD), Just(0u64), Just(u64::BOTTOM_MARK)], 0..40),
        ) {
            let expected = naive_group(&queries, &bottoms);
            for (level, counted) in count_group(&queries, &bottoms) {
                prop_assert_eq!(counted, expected, "{:?}", level);
            }
        }
    }

    /// A group's count pair by pair, the bottoms padded with PAD to whole
    /// steps (what a kernel reads).
    fn naive_group<W: Word>(queries: &[W; QUERIES], bottoms: &[W]) -> u64 {
        let padded = padded_to_steps(bottoms);
        (queries.iter())
            .map(|&q| padded.iter().filter(|&&b| b & q == W::default()).count() as u64)
            .sum()
    }

    #[test]
    fn padding_meets_nothing_on_either_side() {
        // Real halves with every key bit clear: they meet every real half
        // of the other side, and still no padding.
        let real_top = TOP_MARK;
        let real_bottom = BOTTOM_MARK;
        let bottoms = [real_bottom, PAD, PAD, PAD, PAD, PAD, PAD, PAD];
        let cases: [(&[u32; QUERIES], &[u32], u64); 4] = [
            (&[real_top, PAD, PAD, PAD], &bottoms, 1),
            (&[real_top, PAD, PAD, PAD], &[real_bottom], 1),
            (&[PAD; QUERIES], &[real_bottom; LANES], 0),
            (&[real_top; QUERIES], &[PAD; LANES], 0),
        ];
        for (queries, bottoms, expected) in cases {
            for (level, counted) in count_group(queries, bottoms) {
                assert_eq!(counted, expected, "{level:?}");
            }
        }
    }

    #[test]
    fn buckets_hold_exactly_their_halves_tops_padded_to_whole_groups() {
        // Sizes 0, 1, a whole group, one more than a step: every padding
        // case.
        let index_bits = 1;
        let sizes = [0usize, 1, QUERIES, LANES + 1];
        let mut halves = Vec::new();
        for (bucket, &size) in sizes.iter().enumerate() {
            for k in 0..size {
                halves.push((bucket >> index_bits, (bucket & 1) as u32, k as u32));
            }
        }
        for (top, mark, multiple) in [(true, TOP_MARK, QUERIES), (false, BOTTOM_MARK, 1)] {
            let side = side(index_bits, 2, &halves, top);
            assert_eq!(side.starts.len(), sizes.len() + 1);
            for (bucket, &size) in sizes.iter().enumerate() {
                let (start, end) = (side.starts[bucket], side.starts[bucket + 1]);
                assert_eq!(
                    start as usize % multiple,
                    0,
                    "bucket {bucket} starts mid-group"
                );
                assert_eq!((end - start) as usize, size.next_multiple_of(multiple));
                let slice = side.bucket(bucket >> index_bits, (bucket & 1) as u32);
                let mut real: Vec<u32> = slice.iter().copied().filter(|&w| w != PAD).collect();
                real.sort_unstable();
                let expected: Vec<u32> = (0..size as u32).map(|k| k | mark).collect();
                assert_eq!(real, expected, "bucket {bucket}, top {top}");
            }
            assert_eq!(*side.starts.last().unwrap() as usize, side.low.len());
            assert!(side.has_set(0) && side.has_set(1));
        }
        // A set with no halves at all is skipped before any bucket is read.
        let lonely = side(index_bits, 2, &[(1, 0, 0)], false);
        assert!(!lonely.has_set(0) && lonely.has_set(1));
        let tops = side(index_bits, 2, &[(0, 0, 0)], true);
        for (level, counted) in count_pairs_each(&tops, 0, &lonely, 0, GATHER_MIN_QUERIES) {
            assert_eq!(counted, (0, 0), "{level:?}");
        }
        for (level, counted) in count_pairs_each(&tops, 0, &lonely, 1, GATHER_MIN_QUERIES) {
            assert_eq!(counted, (1, 1), "{level:?}");
        }
    }

    #[test]
    fn gathering_puts_the_runs_end_to_end() {
        let low: Vec<u32> = (0..40).collect();
        let runs = [(3, 5), (8, 8), (10, 29), (39, 40)];
        let mut gathered = vec![7; 100];
        let expected: Vec<u32> = (3..5).chain(10..29).chain(39..40).collect();
        assert_eq!(gather(&low, &runs, &mut gathered), &expected[..]);
    }

    #[test]
    fn subsets_are_every_subset_once_largest_first() {
        for free in [0u32, 1, 0b101, 0b1111, 0b1011_0110] {
            let listed: Vec<u32> = subsets(free).collect();
            let mut expected: Vec<u32> = (0..=free).filter(|s| s & !free == 0).collect();
            expected.reverse();
            assert_eq!(listed, expected, "free = {free:b}");
        }
    }
}
