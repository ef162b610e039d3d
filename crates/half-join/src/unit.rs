//! Counting one unit: enumerate its top halves and the bottom halves they
//! need, group both by file set, and join each top set with its bottom set.
//!
//! The jobs run in a thread's workspace (`workspace`); small boards search
//! their halves whole (`searched`), larger ones make them from quarters,
//! set by set (`quartered`), in the parts a count selects (`selection`).
//! Here: what every path shares.

use std::cell::RefCell;

use queens_core::split::{Part, UnitCount};

use crate::arch::{self, Isa, Task};
use crate::board::{Board, SplitSymmetry, Unit, choose};
use crate::halves::{HalfSearch, Walk};
use crate::index::{Chooser, Remap};
use crate::join::{self, BottomRuns, Role, Side, Word};
use crate::layout::Width;
use crate::quarters::{self, Quarters};
use crate::shape;
use crate::tuning::Tuning;

mod quartered;
mod searched;
mod selection;
mod workspace;

use quartered::*;
use searched::*;
pub(crate) use selection::{Selection, SetCut, SetRange};
use workspace::*;
pub(crate) use workspace::{count_selection, count_unit, parts, prepare_set, prepare_unit};

/// Why a unit's arithmetic cannot overflow: its count is at most Q(n), and
/// the layouts stop at n = 28, where Q(n) still fits a `u64`.
const FITS: &str = "a unit counts at most Q(n) < 2^64 solutions for n <= 28";

/// A side's key bits per rank and file.
pub(crate) fn contributions(board: &Board, role: Role) -> &[[u64; 32]] {
    match role {
        Role::Top => &board.layout.top,
        Role::Bottom => &board.layout.bottom,
    }
}

/// The squares a side's queens may not take, per rank from the edge: the
/// middle queen's attacks, and for bottoms with the long diagonals'
/// symmetries those diagonals.
pub(crate) fn forbidden(board: &Board, unit: Unit, role: Role) -> [u32; crate::halves::MAX_HALF] {
    let mut attacked = board.middle_attacks(unit.middle);
    if board.klein && matches!(role, Role::Bottom) {
        for (attacked, squares) in attacked.iter_mut().zip(board.long_diagonals()) {
            *attacked |= squares;
        }
    }
    attacked
}

/// How a count's sets were joined: what tests and measurements check of
/// the paths a tuning takes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct JoinStats {
    /// Sets (or splits of them) of a wide board split by a shared diagonal
    /// ([`join_shaped`]).
    pub splits: u64,
    /// Sets (or splits) of a wide board joined as wide words ([`join_wide`]).
    pub wide_sets: u64,
}

/// A count and how its sets were joined.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Counted {
    pub count: UnitCount,
    pub stats: JoinStats,
}

impl From<UnitCount> for Counted {
    fn from(count: UnitCount) -> Counted {
        Counted {
            count,
            stats: JoinStats::default(),
        }
    }
}

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
        pair_tests: 0,
    }
}

/// Sorts one set's halves (keys, rearranged by `remap`) into `side` by
/// index bits, as set 0. The rearrangement runs compiled for `isa`'s
/// level (`pext` or tables).
#[expect(
    clippy::too_many_arguments,
    reason = "the level, the set's keys and the buffers, borrowed apart"
)]
fn sort_set<W: Word, L: Isa>(
    isa: L,
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
    isa.run(
        #[inline(always)]
        || {
            let mut entry = |key: u64| {
                let (index, word) = W::split(key, index_bits);
                counts[index as usize] += 1;
                (index, word.marked(mark))
            };
            // One loop per case, and `extend`, so that the loop tests neither
            // the remap nor the vector's capacity per key.
            match remap {
                Some(remap) => {
                    unsorted.extend(keys.iter().map(|&key| entry(remap.apply(isa, key))))
                }
                None => unsorted.extend(keys.iter().map(|&key| entry(key))),
            }
        },
    );
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

/// The number of top sets a unit joins. A unit no
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
pub(crate) mod tests {
    use super::*;
    use crate::arch::Portable;
    use crate::tuning::Symmetries;
    use queens_conformance::tier;
    use queens_core::split::WorkUnit;
    use queens_core::{check, oeis};
    use std::collections::BTreeMap;

    impl<W: Word> Buffers<W> {
        /// Bytes held: what a thread keeps for counting units of this layout.
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

    /// `board` again, its tuning changed by `change`: how a test takes a path
    /// the board would not.
    pub(crate) fn retuned(board: &Board, change: impl FnOnce(&mut Tuning)) -> Board {
        let mut tuning = board.tuning;
        change(&mut tuning);
        Board::tuned(board.n, tuning)
    }

    /// `tuning` with every set cut: into chunks of at most `chunk_pairs` pairs
    /// a side, and sub-parts of at most `sub_part_pairs`.
    pub(crate) fn cut(tuning: &mut Tuning, chunk_pairs: u64, sub_part_pairs: u64) {
        tuning.chunk_pairs = chunk_pairs;
        tuning.sub_part_pairs = Some(sub_part_pairs);
        tuning.uncut = false;
    }

    /// The engine with board `n` counted as `board` is.
    pub(crate) fn engine(board: &Board) -> queens_core::split::SplitSolver<crate::HalfJoin> {
        queens_core::split::SplitSolver(crate::HalfJoin {
            tuned: Some((board.n, board.tuning)),
        })
    }

    /// The top sets `sets` of a unit on a board made from quarters, counted
    /// with the quarters this thread holds (built first if they are not the
    /// unit's): its nodes are the pairs of pieces tested, the quarters' queens
    /// left out (see [`prepare_unit`]).
    pub(crate) fn count_sets(board: &Board, unit: Unit, sets: SetRange) -> UnitCount {
        count_selection(board, unit, Selection::sets(sets)).count
    }

    /// Sub-part `index` of `of` of the top set at `place` of a unit on a
    /// board made from quarters (see [`SetCut`]; `of` the set's sub-parts
    /// takes them one by one), counted as [`count_sets`] counts sets.
    pub(crate) fn count_sub_parts(
        board: &Board,
        unit: Unit,
        place: u64,
        index: u32,
        of: u32,
    ) -> Counted {
        let set = SetRange {
            start: place,
            end: place + 1,
        };
        let sub = Part { index, of };
        count_selection(
            board,
            unit,
            Selection {
                sub,
                ..Selection::sets(set)
            },
        )
    }

    /// The bytes this thread holds for counting units (its buffers, kept):
    /// after a unit, what that unit needed at most.
    pub(crate) fn workspace_bytes() -> usize {
        WORKSPACE.with_borrow(|workspace| workspace.narrow.bytes() + workspace.wide.bytes())
    }

    /// [`count_unit`] with halves built set by set from quarters (see
    /// [`crate::quarters`]): the quarters built, then every set joined (see
    /// [`join_sets`]), at `isa`'s level.
    pub(super) fn count_unit_by_quarters<L: Isa>(
        isa: L,
        board: &Board,
        unit: Unit,
        buffers: &mut Buffers<u32>,
    ) -> Counted {
        let built = build_quarters(isa, board, unit, buffers);
        let selection = Selection::sets(SetRange::ALL);
        let mut counted = join_sets(
            isa,
            board,
            unit,
            buffers,
            &mut Buffers::default(),
            selection,
        );
        counted.count.nodes += built;
        counted
    }

    /// The top sets a unit joins, in [`for_each_top_set`]'s order (a set's
    /// place there is its part in [`SetRange`]s).
    pub(crate) fn top_set_list(board: &Board, unit: Unit) -> Vec<u32> {
        let (_, fixing) = board.orbit(unit);
        let mut sets = Vec::new();
        for_each_top_set(board, unit, &fixing, |set, _| sets.push(set));
        sets
    }

    /// The tops and bottoms each of a unit's top sets has (in
    /// [`for_each_top_set`]'s order), made from the unit's quarters with the
    /// portable code: what the cost model's halves are estimates of. For
    /// boards whose quarters are built for the whole unit.
    pub(crate) fn set_halves(board: &Board, unit: Unit) -> Vec<(u64, u64)> {
        let mut buffers = Buffers::<u32>::default();
        build_quarters(Portable, board, unit, &mut buffers);
        let mut keys = Vec::new();
        (top_set_list(board, unit).into_iter())
            .map(|top_set| {
                let bottom_set = board.bottom_set(unit.middle, top_set);
                let sides = [
                    (&buffers.top_quarters, top_set),
                    (&buffers.bottom_quarters, bottom_set),
                ];
                let [tops, bottoms] = sides.map(|(quarters, set)| {
                    quarters.halves(Portable, set, Part::WHOLE, &mut keys).0
                });
                (tops as u64, bottoms as u64)
            })
            .collect()
    }

    /// The unit of a solution, read off the board directly: the file of the
    /// middle rank's queen (odd n) and the block files of the queens on the
    /// first n / 2 ranks. (Which half is called "top" does not matter below:
    /// the other choice gives the flipped unit, in the same orbit.)
    pub(crate) fn unit_of(board: &Board, rows: &[u8]) -> Unit {
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
    pub(crate) fn solutions_by_unit(board: &Board) -> BTreeMap<Unit, u64> {
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
    pub(crate) fn plain_and_klein(
        sizes: std::ops::RangeInclusive<usize>,
    ) -> impl Iterator<Item = Board> {
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
                let counted = count_unit_in(
                    Portable,
                    &board,
                    unit,
                    &mut workspace.narrow,
                    chunk::<u32>(),
                );
                let counted = counted.solutions;
                assert_eq!(counted, expected, "n = {n}: {unit:?}, orbit {images:?}");
                // Quarters, with every set's index chosen (with the layout's
                // bits, or one more) or none.
                for (min_choice_pairs, fine_index_pairs) in
                    [(0, u64::MAX), (0, 0), (u64::MAX, u64::MAX)]
                {
                    let board = retuned(&board, |tuning| {
                        tuning.min_choice_pairs = min_choice_pairs;
                        tuning.fine_index_pairs = fine_index_pairs;
                    });
                    let buffers = &mut workspace.narrow;
                    let by_quarters = count_unit_by_quarters(Portable, &board, unit, buffers);
                    assert_eq!(
                        by_quarters.count.solutions, expected,
                        "n = {n}: {unit:?}, quarters, chosen from {min_choice_pairs} pairs, \
                         one bit more from {fine_index_pairs} pairs a pair of buckets"
                    );
                }
                total += counted;
            }
            assert_eq!(Some(total), oeis::total(n), "n = {n}");
        }
    }

    /// Every canonical unit of the board, counted and summed.
    pub(crate) fn whole_count(board: &Board) -> u64 {
        board
            .units()
            .into_iter()
            .filter(|&u| board.is_canonical(u))
            .map(|u| count_unit(board, u).count.solutions)
            .sum()
    }

    #[test]
    fn every_layout_and_symmetry_choice_counts_every_board_it_is_given() {
        // The wide layout is the one for n > 23, and the long diagonals'
        // symmetries are for even n >= KLEIN_MIN_N, where no count is
        // affordable in a test: here every combination counts boards whose
        // totals are known, both parities (the long diagonals on even boards
        // only: bottoms off both, tops weighted by theirs, units up to the
        // mirror).
        for n in tier::boards(4..=14, 4..=15) {
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
    fn the_readmes_table_of_units_and_nodes_is_what_the_engine_counts() {
        let mut table = String::from("| n | units | nodes |\n|---|---|---|\n");
        for n in [12, 14, 16] {
            let board = Board::new(n);
            let units: Vec<Unit> = board
                .units()
                .into_iter()
                .filter(|&u| board.is_canonical(u))
                .collect();
            let nodes: u64 = units
                .iter()
                .map(|&u| count_unit(&board, u).count.nodes)
                .sum();
            let millions = nodes as f64 / 1e6;
            table += &format!("| {n} | {} + 1 | {millions:.2} M |\n", units.len());
        }
        assert!(
            include_str!("../README.md").contains(&table),
            "the README's table should read:\n{table}"
        );
    }

    /// The solutions of one unit (not its orbit): a three-mask search of the
    /// whole board, rank by rank, held to the unit's middle file and block
    /// pattern. Independent of the halves, keys and join it checks.
    ///
    /// With the long diagonals' symmetries ([`Board::klein`]), it counts
    /// what such a unit stands for: solutions whose bottom half avoids both
    /// long diagonals, each weighted 2 per long diagonal its top half takes.
    pub(crate) fn backtrack_unit(board: &Board, unit: Unit) -> u64 {
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
        // The fast tier: the two smaller sizes, and the long diagonals at one.
        let cases = tier::cases(&sizes, 2)
            .into_iter()
            .chain(tier::cases(&klein, 1));
        for (n, samples, lightest, symmetries) in cases {
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
                    let counted = count_unit(board, unit).count.solutions;
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
            let plan = crate::plan::plan(&Board::new(n));
            let planned = started.elapsed();
            let width = if std::env::var("WIDE").is_ok() {
                Width::Wide
            } else {
                Width::for_n(n)
            };
            let board = Board::with_width(n, width);
            let heaviest = plan
                .iter()
                .take(plan.len() - 1)
                .max_by_key(|u| u.weight)
                .unwrap();
            eprintln!("n = {n}: {} units, plan {planned:?}", plan.len());
            if std::env::var("REACH_COUNT").is_err() {
                continue;
            }
            let started = std::time::Instant::now();
            let count = count_unit(&board, Unit::from_key(heaviest.key)).count;
            eprintln!(
                "n = {n}: {} units, plan {planned:?}, heaviest (weight {}) {:?}, {} solutions, {} nodes, {} MB",
                plan.len(),
                heaviest.weight,
                started.elapsed(),
                count.solutions,
                count.nodes,
                workspace_bytes() >> 20
            );
        }
    }

    #[test]
    #[ignore = "minutes in a release build: run with --release -- --ignored"]
    fn sampled_units_of_n_24_count_alike_from_quarters_and_searched_halves() {
        // n = 24 is the first board the wide layout makes from quarters;
        // the searched halves (the way it was counted before) check it,
        // unit by unit, on light units (the search takes seconds per top
        // set there), and every cut of those units adds up to the unit.
        let n = 24;
        let board = Board::new(n);
        let mut canonical: Vec<Unit> = (board.units().into_iter())
            .filter(|&unit| board.is_canonical(unit))
            .collect();
        canonical.sort_by_key(|&unit| (top_sets(&board, unit), unit));
        let searched_buffers = &mut Buffers::<u64>::default();
        for k in 0..3 {
            let unit = canonical[(k * 7919 + 13) % (canonical.len() / 8)];
            let searched = count_unit_in(Portable, &board, unit, searched_buffers, chunk::<u64>());
            let made = count_unit(&board, unit).count;
            assert_eq!(made.solutions, searched.solutions, "{unit:?}");
            assert!(made.solutions > 0, "{unit:?}");
            let sets = top_sets(&board, unit);
            let prepared = prepare_unit(&board, unit);
            for of in [2, 3, sets as u32] {
                let mut sum = UnitCount::default();
                for index in 0..of {
                    sum += count_sets(&board, unit, SetRange::part(sets, index, of));
                }
                assert_eq!(sum.solutions, made.solutions, "{unit:?}, {of} parts");
                assert_eq!(sum.nodes + prepared, made.nodes, "{unit:?}, {of} parts");
            }
            eprintln!("n = 24, {unit:?}: {} solutions", made.solutions);
        }
    }

    /// Time per solution on sampled work, one thread: in each round, for
    /// every n of `SIZES` (default 20..=24) in a shuffled order, a random
    /// part (one of 8 ranges of sets) of a unit drawn with probability
    /// proportional to its sets (so that samples weigh as the work does),
    /// its quarters' time charged by the part's share; at n = 24 also a random light
    /// unit whole by the searched halves and by quarters. Prints each
    /// sample, the medians and the ratio of summed times to summed
    /// solutions (run with --release -- --ignored --nocapture;
    /// `ROUNDS=k`). A measurement, not a check: the lead's record holds
    /// the figures.
    #[test]
    #[ignore = "minutes: a measurement, not a check"]
    fn time_per_solution_on_sampled_parts() {
        use std::time::Instant;
        let rounds: usize = std::env::var("ROUNDS").map_or(5, |v| v.parse().unwrap());
        let sizes: Vec<usize> = std::env::var("SIZES")
            .map(|v| v.split(',').map(|s| s.parse().unwrap()).collect())
            .unwrap_or((20..=24).collect());
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move |bound: usize| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 33) % bound as u64) as usize
        };
        let boards: Vec<(Board, Vec<Unit>)> = (sizes.iter())
            .map(|&n| {
                let board = Board::new(n);
                let mut units: Vec<Unit> = (board.units().into_iter())
                    .filter(|&unit| board.is_canonical(unit))
                    .collect();
                units.sort_by_key(|&unit| (top_sets(&board, unit), unit));
                (board, units)
            })
            .collect();
        let mut samples: BTreeMap<String, Vec<f64>> = BTreeMap::new();
        let mut totals: BTreeMap<usize, (f64, f64)> = BTreeMap::new();
        let searched_buffers = &mut Buffers::<u64>::default();
        for round in 0..rounds {
            let mut order: Vec<usize> = (0..boards.len()).collect();
            for i in (1..order.len()).rev() {
                order.swap(i, next(i + 1));
            }
            for &at in &order {
                let (board, units) = &boards[at];
                let n = board.n;
                let weights: Vec<u64> = units.iter().map(|&u| top_sets(board, u)).collect();
                let mut draw = next(weights.iter().sum::<u64>() as usize) as u64;
                let unit = units[weights
                    .iter()
                    .position(|&w| {
                        let hit = draw < w;
                        draw = draw.saturating_sub(w);
                        hit
                    })
                    .unwrap()];
                let sets = top_sets(board, unit);
                let of = sets.min(8) as u32;
                let part = SetRange::part(sets, next(of as usize) as u32, of);
                let started = Instant::now();
                prepare_unit(board, unit);
                let prepared = started.elapsed().as_secs_f64();
                let started = Instant::now();
                let count = count_sets(board, unit, part);
                let counted = started.elapsed().as_secs_f64();
                let share = (part.end - part.start) as f64 / sets as f64;
                let seconds = counted + prepared * share;
                if count.solutions > 0 {
                    let ns = 1e9 * seconds / count.solutions as f64;
                    eprintln!(
                        "round {round}, n = {n}: {unit:?} part of {of}, {seconds:.3} s, {ns:.2} ns/solution"
                    );
                    samples
                        .entry(format!("n = {n}, quarters"))
                        .or_default()
                        .push(ns);
                    let total = totals.entry(n).or_default();
                    total.0 += seconds;
                    total.1 += count.solutions as f64;
                }
                if n == 24 {
                    // The searched halves take seconds per set: light units.
                    let unit = units[next(units.len() / 8)];
                    let started = Instant::now();
                    let searched =
                        count_unit_in(Portable, board, unit, searched_buffers, chunk::<u64>());
                    let searched_time = started.elapsed().as_secs_f64();
                    let started = Instant::now();
                    let made = count_unit(board, unit).count;
                    let made_time = started.elapsed().as_secs_f64();
                    assert_eq!(made.solutions, searched.solutions, "{unit:?}");
                    if made.solutions > 0 {
                        let per = |t: f64| 1e9 * t / made.solutions as f64;
                        eprintln!(
                            "round {round}, n = 24 light {unit:?}: searched {:.2} ns/solution, quarters {:.2}",
                            per(searched_time),
                            per(made_time)
                        );
                        samples
                            .entry("n = 24 light units, searched".into())
                            .or_default()
                            .push(per(searched_time));
                        samples
                            .entry("n = 24 light units, quarters".into())
                            .or_default()
                            .push(per(made_time));
                    }
                }
            }
        }
        for (what, mut values) in samples {
            values.sort_by(f64::total_cmp);
            let median = values[values.len() / 2];
            eprintln!(
                "median {what}: {median:.2} ns/solution over {} samples",
                values.len()
            );
        }
        for (n, (seconds, solutions)) in totals {
            eprintln!(
                "n = {n}: {:.2} ns/solution over all samples",
                1e9 * seconds / solutions
            );
        }
    }

    /// The quarters of the heaviest unit of every large board: the time to
    /// build them, the memory a thread holds, and the first sets' counts
    /// (run with --ignored --nocapture; `REACH=24,25`, `SETS=k`).
    #[test]
    #[ignore = "minutes: a measurement, not a check"]
    fn quarters_reach() {
        let sizes: Vec<usize> = std::env::var("REACH")
            .map(|v| v.split(',').map(|s| s.parse().unwrap()).collect())
            .unwrap_or((24..=28).collect());
        let sets: u64 = std::env::var("SETS").map_or(1, |v| v.parse().unwrap());
        let exact_from: Option<usize> = std::env::var("EXACT").ok().map(|v| v.parse().unwrap());
        for n in sizes {
            let plan = crate::plan::plan(&Board::new(n));
            let board = retuned(&Board::new(n), |tuning| {
                if let Some(from) = exact_from {
                    tuning.exact = n >= from;
                }
            });
            let heaviest = plan
                .iter()
                .take(plan.len() - 1)
                .max_by_key(|u| u.weight)
                .unwrap();
            let unit = Unit::from_key(heaviest.key);
            let started = std::time::Instant::now();
            let nodes = prepare_unit(&board, unit);
            let built = started.elapsed();
            let bytes = workspace_bytes();
            let started = std::time::Instant::now();
            let counted = count_selection(
                &board,
                unit,
                Selection::sets(SetRange {
                    start: 0,
                    end: sets,
                }),
            );
            eprintln!(
                "n = {n}: heaviest weight {}, quarters {built:?} ({nodes} nodes), {} MiB after build, {sets} sets {:?}: {} solutions, {} MiB, {} sets wide",
                heaviest.weight,
                bytes >> 20,
                started.elapsed(),
                counted.count.solutions,
                workspace_bytes() >> 20,
                counted.stats.wide_sets
            );
        }
    }

    /// Whole sets under several cuts for time, side by side: sets drawn
    /// by the plan's predicted time (a piece by weight, a set within it),
    /// each counted once per `CUTS` (log2 of the sub-part limit; 64 for
    /// none), the same count every time (run with --release -- --ignored
    /// --nocapture; `N=26`, `CUTS=37,41,45,64`, `SAMPLES=k`). With
    /// `SUB=1`, for sets too long to time whole (n = 28), one sub-part
    /// drawn at random per cut stands for the set: its time and solutions
    /// times the set's sub-parts (unbiased for both), plus the set's
    /// quarters' time once (printed apart: what each part of the set
    /// builds again, see [`crate::tuning::PARTS_PER_SET`]). A measurement, not a check: it chose
    /// [`crate::tuning::SUB_PART_PAIRS`], and its sub-parts per set at n = 28 bound
    /// [`crate::tuning::PARTS_PER_SET`].
    #[test]
    #[ignore = "minutes: a measurement, not a check"]
    fn set_cuts() {
        let n: usize = std::env::var("N").map_or(26, |v| v.parse().unwrap());
        let cuts: Vec<u32> = std::env::var("CUTS").map_or(vec![37, 41, 45, 64], |v| {
            v.split(',').map(|s| s.parse().unwrap()).collect()
        });
        let samples: usize = std::env::var("SAMPLES").map_or(3, |v| v.parse().unwrap());
        let one_sub = std::env::var("SUB").is_ok();
        let mut next = draws();
        let board = Board::new(n);
        let plan = crate::plan::plan(&Board::new(n));
        // A whole unit by weight, then one of its pieces uniformly (they
        // weigh the same to within 1): a draw by weight without listing
        // the plan's pieces.
        let whole = plan.whole_units();
        let units = &whole[..whole.len() - 1];
        let total: u64 = units.iter().map(|u| u.weight).sum();
        let mut seconds = vec![0.0; cuts.len()];
        let mut solutions = vec![0.0; cuts.len()];
        for _ in 0..samples {
            let drawn = by_weight(units, next(total));
            let at = (units.iter().position(|u| u.key == drawn.key)).expect("drawn from units");
            let range = plan.pieces(at);
            let piece = plan.unit(range.start + next(range.len() as u64) as usize);
            let unit = Unit::from_key(piece.key);
            let per_set = board.tuning.parts_per_set;
            let held = Selection::part(top_sets(&board, unit), per_set, piece.piece).parts;
            let per_set = u64::from(per_set);
            let range = SetRange {
                start: held.start / per_set,
                end: (held.end - 1) / per_set + 1,
            };
            let place = range.start + next(range.end - range.start);
            prepare_unit(&board, unit);
            let mut counted = None;
            for ((spent, solved), &cut) in seconds.iter_mut().zip(&mut solutions).zip(&cuts) {
                let limit = if cut >= 64 { u64::MAX } else { 1 << cut };
                // The boards cut for time, cut at this limit instead.
                let board = retuned(&board, |tuning| {
                    if tuning.sub_part_pairs.is_some() {
                        tuning.sub_part_pairs = Some(limit);
                    }
                });
                let started = std::time::Instant::now();
                let subs = prepare_set(&board, unit, place);
                let prepared = started.elapsed().as_secs_f64();
                let started = std::time::Instant::now();
                let (count, scale) = if one_sub {
                    let sub = next(subs.into()) as u32;
                    let count = count_sub_parts(&board, unit, place, sub, subs);
                    (count, f64::from(subs))
                } else {
                    (count_sub_parts(&board, unit, place, 0, 1), 1.0)
                };
                let (count, splits) = (count.count, count.stats.splits);
                let elapsed = started.elapsed().as_secs_f64();
                *spent += prepared + elapsed * scale;
                *solved += count.solutions as f64 * scale;
                if !one_sub {
                    assert_eq!(*counted.get_or_insert(count.solutions), count.solutions);
                }
                eprintln!(
                    "n = {n}, {unit:?}, set {place}, cut 2^{cut}: quarters {prepared:.3} s, {subs} sub-parts, {elapsed:.3} s, {} solutions, {splits} splits",
                    count.solutions,
                );
            }
        }
        for ((spent, solved), cut) in seconds.iter().zip(&solutions).zip(&cuts) {
            eprintln!(
                "cut 2^{cut}: {spent:.2} s, {:.2} ns/solution",
                spent * 1e9 / solved
            );
        }
    }

    /// The measurements' draws: a generator of fixed seed, `next(bound)`
    /// uniform enough in `0..bound`, the same draws on every run.
    pub(crate) fn draws() -> impl FnMut(u64) -> u64 {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        move |bound: u64| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 20) % bound.max(1)
        }
    }

    /// The unit (or piece) of `units` that `draw` (below their summed
    /// weight) falls in, laid end to end: a draw by weight.
    pub(crate) fn by_weight(units: &[WorkUnit], mut draw: u64) -> WorkUnit {
        *(units.iter())
            .find(|u| {
                let hit = draw < u.weight;
                draw = draw.saturating_sub(u.weight);
                hit
            })
            .expect("a draw below the total weight")
    }

    /// What parts of sets cost at n = 28 (`N=k` for another board): a piece that
    /// starts inside a set builds that set's quarters again, so the plan's
    /// pieces at their target (a minute, the cap on a plan's entries left
    /// out) are counted by where they start, and the rebuilds they add
    /// are timed on `SAMPLES` sets drawn by predicted time (a unit by
    /// weight, a set uniformly); prints the pieces, the rebuilds, the
    /// mean rebuild, and the rebuilds' share of the predicted total (run
    /// with --release -- --ignored --nocapture). A measurement, not a
    /// check.
    #[test]
    #[ignore = "minutes: a measurement, not a check"]
    fn part_rebuilds() {
        use crate::plan::{PART_NANOS, WEIGHT_NANOS};
        let n: usize = std::env::var("N").map_or(28, |v| v.parse().unwrap());
        let samples: u64 = std::env::var("SAMPLES").map_or(8, |v| v.parse().unwrap());
        let board = Board::new(n);
        let plan = crate::plan::plan(&Board::new(n));
        let whole = plan.whole_units();
        let units = &whole[..whole.len() - 1];
        let target = PART_NANOS / WEIGHT_NANOS;
        let per_set = u64::from(board.tuning.parts_per_set);
        let (mut pieces, mut rebuilds) = (0u64, 0u64);
        for unit in units {
            let parts = u64::from(parts(&board, Unit::from_key(unit.key)));
            let of = unit.weight.div_ceil(target).clamp(1, parts);
            pieces += of;
            rebuilds += (1..of)
                .filter(|&index| (index * parts / of) % per_set != 0)
                .count() as u64;
        }
        let total: u64 = units.iter().map(|u| u.weight).sum();
        let mut next = draws();
        let mut seconds = 0.0;
        for _ in 0..samples {
            let unit = by_weight(units, next(total));
            let at = Unit::from_key(unit.key);
            let place = next(top_sets(&board, at));
            prepare_unit(&board, at);
            let started = std::time::Instant::now();
            let subs = prepare_set(&board, at, place);
            let took = started.elapsed().as_secs_f64();
            seconds += took;
            eprintln!("n = {n}, {at:?}, set {place}: quarters {took:.3} s, {subs} sub-parts");
        }
        let mean = seconds / samples.max(1) as f64;
        let predicted = total as f64 * WEIGHT_NANOS as f64 / 1e9;
        eprintln!(
            "n = {n}: {per_set} parts a set, {pieces} parts of a minute, {rebuilds} start inside a set; quarters {mean:.3} s a set: rebuilds {:.3e} s, {:.2} % of the predicted {predicted:.3e} s",
            rebuilds as f64 * mean,
            100.0 * rebuilds as f64 * mean / predicted
        );
    }

    pub(crate) fn binomial(n: u64, k: u64) -> u64 {
        if k > n {
            return 0;
        }
        (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
    }
}
