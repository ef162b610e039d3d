//! The library half of the harness: what the `queens` binary and the
//! benchmarks share, so that `cargo bench` and `queens compare` measure the
//! same way and write the same records.
//!
//! - [`registry`]: the one list of solvers.
//! - [`heap`]: a counting global allocator, for peak heap bytes per run.
//! - [`measure`]: one checked run, timing statistics, climbing n within a budget.
//! - [`record`]: the versioned JSON record of a run (`bench-results/FORMAT.md`).
//! - [`report`]: COMPARISON.md, SVG plots and the README splice, made from records.

pub mod error;
pub mod heap;
pub mod measure;
pub mod record;
pub mod registry;
pub mod report;

/// Every allocation in any program linked with this library is counted while
/// [`heap::peak_during`] watches a run; otherwise the cost is one relaxed load.
#[global_allocator]
static ALLOCATOR: heap::CountingAllocator = heap::CountingAllocator;
