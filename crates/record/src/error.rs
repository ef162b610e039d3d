//! The failures of measuring and reporting, typed so that the command line
//! decides in one place what each one means to a user (bad input, exit 2;
//! a failed verification, exit 1).

use std::fmt;
use std::path::{Path, PathBuf};

use queens_core::QueensError;
use thiserror::Error;

/// A file that could not be read, written or understood: which file, which
/// field when one is to blame, and what is wrong with it, on one line.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub struct FileError {
    /// The file as the user named it (or as it was found).
    pub path: PathBuf,
    /// The field to blame, as a path into the document (`entries[3].n`),
    /// when the problem is one field rather than the whole file.
    pub field: Option<String>,
    /// What is wrong, without the path or the field.
    pub problem: String,
}

impl FileError {
    /// A problem with the file as a whole (cannot open it, not JSON, ...).
    pub fn new(path: &Path, problem: impl Into<String>) -> Self {
        FileError {
            path: path.to_path_buf(),
            field: None,
            problem: problem.into(),
        }
    }

    /// A problem with one field of the file.
    pub fn field(path: &Path, field: impl Into<String>, problem: impl Into<String>) -> Self {
        FileError {
            path: path.to_path_buf(),
            field: Some(field.into()),
            problem: problem.into(),
        }
    }
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.path.display())?;
        if let Some(field) = &self.field {
            write!(f, "field `{field}`: ")?;
        }
        write!(f, "{}", self.problem)
    }
}

/// Everything this crate can fail with.
#[derive(Debug, Error)]
pub enum Error {
    /// A file could not be read, written or understood.
    #[error(transparent)]
    File(#[from] FileError),
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
    /// A plot could not be drawn (a plotting library failure, not the data's).
    #[error("cannot draw {plot}: {problem}")]
    Plot {
        /// The plot's file name.
        plot: &'static str,
        /// What the plotting library said.
        problem: String,
    },
}
