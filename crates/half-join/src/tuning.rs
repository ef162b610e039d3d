//! Every choice of code path a board's count makes, as one value.
//!
//! A count reads its board's [`Tuning`] (made once per board, from n and
//! the kernel level, by [`Tuning::for_board`]) wherever a size picks a path:
//! whether halves are made from quarters, whether quarters are built set by
//! set, how sets are cut into parts and sub-parts, when a wide board's set
//! is split or joined as wide words. Tests build a board with another value
//! to take the shipped paths on boards small enough to count.

use crate::arch::Level;
use crate::layout::Width;

/// The smallest board counted with the long diagonals' symmetries (even n
/// only).
///
/// Every solution has at most one queen on each long diagonal (a1-h8, and
/// a8-h1). The half turn moves both of those queens to the other half of
/// the board, the reflection in a8-h1 moves only the one on a1-h8 (a queen
/// on a8-h1 stays put), the reflection in a1-h8 only the one on a8-h1.
/// These four symmetries act on "which half holds each long diagonal's
/// queen" as two independent switches, so every solution is, in exactly
/// one way, the image of a solution whose bottom half holds no long-diagonal
/// queen, and such a solution stands for 2^j solutions, j the long-diagonal
/// queens of its top half. So Q(n) = the solutions whose bottoms avoid both
/// long diagonals, each weighted 2^j. The mirror keeps this restriction and
/// weight (it swaps the two diagonals), the flip of the ranks does not, so
/// units are taken up to the mirror only.
///
/// The gain: the join's bottoms shrink to those avoiding two squares per
/// rank (about 1/e of them), a quarter of the pairs against the flip's half;
/// the cost: every unit's tops are enumerated twice as often. The join
/// grows as the square of the halves, their enumeration linearly, so the
/// trade pays from a size on. Timed side by side (one thread, the AVX2
/// kernel, CPU time of whole counts): at n = 18 the flip is now the faster
/// by about 8 %, at n = 20 these symmetries by about 13 %. (Before the
/// join read its partial steps by masked loads, the join cost more, and
/// these paid from n = 18.) Odd boards keep the middle rank's queen, which
/// these symmetries move.
pub(crate) const KLEIN_MIN_N: usize = 20;

/// What a count is taken up to (see [`KLEIN_MIN_N`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Symmetries {
    /// Units up to the four [`crate::board::SplitSymmetry`]s.
    Split,
    /// Units up to the mirror only, bottoms off both long diagonals and
    /// each top weighted by its long-diagonal queens (even n only).
    LongDiagonals,
}

impl Symmetries {
    /// What a board of `n` is counted with: the long diagonals' from
    /// [`KLEIN_MIN_N`] on even boards.
    pub(crate) fn for_n(n: usize) -> Symmetries {
        if n.is_multiple_of(2) && n >= KLEIN_MIN_N {
            Symmetries::LongDiagonals
        } else {
            Symmetries::Split
        }
    }
}

/// The smallest board whose halves are made from quarters: below, a unit's
/// halves are too few to pay for finding and filing its quarters' pieces,
/// and the search of halves was faster (timed side by side in `cargo bench`
/// and in whole counts at n = 8 to 14).
pub(crate) const QUARTERS_MIN_N: usize = 14;

/// The smallest board whose quarters are built for one top set at a time
/// (each quarter's pieces taking exactly the set's files there) rather than
/// once for all the sets of a unit: a unit's pieces grow several-fold per
/// n (a unit leaves 10 or 12 files outside its block whatever n is, and
/// the pieces of every subset of them are kept), and one set's pieces are
/// a small share of them. Below, sharing them across the unit's sets is
/// cheaper (timed side by side on the heaviest unit of n = 24 and 26).
pub(crate) const EXACT_MIN_N: usize = 27;

/// The smallest board whose top sets are cut into several parts: a set of
/// n = 28 is predicted at about a quarter of an hour (the plan's own
/// figures: `plan::tests::parts` prints its longest unit and sets), so a
/// part of about a minute ([`crate::plan`]) has to be a fraction of one
/// set. Up to n = 27 whole sets already give parts of about a minute (the
/// same measurement at 26 and 27), and a set's part costs a rebuild of its
/// set's quarters (see [`PARTS_PER_SET`]).
pub(crate) const SPLIT_SETS_MIN_N: usize = 28;

/// Parts per top set from [`SPLIT_SETS_MIN_N`]: a power of two, so that the
/// plan's cuts and the estimate's nested cuts of a unit meet set bounds
/// evenly, and no more than the sub-parts a set of n = 28 is cut into for
/// time (a set's part is a range of them: see [`crate::unit::Selection`]),
/// which `unit::tests::set_cuts` (`N=28 SUB=1`) prints. It is the smallest
/// such power with which no unit of n = 28 is held to its parts, i.e. every
/// unit can be cut into parts of about a minute (`plan::tests::parts`
/// counts the units held; half as many leave many held). Each part that starts
/// inside a set builds the set's quarters again (n = 28 builds them set by
/// set, see [`EXACT_MIN_N`]): `unit::tests::part_rebuilds` times what
/// that adds to a run.
pub(crate) const PARTS_PER_SET: u32 = 16;

/// Pairs of pieces (each a possible half) one side of one sub-part tries
/// at most, beyond one left piece's: what bounds a thread's halves, so
/// that its memory is bounded whatever n is (a set of n = 28 has tens of
/// millions of halves a side). Below n = 24 no set reaches it.
pub(crate) const CHUNK_PAIRS: u64 = 1 << 23;

/// The product of both sides' tried pairs one sub-part may join at most (a
/// set's tries bound its halves; the join's cost grows as their product),
/// on the boards cut for time ([`Tuning::sub_part_pairs`]): a sub-part of
/// their largest sets then takes about a second, so `--estimate` times many
/// and a checkpoint loses little. A finer cut costs time, as each chunk is
/// made again for every chunk of the other side: timed on sampled sets of
/// n = 26 against the same sets uncut (`unit::tests::set_cuts`), 2^45 was
/// about a tenth slower, 2^41 nearly twice as slow, 2^37 several times.
/// (Before sets that overflow the narrow word were split, see
/// [`crate::shape`], 2^37 had been fastest: a chunk's halves share fewer
/// diagonals, so more of it fit the narrow word, and the cut saved wide
/// joins.)
pub(crate) const SUB_PART_PAIRS: u64 = 1 << 45;

/// The smallest even board whose sets are cut for time ([`SUB_PART_PAIRS`])
/// as well as for memory ([`CHUNK_PAIRS`]): from here the even boards' sets
/// are the largest joined from the unit's quarters (from n = 27 each set
/// builds its own, and the cut for memory leaves chunks of about the same
/// size).
pub(crate) const CUT_FOR_TIME_MIN_N: usize = 26;

/// The largest board none of whose sets is cut for memory, as counted
/// (with its own symmetries): the memory declaration walked every unit's
/// quarters up to here, and its test `no_set_up_to_n_23_is_cut` checks
/// the largest set's pairs of each board against [`CHUNK_PAIRS`].
pub(crate) const UNCUT_MAX_N: usize = 23;

/// The fewest pairs a set (or a split of one) must have to be split when
/// its shared diagonals do not fit the narrow word; smaller ones are
/// joined as wide words. Below it a join is short either way, and both
/// halves of a split pay the narrow buckets' counters (2^k each side),
/// which a wide join of so few pairs does not need. The same threshold as
/// the index choice's ([`crate::index::MIN_CHOICE_PAIRS`]), for the same
/// reason: what a set's fixed costs are paid against.
pub(crate) const MIN_SPLIT_PAIRS: u64 = crate::index::MIN_CHOICE_PAIRS;

/// Pairs per pair of buckets (one of tops, one of bottoms) from which a set
/// whose index diagonals are chosen takes one index diagonal more than the
/// layout's (see [`crate::board::Board::chosen_index_bits`]). One more
/// diagonal skips the pairs that share it (about a quarter of those left),
/// but doubles the buckets: a bucket of tops then visits more, shorter runs
/// of bottoms, each with a partial step and a loop's start, in fewer groups
/// of queries. So it pays only where buckets stay full on both sides. Timed
/// side by side (one thread, the AVX2 kernel, interleaved medians of whole
/// counts, against the layout's bits for every set): at 2^12, n = 18 and
/// n = 20 took about 10 % less time, n = 16 and a shard of n = 21 the
/// same; no set of n = 17 or 19 reaches it (their pair tests do not
/// change). A threshold on the bottoms per bucket alone gained less at
/// n = 18 and 20, one bit more in every chosen set lost at n = 19.
/// From n = 22 the narrow layout already takes the most index bits.
pub(crate) const FINE_INDEX_PAIRS: u64 = 1 << 12;

/// How one board is counted: every size threshold's verdict and every cut.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Tuning {
    /// The kernel level every count path runs at.
    pub level: Level,
    /// The key layout ([`Width::for_n`]: narrow up to
    /// [`crate::layout::NARROW_MAX_N`]).
    pub width: Width,
    /// The symmetries the units are taken up to ([`Symmetries::for_n`]).
    pub symmetries: Symmetries,
    /// Whether halves are made from quarters ([`QUARTERS_MIN_N`]), and so
    /// units can be cut into parts.
    pub quarters: bool,
    /// Whether quarters are built set by set ([`EXACT_MIN_N`]).
    pub exact: bool,
    /// Parts each top set is cut into, the finest parts of a unit
    /// ([`PARTS_PER_SET`] from [`SPLIT_SETS_MIN_N`], else 1).
    pub parts_per_set: u32,
    /// [`CHUNK_PAIRS`]: the most pairs of pieces one side of a sub-part tries.
    pub chunk_pairs: u64,
    /// [`SUB_PART_PAIRS`] on the boards whose sets are cut for time (even
    /// n from [`CUT_FOR_TIME_MIN_N`]), else none.
    pub sub_part_pairs: Option<u64>,
    /// Whether no set is cut at all ([`UNCUT_MAX_N`]), so that a set's
    /// pairs need not be counted to find it whole.
    pub uncut: bool,
    /// The most diagonals a wide board's set joins as narrow words:
    /// [`crate::join::LOW_BITS`].
    pub word_limit: usize,
    /// [`MIN_SPLIT_PAIRS`]: the fewest pairs of a set split by a diagonal.
    pub min_split_pairs: u64,
    /// [`crate::index::MIN_CHOICE_PAIRS`]: the fewest pairs of a set that
    /// chooses its own index diagonals.
    pub min_choice_pairs: u64,
    /// [`FINE_INDEX_PAIRS`]: the pairs per pair of buckets from which a set
    /// that chooses its index takes one diagonal more.
    pub fine_index_pairs: u64,
}

impl Tuning {
    /// How a board of `n` is counted with the code of `level`.
    pub(crate) fn for_board(n: usize, level: Level) -> Tuning {
        let cut_for_time = n >= CUT_FOR_TIME_MIN_N && n.is_multiple_of(2);
        Tuning {
            level,
            width: Width::for_n(n),
            symmetries: Symmetries::for_n(n),
            quarters: n >= QUARTERS_MIN_N,
            exact: n >= EXACT_MIN_N,
            parts_per_set: if n >= SPLIT_SETS_MIN_N {
                PARTS_PER_SET
            } else {
                1
            },
            chunk_pairs: CHUNK_PAIRS,
            sub_part_pairs: cut_for_time.then_some(SUB_PART_PAIRS),
            uncut: n <= UNCUT_MAX_N,
            word_limit: crate::join::LOW_BITS,
            min_split_pairs: MIN_SPLIT_PAIRS,
            min_choice_pairs: crate::index::MIN_CHOICE_PAIRS,
            fine_index_pairs: FINE_INDEX_PAIRS,
        }
    }
}
