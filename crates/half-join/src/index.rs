//! Choosing, for each file set, the diagonals that index its join.
//!
//! The join (see [`crate::join`]) files each side's halves in buckets by a
//! few *index* diagonals, and a top visits only the buckets of bottoms that
//! avoid its own index diagonals. An index diagonal saves the pairs whose
//! top and bottom both take it: over one file set, about a share
//! p_top · p_bottom of them, where p is the share of a side's halves that
//! take it. The layout (see [`crate::layout`]) ranks diagonals by
//! centrality, which is right over all sets together but wrong for most
//! single sets: a top set's files decide which diagonals its halves can
//! reach at all, and its bottoms hold the other files. Some central
//! diagonals are taken by few tops of a set, or by few of its bottoms, and
//! prune almost nothing there, while off-centre ones are taken by most
//! halves of both sides.
//!
//! So each set's join is indexed by the diagonals with the highest
//! p_top · p_bottom, estimated on an even sample of each side's keys (on
//! the sets with the most pairs, chosen greedily on sampled pairs instead:
//! see [`MIN_GREEDY_PAIRS`]), and
//! both sides' keys are rearranged to the narrow layout's shape (index
//! diagonals in the high word, the rest in the low word) before they are
//! sorted. The join does not know: it sees narrow keys as before. The same
//! pairs fit either way; far fewer are tested (the test
//! `chosen_index_diagonals_leave_the_join_fewer_pairs_than_central_ones`
//! in `unit.rs` counts them on sampled units of n = 18 and 19), and the
//! bucket visits, each a few steps of the kernel, fall with them.
//!
//! The long diagonals' weights (see [`crate::tuning::KLEIN_MIN_N`]) are read
//! from index bits 0 and 1, so those two diagonals are *forced*: they stay
//! at index bits 0 and 1 whatever the set, and the other index bits are
//! chosen among the rest.
//!
//! The rearrangement is a permutation of the key's bits: two BMI2 `pext`
//! (parallel bit extract, one for the index, one for the rest) at the
//! levels that have them (see [`crate::arch`]); elsewhere one table lookup
//! per byte of the key, from tables built per set. A sample's bit
//! counts, a selection among some 40 scores and the permutation cost a few
//! microseconds per set, so sets with few pairs keep the central diagonals
//! ([`MIN_CHOICE_PAIRS`]).
//!
//! Cost and limits: the choice is per set, not per bucket of tops (finer
//! choices would need each bucket's bottoms sorted again); below
//! [`MIN_GREEDY_PAIRS`] it ranks diagonals one by one, ignoring that two
//! diagonals may skip the same pairs; both ways judge by samples; and only
//! halves from quarters (n = 14 to 28) use it, the wide layout's (from
//! n = 24) through [`crate::shape`].

use crate::arch::Isa;
use crate::layout::{Layout, Width};

/// Bytes of a key that can hold bits: all eight, as a wide key shaped for
/// the narrow join (see [`crate::shape`]) may use its whole high word.
const KEY_BYTES: usize = 8;

/// Keys per side whose bits are counted for the shares: an even sample of
/// this many at most (a set's halves come out grouped by their quarters'
/// ranks, so a prefix would not do). Enough to rank diagonals whose shares
/// differ by a few percent.
pub(crate) const SHARE_SAMPLE: usize = 256;

/// Keys per side for the greedy choice, whose sampled pairs are its
/// measure: 2^16 pairs, a multiple of 64 per top.
pub(crate) const PAIR_SAMPLE: usize = 256;

/// The sets whose index diagonals are chosen: those with at least this
/// many (top, bottom) pairs before the buckets. On smaller sets, counting the
/// samples and building the permutation cost more than the pairs they
/// skip (timed side by side: choosing for every set made whole counts at
/// n = 14 to 17 slower; on slices of n = 20 and 22, thresholds from 0 to
/// 2^23 timed alike).
pub(crate) const MIN_CHOICE_PAIRS: u64 = 1 << 20;

/// The sets whose index diagonals are chosen greedily on sampled pairs
/// rather than by shares: at least this many pairs. The greedy choice costs
/// tens of microseconds per set; timed side by side, it paid on slices of
/// n = 22 (whose pairs are mostly in sets far above this), and thresholds
/// from 2^28 up made no difference at n = 18 and 20.
pub(crate) const MIN_GREEDY_PAIRS: u64 = 1 << 30;

/// What stays the same for every set of a board: the key bits to choose
/// from and the forced ones (how many to choose is the set's, see
/// [`crate::board::Board::chosen_index_bits`]).
#[derive(Clone, Debug)]
pub(crate) struct Chooser {
    /// Key bits that are not forced, in the layout's order of preference
    /// (index bits by centrality first, then the low word): ties in the
    /// score keep this order.
    candidates: Vec<u32>,
    /// Key bits that stay at index bits 0, 1, … in this order.
    forced: Vec<u32>,
}

impl Chooser {
    /// The chooser for a narrow layout; `forced` are index bits (positions
    /// within the layout's index, as in [`crate::board::Board::doubling`])
    /// that must stay where they are.
    pub(crate) fn new(layout: &Layout, forced: u32) -> Chooser {
        assert!(
            layout.width == Width::Narrow,
            "index choice is for the narrow layout"
        );
        Chooser::over(layout.key_bits(), forced)
    }

    /// The chooser for keys in the narrow layout's shape whose bits are
    /// `used` (wide keys shaped so, see [`crate::shape`]); `forced` as for
    /// [`Chooser::new`].
    pub(crate) fn over(used: u64, forced: u32) -> Chooser {
        let forced: Vec<u32> = (0..32)
            .filter(|bit| forced >> bit & 1 == 1)
            .map(|bit| 32 + bit)
            .collect();
        assert!(
            forced
                .iter()
                .enumerate()
                .all(|(i, &bit)| bit == 32 + i as u32),
            "forced index bits must be the lowest ones"
        );
        let high = (32..64).filter(|&bit| used >> bit & 1 == 1);
        let low = (0..32).filter(|&bit| used >> bit & 1 == 1);
        let candidates = high
            .chain(low)
            .filter(|bit| !forced.contains(bit))
            .collect();
        Chooser { candidates, forced }
    }

    /// Chooses `index_bits` index diagonals (forced ones included) of one
    /// set's join from samples of its tops' and bottoms' keys and builds
    /// `remap` to move them there (for `isa`'s level: by `pext` or by
    /// tables).
    pub(crate) fn choose<L: Isa>(
        &self,
        isa: L,
        index_bits: usize,
        tops: &[u64],
        bottoms: &[u64],
        remap: &mut Remap,
    ) {
        let index_mask = self.choose_index(isa, index_bits, tops, bottoms);
        self.remap(index_mask, !L::PEXT, remap);
    }

    /// The index diagonals [`Chooser::choose`] takes, as a mask of key bits
    /// (forced ones included), compiled for `isa`'s level (the greedy
    /// choice counts bits).
    pub(crate) fn choose_index<L: Isa>(
        &self,
        isa: L,
        index_bits: usize,
        tops: &[u64],
        bottoms: &[u64],
    ) -> u64 {
        isa.run(
            #[inline(always)]
            || {
                let pairs = tops.len() as u64 * bottoms.len() as u64;
                if pairs >= MIN_GREEDY_PAIRS {
                    self.greedy(index_bits, tops, bottoms)
                } else {
                    self.by_shares(index_bits, tops, bottoms)
                }
            },
        )
    }

    /// Builds `remap` to move `index_mask` to the high word and
    /// `word_mask` (disjoint from it) to the low word, dropping every other
    /// bit: for keys whose other bits no pair can share (with tables if
    /// `isa`'s level has no `pext`).
    pub(crate) fn remap_to<L: Isa>(_isa: L, index_mask: u64, word_mask: u64, remap: &mut Remap) {
        remap.build(index_mask, word_mask, !L::PEXT);
    }

    /// Builds `remap` for an index of key bits (forced ones included), with
    /// its tables if `tables`.
    fn remap(&self, index_mask: u64, tables: bool, remap: &mut Remap) {
        let all = (self.candidates.iter()).fold(0u64, |mask, &bit| mask | 1 << bit);
        remap.build(index_mask, all & !index_mask, tables);
    }

    /// The index (forced bits and the chosen ones, as a mask of key bits):
    /// the bits with the highest product of sampled shares, ties in the
    /// layout's order.
    fn by_shares(&self, index_bits: usize, tops: &[u64], bottoms: &[u64]) -> u64 {
        let (top_counts, bottom_counts) = (bit_counts(tops), bit_counts(bottoms));
        // Each candidate's score, its rank in the layout's order below it
        // (so that equal scores keep that order), its bit at the bottom.
        let mut ranked = [0u64; 64];
        let ranked = &mut ranked[..self.candidates.len()];
        for ((entry, &bit), rank) in ranked.iter_mut().zip(&self.candidates).zip(0u64..) {
            let score =
                u64::from(top_counts[bit as usize]) * u64::from(bottom_counts[bit as usize]);
            *entry = score << 16 | (255 - rank) << 8 | u64::from(bit);
        }
        let chosen = index_bits - self.forced.len();
        // Only which entries are the largest matters (they are ORed into a
        // mask), not their order; entries are distinct (each ends in its bit).
        if chosen > 0 && chosen < ranked.len() {
            ranked.select_nth_unstable_by(chosen - 1, |a, b| b.cmp(a));
        }
        let forced = self.forced.iter().fold(0u64, |mask, &bit| mask | 1 << bit);
        ranked[..chosen]
            .iter()
            .fold(forced, |mask, &e| mask | 1 << (e & 0xff))
    }

    /// The index by a greedy choice on sampled pairs: after the forced
    /// bits, each next bit is the one that skips the most sampled pairs no
    /// earlier bit skipped (ties in the layout's order). Shares rank bits
    /// one by one, so two diagonals that the same halves take (the two of
    /// one queen's square, say) both rank high though the second skips
    /// little more; here it does not.
    fn greedy(&self, index_bits: usize, tops: &[u64], bottoms: &[u64]) -> u64 {
        let tops: Vec<u64> = sampled(tops, PAIR_SAMPLE).collect();
        let bottoms: Vec<u64> = sampled(bottoms, PAIR_SAMPLE).collect();
        let words = bottoms.len().div_ceil(64);
        // For each bit, the sampled bottoms taking it, 64 to a word.
        let mut taking = [[0u64; PAIR_SAMPLE / 64]; 64];
        for (i, &key) in bottoms.iter().enumerate() {
            let mut rest = key;
            while rest != 0 {
                taking[rest.trailing_zeros() as usize][i / 64] |= 1 << (i % 64);
                rest &= rest - 1;
            }
        }
        // Per sampled top, the sampled bottoms it still meets in a bucket.
        let mut alive = [[0u64; PAIR_SAMPLE / 64]; PAIR_SAMPLE];
        for row in alive.iter_mut() {
            for (w, word) in row.iter_mut().enumerate().take(words) {
                let left = bottoms.len() - 64 * w;
                *word = if left >= 64 {
                    u64::MAX
                } else {
                    (1 << left) - 1
                };
            }
        }
        let skip = |alive: &mut [[u64; PAIR_SAMPLE / 64]; PAIR_SAMPLE], bit: u32| {
            for (row, &top) in alive.iter_mut().zip(&tops) {
                if top >> bit & 1 == 1 {
                    for (word, taken) in row.iter_mut().zip(taking[bit as usize]) {
                        *word &= !taken;
                    }
                }
            }
        };
        let mut index_mask = 0u64;
        for &bit in &self.forced {
            skip(&mut alive, bit);
            index_mask |= 1 << bit;
        }
        for _ in self.forced.len()..index_bits {
            let mut best: Option<(u32, u32)> = None;
            for &bit in &self.candidates {
                if index_mask >> bit & 1 == 1 {
                    continue;
                }
                let skipped: u32 = (alive.iter().zip(&tops))
                    .filter(|&(_, &top)| top >> bit & 1 == 1)
                    .map(|(row, _)| {
                        (row.iter().zip(taking[bit as usize]))
                            .map(|(&word, taken)| (word & taken).count_ones())
                            .sum::<u32>()
                    })
                    .sum();
                if best.is_none_or(|(most, _)| skipped > most) {
                    best = Some((skipped, bit));
                }
            }
            let (_, bit) = best.expect("more candidates than index bits");
            skip(&mut alive, bit);
            index_mask |= 1 << bit;
        }
        index_mask
    }
}

/// An even sample of at most `size` of `keys`.
fn sampled(keys: &[u64], size: usize) -> impl Iterator<Item = u64> + '_ {
    keys.iter()
        .step_by(keys.len().div_ceil(size).max(1))
        .copied()
}

/// Keys added into [`bit_counts`]'s 4-bit counters before they are
/// carried into its 16-bit ones: the most a 4-bit counter holds.
const NIBBLE_KEYS: usize = 15;

/// Every fourth bit of a word, from bit 0.
const NIBBLE_LOWS: u64 = 0x1111_1111_1111_1111;

/// The low four bits of each 16-bit lane.
const LANE_LOWS: u64 = 0x000F_000F_000F_000F;

/// How many keys of an even sample of `keys` take each bit.
///
/// The 64 counters are kept side by side in words, so that one add counts
/// a key into 16 of them at once: `(key >> j) & NIBBLE_LOWS` puts bits j,
/// j + 4, … into the 16 four-bit lanes of a word, and four such words
/// (j = 0..3) count every bit, four shifts, ANDs and adds per key. A
/// four-bit lane holds 15 keys; then each word's lanes are carried into
/// 16-bit lanes (four words per word of nibbles, one for each nibble of a
/// lane), which hold the whole sample. Kept one plane per bit of the count
/// (a ripple of carries through nine planes, 27 operations a key), the
/// counts were most of the index choice's cost on small boards: 4.4 % of
/// a count's instructions at n = 16 (callgrind, AVX2 kernel), 2.5 % now.
pub(crate) fn bit_counts(keys: &[u64]) -> [u32; 64] {
    // wide[4j + k], 16-bit lane l: bit 4 (4l + k) + j.
    let mut wide = [0u64; 16];
    let mut sample = sampled(keys, SHARE_SAMPLE);
    loop {
        // nibbles[j], 4-bit lane i: bit 4i + j.
        let mut nibbles = [0u64; 4];
        let mut taken = 0;
        for key in sample.by_ref().take(NIBBLE_KEYS) {
            for (j, lanes) in nibbles.iter_mut().enumerate() {
                *lanes += key >> j & NIBBLE_LOWS;
            }
            taken += 1;
        }
        for (j, lanes) in nibbles.iter().enumerate() {
            for (k, wide) in wide[4 * j..4 * j + 4].iter_mut().enumerate() {
                *wide += lanes >> (4 * k) & LANE_LOWS;
            }
        }
        if taken < NIBBLE_KEYS {
            break;
        }
    }
    std::array::from_fn(|bit| {
        let (nibble, j) = (bit / 4, bit % 4);
        let (l, k) = (nibble / 4, nibble % 4);
        (wide[4 * j + k] >> (16 * l) & 0xFFFF) as u32
    })
}

/// A permutation of a key's bits: the index bits (`index_mask`, in key
/// positions) packed from bit 32 up in the order of the key turned by half
/// a word (its high word first, so that the forced bits, the lowest of the
/// high word, come first), the others (`word_mask`) packed from bit 0 up in
/// the key's order. That is two `pext` where the CPU has BMI2, and one
/// table lookup per byte of the key elsewhere (the tables are built either
/// way, so that tests can compare the two).
#[derive(Clone, Debug)]
pub(crate) struct Remap {
    /// The index mask turned by half a word, as `pext` takes it.
    index_turned: u64,
    word_mask: u64,
    tables: Box<[[u64; 256]; KEY_BYTES]>,
}

impl Default for Remap {
    fn default() -> Self {
        Remap {
            index_turned: 0,
            word_mask: 0,
            tables: Box::new([[0; 256]; KEY_BYTES]),
        }
    }
}

impl Remap {
    /// The permutation of `index_mask` and `word_mask` (disjoint; bits in
    /// neither are never set in a key), with its tables if `tables` (a
    /// level with `pext` needs none; the tests build them to compare).
    fn build(&mut self, index_mask: u64, word_mask: u64, tables: bool) {
        debug_assert_eq!(index_mask & word_mask, 0);
        self.index_turned = index_mask.rotate_right(32);
        self.word_mask = word_mask;
        if tables || cfg!(test) {
            self.fill_tables();
        }
    }

    /// The lookup tables of the permutation the masks describe.
    fn fill_tables(&mut self) {
        let (index_turned, word_mask) = (self.index_turned, self.word_mask);
        let below = |mask: u64, bit: u32| (mask & ((1u64 << bit) - 1)).count_ones();
        let target = |bit: u32| -> u64 {
            if index_turned >> (bit ^ 32) & 1 == 1 {
                1 << (32 + below(index_turned, bit ^ 32))
            } else if word_mask >> bit & 1 == 1 {
                1 << below(word_mask, bit)
            } else {
                0
            }
        };
        for (byte, table) in self.tables.iter_mut().enumerate() {
            let moved: [u64; 8] = std::array::from_fn(|low| target(8 * byte as u32 + low as u32));
            // Each entry is the entry without its lowest bit, plus where
            // that bit goes.
            for value in 1..256usize {
                table[value] = table[value & (value - 1)] | moved[value.trailing_zeros() as usize];
            }
        }
    }

    /// The key with its bits moved: two `pext` where `isa`'s level has
    /// them (BMI2), else the tables. Inlined into the caller's level code.
    #[inline(always)]
    pub(crate) fn apply<L: Isa>(&self, isa: L, key: u64) -> u64 {
        if L::PEXT {
            isa.pext(key.rotate_right(32), self.index_turned) << 32 | isa.pext(key, self.word_mask)
        } else {
            self.by_tables(key)
        }
    }

    /// [`Remap::apply`] by one table lookup per byte.
    #[inline(always)]
    fn by_tables(&self, key: u64) -> u64 {
        let t = &self.tables;
        let byte = |i: usize| (key >> (8 * i)) as usize & 0xff;
        t[0][byte(0)]
            | t[1][byte(1)]
            | t[2][byte(2)]
            | t[3][byte(3)]
            | t[4][byte(4)]
            | t[5][byte(5)]
            | t[6][byte(6)]
            | t[7][byte(7)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arch::{Portable, Task, dispatch_to, tests::tested_levels};
    use crate::board::Board;
    use crate::tuning::Symmetries;

    impl Remap {
        /// Bytes held, tables included.
        pub(crate) fn bytes(&self) -> usize {
            size_of::<Remap>() + size_of_val(&*self.tables)
        }
    }

    /// Keys moved by a remap at one level.
    struct Apply<'a> {
        remap: &'a Remap,
        keys: &'a [u64],
    }

    impl Task for Apply<'_> {
        type Output = Vec<u64>;
        fn run<L: Isa>(self, isa: L) -> Vec<u64> {
            isa.run(
                #[inline(always)]
                || {
                    self.keys
                        .iter()
                        .map(|&key| self.remap.apply(isa, key))
                        .collect()
                },
            )
        }
    }

    #[test]
    fn side_by_side_bit_counts_reach_the_whole_sample() {
        let keys = vec![u64::MAX; SHARE_SAMPLE];
        assert_eq!(bit_counts(&keys), [SHARE_SAMPLE as u32; 64]);
    }

    proptest::proptest! {
        /// The side-by-side counters count what one increment per bit
        /// counts, on samples of every length up to past [`SHARE_SAMPLE`]
        /// (whose counts carry the 4-bit lanes many times over).
        #[test]
        fn side_by_side_bit_counts_are_the_counts_bit_by_bit(
            keys in proptest::collection::vec(proptest::prelude::any::<u64>(), 0..600),
            dense in proptest::prelude::any::<bool>(),
        ) {
            // Dense keys too, so that counts reach the sample's size.
            let keys: Vec<u64> = keys.iter().map(|&k| if dense { !(k & k >> 7) } else { k }).collect();
            let mut expected = [0u32; 64];
            for key in sampled(&keys, SHARE_SAMPLE) {
                for (bit, count) in expected.iter_mut().enumerate() {
                    *count += (key >> bit & 1) as u32;
                }
            }
            proptest::prop_assert_eq!(bit_counts(&keys), expected);
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config::with_cases(8))]
        /// On every narrow board, plain and with the long diagonals: the
        /// rearrangement keeps which pairs are disjoint (it is a permutation
        /// of the key's bits), gives the layout's number of index bits, keeps
        /// the low word within the join's bits, and leaves the forced
        /// diagonals at index bits 0 and 1, whichever way the index is
        /// chosen; and every level's way (`pext` or tables) moves them alike.
        ///
        /// Keys are random words (each the AND of two, so that disjoint
        /// pairs are common) cut to each board's key bits.
        #[test]
        fn the_rearrangement_is_a_permutation_that_keeps_the_join_shape(
            top_words in proptest::collection::vec((0..u64::MAX, 0..u64::MAX), 1..300),
            bottom_words in proptest::collection::vec((0..u64::MAX, 0..u64::MAX), 1..300),
        ) {
            every_board_keeps_the_join_shape(&top_words, &bottom_words);
        }
    }

    fn every_board_keeps_the_join_shape(top_words: &[(u64, u64)], bottom_words: &[(u64, u64)]) {
        let keys = |words: &[(u64, u64)], used: u64| -> Vec<u64> {
            words.iter().map(|&(a, b)| a & b & used).collect()
        };
        for n in 4..=crate::layout::NARROW_MAX_N {
            let even = n.is_multiple_of(2);
            let symmetries = [Symmetries::Split, Symmetries::LongDiagonals];
            for &symmetries in &symmetries[..1 + usize::from(even)] {
                let board = Board::with_options(n, Width::Narrow, symmetries);
                let layout = &board.layout;
                let used = layout.key_bits();
                let chooser = Chooser::new(layout, board.doubling());
                let (tops, bottoms) = (keys(top_words, used), keys(bottom_words, used));
                let mut remap = Remap::default();
                // Both ways of choosing (`choose` picks by the set's size).
                for index in [
                    chooser.by_shares(layout.index_bits, &tops, &bottoms),
                    chooser.greedy(layout.index_bits, &tops, &bottoms),
                ] {
                    chooser.remap(index, true, &mut remap);
                    let apply = |key: u64| remap.apply(Portable, key);
                    let moved = apply(used);
                    assert_eq!(moved.count_ones(), used.count_ones(), "n {n}");
                    assert_eq!(
                        (moved >> 32).count_ones() as usize,
                        layout.index_bits,
                        "n {n}"
                    );
                    assert!(moved >> 32 < 1 << layout.index_bits, "n {n}");
                    assert!((moved as u32) < 1 << crate::join::LOW_BITS, "n {n}");
                    for bit in (0..64).filter(|bit| used >> bit & 1 == 1) {
                        assert_eq!(apply(1 << bit).count_ones(), 1, "n {n} bit {bit}");
                    }
                    let forced = u64::from(board.doubling()) << 32;
                    assert_eq!(apply(forced), forced, "n {n}");
                    let all: Vec<u64> = tops.iter().chain(&bottoms).copied().collect();
                    let by_tables: Vec<u64> = all.iter().map(|&key| apply(key)).collect();
                    for level in tested_levels() {
                        let moved = dispatch_to(
                            level,
                            Apply {
                                remap: &remap,
                                keys: &all,
                            },
                        );
                        assert_eq!(moved.as_ref(), Some(&by_tables), "n {n}, {level:?}");
                    }
                    for (&top, &bottom) in tops.iter().zip(&bottoms) {
                        assert_eq!(top & bottom == 0, apply(top) & apply(bottom) == 0, "n {n}");
                    }
                }
            }
        }
    }

    /// Shares rank bits one by one; the greedy choice counts each skipped
    /// pair once. Bits 34 and 35 are taken by the same half of the keys,
    /// bit 36 by every fourth: with two index bits, shares take 34 and 35
    /// (the second skips no pair the first does not), the greedy choice 34
    /// and 36.
    #[test]
    fn the_greedy_choice_counts_each_skipped_pair_once() {
        let keys: Vec<u64> = (0..PAIR_SAMPLE as u64)
            .map(|i| if i % 2 == 0 { 0b11 << 34 } else { 0 } | if i % 4 == 1 { 1 << 36 } else { 0 })
            .collect();
        let chooser = Chooser {
            candidates: vec![34, 35, 36, 37],
            forced: Vec::new(),
        };
        assert_eq!(chooser.by_shares(2, &keys, &keys), 0b0011 << 34);
        assert_eq!(chooser.greedy(2, &keys, &keys), 0b0101 << 34);
    }

    /// The index takes the bits that both sides take most, forced ones
    /// aside: here bits that every key takes beat the layout's favourites,
    /// and a bit that no bottom takes is never chosen over one that some do.
    #[test]
    fn the_index_takes_the_bits_both_sides_take_most() {
        let board = Board::with_options(22, Width::Narrow, Symmetries::LongDiagonals);
        let chooser = Chooser::new(&board.layout, board.doubling());
        let (common_low, common_high) = (1u64 << 5, 1u64 << 40);
        let tops: Vec<u64> = (0..50)
            .map(|i| common_low | common_high | 1 << (i % 3))
            .collect();
        let bottoms: Vec<u64> = (0..50).map(|_| common_low | common_high | 1 << 7).collect();
        let mut remap = Remap::default();
        chooser.choose(
            Portable,
            board.layout.index_bits,
            &tops,
            &bottoms,
            &mut remap,
        );
        let index = |bit: u32| remap.apply(Portable, 1 << bit) >> 32;
        // The forced ones stay first; the two bits every key takes are in.
        assert_eq!(index(32) | index(33), 0b11);
        assert_ne!(index(5), 0);
        assert_ne!(index(40), 0);
        // Bit 7 (bottoms only) and bits 0..2 (tops only) score nothing.
        for bit in [0, 1, 2, 7] {
            assert_eq!(index(bit), 0, "bit {bit}");
        }
    }
}
