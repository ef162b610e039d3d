//! Errors that end a command, each with its exit code: 2 for bad input
//! (the user can fix the command line), 1 for a failed verification.

use queens_core::QueensError;
use thiserror::Error;

#[derive(Debug, Error)]
pub enum CliError {
    /// Bad input: exit 2.
    #[error("{0}")]
    Usage(String),
    /// A solver disagreed with the checker, another solver or OEIS: exit 1.
    #[error("{0}")]
    Verification(String),
    /// A file could not be read or written: exit 2 (the path is in the text).
    #[error("{0}")]
    Io(String),
}

impl CliError {
    pub fn exit_code(&self) -> i32 {
        match self {
            CliError::Verification(_) => 1,
            CliError::Usage(_) | CliError::Io(_) => 2,
        }
    }
}

impl From<QueensError> for CliError {
    fn from(error: QueensError) -> Self {
        CliError::Usage(error.to_string())
    }
}
