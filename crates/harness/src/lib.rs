//! The `queens` harness as a library: the registry of solvers and the
//! subcommands, shared by the `queens` binary, the benches and the tests.
//! `cargo bench` and `queens compare` measure the same way and write the
//! same records through it:
//!
//! - [`heap`]: a counting global allocator, for peak heap bytes per run.
//! - [`measure`]: one checked run, timing statistics, climbing n within a budget.
//! - [`record`]: the versioned JSON record of a run (`bench-results/FORMAT.md`).
//! - [`report`]: COMPARISON.md, SVG plots and the README splice, made from records.

pub mod checkpoint;
pub mod cli;
pub mod commands;
pub mod error;
pub mod heap;
pub mod measure;
pub mod record;
pub mod registry;
pub mod report;
pub mod shard;
pub mod split_run;

/// Every allocation in any program linked with this library is counted while
/// [`heap::peak_during`] watches a run; otherwise the cost is one relaxed load.
#[global_allocator]
static ALLOCATOR: heap::CountingAllocator = heap::CountingAllocator;
