//! The plan of a board: its units, one per orbit under the symmetries that
//! keep the split, heaviest work estimated by the top sets each joins.

use queens_core::split::{Plan, WorkUnit};

use crate::board::Board;
use crate::unit;

/// The last unit of every plan: the solutions fixed by symmetries other
/// than the identity, for unique counts (Burnside); it counts no solutions.
pub(crate) const FIXED_POINTS: u64 = u64::MAX;

/// One unit per orbit of (middle file, block pattern), in key order, then
/// the fixed-points unit. A unit's weight is the number of top sets it
/// joins, a rough but deterministic measure of its cost.
pub(crate) fn plan(n: usize) -> Plan {
    let board = Board::new(n);
    let mut units: Vec<WorkUnit> = board
        .units()
        .into_iter()
        .filter(|&u| board.is_canonical(u))
        .map(|u| WorkUnit::whole(u.key(), unit::top_sets(&board, u).max(1)))
        .collect();
    units.sort_by_key(|u| u.key);
    let nodes = units.len() as u64;
    units.push(WorkUnit::whole(FIXED_POINTS, 1));
    Plan { units, nodes }
}
