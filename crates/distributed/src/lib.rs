//! Counting N-Queens boards too big for one sitting: on every core, on many
//! machines, across kills and restarts, without trusting any number that
//! was not checked.
//!
//! A solver that can split its work ([`queens_core::split::WorkSplit`])
//! makes a *plan* of independent **units**: parts of the search tree, each
//! counted alone, whose counts add up to the board's. Everything here is
//! built on that one fact.
//!
//! - [`run`]: one count of a split solver. Its units are counted on worker
//!   threads, heaviest first; a progress bar follows their plan weight; the
//!   finished ones are saved to a checkpoint every few seconds; a raised
//!   interruption flag ends the run with what is saved
//!   ([`run::Outcome::Interrupted`]) instead of ending the process.
//! - [`shard`]: a **shard** is the `I`-th of `K` parts of the plan
//!   (`--shard I/K`), dealt so that each part carries about the same weight;
//!   one machine counts one shard and leaves a record with every unit's
//!   [`shard::Subtotal`] and a SHA-256 checksum over all of it.
//! - **checkpoints** (inside [`run`]): the finished units of a run in one
//!   file, replaced atomically, sealed with a checksum and checked unit by
//!   unit before a resumed run trusts them; one run at a time on a file
//!   ([`lock`]).
//! - [`merge`]: the shard records of one run read, each checked against a
//!   plan made again here (its units, its sums, its checksum), all K of them
//!   required, a shard given twice compared unit by unit, and the total
//!   compared with OEIS ([`published`], as `count` compares its own).
//! - [`recheck`]: a sample of a record's units counted again and compared
//!   with its subtotals: how days of cluster time are trusted without
//!   spending them twice.
//! - [`estimate`]: a run's time and memory predicted from a timed random
//!   sample of its units, before a machine is committed to it.
//!
//! This crate names no solver and no registry: whoever calls it hands in
//! the solver, or a way to find one by id ([`merge::merge`]). It prints
//! nothing but the progress bar and its one resume line, and never ends the
//! process: every failure is an [`Error`], whose kind tells a failed
//! verification from a mistake the user can fix.

#![deny(missing_docs)]

mod checkpoint;
mod error;
pub mod estimate;
pub mod files;
pub mod lock;
pub mod merge;
pub mod published;
pub mod recheck;
pub mod run;
pub mod shard;

pub use error::Error;

use std::time::Duration;

/// Saving this often keeps a killed run's loss to a few seconds of work
/// while costing nothing measurable (one small file write).
pub const DEFAULT_SAVE_EVERY: Duration = Duration::from_secs(2);
