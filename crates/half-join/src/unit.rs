//! Counting one unit: enumerate its top halves and the bottom halves they
//! need, group both by file set, and join each top set with its bottom set.

use std::cell::RefCell;

use queens_core::split::UnitCount;

use crate::board::{Board, SplitSymmetry, Unit, choose};
use crate::halves::{HalfSearch, Walk};
use crate::index::{self, Chooser, Remap};
use crate::join::{self, BottomRuns, Role, Side, Word};
use crate::layout::Width;
use crate::quarters::{self, Quarters};

/// A thread's memory for counting units, kept from one unit to the next:
/// a unit's halves take megabytes, and fresh allocations would be page
/// faults and zeroing on every unit, paid twice over when threads share the
/// caches. A pool thread's workspace ends with the count; the caller's (a
/// one-thread count runs there) stays for its next count, as big as the
/// largest unit so far. Both layouts' buffers are here; a count uses one.
#[derive(Default)]
struct Workspace {
    narrow: Buffers<u32>,
    wide: Buffers<u64>,
}

/// The buffers of one layout's word.
struct Buffers<W> {
    /// Unsorted halves of the side being filled: (bucket, compared word).
    unsorted: Vec<(u32, W)>,
    /// Bucket sizes, then the counting sort's cursors.
    counts: Vec<u32>,
    tops: Side<W>,
    bottoms: Side<W>,
    /// The join's runs of bottoms a bucket of tops may meet: listed, and
    /// gathered end to end.
    runs: BottomRuns<W>,
    /// The unit's quarters of tops and of bottoms, and one set's keys on
    /// each side.
    top_quarters: Quarters,
    bottom_quarters: Quarters,
    keys: Vec<u64>,
    bottom_keys: Vec<u64>,
    /// Where one set's choice of index diagonals moves the keys' bits.
    remap: Remap,
}

impl<W: Word> Default for Buffers<W> {
    fn default() -> Self {
        Buffers {
            unsorted: Vec::new(),
            counts: Vec::new(),
            tops: Side::default(),
            bottoms: Side::default(),
            runs: BottomRuns::default(),
            top_quarters: Quarters::default(),
            bottom_quarters: Quarters::default(),
            keys: Vec::new(),
            bottom_keys: Vec::new(),
            remap: Remap::default(),
        }
    }
}

impl<W: Word> Buffers<W> {
    /// Bytes held: what a thread keeps for counting units of this layout.
    #[cfg(test)]
    fn bytes(&self) -> usize {
        self.unsorted.capacity() * size_of::<(u32, W)>()
            + self.counts.capacity() * size_of::<u32>()
            + self.tops.bytes()
            + self.bottoms.bytes()
            + self.runs.bytes()
            + self.top_quarters.bytes()
            + self.bottom_quarters.bytes()
            + (self.keys.capacity() + self.bottom_keys.capacity()) * size_of::<u64>()
            + self.remap.bytes()
    }
}

/// Why a unit's arithmetic cannot overflow: its count is at most Q(n), and
/// the layouts stop at n = 28, where Q(n) still fits a `u64`.
const FITS: &str = "a unit counts at most Q(n) < 2^64 solutions for n <= 28";

thread_local! {
    static WORKSPACE: RefCell<Workspace> = RefCell::default();
}

/// Halves per side held at once, so that a thread's memory is bounded
/// whatever n is: 64 MiB of compared words per side (2^24 narrow halves,
/// 2^23 wide ones). Up to n = 21 no unit reaches it, so a unit is one chunk
/// of tops against one of bottoms; beyond, the bottoms are walked again for
/// every chunk of tops.
pub(crate) const CHUNK_BYTES: usize = 64 << 20;

/// [`CHUNK_BYTES`] in halves of a layout's word.
fn chunk<W>() -> u64 {
    (CHUNK_BYTES / size_of::<W>()) as u64
}

/// A side's key bits per rank and file.
fn contributions(board: &Board, role: Role) -> &[[u64; 32]] {
    match role {
        Role::Top => &board.layout.top,
        Role::Bottom => &board.layout.bottom,
    }
}

/// The squares a side's queens may not take, per rank from the edge: the
/// middle queen's attacks, and for bottoms with the long diagonals'
/// symmetries those diagonals.
fn forbidden(board: &Board, unit: Unit, role: Role) -> [u32; crate::halves::MAX_HALF] {
    let mut attacked = board.middle_attacks(unit.middle);
    if board.klein && matches!(role, Role::Bottom) {
        for (attacked, squares) in attacked.iter_mut().zip(board.long_diagonals()) {
            *attacked |= squares;
        }
    }
    attacked
}

/// The search for one side of a unit.
fn search(board: &Board, unit: Unit, role: Role) -> HalfSearch<'_> {
    HalfSearch {
        contributions: contributions(board, role),
        attacked: forbidden(board, unit, role),
        files: board.full & !Board::middle_bit(unit.middle),
        block: board.block,
        pattern: unit.pattern,
    }
}

/// Enumerates the next chunk of a side's halves (at most about `limit`, see
/// [`HalfSearch::resume`]) into `side`, bucketed by (file set, index bits):
/// a counting sort, counted while searching, then placed. Returns the
/// nodes and the halves.
#[expect(
    clippy::too_many_arguments,
    reason = "the buffers of one chunk, borrowed apart"
)]
fn fill_chunk<W: Word>(
    board: &Board,
    search: &HalfSearch<'_>,
    walk: &mut Walk,
    limit: u64,
    role: Role,
    side: &mut Side<W>,
    unsorted: &mut Vec<(u32, W)>,
    counts: &mut Vec<u32>,
) -> (u64, usize) {
    let (mark, step) = role.filling::<W>();
    let index_bits = board.layout.index_bits;
    counts.clear();
    // Every half of a side has as many files outside the block.
    let outside = board.half - search.pattern.count_ones() as usize;
    counts.resize(board.sets_with(outside) << index_bits, 0);
    unsorted.clear();
    let nodes = search.resume(walk, limit, |files, key| {
        let (index, word) = W::split(key, index_bits);
        let bucket = (board.set_index(files) << index_bits) | index as usize;
        counts[bucket] += 1;
        unsorted.push((bucket as u32, word.marked(mark)));
    });
    side.fill(index_bits, counts, unsorted, step);
    (nodes, unsorted.len())
}

/// The solutions a unit stands for: its orbit's worth of each top set's
/// joins, each top set weighted by its orbit under the symmetries that fix
/// the unit (and skipped unless it is the smallest of that orbit).
pub(crate) fn count_unit(board: &Board, unit: Unit) -> UnitCount {
    if uses_quarters(board) {
        let prepared = prepare_unit(board, unit);
        let mut count = count_sets(board, unit, SetRange::ALL);
        count.nodes = count.nodes.checked_add(prepared).expect(FITS);
        return count;
    }
    WORKSPACE.with_borrow_mut(|workspace| match board.layout.width {
        Width::Wide => count_unit_in(board, unit, &mut workspace.wide, chunk::<u64>()),
        Width::Narrow => count_unit_in(board, unit, &mut workspace.narrow, chunk::<u32>()),
    })
}

/// Whether a board's units make their halves from quarters (and so can be
/// counted in parts): see [`QUARTERS_MIN_N`].
pub(crate) fn uses_quarters(board: &Board) -> bool {
    board.n >= QUARTERS_MIN_N && board.layout.width == Width::Narrow
}

/// Builds a unit's quarters in this thread's workspace (kept for the parts
/// that follow, and reused if they are already the unit's); returns the
/// queens placed, as counted whether built now or reused. A board without
/// quarters has no shared work.
pub(crate) fn prepare_unit(board: &Board, unit: Unit) -> u64 {
    if !uses_quarters(board) {
        return 0;
    }
    WORKSPACE.with_borrow_mut(|workspace| build_quarters(board, unit, &mut workspace.narrow))
}

/// Into how many parts a unit can be cut: one per top set it joins on
/// boards made from quarters (a part is a range of them), else one.
pub(crate) fn parts(board: &Board, unit: Unit) -> u32 {
    if !uses_quarters(board) {
        return 1;
    }
    u32::try_from(top_sets(board, unit))
        .unwrap_or(u32::MAX)
        .max(1)
}

/// A range of a unit's top sets, by their place in [`for_each_top_set`]'s
/// order: a part of the unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SetRange {
    /// The first set's place.
    pub start: u64,
    /// The place after the last set.
    pub end: u64,
}

impl SetRange {
    /// Every set of a unit.
    pub(crate) const ALL: SetRange = SetRange {
        start: 0,
        end: u64::MAX,
    };

    /// Part `index` of `of` of `sets` sets: the sets whose places p have
    /// index · sets / of <= p < (index + 1) · sets / of, so that the parts
    /// of one cut cover every set exactly once, in order.
    pub(crate) fn part(sets: u64, index: u32, of: u32) -> SetRange {
        let at = |i: u32| (u128::from(sets) * u128::from(i) / u128::from(of.max(1))) as u64;
        SetRange {
            start: at(index),
            end: at(index + 1),
        }
    }
}

/// The top sets `sets` of a unit on a board made from quarters, counted
/// with the quarters this thread holds (built first if they are not the
/// unit's): its nodes are the pairs of pieces tested, the quarters' queens
/// left out (see [`prepare_unit`]).
pub(crate) fn count_sets(board: &Board, unit: Unit, sets: SetRange) -> UnitCount {
    debug_assert!(uses_quarters(board));
    WORKSPACE.with_borrow_mut(|workspace| {
        let buffers = &mut workspace.narrow;
        build_quarters(board, unit, buffers);
        join_sets(
            board,
            unit,
            buffers,
            sets,
            index::MIN_CHOICE_PAIRS,
            &mut |_, _, _| {},
        )
    })
}

/// The smallest board whose halves are made from quarters: below, a unit's
/// halves are too few to pay for finding and filing its quarters' pieces,
/// and the search of halves was faster (timed side by side in `cargo bench`
/// and in whole counts at n = 8 to 14).
pub(crate) const QUARTERS_MIN_N: usize = 14;

/// The bytes this thread holds for counting units (its buffers, kept):
/// after a unit, what that unit needed at most (`reach` reports it).
#[cfg(test)]
pub(crate) fn workspace_bytes() -> usize {
    WORKSPACE.with_borrow(|workspace| workspace.narrow.bytes() + workspace.wide.bytes())
}

/// [`count_unit`] in one layout's buffers, `limit` halves per chunk.
fn count_unit_in<W: Word>(
    board: &Board,
    unit: Unit,
    buffers: &mut Buffers<W>,
    limit: u64,
) -> UnitCount {
    let (images, fixing) = board.orbit(unit);
    let Buffers {
        unsorted,
        counts,
        tops,
        bottoms,
        runs,
        ..
    } = buffers;
    let top_search = search(board, unit, Role::Top);
    let bottom_search = search(
        board,
        board.map_unit(SplitSymmetry::Flip, unit),
        Role::Bottom,
    );
    let mut top_walk = Walk::default();
    let mut nodes = 0;
    let mut solutions = 0u64;
    let mut first = true;
    while !top_walk.is_done() {
        let (top_nodes, halves) = fill_chunk(
            board,
            &top_search,
            &mut top_walk,
            limit,
            Role::Top,
            tops,
            unsorted,
            counts,
        );
        nodes += top_nodes;
        if halves == 0 && !first {
            // The search ended in dead branches after the last chunk.
            break;
        }
        first = false;
        let mut bottom_walk = Walk::default();
        while !bottom_walk.is_done() {
            let (bottom_nodes, _) = fill_chunk(
                board,
                &bottom_search,
                &mut bottom_walk,
                limit,
                Role::Bottom,
                bottoms,
                unsorted,
                counts,
            );
            nodes += bottom_nodes;
            for_each_top_set(board, unit, &fixing, |top_set, weight| {
                let bottom_set = board.bottom_set(unit.middle, top_set);
                let pairs = join::count_pairs(
                    tops,
                    board.set_index(top_set),
                    bottoms,
                    board.set_index(bottom_set),
                    board.doubling(),
                    runs,
                );
                solutions = weigh(solutions, weight, pairs);
            });
        }
    }
    orbit_count(images.len(), solutions, nodes)
}

/// [`count_unit`] with halves built set by set from quarters (see
/// [`crate::quarters`]): the quarters built, then every set joined (see
/// [`join_sets`]).
#[cfg(test)]
fn count_unit_by_quarters(
    board: &Board,
    unit: Unit,
    buffers: &mut Buffers<u32>,
    min_choice_pairs: u64,
    observe: &mut SetObserver<'_>,
) -> UnitCount {
    let built = build_quarters(board, unit, buffers);
    let mut count = join_sets(
        board,
        unit,
        buffers,
        SetRange::ALL,
        min_choice_pairs,
        observe,
    );
    count.nodes += built;
    count
}

/// Builds the quarters of a unit's tops and of its bottoms (or keeps them,
/// if they are already the unit's); returns their queens placed.
fn build_quarters<W: Word>(board: &Board, unit: Unit, buffers: &mut Buffers<W>) -> u64 {
    let side_bits = quarters::side_bits(board);
    let bottom_unit = board.map_unit(SplitSymmetry::Flip, unit);
    let mut nodes = 0;
    for (quarters, unit, role) in [
        (&mut buffers.top_quarters, unit, Role::Top),
        (&mut buffers.bottom_quarters, bottom_unit, Role::Bottom),
    ] {
        nodes += quarters.build(
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

/// Joins the top sets `sets` of a unit whose quarters `buffers` holds: each
/// top set's tops and its bottom set's bottoms are made, the set's index
/// diagonals chosen from both (see [`crate::index`]), both sides sorted into
/// index buckets and joined before the next set. Sets with fewer than
/// `min_choice_pairs` pairs keep the layout's index (see
/// [`index::MIN_CHOICE_PAIRS`]; tests choose for every set, or none).
/// `observe(pairs, tops, bottoms)` sees each set's sides before the join,
/// with its pairs before the buckets (tests measure what the buckets skip).
/// Its nodes are the pairs of pieces tested.
fn join_sets(
    board: &Board,
    unit: Unit,
    buffers: &mut Buffers<u32>,
    sets: SetRange,
    min_choice_pairs: u64,
    observe: &mut SetObserver<'_>,
) -> UnitCount {
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
    let chooser = Chooser::new(&board.layout, board.doubling());
    let index_bits = board.layout.index_bits;
    let mut nodes = 0;
    let mut solutions = 0u64;
    let mut place = 0u64;
    for_each_top_set(board, unit, &fixing, |top_set, weight| {
        let here = place;
        place += 1;
        if !(sets.start..sets.end).contains(&here) {
            return;
        }
        let (top_found, tested) = top_quarters.halves(top_set, keys);
        nodes += tested;
        if top_found == 0 {
            return;
        }
        let bottom_set = board.bottom_set(unit.middle, top_set);
        let (bottom_found, tested) = bottom_quarters.halves(bottom_set, bottom_keys);
        nodes += tested;
        if bottom_found == 0 {
            return;
        }
        let (top_keys, bottom_keys) = (&keys[..top_found], &bottom_keys[..bottom_found]);
        // Small sets keep the layout's central diagonals.
        let all_pairs = (top_found as u64) * (bottom_found as u64);
        let big = all_pairs >= min_choice_pairs;
        let remap = big.then(|| {
            chooser.choose(top_keys, bottom_keys, remap);
            &*remap
        });
        sort_set(
            index_bits,
            top_keys,
            remap,
            Role::Top,
            tops,
            unsorted,
            counts,
        );
        sort_set(
            index_bits,
            bottom_keys,
            remap,
            Role::Bottom,
            bottoms,
            unsorted,
            counts,
        );
        observe(all_pairs, tops, bottoms);
        let pairs = join::count_pairs(tops, 0, bottoms, 0, board.doubling(), runs);
        solutions = weigh(solutions, weight, pairs);
    });
    orbit_count(images.len(), solutions, nodes)
}

/// What [`count_unit_by_quarters`] shows a set before its join: its pairs
/// before the buckets, its tops and its bottoms.
type SetObserver<'a> = dyn FnMut(u64, &Side<u32>, &Side<u32>) + 'a;

/// `solutions` plus `weight` times a set's `pairs`, checked.
fn weigh(solutions: u64, weight: u64, pairs: u64) -> u64 {
    weight
        .checked_mul(pairs)
        .and_then(|weighed| solutions.checked_add(weighed))
        .expect(FITS)
}

/// What a unit stands for: its `solutions` times its orbit's `images`.
fn orbit_count(images: usize, solutions: u64, nodes: u64) -> UnitCount {
    UnitCount {
        solutions: (images as u64).checked_mul(solutions).expect(FITS),
        fixed_pairs: 0,
        nodes,
    }
}

/// Sorts one set's halves (keys, rearranged by `remap`) into `side` by
/// index bits, as set 0.
fn sort_set<W: Word>(
    index_bits: usize,
    keys: &[u64],
    remap: Option<&Remap>,
    role: Role,
    side: &mut Side<W>,
    unsorted: &mut Vec<(u32, W)>,
    counts: &mut Vec<u32>,
) {
    let (mark, step) = role.filling::<W>();
    counts.clear();
    counts.resize(1 << index_bits, 0);
    unsorted.clear();
    for &key in keys {
        let key = remap.map_or(key, |remap| remap.apply(key));
        let (index, word) = W::split(key, index_bits);
        counts[index as usize] += 1;
        unsorted.push((index, word.marked(mark)));
    }
    side.fill(index_bits, counts, unsorted, step);
}

/// Calls `visit(top set, weight)` for every top set of the unit that is the
/// smallest of its orbit under the symmetries fixing the unit (`fixing`,
/// identity included), weighted by that orbit's size.
pub(crate) fn for_each_top_set(
    board: &Board,
    unit: Unit,
    fixing: &[SplitSymmetry],
    mut visit: impl FnMut(u32, u64),
) {
    let outside = board.full & !board.block & !Board::middle_bit(unit.middle);
    // The pattern plus files outside the block, as many as the half needs.
    let wanted = board.half - unit.pattern.count_ones() as usize;
    let mut rest = 0u32;
    loop {
        if rest.count_ones() as usize == wanted {
            let top_set = unit.pattern | rest;
            let mut images = [0u32; 4];
            for (image, &symmetry) in images.iter_mut().zip(fixing) {
                *image = board.map_set(symmetry, unit.middle, top_set, board.full);
            }
            let images = &mut images[..fixing.len()];
            if images.iter().all(|&image| image >= top_set) {
                images.sort_unstable();
                let distinct = 1 + images.windows(2).filter(|w| w[0] != w[1]).count();
                visit(top_set, distinct as u64);
            }
        }
        rest = rest.wrapping_sub(outside) & outside;
        if rest == 0 {
            return;
        }
    }
}

/// The number of top sets a unit joins (its weight in the plan). A unit no
/// symmetry fixes (nearly all) joins every top set, a binomial; the others
/// are counted one set at a time.
pub(crate) fn top_sets(board: &Board, unit: Unit) -> u64 {
    let (_, fixing) = board.orbit(unit);
    if fixing.len() == 1 {
        let outside = board.full & !board.block & !Board::middle_bit(unit.middle);
        let wanted = board.half.checked_sub(unit.pattern.count_ones() as usize);
        return wanted.map_or(0, |wanted| {
            choose(outside.count_ones() as u64, wanted as u64)
        });
    }
    let mut sets = 0;
    for_each_top_set(board, unit, &fixing, |_, _| sets += 1);
    sets
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Symmetries;
    use queens_core::{check, oeis};
    use std::collections::BTreeMap;

    /// The unit of a solution, read off the board directly: the file of the
    /// middle rank's queen (odd n) and the block files of the queens on the
    /// first n / 2 ranks. (Which half is called "top" does not matter below:
    /// the other choice gives the flipped unit, in the same orbit.)
    fn unit_of(board: &Board, rows: &[u8]) -> Unit {
        let half = board.half as u8;
        let middle = board
            .is_odd()
            .then(|| rows.iter().position(|&r| r == half).unwrap() as u8);
        let top: u32 = (0..board.n)
            .filter(|&c| rows[c] < half)
            .map(|c| 1u32 << c)
            .sum();
        Unit {
            middle,
            pattern: top & board.block,
        }
    }

    /// Every solution, by unit, from brute force over all permutations.
    ///
    /// With the long diagonals' symmetries ([`Board::klein`]), what a unit
    /// stands for instead: the solutions whose bottom half avoids both long
    /// diagonals, each weighted 2 per long diagonal its top half takes.
    fn solutions_by_unit(board: &Board) -> BTreeMap<Unit, u64> {
        let n = board.n;
        let mut by_unit = BTreeMap::new();
        for rows in check::brute_force_solutions(n) {
            // rows[c] is the rank of file c's queen.
            let long = (0..n).filter(|&c| rows[c] as usize == c || rows[c] as usize == n - 1 - c);
            let (top, bottom): (Vec<usize>, Vec<usize>) =
                long.partition(|&c| (rows[c] as usize) < board.half);
            let weight = match board.klein {
                false => 1,
                true if bottom.is_empty() => 1 << top.len(),
                true => continue,
            };
            *by_unit.entry(unit_of(board, &rows)).or_default() += weight;
        }
        by_unit
    }

    /// The narrow boards of these sizes, and the even ones again with the
    /// long diagonals' symmetries.
    fn plain_and_klein(sizes: std::ops::RangeInclusive<usize>) -> impl Iterator<Item = Board> {
        let plain = sizes
            .clone()
            .map(|n| Board::with_options(n, Width::Narrow, Symmetries::Split));
        let klein = sizes
            .filter(|n| n.is_multiple_of(2))
            .map(|n| Board::with_options(n, Width::Narrow, Symmetries::LongDiagonals));
        plain.chain(klein)
    }

    #[test]
    fn orbits_partition_the_units_and_each_has_one_canonical_member() {
        for board in plain_and_klein(4..=21) {
            let n = board.n;
            let units = board.units();
            for &unit in &units {
                let (images, fixing) = board.orbit(unit);
                // Orbit-stabiliser: the split-keeping symmetries used (four,
                // or the mirror alone with the long diagonals').
                let group = board.symmetries().len();
                assert_eq!(images.len() * fixing.len(), group, "n = {n}: {unit:?}");
                assert!(images.iter().all(|image| units.contains(image)));
                let canonical = images.iter().filter(|&&i| board.is_canonical(i)).count();
                assert_eq!(canonical, 1, "n = {n}: {unit:?}");
                for &image in &images {
                    assert_eq!(board.orbit(image).0, images, "orbits are classes");
                }
            }
        }
    }

    #[test]
    fn a_unit_counts_every_solution_of_its_orbit() {
        // The engine counts one unit per orbit and multiplies by the orbit
        // size, and inside a symmetric unit counts one top set per orbit
        // with its weight: the product must be the orbit's solutions,
        // counted here one board at a time.
        // With the long diagonals' symmetries, the orbit (under the mirror)
        // of the solutions such a unit stands for.
        for board in plain_and_klein(4..=9) {
            let n = board.n;
            let truth = solutions_by_unit(&board);
            let mut workspace = Workspace::default();
            let mut total = 0;
            for unit in board.units().into_iter().filter(|&u| board.is_canonical(u)) {
                let (images, _) = board.orbit(unit);
                let expected: u64 = images
                    .iter()
                    .map(|i| truth.get(i).copied().unwrap_or(0))
                    .sum();
                let counted = count_unit_in(&board, unit, &mut workspace.narrow, chunk::<u32>());
                let counted = counted.solutions;
                assert_eq!(counted, expected, "n = {n}: {unit:?}, orbit {images:?}");
                // Quarters, with every set's index chosen or none.
                for min_choice_pairs in [0, u64::MAX] {
                    let buffers = &mut workspace.narrow;
                    let by_quarters = count_unit_by_quarters(
                        &board,
                        unit,
                        buffers,
                        min_choice_pairs,
                        &mut |_, _, _| {},
                    );
                    assert_eq!(
                        by_quarters.solutions, expected,
                        "n = {n}: {unit:?}, quarters, chosen from {min_choice_pairs} pairs"
                    );
                }
                total += counted;
            }
            assert_eq!(Some(total), oeis::total(n), "n = {n}");
        }
    }

    /// Every canonical unit of the board, counted and summed.
    fn whole_count(board: &Board) -> u64 {
        board
            .units()
            .into_iter()
            .filter(|&u| board.is_canonical(u))
            .map(|u| count_unit(board, u).solutions)
            .sum()
    }

    #[test]
    fn every_set_counts_the_same_with_its_index_chosen_or_central() {
        // `count_unit` chooses the index diagonals of sets with many pairs
        // only (`index::MIN_CHOICE_PAIRS`), and boards small enough to count
        // whole in a test have few such sets: here every set's index is
        // chosen, or none is, on boards whose totals are known, with and
        // without the long diagonals (whose weights are read off the forced
        // index bits).
        for board in plain_and_klein(14..=16) {
            for min_choice_pairs in [0, u64::MAX] {
                let counted: u64 = (board.units().into_iter())
                    .filter(|&unit| board.is_canonical(unit))
                    .map(|unit| {
                        let buffers = &mut Buffers::default();
                        count_unit_by_quarters(
                            &board,
                            unit,
                            buffers,
                            min_choice_pairs,
                            &mut |_, _, _| {},
                        )
                        .solutions
                    })
                    .sum();
                let (n, klein) = (board.n, board.klein);
                assert_eq!(
                    Some(counted),
                    oeis::total(n),
                    "n = {n}, klein {klein}, chosen from {min_choice_pairs} pairs"
                );
            }
        }
    }

    #[test]
    fn chosen_index_diagonals_leave_the_join_fewer_pairs_than_central_ones() {
        // What the choice is for (see `crate::index`): on sampled units of
        // n = 18 (with the long diagonals) and 19, over the sets big enough
        // to choose for, each set's own index diagonals leave the kernel
        // fewer pairs to test than the layout's central ones, and the units
        // count the same. (Deterministic: fixed units, fixed samples.)
        for n in [18, 19] {
            let board = Board::new(n);
            let canonical: Vec<Unit> = (board.units().into_iter())
                .filter(|&unit| board.is_canonical(unit))
                .collect();
            let mut tested = [0u64; 2];
            for k in 0..4 {
                let unit = canonical[(k * 7919 + 13 * n) % canonical.len()];
                let mut counts = [0u64; 2];
                for (way, min_choice_pairs) in
                    [index::MIN_CHOICE_PAIRS, u64::MAX].into_iter().enumerate()
                {
                    let mut observe = |pairs: u64, tops: &Side<u32>, bottoms: &Side<u32>| {
                        if pairs >= index::MIN_CHOICE_PAIRS {
                            tested[way] += join::pairs_tested(tops, bottoms);
                        }
                    };
                    let buffers = &mut Buffers::default();
                    counts[way] = count_unit_by_quarters(
                        &board,
                        unit,
                        buffers,
                        min_choice_pairs,
                        &mut observe,
                    )
                    .solutions;
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
    fn every_layout_and_symmetry_choice_counts_every_board_it_is_given() {
        // The wide layout is the one for n > 23, and the long diagonals'
        // symmetries are for even n >= KLEIN_MIN_N, where no count is
        // affordable in a test: here every combination counts boards whose
        // totals are known, both parities (the long diagonals on even boards
        // only: bottoms off both, tops weighted by theirs, units up to the
        // mirror).
        for n in 4..=16usize {
            for width in [Width::Narrow, Width::Wide] {
                for symmetries in [Symmetries::Split, Symmetries::LongDiagonals] {
                    if symmetries == Symmetries::LongDiagonals && !n.is_multiple_of(2) {
                        continue;
                    }
                    let board = Board::with_options(n, width, symmetries);
                    let counted = Some(whole_count(&board));
                    assert_eq!(
                        counted,
                        oeis::total(n),
                        "n = {n}, {width:?}, {symmetries:?}"
                    );
                }
            }
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
                            let (found, _) = quarters.halves(set, &mut keys);
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

    #[test]
    fn the_readmes_table_of_units_and_nodes_is_what_the_engine_counts() {
        let mut table = String::from("| n | units | nodes |\n|---|---|---|\n");
        for n in [12, 14, 16] {
            let board = Board::new(n);
            let units: Vec<Unit> = board
                .units()
                .into_iter()
                .filter(|&u| board.is_canonical(u))
                .collect();
            let nodes: u64 = units.iter().map(|&u| count_unit(&board, u).nodes).sum();
            let millions = nodes as f64 / 1e6;
            table += &format!("| {n} | {} + 1 | {millions:.2} M |\n", units.len());
        }
        assert!(
            include_str!("../README.md").contains(&table),
            "the README's table should read:\n{table}"
        );
    }

    #[test]
    fn units_counted_in_small_chunks_count_the_same() {
        // Large boards pair chunks of tops with chunks of bottoms; here the
        // chunks are made tiny so that boards with known counts take every
        // path of that loop (many chunks, a last chunk of dead branches).
        let mut narrow = Buffers::<u32>::default();
        let mut wide = Buffers::<u64>::default();
        for n in 4..=12 {
            // Every chunk of tops walks all bottoms again: tiny chunks only
            // on small boards.
            let limits: &[u64] = if n <= 8 { &[1, 3, 40] } else { &[200, 5000] };
            for &limit in limits {
                let mut totals = [0, 0];
                for (total, width) in totals.iter_mut().zip([Width::Narrow, Width::Wide]) {
                    let board = Board::with_width(n, width);
                    for unit in board.units().into_iter().filter(|&u| board.is_canonical(u)) {
                        let [whole, chunked] = [u64::MAX, limit].map(|limit| match width {
                            Width::Wide => count_unit_in(&board, unit, &mut wide, limit),
                            Width::Narrow => count_unit_in(&board, unit, &mut narrow, limit),
                        });
                        assert_eq!(chunked.solutions, whole.solutions, "n = {n}, {unit:?}");
                        assert!(chunked.nodes >= whole.nodes, "bottoms walked again");
                        *total += chunked.solutions;
                    }
                }
                assert_eq!(
                    totals.map(Some),
                    [oeis::total(n); 2],
                    "n = {n}, limit {limit}"
                );
            }
        }
    }

    /// The solutions of one unit (not its orbit): a three-mask search of the
    /// whole board, rank by rank, held to the unit's middle file and block
    /// pattern. Independent of the halves, keys and join it checks.
    ///
    /// With the long diagonals' symmetries ([`Board::klein`]), it counts
    /// what such a unit stands for: solutions whose bottom half avoids both
    /// long diagonals, each weighted 2 per long diagonal its top half takes.
    fn backtrack_unit(board: &Board, unit: Unit) -> u64 {
        fn place(
            board: &Board,
            unit: Unit,
            rank: usize,
            used: u32,
            fall: u32,
            rise: u32,
            weight: u64,
        ) -> u64 {
            let n = board.n;
            if rank == n {
                return weight;
            }
            let mut open = board.full & !(used | fall | rise);
            let top_ranks = board.half;
            let long = 1 << rank | 1 << (n - 1 - rank);
            if board.klein && rank >= n - top_ranks {
                open &= !long;
            }
            if rank < top_ranks {
                // Block files only from the pattern, and all of them by the
                // end of the top half.
                open &= !board.block | unit.pattern;
                let missing = (unit.pattern & !used).count_ones() as usize;
                if missing == top_ranks - rank {
                    open &= unit.pattern & !used;
                }
            } else if rank == top_ranks
                && let Some(m) = unit.middle
            {
                open &= 1 << m;
            }
            let mut found = 0;
            while open != 0 {
                let bit = open & open.wrapping_neg();
                open ^= bit;
                let doubled = board.klein && rank < top_ranks && bit & long != 0;
                found += place(
                    board,
                    unit,
                    rank + 1,
                    used | bit,
                    (fall | bit) << 1,
                    (rise | bit) >> 1,
                    if doubled { 2 * weight } else { weight },
                );
            }
            found
        }
        if board.is_odd() != unit.middle.is_some() {
            return 0;
        }
        place(board, unit, 0, 0, 0, 0, 1)
    }

    #[test]
    fn sampled_units_agree_with_a_backtracker_held_to_the_unit() {
        // Units picked by a fixed stride through the plan, at the sizes the
        // engine is tuned for; each unit's count (its whole orbit) against
        // the backtracker's count of every image.
        // At n = 17 and 18 the backtracker takes seconds per unit: the
        // sample comes from the lighter units (fewest top sets) there.
        // Even sizes also with the long diagonals' symmetries.
        let sizes = [
            (15, 3, 1, Symmetries::Split),
            (16, 2, 1, Symmetries::Split),
            (17, 1, 2, Symmetries::Split),
            (18, 1, 3, Symmetries::Split),
        ];
        let klein = [
            (16, 2, 1, Symmetries::LongDiagonals),
            (18, 1, 3, Symmetries::LongDiagonals),
        ];
        for (n, samples, lightest, symmetries) in sizes.into_iter().chain(klein) {
            let narrow = Board::with_options(n, Width::Narrow, symmetries);
            let wide = Board::with_options(n, Width::Wide, symmetries);
            let mut canonical: Vec<Unit> = narrow
                .units()
                .into_iter()
                .filter(|&u| narrow.is_canonical(u))
                .collect();
            canonical.sort_by_key(|&u| (top_sets(&narrow, u), u));
            for k in 0..samples {
                let unit = canonical[(k * 7919 + 13 * n) % (canonical.len() / lightest)];
                let (images, _) = narrow.orbit(unit);
                let expected: u64 = images.iter().map(|&i| backtrack_unit(&narrow, i)).sum();
                for board in [&narrow, &wide] {
                    let counted = count_unit(board, unit).solutions;
                    let width = board.layout.width;
                    assert_eq!(
                        counted, expected,
                        "n = {n}, {width:?}, {symmetries:?}: {unit:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_backtracker_held_to_units_covers_every_solution() {
        // Its restriction is right: over all units it finds Q(n), with the
        // long diagonals' weights too.
        for board in plain_and_klein(4..=10) {
            let n = board.n;
            let total: u64 = board
                .units()
                .into_iter()
                .map(|u| backtrack_unit(&board, u))
                .sum();
            assert_eq!(Some(total), oeis::total(n), "n = {n}");
        }
    }

    #[test]
    fn top_set_weights_add_up_to_every_top_set_of_the_unit() {
        for n in 4..=16 {
            let board = Board::new(n);
            for unit in board.units() {
                let (_, fixing) = board.orbit(unit);
                let outside = board.full & !board.block & !Board::middle_bit(unit.middle);
                let wanted = board.half - unit.pattern.count_ones() as usize;
                let all_sets = binomial(outside.count_ones() as u64, wanted as u64);
                let mut weighed = 0;
                let mut representatives = 0;
                for_each_top_set(&board, unit, &fixing, |set, weight| {
                    assert_eq!(set & board.block, unit.pattern);
                    assert!(matches!(weight, 1 | 2 | 4), "weight {weight}");
                    weighed += weight;
                    representatives += 1;
                });
                assert_eq!(weighed, all_sets, "n = {n}: {unit:?}");
                assert_eq!(top_sets(&board, unit), representatives);
                if fixing.len() == 1 {
                    assert_eq!(representatives, all_sets, "no symmetry, no reduction");
                }
            }
        }
    }

    /// Reach: the plan and the heaviest unit of every large board, with
    /// the memory the unit took (run with --ignored --nocapture).
    #[test]
    #[ignore = "minutes: a measurement, not a check"]
    fn reach() {
        let sizes: Vec<usize> = std::env::var("REACH")
            .map(|v| v.split(',').map(|s| s.parse().unwrap()).collect())
            .unwrap_or((22..=28).collect());
        for n in sizes {
            let started = std::time::Instant::now();
            let plan = crate::plan::plan(n);
            let planned = started.elapsed();
            let width = if std::env::var("WIDE").is_ok() {
                Width::Wide
            } else {
                Width::for_n(n)
            };
            let board = Board::with_width(n, width);
            let heaviest = plan.units[..plan.units.len() - 1]
                .iter()
                .max_by_key(|u| u.weight)
                .unwrap();
            eprintln!("n = {n}: {} units, plan {planned:?}", plan.units.len());
            if std::env::var("REACH_COUNT").is_err() {
                continue;
            }
            let started = std::time::Instant::now();
            let count = count_unit(&board, Unit::from_key(heaviest.key));
            eprintln!(
                "n = {n}: {} units, plan {planned:?}, heaviest (weight {}) {:?}, {} solutions, {} nodes, {} MB",
                plan.units.len(),
                heaviest.weight,
                started.elapsed(),
                count.solutions,
                count.nodes,
                workspace_bytes() >> 20
            );
        }
    }

    fn binomial(n: u64, k: u64) -> u64 {
        if k > n {
            return 0;
        }
        (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
    }
}
