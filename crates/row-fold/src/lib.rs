#![doc = include_str!("../README.md")]

mod fold;
mod level;
mod narrate;
mod safe;

use queens_core::SolverInfo;

pub use fold::{Fold, PeakLevel};
pub use level::Level;
pub use safe::safe_addition;

/// Largest board: see `limit_reason`.
pub const MAX_N: usize = 16;

/// The row-fold solver.
#[derive(Clone, Copy, Debug, Default)]
pub struct RowFold;

pub static INFO: SolverInfo = SolverInfo {
    id: "row-fold",
    seed: "Eight Queens puzzle (Haskell), LiteratePrograms: http://en.literateprograms.org/Eight_Queens_puzzle_(Haskell)",
    idea: "breadth-first foldM over the columns: level k = every safe partial of k queens, built from level k-1",
    node: "one call of safeAddition: a candidate row tried against one partial of the previous level",
    max_n: MAX_N,
    limit_reason: "because it holds whole levels in memory: two levels take 0.9 GB at n = 15, about 6 GB at n = 16, about 45 GB at n = 17",
    enumerates: true,
    teaching: include_str!("../README.md"),
    analysis: include_str!("../ANALYSIS.md"),
};

queens_core::generic_search!(RowFold, &INFO, Fold, peak = fold::peak_bytes);
