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
