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

use crate::layout::Layout;

/// One of the four symmetries that keep the top/bottom split.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keep {
    Identity,
    /// Reflect the files (a swaps with the last file).
    Mirror,
    /// Reflect the ranks (the top half becomes the bottom).
    Flip,
    /// Both: the half turn.
    Turn,
}

impl Keep {
    pub const ALL: [Keep; 4] = [Keep::Identity, Keep::Mirror, Keep::Flip, Keep::Turn];
}

/// A unit of work: the middle file (odd n) and the top set's files in the
/// central block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Unit {
    pub middle: Option<u8>,
    pub pattern: u32,
}

impl Unit {
    pub fn key(self) -> u64 {
        let middle = self.middle.map_or(0, |m| u64::from(m) + 1);
        (middle << 32) | u64::from(self.pattern)
    }

    pub fn from_key(key: u64) -> Unit {
        let middle = (key >> 32) as u8;
        Unit {
            middle: middle.checked_sub(1),
            pattern: key as u32,
        }
    }
}

/// Everything that depends on n alone.
pub struct Board {
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
/// the bucket tables hold 2^(n - |P|) · 2^k entries per side, 16 MB at
/// k = 10 on odd boards, whatever n is.
fn index_bits(n: usize) -> usize {
    n.saturating_sub(12).min(WIDE_INDEX_BITS)
}

/// The index diagonals of the wide layout (n > 21).
const WIDE_INDEX_BITS: usize = 10;

impl Board {
    pub fn new(n: usize) -> Board {
        Board::with_width(n, n > crate::layout::NARROW_MAX_N)
    }

    /// The board with the wide layout if `wide`, whatever n is: tests run
    /// the wide join on boards whose counts are known.
    pub fn with_width(n: usize, wide: bool) -> Board {
        let block_len = block_len(n);
        let block_start = (n - block_len) / 2;
        Board {
            n,
            half: n / 2,
            full: ((1u64 << n) - 1) as u32,
            block: (((1u64 << block_len) - 1) << block_start) as u32,
            block_start,
            block_len,
            layout: Layout::with_width(n, index_bits(n), wide),
        }
    }

    pub fn is_odd(&self) -> bool {
        !self.n.is_multiple_of(2)
    }

    /// The middle files to consider: every file on an odd board, none on an
    /// even one.
    pub fn middles(&self) -> Vec<Option<u8>> {
        if self.is_odd() {
            (0..self.n as u8).map(Some).collect()
        } else {
            vec![None]
        }
    }

    pub fn middle_bit(middle: Option<u8>) -> u32 {
        middle.map_or(0, |m| 1 << m)
    }

    fn mirror_files(&self, files: u32) -> u32 {
        files.reverse_bits() >> (32 - self.n)
    }

    /// The image of the file set of a half (or a block pattern, with `within`
    /// the files it ranges over) under a symmetry.
    pub fn map_set(&self, keep: Keep, middle: Option<u8>, set: u32, within: u32) -> u32 {
        let complement = |s: u32| within & !s & !Board::middle_bit(middle);
        match keep {
            Keep::Identity => set,
            Keep::Mirror => self.mirror_files(set),
            Keep::Flip => complement(set),
            Keep::Turn => self.mirror_files(complement(set)),
        }
    }

    pub fn map_middle(&self, keep: Keep, middle: Option<u8>) -> Option<u8> {
        match keep {
            Keep::Identity | Keep::Flip => middle,
            Keep::Mirror | Keep::Turn => middle.map(|m| self.n as u8 - 1 - m),
        }
    }

    pub fn map_unit(&self, keep: Keep, unit: Unit) -> Unit {
        Unit {
            middle: self.map_middle(keep, unit.middle),
            pattern: self.map_set(keep, unit.middle, unit.pattern, self.block),
        }
    }

    /// The bottom half's files for a top set.
    pub fn bottom_set(&self, middle: Option<u8>, top: u32) -> u32 {
        self.map_set(Keep::Flip, middle, top, self.full)
    }

    /// Top sets are grouped by their files outside the block, packed into
    /// n - |P| bits.
    pub fn pack(&self, set: u32) -> usize {
        let low = set & ((1 << self.block_start) - 1);
        let high = set >> (self.block_start + self.block_len);
        (low | (high << self.block_start)) as usize
    }

    pub fn packed_sets(&self) -> usize {
        1 << (self.n - self.block_len)
    }

    /// The squares the middle queen attacks on each rank of a half (ranks
    /// counted from the board's edge, so the same for both halves).
    pub fn middle_attacks(&self, middle: Option<u8>) -> [u32; crate::halves::MAX_HALF] {
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
    pub fn units(&self) -> Vec<Unit> {
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
    pub fn orbit(&self, unit: Unit) -> (Vec<Unit>, Vec<Keep>) {
        let mut images: Vec<Unit> = Keep::ALL.iter().map(|&k| self.map_unit(k, unit)).collect();
        let fixing = Keep::ALL
            .iter()
            .copied()
            .filter(|&k| self.map_unit(k, unit) == unit)
            .collect();
        images.sort_unstable();
        images.dedup();
        (images, fixing)
    }

    pub fn is_canonical(&self, unit: Unit) -> bool {
        Keep::ALL
            .iter()
            .all(|&k| self.map_unit(k, unit).key() >= unit.key())
    }
}
