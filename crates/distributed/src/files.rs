//! The files this crate writes and reads go through queens-record's atomic
//! writer and its JSON reader that names the field to blame. This module is
//! the one place that names that crate.

pub use queens_record::FileError;
pub(crate) use queens_record::files::{
    from_json, read_bytes_if_present, read_text, regular, replace_atomically,
};

use std::path::Path;

/// The field `seconds` of the file at `path` as a duration: finite and not
/// negative (a checkpoint's time so far, a shard's compute time).
pub(crate) fn duration(path: &Path, seconds: f64) -> Result<(), FileError> {
    if seconds.is_finite() && seconds >= 0.0 {
        return Ok(());
    }
    let problem = format!("{seconds} is not a duration");
    Err(FileError::field(path, "seconds", problem))
}
