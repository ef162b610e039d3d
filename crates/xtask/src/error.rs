//! The one error type of xtask and its exit code.

/// Why a chore stopped. The message is the whole line printed on stderr.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Something the user can fix: bad arguments, a missing tool or file.
    #[error("{0}")]
    Usage(String),
    /// A check failed, or a process it runs failed.
    #[error("{0}")]
    Failed(String),
}

/// A record or file that could not be written or read: a failed step.
impl From<queens_record::FileError> for Error {
    fn from(error: queens_record::FileError) -> Error {
        Error::Failed(error.to_string())
    }
}

impl Error {
    /// A failed file-system call on `path`, for `map_err`: "`doing`
    /// PATH: why".
    pub fn io(doing: &str, path: &std::path::Path) -> impl FnOnce(std::io::Error) -> Error {
        let doing = format!("{doing} {}", path.display());
        move |error| Error::Failed(format!("{doing}: {error}"))
    }

    /// 2 for what the user can fix, 1 for a failed check.
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Usage(_) => 2,
            Error::Failed(_) => 1,
        }
    }
}
