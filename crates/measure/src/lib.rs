//! Measuring N-Queens solvers. The `queens` command (`compare`, `verify`)
//! and `cargo bench` are thin callers of this crate, so that there is one
//! way to check a run, one way to time it and one way to cross-validate;
//! what it measures becomes a record (`queens-record`), which
//! `queens-report` turns into the comparison.
//!
//! The modules, each using only those listed before it:
//!
//! - [`error`]: the typed failures of measuring.
//! - [`heap`]: a counting global allocator, for peak heap bytes per run
//!   (and a request the system refuses ends the program in one line).
//!   This library does not install it: the program that measures (the
//!   `queens` binary, the benches) does, with one `#[global_allocator]` line.
//! - [`stats`]: the median and the median absolute deviation of samples,
//!   and the [`queens_record::Timing`] made from them.
//! - [`validate`]: cross-validation: every listed board passes the
//!   independent checker, listers list equal sets, counts equal OEIS.
//! - `run`: the [`Subject`] that measuring sees a solver ([`Counting`]) or
//!   a finder through: one checked run (count compared with OEIS, peak
//!   heap) and one timed run.
//! - [`counters`]: branch misses read from the processor's performance
//!   counters around a run, where the machine allows it.
//! - [`cold`]: cold samples, one run each, in rounds that never repeat a
//!   search back to back (the one rotation `cargo bench` and `queens
//!   compare` share), beside the warm repeated runs.
//! - [`climb`]: climbing n within a time budget.
//! - [`find`]: the other question, one board: a finder's checked run (the
//!   board checked before it is timed) and its climb, by the counters' rule.
//! - [`external`]: programs outside the workspace, described in a config
//!   file, measured as a [`Subject`] by the same protocol, timed whole.
//! - [`compare`]: a whole `queens compare` run that ends in a record.
//!
//! Solvers are known only through [`queens_core::Solver`]; the caller says
//! which ones (the `queens` registry).

#![deny(missing_docs)]

pub mod climb;
pub mod cold;
pub mod compare;
pub mod counters;
pub mod error;
pub mod external;
pub mod find;
pub mod heap;
mod run;
pub mod stats;
pub mod validate;

pub use error::Error;
pub use run::{CheckedRun, Counting, Subject, stats_heap_bytes};

/// The unit tests watch allocations (heap, run), which needs the counting
/// allocator installed in the test binary, as the `queens` binary and the
/// benches install it.
#[cfg(test)]
#[global_allocator]
static ALLOCATOR: heap::CountingAllocator = heap::CountingAllocator;
