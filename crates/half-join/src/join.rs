//! Counting the pairs (top, bottom) whose keys are disjoint.
//!
//! Each side's halves are sorted (one counting sort) into buckets by file set
//! and, within a set, by index bits (`key >> 32`). Tops with index bits q
//! can only meet bottoms whose index bits are a subset of !q, so each bucket
//! of tops visits only those buckets of bottoms. There it compares low
//! words: [`QUERIES`] tops at a time against [`LANES`] bottoms at a time, AND
//! and compare-with-zero, each load of bottoms serving four tops.
//!
//! Buckets are padded to whole steps with [`PAD`], which can never meet
//! anything: every real top carries [`TOP_MARK`] and every real bottom
//! [`BOTTOM_MARK`], and PAD has both bits. So padding needs no bookkeeping.

/// Bottoms compared per step: two 128-bit registers of `u32`.
pub const LANES: usize = 8;

/// Tops compared against each loaded step of bottoms.
pub const QUERIES: usize = 4;

/// Set in every top's low word.
pub const TOP_MARK: u32 = 1 << 31;

/// Set in every bottom's low word.
pub const BOTTOM_MARK: u32 = 1 << 30;

/// Padding, on either side: it meets every real entry of the other side in
/// one of the marks.
pub const PAD: u32 = u32::MAX;

/// Key bits left for the low word beside the marks.
pub const LOW_BITS: usize = 30;

/// One side of a unit: halves in buckets by (file set, index bits).
#[derive(Default)]
pub struct Side {
    index_bits: usize,
    /// starts[b]..starts[b + 1] is bucket b in `low`; b = set << index_bits
    /// | index bits.
    starts: Vec<u32>,
    low: Vec<u32>,
}

impl Side {
    /// Sorts `(bucket, low word)` entries into buckets, each padded to a
    /// multiple of `step`. `counts[b]` must hold bucket b's size on entry;
    /// it is used up as the placing cursors (saving a copy of `starts`).
    pub fn fill(
        &mut self,
        index_bits: usize,
        counts: &mut [u32],
        entries: &[(u32, u32)],
        step: usize,
    ) {
        self.index_bits = index_bits;
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
        self.low.resize(end as usize, PAD);
        for &(bucket, low) in entries {
            let slot = &mut counts[bucket as usize];
            self.low[*slot as usize] = low;
            *slot += 1;
        }
    }

    fn bucket(&self, set: usize, index: u32) -> &[u32] {
        let b = (set << self.index_bits) | index as usize;
        &self.low[self.starts[b] as usize..self.starts[b + 1] as usize]
    }

    fn has_set(&self, set: usize) -> bool {
        let first = set << self.index_bits;
        let last = first + (1 << self.index_bits);
        self.starts[first] != self.starts[last]
    }
}

/// Pairs (top with file set `top_set`, bottom with file set `bottom_set`)
/// whose keys are disjoint. Sets are packed indices.
pub fn count_pairs(tops: &Side, top_set: usize, bottoms: &Side, bottom_set: usize) -> u64 {
    if !tops.has_set(top_set) || !bottoms.has_set(bottom_set) {
        return 0;
    }
    let index_mask = (1u32 << tops.index_bits) - 1;
    let mut total = 0u64;
    for index in 0..=index_mask {
        let queries = tops.bucket(top_set, index);
        if queries.is_empty() {
            continue;
        }
        let free = !index & index_mask;
        // Every subset of `free`, largest first, down to the empty set.
        let mut subset = free;
        loop {
            let candidates = bottoms.bucket(bottom_set, subset);
            if !candidates.is_empty() {
                total += count_block(queries, candidates);
            }
            if subset == 0 {
                break;
            }
            subset = (subset - 1) & free;
        }
    }
    total
}

/// Disjoint pairs between `tops` (a multiple of [`QUERIES`] long) and
/// `bottoms` (a multiple of [`LANES`]).
#[inline(always)]
fn count_block(tops: &[u32], bottoms: &[u32]) -> u64 {
    tops.chunks_exact(QUERIES)
        .map(|queries| {
            let queries: &[u32; QUERIES] = queries.try_into().expect("exact chunk");
            count_group(queries, bottoms)
        })
        .sum()
}

/// Bottoms disjoint from each of the queries, summed. SSE2 (part of every
/// x86-64): two 4-lane registers of bottoms per step, each ANDed with every
/// query, compared with zero (all ones where disjoint) and subtracted from
/// that query's counters, so each load serves four queries and the eight
/// counters give the core independent work.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn count_group(queries: &[u32; QUERIES], bottoms: &[u32]) -> u64 {
    use std::arch::x86_64::*;
    // SAFETY: SSE2 is part of the x86-64 baseline; each load reads 16 bytes
    // inside `step`, which is LANES = 8 u32s long.
    unsafe {
        let zero = _mm_setzero_si128();
        let q = queries.map(|query| _mm_set1_epi32(query as i32));
        let mut low = [zero; QUERIES];
        let mut high = [zero; QUERIES];
        for step in bottoms.chunks_exact(LANES) {
            let b0 = _mm_loadu_si128(step.as_ptr().cast());
            let b1 = _mm_loadu_si128(step.as_ptr().add(4).cast());
            for i in 0..QUERIES {
                low[i] = _mm_sub_epi32(low[i], _mm_cmpeq_epi32(_mm_and_si128(b0, q[i]), zero));
                high[i] = _mm_sub_epi32(high[i], _mm_cmpeq_epi32(_mm_and_si128(b1, q[i]), zero));
            }
        }
        let mut sum = zero;
        for i in 0..QUERIES {
            sum = _mm_add_epi32(sum, _mm_add_epi32(low[i], high[i]));
        }
        let mut lanes = [0u32; 4];
        _mm_storeu_si128(lanes.as_mut_ptr().cast(), sum);
        lanes.iter().map(|&l| u64::from(l)).sum()
    }
}

/// The same count, portably, for other targets.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn count_group(queries: &[u32; QUERIES], bottoms: &[u32]) -> u64 {
    queries
        .iter()
        .map(|&query| bottoms.iter().filter(|&&b| b & query == 0).count() as u64)
        .sum()
}
