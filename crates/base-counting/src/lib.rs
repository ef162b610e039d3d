#![doc = include_str!("../README.md")]

pub mod configuration;
mod search;

use queens_core::SolverInfo;

pub use search::Search;

/// The base-(n+1) counting solver.
#[derive(Clone, Copy, Debug, Default)]
pub struct BaseCounting;

pub static INFO: SolverInfo = SolverInfo {
    id: "base-counting",
    seed: "n-Queens in Haskell, Luke Thomas, 2016 (a literate Haskell article)",
    idea: "count up through n-digit base-(n+1) numbers (digit = rank of a file's queen), skipping every number with an invalid prefix",
    node: "a configuration given to the validity test (its newest queen checked against the others)",
    max_n: configuration::MAX_N,
    limit_reason: "so that its base-(n+1) number fits in a u64",
    enumerates: true,
    teaching: include_str!("../README.md"),
    analysis: include_str!("../ANALYSIS.md"),
};

queens_core::generic_search!(BaseCounting, &INFO, Search);
