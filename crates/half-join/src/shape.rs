//! Wide keys joined as narrow ones, one file set at a time.
//!
//! From n = 24 a half's key has more crossing diagonals (2 · (2h - 1), up
//! to 54 at n = 28) than the narrow layout's 30-bit word and 13 index bits
//! hold, so the board's layout is wide (see [`crate::layout`]), and a join
//! of `u64` words compares twice the bytes per pair of the narrow one. But
//! one file set's join needs fewer diagonals than the board has:
//!
//! - a diagonal that no top of the set takes, or no bottom, can never be
//!   shared, so it need not be compared at all (near the board's edges a
//!   crossing diagonal meets few files on one side of the middle: a set
//!   whose tops lack those files, or whose bottoms do, never shares it);
//! - index diagonals are not compared either: the buckets keep apart the
//!   pairs that share one.
//!
//! So each set's tops and bottoms are scanned once for the diagonals both
//! sides take; the set's index diagonals are chosen as on narrow boards
//! (see [`crate::index`]); and if the shared diagonals left outside the
//! index fit the narrow word, both sides' keys are rearranged into the
//! narrow layout's shape and joined by the narrow kernel, the others
//! dropped.
//!
//! A set whose shared diagonals do not fit is *split* by one of them, d:
//! a top on d can only meet bottoms off d, and a top off d meets any
//! bottom, so the set's pairs are (tops on d, bottoms off d) and (tops off
//! d, all bottoms), and neither of the two shares d. Each split so takes
//! one shared diagonal away from both halves (often more: fewer halves
//! take fewer diagonals), and a set whose shared diagonals overflow the
//! word by e needs at most 2^e narrow joins, not the 3^e of e more index
//! bits. The split diagonal is the one most pairs share ([`split_diagonal`]):
//! the pairs (top on d, bottom on d) are never looked at. Each join pays
//! its buckets' counters, so a split too small to pay for them
//! ([`crate::tuning::MIN_SPLIT_PAIRS`]) is joined as wide `u64` words with the layout's
//! central index diagonals instead. (Before the split, every set that did
//! not fit was joined wide: on the even boards from n = 26, where many
//! sets share more than the word holds, that cost several times the narrow
//! join per pair.)
//!
//! The rearrangement is [`crate::index::Remap`]'s, which moves index bits
//! from the key's high word and takes them in the order of the key turned
//! by half a word. A wide key has its index diagonals (the long diagonals
//! first, which must stay at index bits 0 and 1) in its lowest bits, so it
//! is first *shaped*: turned by half a word ([`narrow_shape`]), which puts
//! its low word, the most central diagonals, in the high word and the long
//! diagonals at bits 32 and 33, where the narrow layout has them.

use crate::index::{Chooser, bit_counts};
use crate::layout::{Layout, MAX_INDEX_BITS, Width};

/// A wide key in the narrow layout's shape: turned by half a word, its
/// low word (the layout's index diagonals, the most central) at bits 32
/// and up.
#[inline(always)]
pub(crate) fn narrow_shape(key: u64) -> u64 {
    key.rotate_left(32)
}

/// The inverse of [`narrow_shape`].
#[inline(always)]
pub(crate) fn wide_shape(key: u64) -> u64 {
    key.rotate_right(32)
}

/// Index diagonals of a shaped set's join: more than the narrow layout's
/// (whose words must hold the rest of the key, not only what a set
/// shares), as a set of these boards has many more halves, and the
/// buckets' counters (2^k per side) are paid once per set. Timed side by
/// side on the heaviest unit of n = 24, 14, 15 and 16 each beat the one
/// before.
pub(crate) const INDEX_BITS: usize = 16;

/// The index choice for a wide board's shaped keys (it takes [`INDEX_BITS`]
/// of them), `forced` as for [`Chooser::new`].
pub(crate) fn chooser(layout: &Layout, forced: u32) -> Chooser {
    assert!(layout.width == Width::Wide, "shaping is for wide keys");
    Chooser::over(narrow_shape(layout.key_bits()), forced)
}

/// Index diagonals of a shaped set with too few pairs to choose for: as
/// many as the narrow layout's, as such a set has few halves to pay for
/// more counters.
pub(crate) const CENTRAL_BITS: usize = MAX_INDEX_BITS;

/// The central index diagonals of shaped keys: the wide layout's first
/// [`CENTRAL_BITS`] bits, its most central diagonals (what a set with
/// too few pairs to choose for is indexed by).
pub(crate) const CENTRAL_INDEX: u64 = ((1 << CENTRAL_BITS) - 1) << 32;

/// The diagonals a set's join must compare (as a mask of shaped key bits)
/// with the index `index`, if they fit the narrow word: those both sides
/// take (`top_bits` and `bottom_bits` are the ORs of each side's keys)
/// outside the index, at most `limit` of them ([`crate::tuning::Tuning::word_limit`]).
pub(crate) fn narrow_word(
    top_bits: u64,
    bottom_bits: u64,
    index: u64,
    limit: usize,
) -> Option<u64> {
    let word = top_bits & bottom_bits & !index;
    (word.count_ones() as usize <= limit).then_some(word)
}

/// The diagonal a set whose shared diagonals (`shared`, outside the index)
/// do not fit the narrow word is split by: of those, the one with the most
/// pairs (top on it, bottom on it) in an even sample of both sides, the
/// pairs the split leaves untested. Ties go to the lowest bit. Returns its
/// mask (one bit).
pub(crate) fn split_diagonal(shared: u64, tops: &[u64], bottoms: &[u64]) -> u64 {
    debug_assert!(shared != 0);
    let (top_counts, bottom_counts) = (bit_counts(tops), bit_counts(bottoms));
    let mut best = (0u64, shared.trailing_zeros());
    let mut rest = shared;
    while rest != 0 {
        let bit = rest.trailing_zeros();
        rest &= rest - 1;
        let pairs = u64::from(top_counts[bit as usize]) * u64::from(bottom_counts[bit as usize]);
        if pairs > best.0 {
            best = (pairs, bit);
        }
    }
    1 << best.1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::join::LOW_BITS;

    #[test]
    fn shaping_is_a_permutation_that_puts_the_index_in_the_high_word() {
        for n in 24..=crate::layout::MAX_N {
            let board = Board::new(n);
            let layout = &board.layout;
            assert_eq!(layout.width, Width::Wide);
            let all = layout.key_bits();
            let shaped = narrow_shape(all);
            assert_eq!(shaped.count_ones(), all.count_ones(), "n = {n}");
            assert_eq!(wide_shape(shaped), all);
            for bit in 0..62 {
                let key = 1u64 << bit;
                assert_eq!(wide_shape(narrow_shape(key)), key);
            }
            // The layout's index bits (the long diagonals first) lead the
            // high word, in order.
            for bit in 0..layout.index_bits {
                assert_eq!(narrow_shape(1 << bit), 1 << (32 + bit));
            }
        }
    }

    #[test]
    fn a_set_fits_the_narrow_word_only_with_few_shared_diagonals() {
        let index = CENTRAL_INDEX;
        let word = (1u64 << LOW_BITS) - 1;
        assert_eq!(narrow_word(word | index, word, index, LOW_BITS), Some(word));
        assert_eq!(
            narrow_word(word | 1 << 31, word | 1 << 31, index, LOW_BITS),
            None
        );
        // A diagonal only one side takes is not compared.
        assert_eq!(
            narrow_word(word | 1 << 31, word, index, LOW_BITS),
            Some(word)
        );
    }
}
