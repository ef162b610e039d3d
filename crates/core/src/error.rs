//! The errors a solver or the shared helpers can report. Every message names
//! the limit that was crossed and why the limit exists, so a user reading one
//! line on stderr knows what to change.

use thiserror::Error;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum QueensError {
    /// n = 0 is not a board.
    #[error("n must be at least 1 (a board has at least one square)")]
    EmptyBoard,

    /// The solver's representation cannot hold a board this large.
    #[error("{solver} supports n <= {max_n} {reason}")]
    TooLarge {
        solver: &'static str,
        max_n: usize,
        /// Why the limit exists, e.g. "on a u64 board: one bit per square".
        reason: &'static str,
        n: usize,
    },

    /// The solver only counts: it never materialises boards.
    #[error(
        "{solver} only counts solutions; it cannot list them (use `count`, or pick a solver that enumerates)"
    )]
    CannotEnumerate { solver: &'static str },

    /// Algebraic notation uses one letter per file.
    #[error("algebraic notation has files a..z, so n <= 26 (got n = {n})")]
    AlgebraicTooWide { n: usize },

    /// A square like `b5` could not be parsed.
    #[error("cannot read square '{text}': {why}")]
    BadSquare { text: String, why: &'static str },

    /// A list of squares does not describe one queen per file.
    #[error("not a solution of an {n}x{n} board: {why}")]
    NotOneQueenPerFile { n: usize, why: String },

    /// The worker threads of a split count could not be started.
    #[error("cannot start worker threads: {0}")]
    Threads(String),
}
