#![doc = include_str!("../README.md")]

pub mod board;
mod fixed;
pub mod halves;
pub mod join;
pub mod layout;
pub mod unit;
mod walkthrough;

use queens_core::split::{Plan, SplitEngine, SplitSolver, UnitCount, WorkUnit};
use queens_core::trace::TraceSink;
use queens_core::{SearchStats, SolverInfo};

use board::{Board, Unit};

/// The half-join engine.
#[derive(Clone, Copy, Debug, Default)]
pub struct HalfJoin;

/// The engine as the harness runs it: a [`queens_core::Solver`] that
/// splits its count into units.
pub static HALF_JOIN: SplitSolver<HalfJoin> = SplitSolver(HalfJoin);

pub static INFO: SolverInfo = SolverInfo {
    id: "half-join",
    seed: "none (our own): meet in the middle, after the quadrant join of E. Kluev's counter",
    idea: "enumerate top and bottom halves once, grouped by the files they use; count the pairs with disjoint diagonals, 32 at a time; a quarter of the work by symmetry",
    node: "a queen placed while enumerating half-boards (the join's pair tests are not nodes)",
    max_n: layout::MAX_N,
    limit_reason: "a half's key (its diagonals that cross the middle) must leave at most 31 bits to compare after the bucket index",
    enumerates: false,
    teaching: include_str!("../README.md"),
    analysis: include_str!("../ANALYSIS.md"),
};

/// Names the partition into units (see [`queens_core::split::WorkSplit::version`]).
pub const SPLIT_VERSION: &str = "half-join/1";

/// The last unit of every plan: the solutions fixed by symmetries other
/// than the identity, for unique counts (Burnside); it counts no solutions.
pub const FIXED_POINTS: u64 = u64::MAX;

impl SplitEngine for HalfJoin {
    const INFO: &'static SolverInfo = &INFO;
    const SPLIT_VERSION: &'static str = SPLIT_VERSION;

    fn plan(&self, n: usize) -> Plan {
        plan(n)
    }

    fn count_unit(&self, n: usize, unit: WorkUnit, unique: bool) -> UnitCount {
        if unit.key == FIXED_POINTS {
            if !unique {
                return UnitCount::default();
            }
            let (pairs, nodes) = fixed::fixed_by_symmetries(n);
            return UnitCount {
                solutions: 0,
                fixed_pairs: pairs,
                nodes,
            };
        }
        let board = Board::new(n);
        let mut count = unit::count_unit(&board, Unit::from_key(unit.key));
        // The identity fixes every solution.
        if unique {
            count.fixed_pairs = count.solutions;
        }
        count
    }

    fn trace(&self, n: usize, sink: &mut dyn TraceSink) -> SearchStats {
        walkthrough::trace(n, sink)
    }
}

/// One unit per orbit of (middle file, block pattern), in key order, then
/// the fixed-points unit. A unit's weight is the number of top sets it
/// joins, a rough but deterministic measure of its cost.
pub fn plan(n: usize) -> Plan {
    let board = Board::new(n);
    let mut units: Vec<WorkUnit> = board
        .units()
        .into_iter()
        .filter(|&u| board.is_canonical(u))
        .map(|u| WorkUnit {
            key: u.key(),
            weight: unit::top_sets(&board, u).max(1),
        })
        .collect();
    units.sort_by_key(|u| u.key);
    let nodes = units.len() as u64;
    units.push(WorkUnit {
        key: FIXED_POINTS,
        weight: 1,
    });
    Plan { units, nodes }
}
