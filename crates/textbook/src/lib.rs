#![doc = include_str!("../README.md")]

mod search;

use queens_core::SolverInfo;

pub use search::{MAX_N, Search};

/// The textbook backtracker.
#[derive(Clone, Copy, Debug, Default)]
pub struct Textbook;

/// What the textbook backtracker is.
pub static INFO: SolverInfo = SolverInfo {
    id: "textbook",
    seed: "none (the textbook): Wirth, \"Program Development by Stepwise Refinement\" (CACM, 1971); Dijkstra, EWD316 (1971)",
    idea: "rank by rank, recursively; three boolean arrays say which files and diagonals are free, each tested and updated one element at a time",
    node: "a call of Try on a safe partial board, or a full board (the same tree, and the same count, as three-mask)",
    max_n: search::MAX_N,
    limit_reason: "so that a board fits the fixed-size arrays (nothing in the idea stops there)",
    enumerates: true,
    teaching: include_str!("../README.md"),
    analysis: include_str!("../ANALYSIS.md"),
};

queens_core::generic_search!(Textbook, &INFO, Search);
