//! The one failure of records and files: a file that could not be read,
//! written or understood. Measuring and reporting wrap it in their own
//! errors; the command line decides what it means to a user (exit 2).

use std::fmt;
use std::path::{Path, PathBuf};

use queens_core::printable;
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
        // The path and the problem may echo what a user or a file gave
        // (a name with a newline, a field's value with an escape
        // sequence): shown escaped, the error stays one harmless line.
        let path = self.path.display().to_string();
        write!(f, "{}: ", printable(&path))?;
        if let Some(field) = &self.field {
            write!(f, "field `{}`: ", printable(field))?;
        }
        write!(f, "{}", printable(&self.problem))
    }
}
