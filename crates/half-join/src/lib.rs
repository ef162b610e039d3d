#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

mod arch;
mod board;
mod cost;
mod fixed;
mod halves;
mod index;
mod join;
mod layout;
mod memory;
mod plan;
mod quarters;
mod shape;
mod tuning;
mod unit;
mod walkthrough;

use queens_core::split::{Part, Plan, SplitEngine, SplitSolver, UnitCount, WorkUnit};
use queens_core::trace::TraceSink;
use queens_core::{QueensError, SearchStats, SolverInfo};

use board::{Board, Unit};
use plan::FIXED_POINTS;

/// The half-join engine.
#[derive(Clone, Copy, Debug, Default)]
pub struct HalfJoin {
    /// A board counted with another tuning than its own: what tests force
    /// a path with, through the engine's interface.
    tuned: Option<(usize, tuning::Tuning)>,
}

/// The engine as the harness runs it: a [`queens_core::Solver`] that
/// splits its count into units.
pub static HALF_JOIN: SplitSolver<HalfJoin> = SplitSolver(HalfJoin { tuned: None });

impl HalfJoin {
    /// The board of `n` as this engine counts it.
    fn board(&self, n: usize) -> Board {
        match self.tuned {
            Some((tuned, tuning)) if tuned == n => Board::tuned(n, tuning),
            _ => Board::new(n),
        }
    }

    /// The board, the unit and what `part` takes of it, on a board made
    /// from quarters (the fixed-points unit has no parts).
    fn selection(
        &self,
        n: usize,
        unit: WorkUnit,
        part: Part,
    ) -> Option<(Board, Unit, unit::Selection)> {
        if unit.key == FIXED_POINTS {
            return None;
        }
        let board = self.board(n);
        if !board.tuning.quarters {
            return None;
        }
        let at = Unit::from_key(unit.key);
        let sets = unit::top_sets(&board, at);
        let selection = unit::Selection::part(sets, board.tuning.parts_per_set, part);
        Some((board, at, selection))
    }

    /// [`HalfJoin::selection`], when `part` lies within one top set: with
    /// the set's place.
    fn one_set(
        &self,
        n: usize,
        unit: WorkUnit,
        part: Part,
    ) -> Option<(Board, Unit, unit::Selection, u64)> {
        let (board, at, selection) = self.selection(n, unit, part)?;
        let place = selection.one_set()?;
        Some((board, at, selection, place))
    }
}

/// What the harness shows of the engine: its seed, idea, node, limit, and
/// its teaching and analysis texts.
pub static INFO: SolverInfo = SolverInfo {
    id: "half-join",
    seed: "none (our own): meet in the middle, after the quadrant join of E. Kluev's counter",
    idea: "make every top and bottom half once, each from two quarter pieces, one file set at a time; count the pairs with disjoint diagonals, 32 at a time; a quarter of the work by the mirror and the flip (even n >= 20: the mirror, and the long diagonals' three symmetries)",
    node: "a queen placed in a quarter's piece (or, below n = 14, in a searched half), or a pair of quarter pieces tested (the join's pair tests are not nodes: `count` reports them as pair_tests)",
    max_n: layout::MAX_N,
    limit_reason: "because Q(29) would overflow the u64 every count is kept in (the keys would fit to n = 32)",
    enumerates: false,
    teaching: include_str!("../README.md"),
    analysis: include_str!("../ANALYSIS.md"),
};

/// Which instruction-set level counts (the join's kernels and the
/// searches' bit tricks), chosen once per process at run time: the best
/// the CPU has, or the one `QUEENS_KERNEL` names (see the crate's README).
pub mod kernel {
    pub use crate::arch::{Choice, KERNEL_VARIABLE, LEVELS, Level, available, best, choice};
}

/// Names the partition into units (see [`queens_core::split::WorkSplit::version`]).
pub const SPLIT_VERSION: &str = "half-join/7";

/// A count of some of a unit's solutions, with its fixed pairs when
/// `unique`: the identity fixes every solution (the fixed-points unit
/// counts the other symmetries').
fn with_fixed_pairs(mut count: UnitCount, unique: bool) -> UnitCount {
    if unique {
        count.fixed_pairs = count.solutions;
    }
    count
}

/// Refuses, in one line, a forced kernel level the CPU lacks.
fn available() -> Result<(), QueensError> {
    arch::choice()
        .map(|_| ())
        .map_err(|reason| QueensError::Unavailable {
            solver: INFO.id,
            reason,
        })
}

impl SplitEngine for HalfJoin {
    const INFO: &'static SolverInfo = &INFO;
    const SPLIT_VERSION: &'static str = SPLIT_VERSION;

    fn plan(&self, n: usize) -> Plan {
        plan::plan(&self.board(n))
    }

    fn count_unit(&self, n: usize, unit: WorkUnit, unique: bool) -> Result<UnitCount, QueensError> {
        if unit.key == FIXED_POINTS {
            if !unique {
                return Ok(UnitCount::default());
            }
            let (pairs, nodes) = fixed::fixed_by_symmetries(n);
            return Ok(UnitCount {
                solutions: 0,
                fixed_pairs: pairs,
                nodes,
                pair_tests: 0,
            });
        }
        // A forced level the CPU lacks is refused here, in one line.
        available()?;
        let board = self.board(n);
        let count = unit::count_unit(&board, Unit::from_key(unit.key)).count;
        Ok(with_fixed_pairs(count, unique))
    }

    /// A unit made from quarters is cut into ranges of its finest parts:
    /// each of its top sets (in their fixed order) cut into the same
    /// number of parts, one below n = 28, more there (see the README's
    /// "Units: threads, shards, checkpoints, bounded memory"); other units
    /// are whole.
    fn parts(&self, n: usize, unit: WorkUnit) -> u32 {
        if unit.key == FIXED_POINTS {
            return 1;
        }
        unit::parts(&self.board(n), Unit::from_key(unit.key))
    }

    /// Builds the unit's quarters, kept on this thread for its parts.
    fn prepare_unit(&self, n: usize, unit: WorkUnit) -> Result<u64, QueensError> {
        if unit.key == FIXED_POINTS {
            return Ok(0);
        }
        Ok(unit::prepare_unit(&self.board(n), Unit::from_key(unit.key)))
    }

    fn count_part(
        &self,
        n: usize,
        unit: WorkUnit,
        part: Part,
        unique: bool,
    ) -> Result<UnitCount, QueensError> {
        let Some((board, at, selection)) = self.selection(n, unit, part) else {
            // One part: the whole unit.
            return self.count_unit(n, unit, unique);
        };
        available()?;
        Ok(with_fixed_pairs(
            unit::count_selection(&board, at, selection).count,
            unique,
        ))
    }

    /// A part within one top set (the set, or some of its finest parts) is
    /// cut into the sub-parts those hold: chunks of the set's tops joined
    /// with chunks of its bottoms, as many as keep each within a thread's
    /// memory and a few seconds (see the README's "Units: threads, shards,
    /// checkpoints, bounded memory"); any other part is whole, as is a part
    /// of finest parts that hold no sub-part.
    fn prepare_part(&self, n: usize, unit: WorkUnit, part: Part) -> Result<u32, QueensError> {
        let Some((board, at, selection, place)) = self.one_set(n, unit, part) else {
            return Ok(1);
        };
        available()?;
        let subs = unit::prepare_set(&board, at, place);
        let held = selection
            .held(place, subs)
            .map_or(0, |held| held.end - held.start);
        Ok(u32::try_from(held).unwrap_or(u32::MAX).max(1))
    }

    fn count_sub_part(
        &self,
        n: usize,
        unit: WorkUnit,
        part: Part,
        sub: Part,
        unique: bool,
    ) -> Result<UnitCount, QueensError> {
        let Some((board, at, selection, _)) = self.one_set(n, unit, part) else {
            return self.count_part(n, unit, part, unique);
        };
        available()?;
        let selection = unit::Selection { sub, ..selection };
        Ok(with_fixed_pairs(
            unit::count_selection(&board, at, selection).count,
            unique,
        ))
    }

    fn trace(&self, n: usize, sink: &mut dyn TraceSink) -> SearchStats {
        walkthrough::trace(n, sink)
    }

    fn peak_bytes(&self, n: usize, question: queens_core::memory::Question) -> u64 {
        memory::peak_bytes(n, question)
    }

    fn shared_bytes(&self, n: usize, question: queens_core::memory::Question) -> u64 {
        memory::shared_bytes(n, question)
    }
}
