#![doc = include_str!("../README.md")]

mod mirror;
pub mod probe;
mod search;

use queens_core::SolverInfo;

pub use mirror::{MIRROR_INFO, ThreeMaskMirror};
pub use search::{Mask, Search};

/// The three-mask solver.
#[derive(Clone, Copy, Debug, Default)]
pub struct ThreeMask;

pub static INFO: SolverInfo = SolverInfo {
    id: "three-mask",
    seed: "Eight queens puzzle (Forth), LiteratePrograms: http://en.literateprograms.org/Eight_queens_puzzle_(Forth)",
    idea: "rank by rank; three bitmasks of attacked files, diagonals shift one bit per rank",
    node: "a call of the Forth word `try`: the root, every safe partial placement and every solution (positions tried + solutions)",
    max_n: search::MAX_N,
    limit_reason: "on a u32 mask: one bit per file",
    enumerates: true,
    teaching: include_str!("../README.md"),
    analysis: include_str!("../ANALYSIS.md"),
};

queens_core::generic_search!(ThreeMask, &INFO, Search);
