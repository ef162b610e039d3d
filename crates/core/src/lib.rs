//! # queens-core
//!
//! The shared vocabulary of the queens workspace. Every approach to the
//! N-Queens problem lives in its own crate and implements [`Solver`]; the
//! harness (`queens` binary) only ever talks to solvers through it.
//!
//! - [`Solver`], [`SolverInfo`], [`SearchStats`]: the protocol.
//! - [`Solution`]: one queen per column, `rows[c]` = row of column c's queen,
//!   with algebraic notation (`a2 b4 c1 d3`).
//! - [`symmetry`]: the dihedral group D4, canonical forms, orbit sizes.
//! - [`oeis`]: the published counts A000170 and A002562 for n = 1..=27.
//! - [`check`]: independent validity checkers, O(n²) and O(n).
//! - [`find`]: the second question, "give me one board": [`Finder`],
//!   boards of any size as [`Placement`]s, and the answer check.
//! - [`render`]: ASCII and Unicode boards.
//! - [`memory`]: what a search holds, declared before it runs.
//! - [`trace`]: zero-cost step tracing for teaching.
//! - [`Accelerator`]: the device a solver counts on, when not the CPU.
//! - [`counted`], [`noun`]: a number with its noun, the noun agreeing
//!   with it.
//! - [`split`]: work units, so that threads, shards and checkpoints can
//!   drive any solver that splits its count.

#![deny(missing_docs)]

pub mod check;
mod device;
mod error;
pub mod find;
pub mod memory;
pub mod oeis;
pub mod render;
mod solution;
mod solver;
pub mod split;
pub mod symmetry;
pub mod trace;
mod words;

pub use device::Accelerator;
pub use error::{QueensError, printable, printable_path};
pub use find::{Finder, FinderInfo, FirstBoard, Found, Placement};
pub use solution::{MAX_ALGEBRAIC_N, Solution, file_label, file_letter, file_name};
pub use solver::{
    Boards, CountOnly, CountOptions, GenericSearch, Metric, SearchStats, SolutionSink, Solver,
    SolverInfo, Visit, count_by_enumerating, list_boards,
};
pub use words::{counted, noun};
