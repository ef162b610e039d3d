//! Counting that is spread out: a solver that splits its work into
//! independent units ([`queens_core::split::WorkSplit`]) has them counted on
//! threads, one shard of them per machine, saved to a checkpoint as they
//! finish, and the shards' records added up again.
//!
//! - [`run`]: one count of a split solver: its units (or one shard's) on
//!   threads, with a progress bar and periodic checkpoints.
//! - [`shard`]: `--shard I/K`, and the record a shard leaves.
//! - [`checkpoint`]: the finished units of a run, saved atomically.
//! - [`merge`]: the shard records of one run added into the whole count.
//! - [`estimate`]: the time and memory of a run, from a timed sample of its
//!   units.

pub mod checkpoint;
pub mod estimate;
pub mod interruption;
pub mod merge;
pub mod recheck;
pub mod run;
pub mod shard;

use std::time::Duration;

/// Saving this often keeps a killed run's loss to a few seconds of work
/// while costing nothing measurable (one small file write).
pub const DEFAULT_SAVE_EVERY: Duration = Duration::from_secs(2);
