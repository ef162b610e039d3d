#![doc = include_str!("../README.md")]

pub mod configuration;
mod search;

use queens_core::trace::{Silent, TraceSink, Tracing};
use queens_core::{
    Boards, CountOnly, CountOptions, QueensError, SearchStats, Solver, SolverInfo, Visit,
};

pub use search::Search;

/// The base-(n+1) counting solver.
#[derive(Clone, Copy, Debug, Default)]
pub struct BaseCounting;

pub static INFO: SolverInfo = SolverInfo {
    id: "base-counting",
    seed: "shared/seeds/001_6acf5280154540f7.txt (n-Queens in Haskell, Luke Thomas, literate Haskell)",
    idea: "count up through n-digit base-(n+1) numbers (digit = rank of a file's queen), skipping every number with an invalid prefix",
    node: "a configuration given to the validity test (its newest queen checked against the others)",
    max_n: configuration::MAX_N,
    limit_reason: "so that its base-(n+1) number fits in a u64",
    enumerates: true,
    teaching: include_str!("../README.md"),
    analysis: include_str!("../ANALYSIS.md"),
};

impl Solver for BaseCounting {
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
            // Classes need the boards: core's canonical form per solution.
            return queens_core::count_by_enumerating(self, n, options);
        }
        Ok(Search::new(n).run(&mut CountOnly, &mut Silent).stats())
    }

    fn trace(&self, n: usize, sink: &mut dyn TraceSink) -> Result<SearchStats, QueensError> {
        INFO.check_n(n)?;
        Ok(Search::new(n)
            .run(&mut CountOnly, &mut Tracing::new(sink))
            .stats())
    }
}
