//! The failures of measuring, typed so that the command line decides in one
//! place what each one means to a user (bad input, exit 2; a failed
//! verification, exit 1).

use queens_core::QueensError;
use thiserror::Error;

/// Everything measuring can fail with.
#[derive(Debug, Error)]
pub enum Error {
    /// The request cannot be carried out as asked (an n with no published
    /// count to compare with, nothing selected, ...): the caller's input.
    #[error("{0}")]
    Input(String),
    /// A solver refused the request (its limit, listing from a count-only
    /// solver): also the caller's input.
    #[error(transparent)]
    Solver(#[from] QueensError),
    /// A solver disagreed with the checker, another solver or OEIS: the one
    /// failure that is the program's news, not the user's mistake.
    #[error("{0}")]
    Mismatch(String),
}
