//! Measuring N-Queens solvers, and what is made from the measurements. The
//! `queens` command (`compare`, `verify`, `report`, `explain`) and
//! `cargo bench` are thin callers of this crate, so that there is one way to
//! check a run, one way to time it and one record format.
//!
//! The layers, each using only those above it:
//!
//! - [`error`]: the typed failures of this crate; a file problem names the
//!   file and, where one is to blame, the field.
//! - [`files`]: writing a file so that a reader never sees half of it.
//! - [`heap`]: a counting global allocator, for peak heap bytes per run.
//!   This library does not install it: the program that measures (the
//!   `queens` binary, the benches) does, with one `#[global_allocator]` line.
//! - [`validate`]: cross-validation: every listed board passes the
//!   independent checker, listers list equal sets, counts equal OEIS.
//! - [`record`]: the versioned JSON record of a run
//!   (`bench-results/FORMAT.md`), written once and never overwritten.
//! - [`measure`]: one checked run (count compared with OEIS, peak heap),
//!   timing statistics, climbing n within a budget, and a whole comparison
//!   run that ends in a record.
//! - [`report`]: COMPARISON.md, SVG plots and the README splice, a pure
//!   function of records.
//!
//! Solvers are known only through [`queens_core::Solver`]; the caller says
//! which ones (the `queens` registry) and passes their analysis texts to the
//! report as data.

#![deny(missing_docs)]

pub mod error;
pub mod files;
pub mod heap;
pub mod measure;
pub mod record;
pub mod report;
pub mod validate;

pub use error::{Error, FileError};

/// Where records and the reports made from them live, relative to the
/// workspace root: the default of every command that reads or writes them.
pub const RECORDS_DIR: &str = "bench-results";

/// The unit tests watch allocations (heap, measure), which needs the
/// counting allocator installed in the test binary, as the `queens` binary
/// and the benches install it.
#[cfg(test)]
#[global_allocator]
static ALLOCATOR: heap::CountingAllocator = heap::CountingAllocator;
