//! Where each diagonal goes in a half-board's key.
//!
//! Split the board into the top `h` ranks, the bottom `h` ranks and, when n
//! is odd, the middle rank between them. A queen of the top half and a queen
//! of the bottom half are on different ranks; they can share a file, which
//! the grouping by file sets rules out, or a diagonal. Only the diagonals
//! that cross the middle can be shared: 2h - 1 in each direction. A half's
//! key has one bit per such diagonal, so two halves fit together exactly
//! when their file sets are complements and their keys are disjoint.
//!
//! The join buckets one side by a few *index* diagonals (the central ones,
//! taken most often; sets made from quarters with many pairs move others
//! there, their own, see [`crate::index`]) and compares the rest with one
//! AND per pair. Two layouts do this:
//!
//! - **narrow** (n ≤ [`NARROW_MAX_N`]): the index diagonals go to the key's
//!   high word and everything else to the low word, so the bucket is
//!   `key >> 32` and the compared part is the low `u32`, eight pairs to a
//!   256-bit instruction;
//! - **wide** (larger boards, whose 2(2h - 1) crossing diagonals do not fit
//!   30 bits beside a few index bits): the index diagonals go to the key's
//!   lowest bits and the rest above them, so the bucket is `key & mask` and
//!   the whole key, at most 62 bits up to n = 32, is compared as a `u64`.
//!   The index bits are compared again for nothing (a bucket only meets
//!   buckets disjoint from it), which costs no instruction.

/// The board sizes a layout supports. Keys fit up to n = 32 (2 · 31 bits
/// and two marks), but Q(29) would not fit the `u64` every count is kept in
/// (Q(28), unknown, is about 10^19 / 4 by the growth of the known terms).
pub(crate) const MAX_N: usize = 28;

/// The largest board of the narrow layout: its non-index diagonals must fit
/// 30 bits with at most [`MAX_INDEX_BITS`] index diagonals.
pub(crate) const NARROW_MAX_N: usize = 23;

/// Index diagonals: 2^k buckets, each query visits the buckets disjoint from
/// its own index bits. (The narrow layout of n = 22 and 23 needs 12 to fit
/// its 30 bits and takes one more: its buckets are per file set, so its
/// table is 2^13 counters whatever the sets. More cost more: a bucket of
/// tops lists every subset of its free index bits, 3^k per set in all.)
pub(crate) const MAX_INDEX_BITS: usize = 13;

/// Key bits left to the diagonals in the wide layout, beside the two marks.
pub(crate) const WIDE_BITS: usize = 62;

/// Which of the two layouts of the module's doc a key uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Width {
    /// Index diagonals in the high word, the rest in a `u32`.
    Narrow,
    /// Index diagonals in the lowest bits, the whole key a `u64`.
    Wide,
}

impl Width {
    /// The layout a board of `n` takes: narrow wherever it fits.
    pub(crate) fn for_n(n: usize) -> Width {
        if n > NARROW_MAX_N {
            Width::Wide
        } else {
            Width::Narrow
        }
    }
}

/// Bit of a half's key for each (rank within the half, file).
#[derive(Clone, Debug)]
pub(crate) struct Layout {
    /// Key bits contributed by a queen of the top half, per rank and file.
    pub top: Vec<[u64; 32]>,
    /// The same for the bottom half, which is searched as the top half of
    /// the board turned upside down: the two diagonal directions swap.
    pub bottom: Vec<[u64; 32]>,
    /// Number of index diagonals.
    pub index_bits: usize,
    /// Which layout: see the module's doc.
    pub width: Width,
    /// Key bit of each crossing diagonal, per offset and direction.
    position: Vec<[u32; 2]>,
}

impl Layout {
    /// The layout of the n×n board with `index_bits` index diagonals (or as
    /// many more as the narrow layout needs), in either layout whatever n
    /// is (small boards too: tests run the wide join where the answer is
    /// known; [`Width::for_n`] is the one a count takes).
    pub(crate) fn new(n: usize, index_bits: usize, layout_width: Width) -> Layout {
        let half = n / 2;
        let width = (2 * half).saturating_sub(1);
        let index_bits = match layout_width {
            Width::Wide => {
                assert!(2 * width <= WIDE_BITS, "n = {n} is beyond the wide layout");
                index_bits.min(2 * width)
            }
            Width::Narrow => index_bits
                .min(2 * width)
                .max((2 * width).saturating_sub(crate::join::LOW_BITS)),
        };
        assert!(index_bits <= MAX_INDEX_BITS, "n = {n} is beyond the layout");
        // Diagonal (direction, offset) in order of centrality, directions
        // alternating, so that the first index_bits are the busiest.
        let centre = width.saturating_sub(1) / 2;
        let mut order: Vec<(usize, usize)> = (0..width)
            .flat_map(|offset| [(0, offset), (1, offset)])
            .collect();
        order.sort_by_key(|&(dir, offset)| (offset.abs_diff(centre), offset, dir));
        let mut position = vec![[0u32; 2]; width];
        let mut low = 0;
        for (rank, &(dir, offset)) in order.iter().enumerate() {
            position[offset][dir] = match (rank < index_bits, layout_width) {
                (true, Width::Narrow) => 32 + rank as u32,
                (true, Width::Wide) => rank as u32,
                (false, Width::Narrow) => {
                    low += 1;
                    low - 1
                }
                (false, Width::Wide) => {
                    low += 1;
                    index_bits as u32 + low - 1
                }
            };
        }
        let bit = |dir: usize, offset: i64| -> u64 {
            if (0..width as i64).contains(&offset) {
                1u64 << position[offset as usize][dir]
            } else {
                0
            }
        };
        // A top queen on rank r (0 = rank 1, the board's edge), file c,
        // meets the middle on two diagonals: the rising one (like a1-h8,
        // c - r constant) and the falling one (like a8-h1, c + r constant);
        // so does a bottom queen. With the bottom searched as the mirror
        // image of a top (rank r there is rank n-1-r here), its two offsets
        // come out as the top formulas with the directions swapped.
        let (n_i, h_i) = (n as i64, half as i64);
        let rising = |r: i64, c: i64| c + h_i - r - 1;
        let falling = |r: i64, c: i64| c + r - (n_i - h_i);
        let mut top = vec![[0u64; 32]; half];
        let mut bottom = vec![[0u64; 32]; half];
        for r in 0..half {
            for c in 0..n {
                let (ri, ci) = (r as i64, c as i64);
                top[r][c] = bit(0, rising(ri, ci)) | bit(1, falling(ri, ci));
                bottom[r][c] = bit(1, rising(ri, ci)) | bit(0, falling(ri, ci));
            }
        }
        Layout {
            top,
            bottom,
            index_bits,
            width: layout_width,
            position,
        }
    }

    /// Every bit a key can have.
    pub(crate) fn key_bits(&self) -> u64 {
        (self.top.iter().chain(&self.bottom))
            .flat_map(|rank| rank.iter())
            .fold(0, |all, &bits| all | bits)
    }

    /// Diagonals crossing the middle, per direction.
    pub(crate) fn width(&self) -> usize {
        self.position.len()
    }

    /// A key as its two directions' diagonals (rising, falling), bit i for
    /// offset i: the key in reading order, for traces.
    pub(crate) fn diagonals(&self, key: u64) -> [u32; 2] {
        let mut out = [0u32; 2];
        for (offset, bits) in self.position.iter().enumerate() {
            for dir in 0..2 {
                if key >> bits[dir] & 1 == 1 {
                    out[dir] |= 1 << offset;
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A top queen and a bottom queen have intersecting key bits exactly
    /// when they share a diagonal, on every supported board: keys see every
    /// crossing diagonal and nothing else. And the layout leaves the join
    /// what it assumes: low words below the two mark bits, high words within
    /// the index bits.
    #[test]
    fn keys_meet_exactly_on_shared_diagonals() {
        for n in 2..=MAX_N {
            let wide = crate::board::Board::new(n).layout.width == Width::Wide;
            assert_eq!(wide, n > NARROW_MAX_N);
        }
        let narrow = (2..=NARROW_MAX_N).map(|n| (n, crate::board::Board::new(n).layout));
        let wide = (2..=MAX_N).map(|n| (n, Layout::new(n, 6, Width::Wide)));
        for (n, layout) in narrow.chain(wide) {
            let half = n / 2;
            assert!(layout.index_bits <= MAX_INDEX_BITS);
            for table in [&layout.top, &layout.bottom] {
                for key in table.iter().flat_map(|rank| &rank[..n]) {
                    if layout.width == Width::Wide {
                        assert!(*key < 1 << WIDE_BITS, "n {n}");
                    } else {
                        assert!((*key as u32) < 1 << crate::join::LOW_BITS, "n {n}");
                        assert!(key >> 32 < 1 << layout.index_bits, "n {n}");
                    }
                }
            }
            for (r, c) in (0..half).flat_map(|r| (0..n).map(move |c| (r, c))) {
                // The bottom half's rank r2 from its edge is rank n-1-r2.
                for (r2, c2) in (0..half).flat_map(|r| (0..n).map(move |c| (r, c))) {
                    let shared = c.abs_diff(c2) == n - 1 - r2 - r;
                    let meet = layout.top[r][c] & layout.bottom[r2][c2] != 0;
                    assert_eq!(meet, shared, "n {n}: top ({r}, {c}), bottom ({r2}, {c2})");
                }
            }
        }
    }
}
