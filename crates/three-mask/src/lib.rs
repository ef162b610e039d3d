#![doc = include_str!("../README.md")]

mod search;

use queens_core::trace::{Silent, TraceSink, Tracing};
use queens_core::{
    Boards, CountOnly, CountOptions, QueensError, SearchStats, Solver, SolverInfo, Visit,
    count_by_enumerating,
};

pub use search::{Mask, Search};

/// The three-mask solver.
#[derive(Clone, Copy, Debug, Default)]
pub struct ThreeMask;

pub static INFO: SolverInfo = SolverInfo {
    id: "three-mask",
    seed: "shared/seeds/003_938b2d518647a77f.txt (Eight queens puzzle, Forth, LiteratePrograms)",
    idea: "rank by rank; three bitmasks of attacked files, diagonals shift one bit per rank",
    node: "a call of the Forth word `try`: the root, every safe partial placement and every solution (positions tried + solutions)",
    max_n: search::MAX_N,
    limit_reason: "on a u32 mask: one bit per file",
    enumerates: true,
    teaching: include_str!("../README.md"),
    analysis: include_str!("../ANALYSIS.md"),
};

impl Solver for ThreeMask {
    fn info(&self) -> &'static SolverInfo {
        &INFO
    }

    fn enumerate(&self, n: usize, visit: &mut Visit<'_>) -> Result<SearchStats, QueensError> {
        INFO.check_n(n)?;
        Ok(Search::new(n).run(&mut Boards(visit), &mut Silent).stats())
    }

    fn count(&self, n: usize, options: &CountOptions) -> Result<SearchStats, QueensError> {
        INFO.check_n(n)?;
        if options.unique {
            // Classes need the boards: canonicalise each solution.
            return count_by_enumerating(self, n, options);
        }
        Ok(Search::new(n).run(&mut CountOnly, &mut Silent).stats())
    }

    fn trace(&self, n: usize, sink: &mut dyn TraceSink) -> Result<SearchStats, QueensError> {
        INFO.check_n(n)?;
        let mut observer = Tracing::new(sink);
        Ok(Search::new(n).run(&mut CountOnly, &mut observer).stats())
    }
}
