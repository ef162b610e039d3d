//! How a distributed count fails. Nothing here ends the process or prints:
//! the caller (the `queens` command) turns each kind into its line and its
//! exit code.

use queens_core::QueensError;
use thiserror::Error;

use crate::files::FileError;

/// Every failure of a run, a merge or a recheck, as one line of text.
#[derive(Debug, Error)]
pub enum Error {
    /// A checkpoint or shard record that cannot be read, written or
    /// trusted, with the file and the field to blame: the user can fix it
    /// (another file, a deleted checkpoint, a shard counted again).
    #[error(transparent)]
    File(#[from] FileError),
    /// The solver refused (its limit, a device gone away): the user can
    /// choose another.
    #[error(transparent)]
    Solver(#[from] QueensError),
    /// A request that is not one whole thing: no records, shards of
    /// several runs, a shard missing, a unit that is not in the record.
    /// The user can fix it.
    #[error("{0}")]
    Input(String),
    /// Records that are each sound but disagree with each other (a shard
    /// counted twice), with OEIS, or with arithmetic (totals that overflow,
    /// fixed pairs that are not a multiple of 8): a failed verification.
    #[error("{0}")]
    Verification(String),
}
