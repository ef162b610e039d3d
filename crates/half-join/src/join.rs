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
//! Buckets of tops are padded to whole groups with [`Word::PAD`], which can
//! never meet anything: every real top carries [`Word::TOP_MARK`] and every
//! real bottom [`Word::BOTTOM_MARK`], and PAD has both bits. Buckets of
//! bottoms are not padded: a kernel reads a run's last partial step as if
//! the missing lanes held PAD (a masked load, or a copy into a padded
//! step), so a run costs its whole steps and one partial step at most.
//!
//! The compared word is a `u32` in the narrow layout and a `u64` in the wide
//! one (see [`crate::layout`]); [`Word`] is what the join needs of either.

/// Bottoms compared per step: two 128-bit registers of `u32` (narrow), or
/// one 512-bit register of `u64` (wide).
pub(crate) const LANES: usize = 8;

/// Tops compared against each loaded step of bottoms.
pub(crate) const QUERIES: usize = 4;

/// Key bits left for the narrow low word beside the marks.
pub(crate) const LOW_BITS: usize = 30;

/// The word a layout compares: its marks, how a key splits into bucket and
/// word, and the kernel.
pub(crate) trait Word: Copy + Default + std::fmt::Debug + Send + 'static {
    /// Set in every top's word.
    const TOP_MARK: Self;
    /// Set in every bottom's word.
    const BOTTOM_MARK: Self;
    /// Padding, on either side: it meets every real entry of the other side
    /// in one of the marks.
    const PAD: Self;
    /// The kernel the join runs on this word, the best the target has.
    type Kernel: Kernel<Self>;
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
}

/// A join kernel: counts, for a group of [`QUERIES`] tops, the bottoms
/// disjoint from each, in per-lane counters that are kept across every
/// bucket the group visits and summed once at the end. Summing lanes is a
/// horizontal add as dear as several steps, and most buckets are only a
/// few steps long: summed per bucket, it was a large share of the join.
pub(crate) trait Kernel<W> {
    /// The lane counters.
    type Counters: Copy;
    /// Counters at zero.
    fn counters() -> Self::Counters;
    /// Adds the bottoms disjoint from each query. Any number of bottoms: a
    /// last partial step counts as if padded with [`Word::PAD`].
    fn add(counters: &mut Self::Counters, queries: &[W; QUERIES], bottoms: &[W]);
    /// The counters' total.
    fn sum(counters: Self::Counters) -> u64;
    /// One group's count against one run of bottoms, from zero.
    #[inline(always)]
    fn count(queries: &[W; QUERIES], bottoms: &[W]) -> u64 {
        let mut counters = Self::counters();
        Self::add(&mut counters, queries, bottoms);
        Self::sum(counters)
    }
}

/// The narrow layout: index bits in the key's high word, the rest in the
/// low `u32`.
impl Word for u32 {
    const TOP_MARK: u32 = 1 << 31;
    const BOTTOM_MARK: u32 = 1 << 30;
    const PAD: u32 = u32::MAX;
    #[cfg(all(
        target_arch = "x86_64",
        target_feature = "avx512f",
        target_feature = "avx512vl"
    ))]
    type Kernel = Avx512Vl;
    #[cfg(all(
        target_arch = "x86_64",
        not(all(target_feature = "avx512f", target_feature = "avx512vl"))
    ))]
    type Kernel = Sse2;
    #[cfg(not(target_arch = "x86_64"))]
    type Kernel = Portable;
    const GATHERS: bool = true;

    #[inline(always)]
    fn split(key: u64, _: usize) -> (u32, u32) {
        ((key >> 32) as u32, key as u32)
    }

    #[inline(always)]
    fn marked(self, mark: u32) -> u32 {
        self | mark
    }
}

/// The wide layout: index bits at the bottom of the key, the whole key
/// compared.
impl Word for u64 {
    const TOP_MARK: u64 = 1 << 63;
    const BOTTOM_MARK: u64 = 1 << 62;
    const PAD: u64 = u64::MAX;
    #[cfg(all(target_arch = "x86_64", target_feature = "avx512f"))]
    type Kernel = Avx512;
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx512f")))]
    type Kernel = WideVector;
    const GATHERS: bool = false;

    #[inline(always)]
    fn split(key: u64, index_bits: usize) -> (u32, u64) {
        ((key & ((1 << index_bits) - 1)) as u32, key)
    }

    #[inline(always)]
    fn marked(self, mark: u64) -> u64 {
        self | mark
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
        self.low.clear();
        self.low.resize(end as usize, W::PAD);
        for &(bucket, low) in entries {
            let slot = &mut counts[bucket as usize];
            self.low[*slot as usize] = low;
            *slot += 1;
        }
    }

    /// Bytes held (capacity, not length): the side's share of a thread's
    /// memory.
    #[cfg(test)]
    pub(crate) fn bytes(&self) -> usize {
        self.starts.capacity() * size_of::<u32>() + self.low.capacity() * size_of::<W>()
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

/// Queries (eight groups) from which a bucket of tops gathers its runs of
/// bottoms end to end before the kernel (see the module's doc). The copy
/// is paid once and saved on every group's pass, so it needs several
/// groups to pay (timed side by side on a slice of n = 22 at 2, 4 and 8
/// groups: 4 and 8 were best, and equal).
pub(crate) const GATHER_MIN_QUERIES: usize = 8 * QUERIES;

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
        }
    }
}

impl<W: Word> BottomRuns<W> {
    /// Buffers for a join that gathers from `gather_min_queries` tops in a
    /// bucket.
    #[cfg(test)]
    fn gathering_from(gather_min_queries: usize) -> Self {
        BottomRuns {
            gather_min_queries,
            ..BottomRuns::default()
        }
    }

    /// Bytes held (capacity): the buffers' share of a thread's memory. The
    /// gathered runs are at most [`GATHER_MAX_WORDS`] words.
    #[cfg(test)]
    pub(crate) fn bytes(&self) -> usize {
        self.runs.capacity() * size_of::<(u32, u32)>() + self.gathered.capacity() * size_of::<W>()
    }
}

/// Pairs (top with file set `top_set`, bottom with file set `bottom_set`)
/// whose keys are disjoint. Sets are packed indices. A top counts double
/// for each of its index bits in `doubling` (the long diagonals, see
/// [`crate::board::KLEIN_MIN_N`]; 0 for a plain count).
///
/// For each bucket of tops, the bottom buckets it may meet are listed once;
/// then each group of [`QUERIES`] tops goes through all of them with one
/// set of lane counters, summed once per group. A bucket of at least
/// [`GATHER_MIN_QUERIES`] tops goes through a gathered copy of them.
pub(crate) fn count_pairs<W: Word>(
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
            let gathering = queries.len() >= *gather_min_queries
                && runs.len() > 1
                && runs
                    .iter()
                    .map(|&(start, end)| (end - start) as usize)
                    .sum::<usize>()
                    <= GATHER_MAX_WORDS;
            if gathering {
                let gathered = gather(&bottoms.low, runs, gathered);
                for group in groups {
                    pairs += W::Kernel::count(group, gathered);
                }
            } else {
                for group in groups {
                    let mut counters = W::Kernel::counters();
                    for &(start, end) in runs {
                        W::Kernel::add(
                            &mut counters,
                            group,
                            &bottoms.low[start as usize..end as usize],
                        );
                    }
                    pairs += W::Kernel::sum(counters);
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

/// The pairs [`count_pairs`] tests (the tops' padding included): what the buckets
/// leave of the sets' pairs.
#[cfg(test)]
pub(crate) fn pairs_tested<W: Word>(tops: &Side<W>, bottoms: &Side<W>) -> u64 {
    let mut tested = 0;
    let mut runs = Vec::new();
    for_each_bucket(tops, 0, bottoms, 0, &mut runs, |_, queries, runs| {
        let bottoms: u32 = runs.iter().map(|&(start, end)| end - start).sum();
        tested += queries.len() as u64 * u64::from(bottoms);
    });
    tested
}

/// Calls `visit(index bits, tops, runs)` for each non-empty bucket of tops
/// of `top_set`, with the runs of `bottom_set`'s bottoms it may meet (in
/// `runs`, listed once per bucket of tops).
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

/// Calls `test` on every step of `bottoms`, as `load` reads a whole step
/// and `load_partial` the last partial one (from its words and the mask of
/// its lanes; the other lanes must read as PAD).
#[inline(always)]
fn for_each_step<W, V>(
    bottoms: &[W],
    load: impl Fn(&[W]) -> V,
    load_partial: impl Fn(&[W], u8) -> V,
    mut test: impl FnMut(V),
) {
    let steps = bottoms.chunks_exact(LANES);
    let rest = steps.remainder();
    for step in steps {
        test(load(step));
    }
    if !rest.is_empty() {
        test(load_partial(rest, (1u8 << rest.len()) - 1));
    }
}

/// A whole step's words, by value (for the kernels that take them so).
#[cfg_attr(
    not(test),
    allow(
        dead_code,
        reason = "the kernels of other CPUs use it; here only their tests"
    )
)]
#[inline(always)]
fn whole<W: Copy>(step: &[W]) -> [W; LANES] {
    step.try_into().expect("a whole step")
}

/// A run's last partial step, padded with PAD to a whole one (for the
/// kernels without masked loads).
#[cfg_attr(
    not(test),
    allow(
        dead_code,
        reason = "the kernels of other CPUs use it; here only their tests"
    )
)]
#[inline(always)]
fn padded<W: Word>(rest: &[W]) -> [W; LANES] {
    let mut step = [W::PAD; LANES];
    step[..rest.len()].copy_from_slice(rest);
    step
}

/// The narrow kernel where the CPU has AVX-512 (F and VL): a step of
/// eight bottoms in one 256-bit load, and per query one `vptestnmd` (the
/// lanes where bottom AND query is zero, as a mask) and one masked add of 1.
///
/// Lane counters are `u32`, kept across every bucket a group of queries
/// visits: a lane gains at most one per step per query, and the buckets of
/// one file set hold fewer than a chunk's 2^24 words, so a lane stays below
/// QUERIES · 2^24 / LANES = 2^23.
#[cfg(all(
    target_arch = "x86_64",
    target_feature = "avx512f",
    target_feature = "avx512vl"
))]
pub(crate) struct Avx512Vl;

#[cfg(all(
    target_arch = "x86_64",
    target_feature = "avx512f",
    target_feature = "avx512vl"
))]
impl Kernel<u32> for Avx512Vl {
    type Counters = [std::arch::x86_64::__m256i; QUERIES];

    #[inline(always)]
    fn counters() -> Self::Counters {
        // SAFETY: AVX is implied by the AVX-512F this is compiled for.
        [unsafe { std::arch::x86_64::_mm256_setzero_si256() }; QUERIES]
    }

    #[inline(always)]
    fn add(counters: &mut Self::Counters, queries: &[u32; QUERIES], bottoms: &[u32]) {
        use std::arch::x86_64::*;
        // SAFETY: compiled only where the target has AVX-512F and VL (cfg
        // above); each unaligned load reads the 32 bytes of one
        // `chunks_exact(LANES)` step of eight `u32`, and the masked load of
        // the last partial step reads only its `rest.len()` words (masked
        // lanes are not read, and take PAD).
        unsafe {
            let one = _mm256_set1_epi32(1);
            let q = queries.map(|query| _mm256_set1_epi32(query as i32));
            let test = |b: __m256i| {
                for i in 0..QUERIES {
                    let disjoint = _mm256_testn_epi32_mask(b, q[i]);
                    counters[i] = _mm256_mask_add_epi32(counters[i], disjoint, counters[i], one);
                }
            };
            let pad = _mm256_set1_epi32(u32::PAD as i32);
            for_each_step(
                bottoms,
                |step| _mm256_loadu_si256(step.as_ptr().cast()),
                |rest, lanes| _mm256_mask_loadu_epi32(pad, lanes, rest.as_ptr().cast()),
                test,
            );
        }
    }

    #[inline(always)]
    fn sum(counters: Self::Counters) -> u64 {
        use std::arch::x86_64::*;
        // SAFETY: as above; the store writes 32 bytes into `lanes`, which
        // is 32 bytes long.
        unsafe {
            let mut sum = counters[0];
            for counter in &counters[1..] {
                sum = _mm256_add_epi32(sum, *counter);
            }
            let mut lanes = [0u32; LANES];
            _mm256_storeu_si256(lanes.as_mut_ptr().cast(), sum);
            lanes.iter().map(|&l| u64::from(l)).sum()
        }
    }
}

/// The SSE2 kernel (SSE2 is part of every x86-64): two 4-lane registers of
/// bottoms per step, each ANDed with every query, compared with zero (all
/// ones where disjoint) and subtracted from that query's counters, so each
/// load serves four queries and the eight counters give the core
/// independent work. Lane counters are `u32`, bounded as in the AVX-512 kernel's.
#[cfg(target_arch = "x86_64")]
#[cfg_attr(
    not(test),
    allow(
        dead_code,
        reason = "the kernel of x86-64 CPUs without AVX-512; on others only its tests run it"
    )
)]
pub(crate) struct Sse2;

#[cfg(target_arch = "x86_64")]
impl Kernel<u32> for Sse2 {
    /// Per query, the counters of the low and the high four lanes.
    type Counters = [[std::arch::x86_64::__m128i; 2]; QUERIES];

    #[inline(always)]
    fn counters() -> Self::Counters {
        // SAFETY: SSE2 is in the x86-64 baseline.
        [[unsafe { std::arch::x86_64::_mm_setzero_si128() }; 2]; QUERIES]
    }

    #[inline(always)]
    fn add(counters: &mut Self::Counters, queries: &[u32; QUERIES], bottoms: &[u32]) {
        use std::arch::x86_64::*;
        // SAFETY: the intrinsics need SSE2, which every x86-64 CPU has (it
        // is in the target's baseline, so no runtime check is needed); the
        // two unaligned loads read 16 bytes each at offsets 0 and 16 of
        // `step`, which is exactly 32 bytes long: a `chunks_exact(LANES)`
        // step, or the last partial one copied into a padded step.
        unsafe {
            let zero = _mm_setzero_si128();
            let q = queries.map(|query| _mm_set1_epi32(query as i32));
            let test = |step: [u32; LANES]| {
                let b = [
                    _mm_loadu_si128(step.as_ptr().cast()),
                    _mm_loadu_si128(step.as_ptr().add(4).cast()),
                ];
                for (counter, query) in counters.iter_mut().zip(q) {
                    for half in 0..2 {
                        let disjoint = _mm_cmpeq_epi32(_mm_and_si128(b[half], query), zero);
                        counter[half] = _mm_sub_epi32(counter[half], disjoint);
                    }
                }
            };
            for_each_step(bottoms, whole, |rest, _| padded(rest), test);
        }
    }

    #[inline(always)]
    fn sum(counters: Self::Counters) -> u64 {
        use std::arch::x86_64::*;
        // SAFETY: SSE2 as above; the store writes 16 bytes into `lanes`,
        // which is 16 bytes long.
        unsafe {
            let mut sum = _mm_setzero_si128();
            for [low, high] in counters {
                sum = _mm_add_epi32(sum, _mm_add_epi32(low, high));
            }
            let mut lanes = [0u32; 4];
            _mm_storeu_si128(lanes.as_mut_ptr().cast(), sum);
            lanes.iter().map(|&l| u64::from(l)).sum()
        }
    }
}

/// The wide kernel where the CPU has AVX-512 (the build targets the CPU it
/// runs on): eight bottoms per 512-bit load; per query one `vptestnmq`
/// (a mask of the lanes where bottom AND query is zero) and one masked add
/// of 1 into that query's `u64` counters.
#[cfg(all(target_arch = "x86_64", target_feature = "avx512f"))]
pub(crate) struct Avx512;

#[cfg(all(target_arch = "x86_64", target_feature = "avx512f"))]
impl Kernel<u64> for Avx512 {
    type Counters = [std::arch::x86_64::__m512i; QUERIES];

    #[inline(always)]
    fn counters() -> Self::Counters {
        // SAFETY: compiled only where the target has AVX-512F.
        [unsafe { std::arch::x86_64::_mm512_setzero_si512() }; QUERIES]
    }

    #[inline(always)]
    fn add(counters: &mut Self::Counters, queries: &[u64; QUERIES], bottoms: &[u64]) {
        use std::arch::x86_64::*;
        // SAFETY: compiled only where the target has AVX-512F (cfg above);
        // each unaligned load reads the 64 bytes of one
        // `chunks_exact(LANES)` step of eight `u64`, and the masked load of
        // the last partial step reads only its `rest.len()` words (masked
        // lanes are not read, and take PAD).
        unsafe {
            let one = _mm512_set1_epi64(1);
            let q = queries.map(|query| _mm512_set1_epi64(query as i64));
            let test = |b: __m512i| {
                for i in 0..QUERIES {
                    let disjoint = _mm512_testn_epi64_mask(b, q[i]);
                    counters[i] = _mm512_mask_add_epi64(counters[i], disjoint, counters[i], one);
                }
            };
            let pad = _mm512_set1_epi64(u64::PAD as i64);
            for_each_step(
                bottoms,
                |step| _mm512_loadu_si512(step.as_ptr().cast()),
                |rest, lanes| _mm512_mask_loadu_epi64(pad, lanes, rest.as_ptr().cast()),
                test,
            );
        }
    }

    #[inline(always)]
    fn sum(counters: Self::Counters) -> u64 {
        use std::arch::x86_64::*;
        // SAFETY: compiled only where the target has AVX-512F.
        unsafe {
            let mut sum = counters[0];
            for counter in &counters[1..] {
                sum = _mm512_add_epi64(sum, *counter);
            }
            _mm512_reduce_add_epi64(sum) as u64
        }
    }
}

/// The wide kernel in plain Rust shaped for the vectoriser: per query a
/// row of [`LANES`] counters, each step of bottoms ANDed with the query,
/// compared with zero and added, which LLVM turns into 256- or 512-bit
/// AND, compare and subtract (whichever the target CPU has), each load of
/// bottoms serving four queries.
#[cfg_attr(
    not(test),
    allow(
        dead_code,
        reason = "the kernel of CPUs without AVX-512; on others only its tests run it"
    )
)]
pub(crate) struct WideVector;

impl Kernel<u64> for WideVector {
    type Counters = [[u64; LANES]; QUERIES];

    #[inline(always)]
    fn counters() -> Self::Counters {
        [[0; LANES]; QUERIES]
    }

    #[inline(always)]
    fn add(counters: &mut Self::Counters, queries: &[u64; QUERIES], bottoms: &[u64]) {
        let test = |step: [u64; LANES]| {
            for (row, &query) in counters.iter_mut().zip(queries) {
                for (counter, bottom) in row.iter_mut().zip(step) {
                    *counter += u64::from(bottom & query == 0);
                }
            }
        };
        for_each_step(bottoms, whole, |rest, _| padded(rest), test);
    }

    #[inline(always)]
    fn sum(counters: Self::Counters) -> u64 {
        counters.iter().flatten().sum()
    }
}

/// The narrow count in plain Rust: the kernel off x86-64, and on x86-64 the
/// reference the SIMD kernels are tested against (so it is compiled, and
/// checked, on every target).
#[cfg_attr(
    not(test),
    allow(
        dead_code,
        reason = "the kernel off x86-64; on x86-64 only its tests run it"
    )
)]
pub(crate) struct Portable;

impl Kernel<u32> for Portable {
    type Counters = u64;

    #[inline(always)]
    fn counters() -> u64 {
        0
    }

    #[inline(always)]
    fn add(counters: &mut u64, queries: &[u32; QUERIES], bottoms: &[u32]) {
        let test = |step: [u32; LANES]| {
            for &query in queries {
                *counters += step.iter().filter(|&&b| b & query == 0).count() as u64;
            }
        };
        for_each_step(bottoms, whole, |rest, _| padded(rest), test);
    }

    #[inline(always)]
    fn sum(counters: u64) -> u64 {
        counters
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const PAD: u32 = <u32 as Word>::PAD;
    const TOP_MARK: u32 = <u32 as Word>::TOP_MARK;
    const BOTTOM_MARK: u32 = <u32 as Word>::BOTTOM_MARK;

    fn count_group(queries: &[u32; QUERIES], bottoms: &[u32]) -> u64 {
        <u32 as Word>::Kernel::count(queries, bottoms)
    }

    fn count_group_portable(queries: &[u32; QUERIES], bottoms: &[u32]) -> u64 {
        Portable::count(queries, bottoms)
    }

    #[cfg(target_arch = "x86_64")]
    fn count_group_sse2(queries: &[u32; QUERIES], bottoms: &[u32]) -> u64 {
        Sse2::count(queries, bottoms)
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
        /// gathering, the kernel and its partial steps) against the pair-by-pair definition, for every
        /// pair of file sets.
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
                    let expected = naive(&of(&top_halves, top_set), &of(&bottom_halves, bottom_set));
                    // Gathering from every bucket of tops, from none, and
                    // from the threshold the engine uses.
                    for gather_min_queries in [0, usize::MAX, GATHER_MIN_QUERIES] {
                        prop_assert_eq!(
                            count_pairs(&tops, top_set, &bottoms, bottom_set, 0, &mut BottomRuns::gathering_from(gather_min_queries)),
                            expected,
                            "sets {} and {}, gathering from {}", top_set, bottom_set, gather_min_queries
                        );
                        prop_assert_eq!(
                            count_pairs(&wide_tops, top_set, &wide_bottoms, bottom_set, 0, &mut BottomRuns::gathering_from(gather_min_queries)),
                            expected,
                            "wide, sets {} and {}, gathering from {}", top_set, bottom_set, gather_min_queries
                        );
                    }
                }
            }
        }

        /// The kernels agree on any words at all, padding included, and
        /// on any number of them (a last partial step).
        #[test]
        fn the_portable_kernel_equals_the_simd_one(
            queries in prop::array::uniform4(prop_oneof![any::<u32>(), Just(PAD), Just(0u32)]),
            bottoms in prop::collection::vec(prop_oneof![any::<u32>(), Just(PAD), Just(0u32)], 0..40),
        ) {
            let portable = count_group_portable(&queries, &bottoms);
            prop_assert_eq!(count_group(&queries, &bottoms), portable);
            #[cfg(target_arch = "x86_64")]
            prop_assert_eq!(count_group_sse2(&queries, &bottoms), portable);
            let padded = padded_to_steps(&bottoms);
            let naive_count: u64 = queries
                .iter()
                .map(|&q| padded.iter().filter(|&&b| b & q == 0).count() as u64)
                .sum();
            prop_assert_eq!(portable, naive_count);
        }

        /// The wide kernels count exactly the disjoint pairs, padding
        /// and a last partial step included.
        #[test]
        fn the_wide_kernel_counts_the_disjoint_pairs(
            queries in prop::array::uniform4(prop_oneof![any::<u64>(), Just(u64::PAD), Just(0u64), Just(u64::TOP_MARK)]),
            bottoms in prop::collection::vec(prop_oneof![any::<u64>(), Just(u64::PAD), Just(0u64), Just(u64::BOTTOM_MARK)], 0..40),
        ) {
            let padded = padded_to_steps(&bottoms);
            let naive_count: u64 = queries
                .iter()
                .map(|&q| padded.iter().filter(|&&b| b & q == 0).count() as u64)
                .sum();
            prop_assert_eq!(<u64 as Word>::Kernel::count(&queries, &bottoms), naive_count);
            prop_assert_eq!(WideVector::count(&queries, &bottoms), naive_count);
        }
    }

    #[test]
    fn padding_meets_nothing_on_either_side() {
        // Real halves with every key bit clear: they meet every real half
        // of the other side, and still no padding.
        let real_top = TOP_MARK;
        let real_bottom = BOTTOM_MARK;
        let bottoms = [real_bottom, PAD, PAD, PAD, PAD, PAD, PAD, PAD];
        assert_eq!(count_group(&[real_top, PAD, PAD, PAD], &bottoms), 1);
        assert_eq!(
            count_group_portable(&[real_top, PAD, PAD, PAD], &bottoms),
            1
        );
        assert_eq!(count_group(&[PAD; QUERIES], &[real_bottom; LANES]), 0);
        assert_eq!(count_group(&[real_top; QUERIES], &[PAD; LANES]), 0);
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
        let mut bottom_runs = BottomRuns::default();
        assert_eq!(count_pairs(&tops, 0, &lonely, 0, 0, &mut bottom_runs), 0);
        assert_eq!(count_pairs(&tops, 0, &lonely, 1, 0, &mut bottom_runs), 1);
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
