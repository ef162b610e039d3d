//! Counting the pairs (top, bottom) whose keys are disjoint.
//!
//! Each side's halves are sorted (one counting sort) into buckets by file set
//! and, within a set, by index bits (`key >> 32`). Tops with index bits q
//! can only meet bottoms whose index bits are a subset of !q, so each bucket
//! of tops visits only those buckets of bottoms. There it compares low
//! words: [`QUERIES`] tops at a time against [`LANES`] bottoms at a time, AND
//! and compare-with-zero, each load of bottoms serving four tops.
//!
//! Buckets are padded to whole steps with [`Word::PAD`], which can never
//! meet anything: every real top carries [`Word::TOP_MARK`] and every real
//! bottom [`Word::BOTTOM_MARK`], and PAD has both bits. So padding needs no
//! bookkeeping.
//!
//! The compared word is a `u32` in the narrow layout and a `u64` in the wide
//! one (see [`crate::layout`]); [`Word`] is what the join needs of either.

/// Bottoms compared per step: two 128-bit registers of `u32` (narrow), or
/// one 512-bit register of `u64` (wide).
pub const LANES: usize = 8;

/// Tops compared against each loaded step of bottoms.
pub const QUERIES: usize = 4;

/// Key bits left for the narrow low word beside the marks.
pub const LOW_BITS: usize = 30;

/// The word a layout compares: its marks, how a key splits into bucket and
/// word, and the kernel.
pub trait Word: Copy + Default + std::fmt::Debug + Send + 'static {
    /// Set in every top's word.
    const TOP_MARK: Self;
    /// Set in every bottom's word.
    const BOTTOM_MARK: Self;
    /// Padding, on either side: it meets every real entry of the other side
    /// in one of the marks.
    const PAD: Self;
    /// The kernel the join runs on this word, the best the target has.
    type Kernel: Kernel<Self>;
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
pub trait Kernel<W> {
    /// The lane counters.
    type Counters: Copy;
    /// Counters at zero.
    fn counters() -> Self::Counters;
    /// Adds the bottoms (a multiple of [`LANES`]) disjoint from each query.
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

    #[inline(always)]
    fn split(key: u64, index_bits: usize) -> (u32, u64) {
        ((key & ((1 << index_bits) - 1)) as u32, key)
    }

    #[inline(always)]
    fn marked(self, mark: u64) -> u64 {
        self | mark
    }
}

/// One side of a unit: halves in buckets by (file set, index bits).
pub struct Side<W> {
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
    /// multiple of `step`. `counts[b]` must hold bucket b's size on entry;
    /// it is used up as the placing cursors (saving a copy of `starts`).
    pub fn fill(
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
    pub fn bytes(&self) -> usize {
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

/// Pairs (top with file set `top_set`, bottom with file set `bottom_set`)
/// whose keys are disjoint. Sets are packed indices. A top counts double
/// for each of its index bits in `doubling` (the long diagonals, see
/// [`crate::board::KLEIN_MIN_N`]; 0 for a plain count). `runs` is scratch.
///
/// For each bucket of tops, the bottom buckets it may meet are listed once
/// (`runs`); then each group of [`QUERIES`] tops goes through all of them
/// with one set of lane counters, summed once per group.
pub fn count_pairs<W: Word>(
    tops: &Side<W>,
    top_set: usize,
    bottoms: &Side<W>,
    bottom_set: usize,
    doubling: u32,
    runs: &mut Vec<(u32, u32)>,
) -> u64 {
    let mut total = 0u64;
    for_each_bucket(
        tops,
        top_set,
        bottoms,
        bottom_set,
        runs,
        |index, queries, runs| {
            let mut pairs = 0;
            for group in queries.chunks_exact(QUERIES) {
                let group: &[W; QUERIES] = group.try_into().expect("exact chunk");
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
            // Every top of the bucket has these index bits: one weight.
            total += pairs << (index & doubling).count_ones();
        },
    );
    total
}

/// The pairs [`count_pairs`] tests (padding included): what the buckets
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
        runs.clear();
        runs.extend(
            subsets(!index & index_mask & bottoms.present)
                .map(|subset| bottoms.run(bottom_set, subset))
                .filter(|&(start, end)| start != end),
        );
        visit(index, queries, runs);
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
pub struct Avx512Vl;

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
        // `chunks_exact(LANES)` step of eight `u32`.
        unsafe {
            let one = _mm256_set1_epi32(1);
            let q = queries.map(|query| _mm256_set1_epi32(query as i32));
            for step in bottoms.chunks_exact(LANES) {
                let b = _mm256_loadu_si256(step.as_ptr().cast());
                for i in 0..QUERIES {
                    let disjoint = _mm256_testn_epi32_mask(b, q[i]);
                    counters[i] = _mm256_mask_add_epi32(counters[i], disjoint, counters[i], one);
                }
            }
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
pub struct Sse2;

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
        // `step`, which `chunks_exact(LANES)` makes exactly 32 bytes long.
        unsafe {
            let zero = _mm_setzero_si128();
            let q = queries.map(|query| _mm_set1_epi32(query as i32));
            for step in bottoms.chunks_exact(LANES) {
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
            }
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
pub struct Avx512;

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
        // `chunks_exact(LANES)` step of eight `u64`.
        unsafe {
            let one = _mm512_set1_epi64(1);
            let q = queries.map(|query| _mm512_set1_epi64(query as i64));
            for step in bottoms.chunks_exact(LANES) {
                let b = _mm512_loadu_si512(step.as_ptr().cast());
                for i in 0..QUERIES {
                    let disjoint = _mm512_testn_epi64_mask(b, q[i]);
                    counters[i] = _mm512_mask_add_epi64(counters[i], disjoint, counters[i], one);
                }
            }
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
pub struct WideVector;

impl Kernel<u64> for WideVector {
    type Counters = [[u64; LANES]; QUERIES];

    #[inline(always)]
    fn counters() -> Self::Counters {
        [[0; LANES]; QUERIES]
    }

    #[inline(always)]
    fn add(counters: &mut Self::Counters, queries: &[u64; QUERIES], bottoms: &[u64]) {
        for step in bottoms.chunks_exact(LANES) {
            for (row, &query) in counters.iter_mut().zip(queries) {
                for (counter, &bottom) in row.iter_mut().zip(step) {
                    *counter += u64::from(bottom & query == 0);
                }
            }
        }
    }

    #[inline(always)]
    fn sum(counters: Self::Counters) -> u64 {
        counters.iter().flatten().sum()
    }
}

/// The narrow count in plain Rust: the kernel off x86-64, and on x86-64 the
/// reference the SIMD kernels are tested against (so it is compiled, and
/// checked, on every target).
pub struct Portable;

impl Kernel<u32> for Portable {
    type Counters = u64;

    #[inline(always)]
    fn counters() -> u64 {
        0
    }

    #[inline(always)]
    fn add(counters: &mut u64, queries: &[u32; QUERIES], bottoms: &[u32]) {
        for &query in queries {
            *counters += bottoms.iter().filter(|&&b| b & query == 0).count() as u64;
        }
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
        let (mark, step) = if top {
            (W::TOP_MARK, QUERIES)
        } else {
            (W::BOTTOM_MARK, LANES)
        };
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
        /// the kernel) against the pair-by-pair definition, for every
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
                    prop_assert_eq!(
                        count_pairs(&tops, top_set, &bottoms, bottom_set, 0, &mut Vec::new()),
                        expected,
                        "sets {} and {}", top_set, bottom_set
                    );
                    prop_assert_eq!(
                        count_pairs(&wide_tops, top_set, &wide_bottoms, bottom_set, 0, &mut Vec::new()),
                        expected,
                        "wide, sets {} and {}", top_set, bottom_set
                    );
                }
            }
        }

        /// The two kernels agree on any words at all, padding included.
        #[test]
        fn the_portable_kernel_equals_the_simd_one(
            queries in prop::array::uniform4(prop_oneof![any::<u32>(), Just(PAD), Just(0u32)]),
            bottoms in prop::collection::vec(prop_oneof![any::<u32>(), Just(PAD), Just(0u32)], 0..40)
                .prop_map(|mut words| { words.resize(words.len().next_multiple_of(LANES), PAD); words }),
        ) {
            let portable = count_group_portable(&queries, &bottoms);
            prop_assert_eq!(count_group(&queries, &bottoms), portable);
            #[cfg(target_arch = "x86_64")]
            prop_assert_eq!(count_group_sse2(&queries, &bottoms), portable);
            let naive_count: u64 = queries
                .iter()
                .map(|&q| bottoms.iter().filter(|&&b| b & q == 0).count() as u64)
                .sum();
            prop_assert_eq!(portable, naive_count);
        }

        /// The wide kernel counts exactly the disjoint pairs, padding
        /// included.
        #[test]
        fn the_wide_kernel_counts_the_disjoint_pairs(
            queries in prop::array::uniform4(prop_oneof![any::<u64>(), Just(u64::PAD), Just(0u64), Just(u64::TOP_MARK)]),
            bottoms in prop::collection::vec(prop_oneof![any::<u64>(), Just(u64::PAD), Just(0u64), Just(u64::BOTTOM_MARK)], 0..40)
                .prop_map(|mut words| { words.resize(words.len().next_multiple_of(LANES), u64::PAD); words }),
        ) {
            let naive_count: u64 = queries
                .iter()
                .map(|&q| bottoms.iter().filter(|&&b| b & q == 0).count() as u64)
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
    fn buckets_are_padded_whole_steps_holding_exactly_their_halves() {
        // Sizes 0, 1, a whole step, one more than a step: every padding case.
        let index_bits = 1;
        let sizes = [0usize, 1, LANES, LANES + 1];
        let mut halves = Vec::new();
        for (bucket, &size) in sizes.iter().enumerate() {
            for k in 0..size {
                halves.push((bucket >> index_bits, (bucket & 1) as u32, k as u32));
            }
        }
        let bottoms = side(index_bits, 2, &halves, false);
        assert_eq!(bottoms.starts.len(), sizes.len() + 1);
        for (bucket, &size) in sizes.iter().enumerate() {
            let (start, end) = (bottoms.starts[bucket], bottoms.starts[bucket + 1]);
            assert_eq!(start as usize % LANES, 0, "bucket {bucket} starts mid-step");
            assert_eq!((end - start) as usize, size.next_multiple_of(LANES));
            let slice = bottoms.bucket(bucket >> index_bits, (bucket & 1) as u32);
            let mut real: Vec<u32> = slice.iter().copied().filter(|&w| w != PAD).collect();
            real.sort_unstable();
            let expected: Vec<u32> = (0..size as u32).map(|k| k | BOTTOM_MARK).collect();
            assert_eq!(real, expected, "bucket {bucket}");
        }
        assert_eq!(*bottoms.starts.last().unwrap() as usize, bottoms.low.len());
        assert!(bottoms.has_set(0) && bottoms.has_set(1));
        // A set with no halves at all is skipped before any bucket is read.
        let lonely = side(index_bits, 2, &[(1, 0, 0)], false);
        assert!(!lonely.has_set(0) && lonely.has_set(1));
        let tops = side(index_bits, 2, &[(0, 0, 0)], true);
        assert_eq!(count_pairs(&tops, 0, &lonely, 0, 0, &mut Vec::new()), 0);
        assert_eq!(count_pairs(&tops, 0, &lonely, 1, 0, &mut Vec::new()), 1);
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
