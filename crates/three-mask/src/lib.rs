#![doc = include_str!("../README.md")]

mod search;

use queens_core::trace::Observer;
use queens_core::{GenericSearch, SearchStats, SolutionSink, SolverInfo};

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

impl GenericSearch for ThreeMask {
    const INFO: &'static SolverInfo = &INFO;

    fn search<S: SolutionSink, O: Observer>(
        &self,
        n: usize,
        sink: &mut S,
        observer: &mut O,
    ) -> SearchStats {
        Search::new(n).run(sink, observer).stats()
    }
}
