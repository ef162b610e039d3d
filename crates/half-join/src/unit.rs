//! Counting one unit: enumerate its top halves and the bottom halves they
//! need, group both by file set, and join each top set with its bottom set.

use std::cell::RefCell;

use queens_core::split::UnitCount;

use crate::board::{Board, Keep, Unit};
use crate::halves::HalfSearch;
use crate::join::{self, Side};

/// Which side of the join a search fills.
#[derive(Clone, Copy)]
enum Role {
    Top,
    Bottom,
}

/// A thread's memory for counting units, kept from one unit to the next:
/// a unit's halves take megabytes, and fresh allocations would be page
/// faults and zeroing on every unit, paid twice over when threads share the
/// caches. A pool thread's workspace ends with the count; the caller's (a
/// one-thread count runs there) stays for its next count, as big as the
/// largest unit so far (7 MB at n = 16, about 35 MB at n = 18).
#[derive(Default)]
struct Workspace {
    /// Unsorted halves of the side being filled: (bucket, low word).
    scratch: Vec<(u32, u32)>,
    /// Bucket sizes, then the counting sort's cursors.
    counts: Vec<u32>,
    tops: Side,
    bottoms: Side,
}

thread_local! {
    static WORKSPACE: RefCell<Workspace> = RefCell::default();
}

/// Enumerates the unit's halves for one side into `side`, bucketed by
/// (file set, index bits): a counting sort, counted while searching, then
/// placed. Returns the nodes.
fn fill_side(
    board: &Board,
    unit: Unit,
    role: Role,
    side: &mut Side,
    scratch: &mut Vec<(u32, u32)>,
    counts: &mut Vec<u32>,
) -> u64 {
    let (contributions, mark, step) = match role {
        Role::Top => (&board.layout.top, join::TOP_MARK, join::QUERIES),
        Role::Bottom => (&board.layout.bottom, join::BOTTOM_MARK, join::LANES),
    };
    let search = HalfSearch {
        contributions,
        attacked: board.middle_attacks(unit.middle),
        files: board.full & !Board::middle_bit(unit.middle),
        block: board.block,
        pattern: unit.pattern,
    };
    let index_bits = board.layout.index_bits;
    counts.clear();
    counts.resize(board.packed_sets() << index_bits, 0);
    scratch.clear();
    let nodes = search.run(|files, key| {
        let bucket = (board.pack(files) << index_bits) | (key >> 32) as usize;
        counts[bucket] += 1;
        scratch.push((bucket as u32, key as u32 | mark));
    });
    side.fill(index_bits, counts, scratch, step);
    nodes
}

/// The solutions a unit stands for: its orbit's worth of each top set's
/// joins, each top set weighted by its orbit under the symmetries that fix
/// the unit (and skipped unless it is the smallest of that orbit).
pub fn count_unit(board: &Board, unit: Unit) -> UnitCount {
    WORKSPACE.with_borrow_mut(|workspace| count_unit_in(board, unit, workspace))
}

fn count_unit_in(board: &Board, unit: Unit, workspace: &mut Workspace) -> UnitCount {
    let (images, fixing) = board.orbit(unit);
    let Workspace {
        scratch,
        counts,
        tops,
        bottoms,
    } = workspace;
    let mut nodes = fill_side(board, unit, Role::Top, tops, scratch, counts);
    let bottom_unit = board.map_unit(Keep::Flip, unit);
    nodes += fill_side(board, bottom_unit, Role::Bottom, bottoms, scratch, counts);
    let mut solutions = 0u64;
    for_each_top_set(board, unit, &fixing, |top_set, weight| {
        let bottom_set = board.bottom_set(unit.middle, top_set);
        solutions +=
            weight * join::count_pairs(tops, board.pack(top_set), bottoms, board.pack(bottom_set));
    });
    UnitCount {
        solutions: images.len() as u64 * solutions,
        fixed_pairs: 0,
        nodes,
    }
}

/// Calls `visit(top set, weight)` for every top set of the unit that is the
/// smallest of its orbit under the symmetries fixing the unit (`fixing`,
/// identity included), weighted by that orbit's size.
pub(crate) fn for_each_top_set(
    board: &Board,
    unit: Unit,
    fixing: &[Keep],
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
            for (image, &keep) in images.iter_mut().zip(fixing) {
                *image = board.map_set(keep, unit.middle, top_set, board.full);
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

/// The number of top sets a unit joins (its weight in the plan).
pub fn top_sets(board: &Board, unit: Unit) -> u64 {
    let (_, fixing) = board.orbit(unit);
    let mut sets = 0;
    for_each_top_set(board, unit, &fixing, |_, _| sets += 1);
    sets
}

#[cfg(test)]
mod tests {
    use super::*;
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
    fn solutions_by_unit(board: &Board) -> BTreeMap<Unit, u64> {
        let mut by_unit = BTreeMap::new();
        for rows in check::brute_force_solutions(board.n) {
            *by_unit.entry(unit_of(board, &rows)).or_default() += 1;
        }
        by_unit
    }

    #[test]
    fn orbits_partition_the_units_and_each_has_one_canonical_member() {
        for n in 4..=21 {
            let board = Board::new(n);
            let units = board.units();
            for &unit in &units {
                let (images, fixing) = board.orbit(unit);
                // Orbit-stabiliser: the four split-keeping symmetries.
                assert_eq!(images.len() * fixing.len(), 4, "n = {n}: {unit:?}");
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
        for n in 4..=9 {
            let board = Board::new(n);
            let truth = solutions_by_unit(&board);
            let mut workspace = Workspace::default();
            let mut total = 0;
            for unit in board.units().into_iter().filter(|&u| board.is_canonical(u)) {
                let (images, _) = board.orbit(unit);
                let expected: u64 = images
                    .iter()
                    .map(|i| truth.get(i).copied().unwrap_or(0))
                    .sum();
                let counted = count_unit_in(&board, unit, &mut workspace).solutions;
                assert_eq!(counted, expected, "n = {n}: {unit:?}, orbit {images:?}");
                total += counted;
            }
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

    fn binomial(n: u64, k: u64) -> u64 {
        if k > n {
            return 0;
        }
        (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
    }
}
