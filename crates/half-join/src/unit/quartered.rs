//! Units whose halves are made from quarters: the quarters built for the
//! unit or set by set, each set cut into sub-parts and joined, on wide
//! boards as narrow words where a set's shared diagonals fit them.

use super::*;

/// Builds the quarters of a unit's tops and of its bottoms (or keeps them,
/// if they are already the unit's); returns their queens placed.
pub(super) fn build_quarters<L: Isa>(
    isa: L,
    board: &Board,
    unit: Unit,
    buffers: &mut Buffers<u32>,
) -> u64 {
    if board.tuning.exact {
        // Built set by set instead (see `join_sets`).
        return 0;
    }
    let side_bits = quarters::side_bits(board);
    let bottom_unit = board.map_unit(SplitSymmetry::Flip, unit);
    let mut nodes = 0;
    for (quarters, unit, role) in [
        (&mut buffers.top_quarters, unit, Role::Top),
        (&mut buffers.bottom_quarters, bottom_unit, Role::Bottom),
    ] {
        nodes += quarters.build(
            isa,
            board,
            &side_bits,
            contributions(board, role),
            forbidden(board, unit, role),
            unit.middle,
            unit.pattern,
        );
    }
    nodes
}

/// Builds one top set's quarters and its bottom set's (when the board
/// builds them set by set, see [`Tuning::exact`]; else the unit's are kept)
/// and says how its join is cut ([`SetCut`]); returns the queens placed.
pub(super) fn set_quarters<L: Isa>(
    isa: L,
    board: &Board,
    units: [Unit; 2],
    [top_quarters, bottom_quarters]: [&mut Quarters; 2],
    sets: [u32; 2],
) -> (u64, SetCut) {
    let mut nodes = 0;
    let tuning = &board.tuning;
    if tuning.exact {
        let side_bits = quarters::side_bits(board);
        for (quarters, set, unit, role) in [
            (&mut *top_quarters, sets[0], units[0], Role::Top),
            (&mut *bottom_quarters, sets[1], units[1], Role::Bottom),
        ] {
            let inputs = (
                contributions(board, role),
                forbidden(board, unit, role),
                unit.middle,
            );
            nodes += quarters.build_exact(isa, board, &side_bits, inputs, set);
        }
    }
    if tuning.sub_part_pairs.is_none() && !tuning.exact && tuning.uncut {
        // Each side's pairs would be counted (a walk of the set's cells)
        // only to find the set whole: about 1 % of a count at n = 16 and
        // 18 (callgrind, `Quarters::pairs`).
        return (nodes, SetCut::WHOLE);
    }
    let [top_pairs, bottom_pairs] = [(top_quarters, sets[0]), (bottom_quarters, sets[1])]
        .map(|(quarters, set)| quarters.pairs(set));
    (nodes, SetCut::of(top_pairs, bottom_pairs, tuning))
}

/// Joins the top sets `selection` takes of a unit whose quarters `buffers`
/// holds, each cut into sub-parts ([`SetCut`]): for each sub-part, its chunk
/// of the top set's tops and its chunk of the bottom set's bottoms are made, the set's index
/// diagonals chosen from both (see [`crate::index`]), both sides sorted into
/// index buckets and joined before the next set. Sets with fewer than
/// [`Tuning::min_choice_pairs`] pairs keep the layout's index (see
/// [`index::MIN_CHOICE_PAIRS`]). On a wide board a set is joined as narrow
/// words where its shared diagonals fit them (see [`crate::shape`]), else
/// as wide words in `wide`'s sides. Its nodes are the pairs of pieces
/// tested; its stats say how the sets were joined.
pub(super) fn join_sets<L: Isa>(
    isa: L,
    board: &Board,
    unit: Unit,
    buffers: &mut Buffers<u32>,
    wide: &mut Buffers<u64>,
    selection: Selection,
) -> Counted {
    let (images, fixing) = board.orbit(unit);
    let Buffers {
        unsorted,
        counts,
        tops,
        bottoms,
        runs,
        top_quarters,
        bottom_quarters,
        keys,
        bottom_keys,
        remap,
    } = buffers;
    let shaped = board.layout.width == Width::Wide;
    let chooser = if shaped {
        shape::chooser(&board.layout, board.doubling())
    } else {
        Chooser::new(&board.layout, board.doubling())
    };
    let bottom_unit = board.map_unit(SplitSymmetry::Flip, unit);
    let mut nodes = 0;
    let mut solutions = 0u64;
    let mut stats = JoinStats::default();
    let mut place = 0u64;
    for_each_top_set(board, unit, &fixing, |top_set, weight| {
        let here = place;
        place += 1;
        // Sets it takes no part of are skipped before their quarters.
        if selection.parts_of(here).is_none() {
            return;
        }
        let bottom_set = board.bottom_set(unit.middle, top_set);
        let (built, cut) = set_quarters(
            isa,
            board,
            [unit, bottom_unit],
            [&mut *top_quarters, &mut *bottom_quarters],
            [top_set, bottom_set],
        );
        if selection.counts_quarters(here) {
            nodes += built;
        }
        let subs = selection
            .subs_of(here, cut.count())
            .expect("a set it takes parts of");
        for sub in subs {
            let (top_chunk, bottom_chunk) = cut.chunks(sub);
            let (top_found, tested) = top_quarters.halves(isa, top_set, top_chunk, keys);
            nodes += tested;
            if top_found == 0 {
                continue;
            }
            let (bottom_found, tested) =
                bottom_quarters.halves(isa, bottom_set, bottom_chunk, bottom_keys);
            nodes += tested;
            if bottom_found == 0 {
                continue;
            }
            let (top_keys, bottom_keys) =
                (&mut keys[..top_found], &mut bottom_keys[..bottom_found]);
            // Small sets keep the layout's central diagonals.
            let big = (top_found as u64) * (bottom_found as u64) >= board.tuning.min_choice_pairs;
            let narrow = &mut NarrowJoin {
                unsorted,
                counts,
                tops,
                bottoms,
                runs,
                remap,
                doubling: board.doubling(),
                stats: &mut stats,
            };
            let pairs = if shaped {
                for key in top_keys.iter_mut().chain(bottom_keys.iter_mut()) {
                    *key = shape::narrow_shape(*key);
                }
                let (index, index_bits) = if big {
                    let index = chooser.choose_index(isa, shape::INDEX_BITS, top_keys, bottom_keys);
                    (index, shape::INDEX_BITS)
                } else {
                    (shape::CENTRAL_INDEX, shape::CENTRAL_BITS)
                };
                let index = ShapedIndex {
                    mask: index,
                    bits: index_bits,
                };
                join_shaped(isa, board, index, top_keys, bottom_keys, narrow, wide)
            } else {
                let index_bits = if big {
                    let bits = board.chosen_index_bits(top_found, bottom_found);
                    chooser.choose(isa, bits, top_keys, bottom_keys, narrow.remap);
                    bits
                } else {
                    board.layout.index_bits
                };
                narrow.join(isa, index_bits, top_keys, bottom_keys, big)
            };
            solutions = weigh(solutions, weight, pairs);
        }
    });
    Counted {
        count: orbit_count(images.len(), solutions, nodes),
        stats,
    }
}

/// A set's narrow join and what it borrows of the unit's buffers: both
/// sides sorted into buckets, their pairs counted.
pub(super) struct NarrowJoin<'a> {
    pub(super) unsorted: &'a mut Vec<(u32, u32)>,
    pub(super) counts: &'a mut Vec<u32>,
    pub(super) tops: &'a mut Side<u32>,
    pub(super) bottoms: &'a mut Side<u32>,
    pub(super) runs: &'a mut BottomRuns<u32>,
    /// The set's rearrangement of key bits, when it has one.
    pub(super) remap: &'a mut Remap,
    /// The index bits a top counts double for (see [`join::count_pairs`]).
    pub(super) doubling: u32,
    pub(super) stats: &'a mut JoinStats,
}

impl NarrowJoin<'_> {
    /// The disjoint pairs of `top_keys` and `bottom_keys`, rearranged by
    /// the remap if `remapped`, in buckets of `index_bits`.
    pub(super) fn join<L: Isa>(
        &mut self,
        isa: L,
        index_bits: usize,
        top_keys: &[u64],
        bottom_keys: &[u64],
        remapped: bool,
    ) -> u64 {
        let remap = remapped.then_some(&*self.remap);
        for (keys, role, side) in [
            (top_keys, Role::Top, &mut *self.tops),
            (bottom_keys, Role::Bottom, &mut *self.bottoms),
        ] {
            sort_set(
                isa,
                index_bits,
                keys,
                remap,
                role,
                side,
                self.unsorted,
                self.counts,
            );
        }
        join::count_pairs(isa, self.tops, 0, self.bottoms, 0, self.doubling, self.runs)
    }
}

/// A shaped set's index diagonals: their mask of key bits, and how many
/// index bits its buckets have (at least the mask's).
#[derive(Clone, Copy)]
pub(super) struct ShapedIndex {
    pub(super) mask: u64,
    pub(super) bits: usize,
}

/// The pairs of one set of a wide board, its keys shaped
/// ([`shape::narrow_shape`]), indexed by `index`: joined as narrow words
/// where the diagonals both sides share outside the index fit them; else
/// split by one such diagonal d ([`shape::split_diagonal`]) into tops on d
/// against bottoms off it, and tops off d against every bottom (no other
/// pair can be disjoint), each joined the same way. Neither half of a split
/// shares d, so each split takes a shared diagonal away from both, and
/// after at most as many splits as the shared diagonals overflow the word,
/// every part fits. A split smaller than [`Tuning::min_split_pairs`] pairs
/// is joined as wide words instead (see [`join_wide`]). Reorders the keys.
pub(super) fn join_shaped<L: Isa>(
    isa: L,
    board: &Board,
    index: ShapedIndex,
    top_keys: &mut [u64],
    bottom_keys: &mut [u64],
    narrow: &mut NarrowJoin<'_>,
    wide: &mut Buffers<u64>,
) -> u64 {
    if top_keys.is_empty() || bottom_keys.is_empty() {
        return 0;
    }
    let [top_bits, bottom_bits] =
        [&*top_keys, &*bottom_keys].map(|keys| keys.iter().fold(0, |bits, key| bits | key));
    let tuning = &board.tuning;
    if let Some(word) = shape::narrow_word(top_bits, bottom_bits, index.mask, tuning.word_limit) {
        Chooser::remap_to(isa, index.mask, word, narrow.remap);
        return narrow.join(isa, index.bits, top_keys, bottom_keys, true);
    }
    let pairs = (top_keys.len() as u64) * (bottom_keys.len() as u64);
    if pairs < tuning.min_split_pairs {
        narrow.stats.wide_sets += 1;
        return join_wide(isa, board, top_keys, bottom_keys, wide);
    }
    narrow.stats.splits += 1;
    let shared = top_bits & bottom_bits & !index.mask;
    let diagonal = shape::split_diagonal(shared, top_keys, bottom_keys);
    let tops_off = partition_off(top_keys, diagonal);
    let bottoms_off = partition_off(bottom_keys, diagonal);
    let (tops_off, tops_on) = top_keys.split_at_mut(tops_off);
    // Tops on d meet only bottoms off it; the bottoms off d stay first
    // whatever this join reorders among them.
    let on = join_shaped(
        isa,
        board,
        index,
        tops_on,
        &mut bottom_keys[..bottoms_off],
        narrow,
        wide,
    );
    on + join_shaped(isa, board, index, tops_off, bottom_keys, narrow, wide)
}

/// Moves the keys off `diagonal` (one bit) before the keys on it; returns
/// how many are off.
pub(super) fn partition_off(keys: &mut [u64], diagonal: u64) -> usize {
    let mut off = 0;
    for at in 0..keys.len() {
        if keys[at] & diagonal == 0 {
            keys.swap(off, at);
            off += 1;
        }
    }
    off
}

/// The pairs of a small set (or split) of a wide board whose shared
/// diagonals do not fit the narrow word: its tops' and bottoms' shaped
/// keys turned back and joined as `u64` words by the layout's central
/// index diagonals, in `wide`'s sides.
pub(super) fn join_wide<L: Isa>(
    isa: L,
    board: &Board,
    top_keys: &mut [u64],
    bottom_keys: &mut [u64],
    wide: &mut Buffers<u64>,
) -> u64 {
    let index_bits = board.layout.index_bits;
    for (keys, role, side) in [
        (top_keys, Role::Top, &mut wide.tops),
        (bottom_keys, Role::Bottom, &mut wide.bottoms),
    ] {
        for key in keys.iter_mut() {
            *key = shape::wide_shape(*key);
        }
        sort_set(
            isa,
            index_bits,
            keys,
            None,
            role,
            side,
            &mut wide.unsorted,
            &mut wide.counts,
        );
    }
    join::count_pairs(
        isa,
        &wide.tops,
        0,
        &wide.bottoms,
        0,
        board.doubling(),
        &mut wide.runs,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arch::Portable;
    use crate::index;
    use crate::tuning::Symmetries;
    use crate::unit::tests::*;
    use queens_conformance::tier;
    use queens_core::oeis;
    use std::collections::BTreeMap;

    #[test]
    fn every_set_counts_the_same_with_its_index_chosen_or_central() {
        // `count_unit` chooses the index diagonals of sets with many pairs
        // only (`index::MIN_CHOICE_PAIRS`), and boards small enough to count
        // whole in a test have few such sets: here every set's index is
        // chosen, or none is, on boards whose totals are known, with and
        // without the long diagonals (whose weights are read off the forced
        // index bits). A chosen index takes the layout's bits, or one more
        // (`Tuning::fine_index_pairs`) in every set.
        for board in plain_and_klein(tier::boards(14..=14, 14..=16)) {
            for (min_choice_pairs, fine_index_pairs) in
                [(0, u64::MAX), (0, 0), (u64::MAX, u64::MAX)]
            {
                let board = retuned(&board, |tuning| {
                    tuning.min_choice_pairs = min_choice_pairs;
                    tuning.fine_index_pairs = fine_index_pairs;
                });
                let counted: u64 = (board.units().into_iter())
                    .filter(|&unit| board.is_canonical(unit))
                    .map(|unit| {
                        let buffers = &mut Buffers::<u32>::default();
                        count_unit_by_quarters(Portable, &board, unit, buffers)
                            .count
                            .solutions
                    })
                    .sum();
                let (n, klein) = (board.n, board.klein);
                assert_eq!(
                    Some(counted),
                    oeis::total(n),
                    "n = {n}, klein {klein}, chosen from {min_choice_pairs} pairs, \
                     one bit more from {fine_index_pairs} pairs a pair of buckets"
                );
            }
        }
    }

    #[test]
    fn quarters_built_set_by_set_count_every_board_and_part_alike() {
        // From `tuning::EXACT_MIN_N` each set builds its own quarters; here
        // boards whose totals are known do so, in both layouts and with
        // either symmetries, and a unit cut into parts adds up (the parts
        // have no shared work then).
        for n in tier::boards(14..=14, 14..=15) {
            for width in [Width::Narrow, Width::Wide] {
                let board = retuned(&Board::with_width(n, width), |tuning| tuning.exact = true);
                let units: Vec<Unit> = (board.units().into_iter())
                    .filter(|&unit| board.is_canonical(unit))
                    .collect();
                let counts: Vec<UnitCount> = (units.iter())
                    .map(|&u| count_unit(&board, u).count)
                    .collect();
                let total: u64 = counts.iter().map(|count| count.solutions).sum();
                assert_eq!(Some(total), oeis::total(n), "n = {n}, {width:?}");
                let (unit, whole) = (units[units.len() / 2], counts[units.len() / 2]);
                assert_eq!(prepare_unit(&board, unit), 0);
                let sets = top_sets(&board, unit);
                let mut sum = UnitCount::default();
                for index in 0..3 {
                    sum += count_sets(&board, unit, SetRange::part(sets, index, 3));
                }
                assert_eq!(sum, whole, "n = {n}, {width:?}, {unit:?}");
            }
        }
    }

    #[test]
    fn wide_boards_count_the_same_in_narrow_words_split_or_wide() {
        // From n = 24 the board's layout is wide, and each set is joined in
        // narrow words when its shared diagonals fit them (see
        // `crate::shape`), else split until they do, or in wide words when
        // too small to split; at n = 24 nearly all fit. Here the wide
        // layout counts boards whose totals are known, with every set in
        // narrow words (index chosen for every set, or none), with words
        // so short that every set is split (to a word of a few diagonals,
        // many times over), and with every set falling back to wide words.
        for n in tier::boards(14..=14, 14..=15) {
            let symmetries = [Symmetries::Split, Symmetries::LongDiagonals];
            for symmetries in symmetries
                .into_iter()
                .filter(|&s| s == Symmetries::Split || n.is_multiple_of(2))
            {
                let board = Board::with_options(n, Width::Wide, symmetries);
                let cases = [
                    (join::LOW_BITS, 0, u64::MAX),
                    (join::LOW_BITS, u64::MAX, u64::MAX),
                    (3, u64::MAX, 0),
                    (4, 0, 0),
                    (0, 0, u64::MAX),
                ];
                // Splitting down to a few diagonals makes many small joins,
                // each paying its buckets' counters: the smallest board.
                let cases = cases.into_iter().filter(|case| n == 14 || case.2 != 0);
                for (limit, min_choice_pairs, split_from) in cases {
                    let board = retuned(&board, |tuning| {
                        tuning.word_limit = limit;
                        tuning.min_choice_pairs = min_choice_pairs;
                        tuning.min_split_pairs = split_from;
                    });
                    let buffers = &mut Buffers::default();
                    let (mut counted, mut stats) = (0, JoinStats::default());
                    for unit in board.units().into_iter().filter(|&u| board.is_canonical(u)) {
                        let count = count_unit_by_quarters(Portable, &board, unit, buffers);
                        counted += count.count.solutions;
                        stats.splits += count.stats.splits;
                        stats.wide_sets += count.stats.wide_sets;
                    }
                    assert_eq!(
                        Some(counted),
                        oeis::total(n),
                        "n = {n}, {symmetries:?}, limit {limit}, chosen from {min_choice_pairs}, split from {split_from}"
                    );
                    // Each case took the path it names, and no other.
                    assert_eq!(
                        stats.splits > 0,
                        split_from == 0,
                        "n = {n}, limit {limit}: sets were split"
                    );
                    assert_eq!(
                        stats.wide_sets > 0,
                        limit == 0 || (split_from == u64::MAX && limit < join::LOW_BITS),
                        "n = {n}, limit {limit}: sets fell back to wide words"
                    );
                }
            }
        }
    }

    #[test]
    fn chosen_index_diagonals_leave_the_join_fewer_pairs_than_central_ones() {
        // What the choice is for (see `crate::index`): on sampled units of
        // n = 18 and 19, the sets big enough to
        // choose for taking their own index diagonals leave the kernel
        // fewer pairs to test than the layout's central ones, and the units
        // count the same. (Deterministic: fixed units, fixed samples.)
        for n in [18, 19] {
            let board = Board::new(n);
            let canonical: Vec<Unit> = (board.units().into_iter())
                .filter(|&unit| board.is_canonical(unit))
                .collect();
            let mut tested = [0u64; 2];
            // The pairs the kernel tests, with their own index diagonals
            // in the sets big enough to choose for, and with central ones.
            let ways = [index::MIN_CHOICE_PAIRS, u64::MAX].map(|min_choice_pairs| {
                retuned(&board, |tuning| tuning.min_choice_pairs = min_choice_pairs)
            });
            for k in 0..4 {
                let unit = canonical[(k * 7919 + 13 * n) % canonical.len()];
                let mut counts = [0u64; 2];
                for (way, board) in ways.iter().enumerate() {
                    let buffers = &mut Buffers::default();
                    let counted = count_unit_by_quarters(Portable, board, unit, buffers);
                    counts[way] = counted.count.solutions;
                    tested[way] += buffers.runs.take_tested();
                }
                assert_eq!(counts[0], counts[1], "n = {n}, {unit:?}");
            }
            let [chosen, central] = tested;
            eprintln!("n = {n}: pairs tested, chosen {chosen}, central {central}");
            // At least a quarter fewer (about 40 % fewer on these units).
            assert!(
                chosen > 0 && 4 * chosen < 3 * central,
                "n = {n}: chosen {chosen}, central {central}"
            );
        }
    }

    #[test]
    fn quarters_build_exactly_the_searched_halves_of_every_set() {
        // The two ways this crate makes a unit's halves: the search of whole
        // halves (`crate::halves`, the wide layout's) and pairs of quarter
        // pieces (`crate::quarters`, the narrow layout's). For every unit,
        // side and file set of the unit, both must give the same keys, as
        // many times each; odd boards test the middle queen's attacks,
        // boards with the long diagonals the bottoms' restriction.
        for board in plain_and_klein(2..=13) {
            let n = board.n;
            let side_bits = quarters::side_bits(&board);
            let mut quarters = Quarters::default();
            let mut keys = Vec::new();
            for unit in board.units() {
                let flipped = board.map_unit(SplitSymmetry::Flip, unit);
                for (unit, role) in [(unit, Role::Top), (flipped, Role::Bottom)] {
                    let mut searched: BTreeMap<u32, Vec<u64>> = BTreeMap::new();
                    search(&board, unit, role)
                        .run(|files, key| searched.entry(files).or_default().push(key));
                    quarters.build(
                        Portable,
                        &board,
                        &side_bits,
                        contributions(&board, role),
                        forbidden(&board, unit, role),
                        unit.middle,
                        unit.pattern,
                    );
                    let outside = board.full & !board.block & !Board::middle_bit(unit.middle);
                    let wanted = board.half - unit.pattern.count_ones() as usize;
                    let mut rest = 0u32;
                    loop {
                        if rest.count_ones() as usize == wanted {
                            let set = unit.pattern | rest;
                            let (found, _) = quarters.halves(Portable, set, Part::WHOLE, &mut keys);
                            let mut made = keys[..found].to_vec();
                            made.sort_unstable();
                            let mut expected = searched.remove(&set).unwrap_or_default();
                            expected.sort_unstable();
                            assert_eq!(made, expected, "n = {n}, {unit:?}, set {set:#b}");
                        }
                        rest = rest.wrapping_sub(outside) & outside;
                        if rest == 0 {
                            break;
                        }
                    }
                    assert!(searched.is_empty(), "n = {n}: every searched set was made");
                }
            }
        }
    }
}
