//! Writing files so that nothing is lost: the bytes go to a temporary file
//! in the same directory, reach the disk (fsync), and only then take the
//! file's name in one rename. A kill or a full disk at any moment leaves the
//! old version or the new one, never a torn one. Records, reports, plots,
//! spliced READMEs and checkpoints are all written here.

use std::fs;
use std::io::Write;
use std::path::Path;

use serde::de::DeserializeOwned;
use tempfile::NamedTempFile;

use crate::error::FileError;

/// The directory a file lives in (`.` for a bare name).
fn directory_of(path: &Path) -> &Path {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    }
}

/// A temporary file beside `path` holding `bytes`, flushed to disk. The
/// directory must exist: creating directories is the caller's decision.
pub fn staged(path: &Path, bytes: &[u8]) -> Result<NamedTempFile, FileError> {
    let dir = directory_of(path);
    let mut temporary = NamedTempFile::new_in(dir).map_err(|e| {
        FileError::new(
            path,
            format!("cannot write (a temporary file in {}): {e}", dir.display()),
        )
    })?;
    temporary
        .write_all(bytes)
        .and_then(|()| temporary.as_file().sync_all())
        .map_err(|e| FileError::new(path, format!("cannot write: {e}")))?;
    Ok(temporary)
}

/// Writes `bytes` to `path`, replacing any previous version atomically: for
/// files meant to be regenerated (reports, plots, a spliced README, a
/// checkpoint), never for records. An existing file keeps its permissions
/// (a temporary file is created private, and the rename would otherwise
/// carry that over).
pub fn replace_atomically(path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    let temporary = staged(path, bytes)?;
    if let Ok(existing) = fs::metadata(path) {
        fs::set_permissions(temporary.path(), existing.permissions())
            .map_err(|e| FileError::new(path, format!("cannot keep its permissions: {e}")))?;
    }
    temporary
        .persist(path)
        .map(|_| ())
        .map_err(|e| FileError::new(path, format!("cannot write: {}", e.error)))
}

/// Reads `text` (the contents of `path`) as JSON of type `T`. A problem is
/// one line that names the file, the field to blame as a path into the
/// document (`entries[3].n`) when there is one, and says `what` the file
/// was expected to be.
pub fn from_json<T: DeserializeOwned>(path: &Path, text: &str, what: &str) -> Result<T, FileError> {
    let mut reader = serde_json::Deserializer::from_str(text);
    let parsed: T = serde_path_to_error::deserialize(&mut reader).map_err(|e| {
        let field = e.path().to_string();
        let problem = format!("{what}: {}", e.into_inner());
        if field == "." {
            FileError::new(path, problem)
        } else {
            FileError::field(path, field, problem)
        }
    })?;
    reader
        .end()
        .map_err(|e| FileError::new(path, format!("{what}: {e}")))?;
    Ok(parsed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_replaced_file_has_the_new_bytes_and_nothing_is_left_beside_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.md");
        replace_atomically(&path, b"first").unwrap();
        replace_atomically(&path, b"second").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"second");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn a_replaced_file_keeps_its_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("README.md");
        fs::write(&path, "old").unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o644)).unwrap();
        replace_atomically(&path, b"new").unwrap();
        let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o644);
    }

    #[test]
    fn an_unwritable_place_is_a_file_error_naming_it() {
        let error = replace_atomically(Path::new("/proc/queens/x.md"), b"x").unwrap_err();
        assert!(
            error
                .to_string()
                .starts_with("/proc/queens/x.md: cannot write"),
            "{error}"
        );
        assert!(
            !Path::new("/proc/queens").exists(),
            "no directory is created"
        );
    }
}
