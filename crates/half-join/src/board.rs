//! The geometry of a split board: its halves, the middle queen, the block of
//! files that cuts the work into units, and the symmetries that keep the
//! split (a mirror of the files, a flip of the ranks, and both).
//!
//! A solution is known by its middle file `m` (odd n: the file of the queen
//! on the middle rank) and its *top set* S, the files its top half uses. The
//! bottom half then uses the rest, `full \ S \ {m}`. The mirror maps
//! (m, S) to (n-1-m, reversed S); the flip turns the top half into the
//! bottom, (m, S) to (m, full \ S \ {m}). Both map solutions with one pair
//! one-to-one onto solutions with the other, so a pair's count is that of
//! any of its images.
//!
//! A **unit** is (m, π): every top set whose files inside the central block
//! P are exactly π. Its halves can be enumerated without the rest of the
//! board and fit in cache-friendly memory, however large n is.

use crate::layout::{Layout, Width};
use crate::tuning::{Symmetries, Tuning};

/// One of the four symmetries that keep the top/bottom split.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SplitSymmetry {
    Identity,
    /// Reflect the files (a swaps with the last file).
    Mirror,
    /// Reflect the ranks (the top half becomes the bottom).
    Flip,
    /// Both: the half turn.
    Turn,
}

impl SplitSymmetry {
    pub(crate) const ALL: [SplitSymmetry; 4] = [
        SplitSymmetry::Identity,
        SplitSymmetry::Mirror,
        SplitSymmetry::Flip,
        SplitSymmetry::Turn,
    ];
}

/// A unit of work: the middle file (odd n) and the top set's files in the
/// central block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Unit {
    pub middle: Option<u8>,
    pub pattern: u32,
}

impl Unit {
    pub(crate) fn key(self) -> u64 {
        let middle = self.middle.map_or(0, |m| u64::from(m) + 1);
        (middle << 32) | u64::from(self.pattern)
    }

    pub(crate) fn from_key(key: u64) -> Unit {
        let middle = (key >> 32) as u8;
        Unit {
            middle: middle.checked_sub(1),
            pattern: key as u32,
        }
    }
}

/// Everything that depends on n alone.
pub(crate) struct Board {
    pub n: usize,
    /// Ranks per half: n / 2. An odd board has one middle rank besides.
    pub half: usize,
    pub full: u32,
    /// The central block P of files that cuts the top sets into units.
    pub block: u32,
    /// First file of the block.
    pub block_start: usize,
    pub block_len: usize,
    pub layout: Layout,
    /// [`Board::set_index`] of each packed set.
    dense: Vec<u32>,
    /// Whether the count uses the long diagonals (see [`crate::tuning::KLEIN_MIN_N`]): the
    /// units then keep only the mirror, bottoms avoid both long diagonals,
    /// and each top weighs 2 per long diagonal it takes.
    pub klein: bool,
    /// The board's choices of code path.
    pub tuning: Tuning,
}

/// Top halves per unit are kept near 2^20 or fewer: the block is widened by
/// one file per doubling of the half-board count (the count grows about
/// 4.5-fold from n to n + 2, one more file for even n costs a factor 2).
fn block_len(n: usize) -> usize {
    if n.is_multiple_of(2) {
        n.saturating_sub(10)
    } else {
        // Odd boards split again by the middle file, so one file fewer
        // (still odd, so the block stays centred).
        n.saturating_sub(12)
    }
}

/// Index diagonals for the join: more as halves grow, at least enough to fit
/// the rest in 30 bits (see `layout`). Tuned on n = 16 and 17: one bit more
/// or less costs 0 to 20 %, two bits more 30 %. Capped for the wide layout:
/// the bucket tables hold at most 2^(n - |P|) · 2^k entries per side, 16 MB
/// at k = 10 on odd boards, whatever n is. (The narrow layout of n = 22 and
/// 23 raises k to 12 to fit its 30 bits; with the dense set indices of
/// [`Board::set_index`] the tables stay under 2^22 entries there too.)
fn index_bits(n: usize) -> usize {
    n.saturating_sub(12).min(WIDE_INDEX_BITS)
}

/// From this n, narrow boards take [`crate::layout::MAX_INDEX_BITS`] index
/// diagonals.
const NARROW_EXTRA_BIT_N: usize = 22;

/// The index diagonals of the wide layout (n > 23) where it joins `u64`
/// words: sets whose shared diagonals do not fit the narrow word (see
/// [`crate::shape`]), and tests of the searched halves.
const WIDE_INDEX_BITS: usize = 10;

/// C(n, k), exact while it fits (here n ≤ 28).
pub(crate) fn choose(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

/// For every value of `bits` bits, its rank among the values with as many
/// ones, in increasing order.
fn dense_ranks(bits: usize) -> Vec<u32> {
    let mut next = vec![0u32; bits + 1];
    (0..1u32 << bits)
        .map(|value| {
            let class = &mut next[value.count_ones() as usize];
            *class += 1;
            *class - 1
        })
        .collect()
}

impl Board {
    /// The board as a count takes it, at the kernel level chosen for this
    /// process.
    pub(crate) fn new(n: usize) -> Board {
        Board::tuned(n, Tuning::for_board(n, crate::arch::counting_level()))
    }

    /// The board of `n` counted as `tuning` says.
    pub(crate) fn tuned(n: usize, tuning: Tuning) -> Board {
        let Tuning {
            width, symmetries, ..
        } = tuning;
        let klein = symmetries == Symmetries::LongDiagonals;
        assert!(
            !klein || n.is_multiple_of(2),
            "the long diagonals need an even board"
        );
        // The weights read the long diagonals from the index: index bits 0
        // and 1 are the two central diagonals (see `layout`). Bottoms never
        // take them, so they prune nothing: one index bit more makes up for
        // it (measured faster at n = 18 and 20; two more were no better).
        let index_bits = if klein {
            (index_bits(n) + 1).max(2)
        } else {
            index_bits(n)
        };
        // Narrow boards from 22 on need 12 index bits to fit their words;
        // their sets' halves are many, and one bit more was faster there
        // (timed side by side on a slice of n = 22's units).
        let index_bits = if width == Width::Narrow && n >= NARROW_EXTRA_BIT_N {
            index_bits.max(crate::layout::MAX_INDEX_BITS)
        } else {
            index_bits
        };
        let block_len = block_len(n);
        let block_start = (n - block_len) / 2;
        Board {
            n,
            half: n / 2,
            full: ((1u64 << n) - 1) as u32,
            block: (((1u64 << block_len) - 1) << block_start) as u32,
            block_start,
            block_len,
            layout: Layout::new(n, index_bits, width),
            dense: dense_ranks(n - block_len),
            klein,
            tuning,
        }
    }

    /// The index bits of a narrow set whose index diagonals are chosen (see
    /// [`crate::index`]), with `tops` tops and `bottoms` bottoms: the
    /// layout's, and one more where its pairs fill each pair of buckets (one
    /// of tops, one of bottoms, by the diagonals that prune: no bottom takes
    /// the long diagonals) with [`Tuning::fine_index_pairs`] on average, up
    /// to [`crate::layout::MAX_INDEX_BITS`].
    pub(crate) fn chosen_index_bits(&self, tops: usize, bottoms: usize) -> usize {
        let bits = self.layout.index_bits;
        let pruning = bits - self.doubling().count_ones() as usize;
        let pairs = (tops as u64).saturating_mul(bottoms as u64);
        let full = pairs >> (2 * pruning) >= self.tuning.fine_index_pairs;
        (bits + usize::from(full)).min(crate::layout::MAX_INDEX_BITS)
    }

    /// The index bits for which a top counts double: with the long
    /// diagonals' symmetries, index bits 0 and 1, which are the two long
    /// diagonals (the most central, see `layout`, and at least two index
    /// bits are kept for them); none otherwise.
    pub(crate) fn doubling(&self) -> u32 {
        if self.klein { 0b11 } else { 0 }
    }

    /// The symmetries the units are taken up to: all four that keep the
    /// split, or with the long diagonals' weights the mirror only.
    pub(crate) fn symmetries(&self) -> &'static [SplitSymmetry] {
        if self.klein {
            &[SplitSymmetry::Identity, SplitSymmetry::Mirror]
        } else {
            &SplitSymmetry::ALL
        }
    }

    /// The two squares of the long diagonals on each rank of a half, ranks
    /// counted from the board's edge (files r and n-1-r on rank r, for
    /// either half): where a bottom may not go when [`Board::klein`].
    pub(crate) fn long_diagonals(&self) -> [u32; crate::halves::MAX_HALF] {
        let mut squares = [0u32; crate::halves::MAX_HALF];
        for (rank, squares) in squares.iter_mut().enumerate().take(self.half) {
            *squares = 1 << rank | 1 << (self.n - 1 - rank);
        }
        squares
    }

    pub(crate) fn is_odd(&self) -> bool {
        !self.n.is_multiple_of(2)
    }

    /// The middle files to consider: every file on an odd board, none on an
    /// even one.
    pub(crate) fn middles(&self) -> Vec<Option<u8>> {
        if self.is_odd() {
            (0..self.n as u8).map(Some).collect()
        } else {
            vec![None]
        }
    }

    pub(crate) fn middle_bit(middle: Option<u8>) -> u32 {
        middle.map_or(0, |m| 1 << m)
    }

    fn mirror_files(&self, files: u32) -> u32 {
        files.reverse_bits() >> (32 - self.n)
    }

    /// The image of the file set of a half (or a block pattern, with `within`
    /// the files it ranges over) under a symmetry.
    pub(crate) fn map_set(
        &self,
        symmetry: SplitSymmetry,
        middle: Option<u8>,
        set: u32,
        within: u32,
    ) -> u32 {
        let complement = |s: u32| within & !s & !Board::middle_bit(middle);
        match symmetry {
            SplitSymmetry::Identity => set,
            SplitSymmetry::Mirror => self.mirror_files(set),
            SplitSymmetry::Flip => complement(set),
            SplitSymmetry::Turn => self.mirror_files(complement(set)),
        }
    }

    pub(crate) fn map_middle(&self, symmetry: SplitSymmetry, middle: Option<u8>) -> Option<u8> {
        match symmetry {
            SplitSymmetry::Identity | SplitSymmetry::Flip => middle,
            SplitSymmetry::Mirror | SplitSymmetry::Turn => middle.map(|m| self.n as u8 - 1 - m),
        }
    }

    pub(crate) fn map_unit(&self, symmetry: SplitSymmetry, unit: Unit) -> Unit {
        Unit {
            middle: self.map_middle(symmetry, unit.middle),
            pattern: self.map_set(symmetry, unit.middle, unit.pattern, self.block),
        }
    }

    /// The bottom half's files for a top set.
    pub(crate) fn bottom_set(&self, middle: Option<u8>, top: u32) -> u32 {
        self.map_set(SplitSymmetry::Flip, middle, top, self.full)
    }

    /// A set's files outside the block, packed into n - |P| bits.
    fn pack(&self, set: u32) -> usize {
        let low = set & ((1 << self.block_start) - 1);
        let high = set >> (self.block_start + self.block_len);
        (low | (high << self.block_start)) as usize
    }

    /// Where a half's file set goes in a side's tables: the rank of its
    /// files outside the block among the sets of as many files (all the
    /// halves of one side have as many). Dense, so that the bucket tables
    /// hold only sets that can occur: C(n - |P|, k) of the 2^(n - |P|) packed
    /// values, a quarter or less, which keeps the counting sort's counters
    /// in the nearer caches.
    pub(crate) fn set_index(&self, set: u32) -> usize {
        self.dense[self.pack(set)] as usize
    }

    /// The number of set indices of sets with `outside` files outside the
    /// block.
    pub(crate) fn sets_with(&self, outside: usize) -> usize {
        choose((self.n - self.block_len) as u64, outside as u64) as usize
    }

    /// The squares the middle queen attacks on each rank of a half (ranks
    /// counted from the board's edge, so the same for both halves).
    pub(crate) fn middle_attacks(&self, middle: Option<u8>) -> [u32; crate::halves::MAX_HALF] {
        let mut attacked = [0u32; crate::halves::MAX_HALF];
        if let Some(m) = middle {
            let m = m as usize;
            for (rank, attacked) in attacked.iter_mut().enumerate().take(self.half) {
                let distance = self.half - rank;
                if m + distance < self.n {
                    *attacked |= 1 << (m + distance);
                }
                if m >= distance {
                    *attacked |= 1 << (m - distance);
                }
            }
        }
        attacked
    }

    /// Every legal unit: a middle file and a pattern of block files not
    /// containing it, with room for the pattern in a half.
    pub(crate) fn units(&self) -> Vec<Unit> {
        let mut units = Vec::new();
        for middle in self.middles() {
            let block = self.block & !Board::middle_bit(middle);
            let outside = self.full & !self.block & !Board::middle_bit(middle);
            let mut pattern = 0u32;
            loop {
                let inside = pattern.count_ones() as usize;
                // The rest of the half's ranks take files outside the block.
                if inside <= self.half && self.half - inside <= outside.count_ones() as usize {
                    units.push(Unit { middle, pattern });
                }
                // Next subset of `block`.
                pattern = pattern.wrapping_sub(block) & block;
                if pattern == 0 {
                    break;
                }
            }
        }
        units
    }

    /// The distinct images of a unit and the symmetries that fix it.
    pub(crate) fn orbit(&self, unit: Unit) -> (Vec<Unit>, Vec<SplitSymmetry>) {
        let mut images: Vec<Unit> = self
            .symmetries()
            .iter()
            .map(|&symmetry| self.map_unit(symmetry, unit))
            .collect();
        let fixing = self
            .symmetries()
            .iter()
            .copied()
            .filter(|&symmetry| self.map_unit(symmetry, unit) == unit)
            .collect();
        images.sort_unstable();
        images.dedup();
        (images, fixing)
    }

    pub(crate) fn is_canonical(&self, unit: Unit) -> bool {
        self.symmetries()
            .iter()
            .all(|&symmetry| self.map_unit(symmetry, unit).key() >= unit.key())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    impl Board {
        /// The board with either layout, whatever n is: tests run the wide
        /// join on boards whose counts are known.
        pub(crate) fn with_width(n: usize, width: Width) -> Board {
            Board::with_options(n, width, Symmetries::for_n(n))
        }

        /// The board with either layout and either choice of symmetries (the
        /// long diagonals' on even n only), whatever n is: tests run every path
        /// on boards whose counts are known. Its sets are cut as counted.
        pub(crate) fn with_options(n: usize, width: Width, symmetries: Symmetries) -> Board {
            let tuning = Tuning::for_board(n, crate::arch::counting_level());
            // Only the board as counted is known to have no set to cut.
            let uncut = tuning.uncut && symmetries == tuning.symmetries;
            Board::tuned(
                n,
                Tuning {
                    width,
                    symmetries,
                    uncut,
                    ..tuning
                },
            )
        }
    }
}
