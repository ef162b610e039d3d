//! Halves from quarters: a half of one file set, built by pairing pieces of
//! its two quarters instead of searching the half.
//!
//! Cut a half (h ranks) again, between files: its **left quarter** holds the
//! files left of the board's centre line and its **right quarter** the
//! others. A half with file set S puts its left-quarter queens on some set
//! A of its ranks and its right-quarter queens on the other ranks, so it is
//! a *piece* of the left quarter (ranks A, files S ∩ left) and a piece of
//! the right quarter (the other ranks, files S ∩ right) with no diagonal
//! between them. Only diagonals that cross the centre line inside the half
//! can hold a queen of each: h - 1 rising and h - 1 falling ones. So each
//! piece also carries a *side key*, one bit per such diagonal, and two
//! pieces fit exactly when their side keys are disjoint: one AND, as in the
//! join of halves itself. The idea is E. Kluev's (his quadrant join builds
//! half-boards from quadrants the same way); the code is written here.
//!
//! Why: the search of halves (`crate::halves`) places about 3.6 queens per
//! half at n = 18 and had to sort its halves into file sets afterwards, a
//! scatter over megabytes. Pieces are few (each is shared by every set that
//! agrees with it on its quarter), a half costs one AND of two pieces (and
//! about one and a half refused ANDs beside it), and the halves of one set
//! come out together, so a set's sort into index buckets stays in L1.
//!
//! A unit's quarters hold only the pieces its block pattern allows, so their
//! size is bounded by the unit's, and a cell of pieces (ranks, files) is
//! found by indexing: the quarter's files outside the block are contiguous.

use crate::arch::{FIT_SLACK, Isa};
use crate::board::Board;
use crate::halves::MAX_HALF;
use queens_core::split::Part;

/// Pieces found (before they are filed) whose buffer a quarter keeps for
/// the next unit: larger buffers are freed, see [`Quarter::build`].
const FOUND_KEPT: usize = 1 << 22;

/// The pieces of one quarter of a unit's half, in cells by (ranks, files).
#[derive(Default)]
pub(crate) struct Quarter {
    /// The quarter's files outside the block (a contiguous run), and the
    /// shift that brings them to bit 0: a cell is `ranks << outside_bits |
    /// (files & outside) >> shift`.
    outside: u32,
    shift: u32,
    outside_bits: u32,
    /// Pieces of cell c: `starts[c]..starts[c + 1]`.
    starts: Vec<u32>,
    /// Each piece's key (the half's crossing diagonals, see `layout`) and
    /// side key (the diagonals crossing the centre line inside the half).
    keys: Vec<u64>,
    sides: Vec<u32>,
    /// (cell, key, side) as found, before the counting sort into cells.
    found: Vec<(u32, u64, u32)>,
    /// What the pieces were found for: a unit whose quarter is the same as
    /// the last one's (consecutive units mostly differ in one quarter's
    /// pattern) reuses them.
    made_for: Option<Inputs>,
    /// The queens placed to find them: reported again when they are
    /// reused, so that a unit's nodes do not depend on the unit before it.
    nodes: u64,
}

/// Everything a quarter's pieces depend on.
struct Inputs {
    contributions: Vec<[u64; 32]>,
    side_bits: Vec<[u32; 32]>,
    forbidden: [u32; MAX_HALF],
    files: u32,
    must: u32,
    outside: u32,
    queens: std::ops::RangeInclusive<u32>,
}

impl Inputs {
    /// Whether `search` would find the same pieces (compared in place: a
    /// reused quarter costs no copy).
    fn is(&self, search: &QuarterSearch<'_>) -> bool {
        self.contributions == search.contributions
            && self.side_bits == search.side_bits
            && self.forbidden == search.forbidden
            && (self.files, self.must, self.outside) == (search.files, search.must, search.outside)
            && self.queens == search.queens
    }
}

/// What a quarter's search needs to know of its half.
pub(crate) struct QuarterSearch<'a> {
    /// Key bits per rank (from the board's edge) and file.
    pub contributions: &'a [[u64; 32]],
    /// Side-key bits per rank and file ([`side_bits`]).
    pub side_bits: &'a [[u32; 32]],
    /// Squares no queen of the half may take, per rank (the middle queen's
    /// attacks, the long diagonals for restricted bottoms).
    pub forbidden: [u32; MAX_HALF],
    /// The quarter's files a queen may take: outside the block, or in the
    /// unit's pattern (never the middle file).
    pub files: u32,
    /// The pattern's files in this quarter: every piece takes all of them.
    pub must: u32,
    /// The quarter's files outside the block.
    pub outside: u32,
    /// The fewest and most queens a piece may have: the other quarter must
    /// be able to fill the half's remaining ranks with its own files.
    pub queens: std::ops::RangeInclusive<u32>,
}

/// The side key's bit for a queen on each (rank, file) of a half, ranks
/// from the board's edge. The centre line runs between file `left - 1` and
/// file `left` (`left` = ⌊n/2⌋). A queen left of it and one right of it,
/// both in the half, share a rising diagonal (file - rank constant) only
/// when that constant is in [left - h + 1, left - 1], and a falling one
/// (file + rank) only in [left, left + h - 2]: h - 1 of each, bits 0..h-1
/// and h-1..2h-2. A queen whose diagonal meets no square across the line
/// has no bit for it.
pub(crate) fn side_bits(board: &Board) -> Vec<[u32; 32]> {
    let h = board.half as i64;
    let left = board.half as i64;
    (0..h)
        .map(|rank| {
            let mut bits = [0u32; 32];
            for (file, bits) in bits.iter_mut().enumerate().take(board.n) {
                let file = file as i64;
                let rising = file - rank - (left - h + 1);
                let falling = file + rank - left;
                if (0..h - 1).contains(&rising) {
                    *bits |= 1 << rising;
                }
                if (0..h - 1).contains(&falling) {
                    *bits |= 1 << (falling + h - 1);
                }
            }
            bits
        })
        .collect()
}

impl Quarter {
    /// Finds every piece of the quarter: queens on any of the half's ranks,
    /// at most one per rank and file, none attacking another, on `files`
    /// and taking all of `must`. Returns the queens placed (nodes).
    pub(crate) fn build<L: Isa>(&mut self, isa: L, search: &QuarterSearch<'_>) -> u64 {
        if self.made_for.as_ref().is_some_and(|made| made.is(search)) {
            return self.nodes;
        }
        self.made_for = Some(Inputs {
            contributions: search.contributions.to_vec(),
            side_bits: search.side_bits.to_vec(),
            forbidden: search.forbidden,
            files: search.files,
            must: search.must,
            outside: search.outside,
            queens: search.queens.clone(),
        });
        let ranks = search.contributions.len();
        self.outside = search.outside;
        self.shift = search.outside.trailing_zeros() % 32;
        self.outside_bits = search.outside.count_ones();
        debug_assert_eq!(
            search.outside >> self.shift,
            (1u32 << self.outside_bits) - 1,
            "the quarter's outside files are contiguous"
        );
        self.found.clear();
        let nodes = isa.run(
            #[inline(always)]
            || self.search(search, ranks),
        );
        // Counting sort into cells.
        let cells = 1usize << (ranks as u32 + self.outside_bits);
        self.starts.clear();
        self.starts.resize(cells + 1, 0);
        // Each cell's count, then its end (a running sum), then its start,
        // as the pieces are placed from each cell's end backwards.
        for &(cell, _, _) in &self.found {
            self.starts[cell as usize] += 1;
        }
        for cell in 1..cells {
            self.starts[cell] += self.starts[cell - 1];
        }
        self.starts[cells] = self.found.len() as u32;
        self.keys.clear();
        self.keys.resize(self.found.len(), 0);
        self.sides.clear();
        self.sides.resize(self.found.len(), 0);
        for &(cell, key, side) in self.found.iter().rev() {
            let slot = &mut self.starts[cell as usize];
            *slot -= 1;
            self.keys[*slot as usize] = key;
            self.sides[*slot as usize] = side;
        }
        self.nodes = nodes;
        // The pieces as found take more than they do filed: on large boards
        // (a unit's quarters take gigabytes from n = 26) they are let go
        // rather than kept for the next unit.
        if self.found.capacity() > FOUND_KEPT {
            self.found = Vec::new();
        }
        nodes
    }

    /// The search of [`Quarter::build`], depth first: each rank gets no
    /// queen, or one on a free square; a piece is found where every rank
    /// has been decided. Returns the queens placed. A loop over an explicit
    /// stack, not a recursion: the recursion entered the level's code (see
    /// [`Isa::run`]) once per call, most calls a rank left empty, and that
    /// call was the search's largest cost (callgrind of n = 16, see the
    /// commit that made it a loop). Inlined into the level's code, so that
    /// the bit tricks compile to POPCNT and BMI where the level has them.
    #[inline(always)]
    fn search(&mut self, search: &QuarterSearch<'_>, ranks: usize) -> u64 {
        let mut nodes = 0;
        // Per rank being decided: its frame, and the files of its free
        // squares not tried yet that can lead to a piece (the empty rank
        // is tried first).
        let mut stack = [(Frame::default(), 0u32); MAX_HALF];
        let (fewest, most) = (*search.queens.start(), *search.queens.end());
        // The diagonals move one file per rank, with or without a queen.
        let next = |frame: Frame| Frame {
            toward_h: frame.toward_h << 1,
            toward_a: frame.toward_a >> 1,
            ..frame
        };
        let mut rank = 0;
        let mut frame = Frame::default();
        // A frame is stepped into only if it can still become a piece: it
        // can take the files of `must` it lacks, one per rank left, and
        // reach the fewest queens. Its children are judged before they are
        // stepped into, not refused after (a queen that cannot lead to a
        // piece is still counted as placed, as the recursion counted it):
        // callgrind of n = 16, the quarters took 9 % fewer instructions.
        // The root is judged here (and a half always has ranks).
        let missing = search.must.count_ones() as usize;
        if missing > ranks || (ranks as u32) < fewest || ranks == 0 {
            return 0;
        }
        loop {
            let placed = frame.ranks.count_ones();
            let left = ranks - rank;
            let open = if placed == most {
                0
            } else {
                search.files
                    & !frame.files
                    & !(frame.toward_h | frame.toward_a | search.forbidden[rank])
            };
            nodes += u64::from(open.count_ones());
            if left == 1 {
                self.last_rank(search, &frame, open, rank);
            } else {
                // Each rank left must take a missing file when they are as
                // many; an empty rank needs one rank to spare for both.
                let missing = search.must & !frame.files;
                let tight = missing.count_ones() as usize == left;
                let open = if tight { open & missing } else { open };
                stack[rank] = (frame, open);
                rank += 1;
                if !tight && placed + left as u32 > fewest {
                    frame = next(frame);
                    continue;
                }
            }
            // Back to the nearest rank with a square left to try.
            loop {
                if rank == 0 {
                    return nodes;
                }
                rank -= 1;
                let (at, open) = &mut stack[rank];
                if *open != 0 {
                    let bit = *open & open.wrapping_neg();
                    *open ^= bit;
                    frame = next(at.with_queen(search, rank, bit));
                    rank += 1;
                    break;
                }
            }
        }
    }

    /// The pieces that `frame` (every rank before `rank` decided, `rank`
    /// the last) leads to, found in [`Quarter::search`]'s order: the rank
    /// left empty, then a queen on each file of `open`. Without stepping
    /// into each (the last rank's children are most of the search's
    /// steps): a piece must then take every file of `must` and have at
    /// least the fewest queens.
    #[inline(always)]
    fn last_rank(&mut self, search: &QuarterSearch<'_>, frame: &Frame, open: u32, rank: usize) {
        let placed = frame.ranks.count_ones();
        let fewest = *search.queens.start();
        let missing = search.must & !frame.files;
        if missing == 0 && placed >= fewest {
            self.found
                .push((self.cell_of(frame), frame.key, frame.side));
        }
        // A queen here can take one missing file at most.
        let mut open = match missing.count_ones() {
            _ if placed + 1 < fewest => 0,
            0 => open,
            1 => open & missing,
            _ => 0,
        };
        while open != 0 {
            let bit = open & open.wrapping_neg();
            open ^= bit;
            let piece = frame.with_queen(search, rank, bit);
            self.found
                .push((self.cell_of(&piece), piece.key, piece.side));
        }
    }

    /// The cell of a piece.
    #[inline(always)]
    fn cell_of(&self, piece: &Frame) -> u32 {
        piece.ranks << self.outside_bits | (piece.files & self.outside) >> self.shift
    }

    /// The pieces of cell (ranks, files): keys and side keys.
    #[inline]
    fn cell(&self, ranks: u32, files: u32) -> (&[u64], &[u32]) {
        let cell = (ranks << self.outside_bits | (files & self.outside) >> self.shift) as usize;
        let (start, end) = (self.starts[cell] as usize, self.starts[cell + 1] as usize);
        (&self.keys[start..end], &self.sides[start..end])
    }
}

/// A partial piece: the ranks and files it takes, the diagonals it attacks
/// on the next rank (as in the three-mask search), its keys.
#[derive(Clone, Copy, Default)]
struct Frame {
    ranks: u32,
    files: u32,
    toward_h: u32,
    toward_a: u32,
    key: u64,
    side: u32,
}

impl Frame {
    /// The frame with a queen on `rank`, at the file of `bit` (one bit):
    /// its rank, file and diagonals taken, its key bits added.
    #[inline(always)]
    fn with_queen(&self, search: &QuarterSearch<'_>, rank: usize, bit: u32) -> Frame {
        let file = bit.trailing_zeros() as usize;
        Frame {
            ranks: self.ranks | 1 << rank,
            files: self.files | bit,
            toward_h: self.toward_h | bit,
            toward_a: self.toward_a | bit,
            key: self.key | search.contributions[rank][file],
            side: self.side | search.side_bits[rank][file],
        }
    }
}

/// What a half's quarters are searched with: side-key bits, key bits,
/// forbidden squares, the middle file.
type QuarterInputs<'a> = (
    &'a [[u32; 32]],
    &'a [[u64; 32]],
    [u32; MAX_HALF],
    Option<u8>,
);

/// Both quarters of a unit's half.
#[derive(Default)]
pub(crate) struct Quarters {
    pub left: Quarter,
    pub right: Quarter,
    /// The left quarter's files.
    left_files: u32,
    /// All ranks of the half.
    all_ranks: u32,
}

impl Quarters {
    /// Pairs of pieces a half of file set `set` is made from (every split
    /// of its ranks between the quarters): the most halves the set can
    /// have. Sizes a set's parts, and the memory declaration's table
    /// is checked against it.
    pub(crate) fn pairs(&self, set: u32) -> u64 {
        let mut pairs = 0;
        self.for_each_cell(set, |left, right| {
            pairs += (left.len() * right.len()) as u64;
        });
        pairs
    }

    /// Calls `visit(left pieces' keys, right pieces' keys)` for every split
    /// of `set`'s ranks between the quarters, in the order `halves` walks
    /// them: every set A of left-quarter ranks of the right size, by
    /// Gosper's next-combination step (A = 0 when the left quarter is
    /// empty).
    fn for_each_cell(&self, set: u32, mut visit: impl FnMut(&[u64], &[u64])) {
        let left_count = (set & self.left_files).count_ones();
        let mut ranks: u32 = (1u32 << left_count) - 1;
        while ranks <= self.all_ranks {
            let (left, _) = self.left.cell(ranks, set);
            let (right, _) = self.right.cell(self.all_ranks & !ranks, set);
            visit(left, right);
            if ranks == 0 {
                break;
            }
            let low = ranks & ranks.wrapping_neg();
            let next = ranks + low;
            ranks = next | (((ranks ^ next) >> 2) / low);
        }
    }
}

impl Quarters {
    /// Builds both quarters of the half whose queens avoid `forbidden`,
    /// with `pattern` for the unit's block files, keys from `contributions`.
    /// Returns the nodes.
    #[expect(
        clippy::too_many_arguments,
        reason = "the level, and what the half's pieces depend on"
    )]
    pub(crate) fn build<L: Isa>(
        &mut self,
        isa: L,
        board: &Board,
        side_bits: &[[u32; 32]],
        contributions: &[[u64; 32]],
        forbidden: [u32; MAX_HALF],
        middle: Option<u8>,
        pattern: u32,
    ) -> u64 {
        let inputs = (side_bits, contributions, forbidden, middle);
        self.build_in(isa, board, board.block, inputs, pattern)
    }

    /// Builds both quarters of the halves using exactly the files `set`
    /// (see [`Quarters::build`]): the pieces of one set only, few where a
    /// unit's pieces are many (see `crate::tuning::EXACT_MIN_N`).
    pub(crate) fn build_exact<L: Isa>(
        &mut self,
        isa: L,
        board: &Board,
        side_bits: &[[u32; 32]],
        (contributions, forbidden, middle): (&[[u64; 32]], [u32; MAX_HALF], Option<u8>),
        set: u32,
    ) -> u64 {
        let inputs = (side_bits, contributions, forbidden, middle);
        // Every file decided: the whole board as the block, the set as its
        // pattern.
        self.build_in(isa, board, board.full, inputs, set)
    }

    /// [`Quarters::build`] with `block` for the files whose use `pattern`
    /// decides.
    fn build_in<L: Isa>(
        &mut self,
        isa: L,
        board: &Board,
        block: u32,
        (side_bits, contributions, forbidden, middle): QuarterInputs<'_>,
        pattern: u32,
    ) -> u64 {
        self.left_files = (1 << board.half) - 1;
        self.all_ranks = (1 << board.half) - 1;
        let allowed = board.full & !Board::middle_bit(middle) & (!block | pattern);
        let outside = board.full & !block;
        let half = board.half as u32;
        let quarters = [self.left_files, board.full & !self.left_files];
        // A piece of one quarter takes its pattern files and some of its
        // other allowed files; the other quarter takes the rest of the
        // half's ranks within its own limits.
        let fewest = quarters.map(|files| (pattern & files).count_ones());
        let most = quarters.map(|files| (allowed & files).count_ones());
        let mut nodes = 0;
        for (side, (quarter, files)) in [&mut self.left, &mut self.right]
            .into_iter()
            .zip(quarters)
            .enumerate()
        {
            let other = 1 - side;
            let least = fewest[side].max(half.saturating_sub(most[other]));
            let largest = most[side].min(half.saturating_sub(fewest[other]));
            nodes += quarter.build(
                isa,
                &QuarterSearch {
                    contributions,
                    side_bits,
                    forbidden,
                    files: allowed & files,
                    must: pattern & files,
                    outside: outside & files,
                    queens: least..=largest,
                },
            );
        }
        nodes
    }

    /// The keys of the halves of `part` of the file set `set` (whose block
    /// files must be the built pattern), written to `out[..len]`: the set's
    /// pairs of pieces laid end to end in walking order and cut into
    /// `part.of` parts ([`Part::share`]), part `part.index` takes the left
    /// pieces whose first pair falls in its share (with all their pairs).
    /// So the parts of a cut make every half exactly once, and a part holds
    /// at most its share of the pairs plus one left piece's. Returns
    /// len and the pairs of pieces tested. `out` is scratch, grown as
    /// needed and never shrunk: the pairs are written without a branch,
    /// each kept by advancing the end only if it fits. Runs compiled for
    /// `isa`'s level, whose `fit` it uses.
    pub(crate) fn halves<L: Isa>(
        &self,
        isa: L,
        set: u32,
        part: Part,
        out: &mut Vec<u64>,
    ) -> (usize, u64) {
        let range = if part.of <= 1 {
            0..u64::MAX
        } else {
            part.share(self.pairs(set))
        };
        isa.run(
            #[inline(always)]
            || self.halves_in(isa, set, range, out),
        )
    }

    /// [`Quarters::halves`] for the left pieces whose first pair's place
    /// among the set's pairs (in walking order) is in `range`, inlined into
    /// the level's code.
    #[inline(always)]
    fn halves_in<L: Isa>(
        &self,
        isa: L,
        set: u32,
        range: std::ops::Range<u64>,
        out: &mut Vec<u64>,
    ) -> (usize, u64) {
        let mut len = 0;
        let mut tested = 0u64;
        // Pairs walked before the current left piece.
        let mut walked = 0u64;
        let left_count = (set & self.left_files).count_ones();
        let mut ranks: u32 = (1u32 << left_count) - 1;
        while ranks <= self.all_ranks && walked < range.end {
            let (left_keys, left_sides) = self.left.cell(ranks, set);
            let (right_keys, right_sides) = self.right.cell(self.all_ranks & !ranks, set);
            let per_left = right_keys.len() as u64;
            let cell_pairs = left_keys.len() as u64 * per_left;
            if per_left > 0 && walked + cell_pairs > range.start {
                // The cell's left pieces whose first pair is in the range.
                let first = range.start.saturating_sub(walked).div_ceil(per_left) as usize;
                let end = (range.end - walked).div_ceil(per_left) as usize;
                let taken = first.min(left_keys.len())..end.min(left_keys.len());
                tested += taken.len() as u64 * per_left;
                let room = right_keys.len() + FIT_SLACK;
                for (&key, &side) in left_keys[taken.clone()].iter().zip(&left_sides[taken]) {
                    if out.len() < len + room {
                        out.resize((2 * out.len()).max(len + room), 0);
                    }
                    len += isa.fit(key, side, right_keys, right_sides, &mut out[len..]);
                }
            }
            walked += cell_pairs;
            if ranks == 0 {
                break;
            }
            let low = ranks & ranks.wrapping_neg();
            let ripple = ranks + low;
            ranks = (((ripple ^ ranks) >> 2) / low) | ripple;
        }
        (len, tested)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arch::{Task, dispatch_to, tests::tested_levels};
    use proptest::prelude::*;

    impl Quarter {
        /// Bytes held.
        pub(crate) fn bytes(&self) -> usize {
            self.starts.capacity() * size_of::<u32>()
                + self.keys.capacity() * size_of::<u64>()
                + self.sides.capacity() * size_of::<u32>()
                + self.found.capacity() * size_of::<(u32, u64, u32)>()
        }
    }

    impl Quarters {
        /// The most pieces one cell of the right quarter holds for `set`: how
        /// far a part of a set may pass its share of the set's pairs (a left
        /// piece's pairs are not split between parts).
        pub(crate) fn largest_right_cell(&self, set: u32) -> u64 {
            let mut largest = 0;
            self.for_each_cell(set, |_, right| largest = largest.max(right.len() as u64));
            largest
        }
        /// Pieces held in both quarters.
        pub(crate) fn pieces(&self) -> u64 {
            (self.left.keys.len() + self.right.keys.len()) as u64
        }
        /// Bytes held.
        pub(crate) fn bytes(&self) -> usize {
            self.left.bytes() + self.right.bytes()
        }
    }

    /// `fit` at one level, into `out`.
    struct Fit<'a> {
        key: u64,
        side: u32,
        keys: &'a [u64],
        sides: &'a [u32],
        out: &'a mut [u64],
    }

    impl Task for Fit<'_> {
        type Output = usize;
        fn run<L: Isa>(self, isa: L) -> usize {
            isa.run(
                #[inline(always)]
                || isa.fit(self.key, self.side, self.keys, self.sides, self.out),
            )
        }
    }

    proptest! {
        /// The halves every level's `fit` keeps are exactly those the
        /// pair-by-pair loop keeps, in the same order, at every length (whole steps of eight
        /// and a partial last one), and nothing beyond the slack is written.
        #[test]
        fn fit_keeps_exactly_the_pieces_whose_sides_are_disjoint(
            key in any::<u64>(),
            side in any::<u32>(),
            right in prop::collection::vec((any::<u64>(), any::<u32>()), 0..40),
        ) {
            // Sparse side keys, so that both outcomes are common.
            let side = side & side >> 3;
            let (keys, sides): (Vec<u64>, Vec<u32>) =
                right.iter().map(|&(key, side)| (key, side & side >> 5)).unzip();
            let naive: Vec<u64> = keys.iter().zip(&sides)
                .filter(|&(_, &s)| s & side == 0)
                .map(|(&k, _)| k | key)
                .collect();
            for level in tested_levels() {
                let guard = 0x5EED;
                let mut out = vec![guard; keys.len() + FIT_SLACK + 1];
                let fit = Fit { key, side, keys: &keys, sides: &sides, out: &mut out };
                let kept = dispatch_to(level, fit).expect("a level this CPU has");
                prop_assert_eq!(&out[..kept], &naive[..], "{:?}", level);
                prop_assert_eq!(out[keys.len() + FIT_SLACK], guard, "{:?}", level);
            }
        }
    }
}
