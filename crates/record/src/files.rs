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

/// What temporary files for `path` are called: `.NAME.tmp-PID-XXXXXX`, so
/// that a later run can tell its own leftovers from anything else.
fn temporary_prefix(path: &Path, pid: u32) -> String {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    format!(".{name}.tmp-{pid}-")
}

/// Removes the temporary files that runs killed while writing `path` left
/// beside it (their process is gone). Only files named as
/// [`temporary_prefix`] names them are touched. Where processes cannot be
/// looked up (no /proc), nothing is removed.
fn remove_stale_temporaries(path: &Path) {
    if !Path::new("/proc/self").exists() {
        return;
    }
    let Some(name) = path.file_name().map(|n| n.to_string_lossy().into_owned()) else {
        return;
    };
    let prefix = format!(".{name}.tmp-");
    let Ok(entries) = fs::read_dir(directory_of(path)) else {
        return;
    };
    for entry in entries.filter_map(Result::ok) {
        let file = entry.file_name().to_string_lossy().into_owned();
        let Some(rest) = file.strip_prefix(&prefix) else {
            continue;
        };
        let pid = rest.split('-').next().and_then(|p| p.parse::<u32>().ok());
        if let Some(pid) = pid
            && pid != std::process::id()
            && !Path::new(&format!("/proc/{pid}")).exists()
        {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// The permissions a new file gets from the umask (0666 less the umask),
/// read from /proc where there is one; elsewhere 0644, the usual default.
#[cfg(unix)]
fn new_file_permissions() -> fs::Permissions {
    use std::os::unix::fs::PermissionsExt;
    let umask = fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            let line = status.lines().find(|l| l.starts_with("Umask:"))?;
            u32::from_str_radix(line["Umask:".len()..].trim(), 8).ok()
        })
        .unwrap_or(0o022);
    fs::Permissions::from_mode(0o666 & !umask)
}

/// A temporary file beside `path` holding `bytes`, flushed to disk, with
/// the permissions a new file would get. The directory must exist:
/// creating directories is the caller's decision.
pub fn staged(path: &Path, bytes: &[u8]) -> Result<NamedTempFile, FileError> {
    let dir = directory_of(path);
    remove_stale_temporaries(path);
    let mut temporary = tempfile::Builder::new()
        .prefix(&temporary_prefix(path, std::process::id()))
        .tempfile_in(dir)
        .map_err(|e| {
            FileError::new(
                path,
                format!("cannot write (a temporary file in {}): {e}", dir.display()),
            )
        })?;
    #[cfg(unix)]
    fs::set_permissions(temporary.path(), new_file_permissions())
        .map_err(|e| FileError::new(path, format!("cannot set permissions: {e}")))?;
    temporary
        .write_all(bytes)
        .and_then(|()| temporary.as_file().sync_all())
        .map_err(|e| FileError::new(path, format!("cannot write: {e}")))?;
    Ok(temporary)
}

/// Where writing `path` really goes, and whether it may: a symbolic link is
/// followed (the file it points to is replaced, the link stays), and an
/// existing file without write permission is refused rather than replaced
/// behind its owner's back (the rename would succeed, as the directory is
/// writable).
pub fn writable_target(path: &Path) -> Result<std::path::PathBuf, FileError> {
    let target = match fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => fs::canonicalize(path).map_err(|e| {
            FileError::new(
                path,
                format!("is a symbolic link to nothing that can be written: {e}"),
            )
        })?,
        _ => path.to_path_buf(),
    };
    if let Ok(meta) = fs::metadata(&target) {
        if !meta.is_file() {
            return Err(FileError::new(
                path,
                "is not a regular file; not replacing it",
            ));
        }
        if meta.permissions().readonly() {
            return Err(FileError::new(
                path,
                "is read-only; not replacing it (make it writable to allow this)",
            ));
        }
    }
    Ok(target)
}

/// Writes `bytes` to `path`, replacing any previous version atomically: for
/// files meant to be regenerated (reports, plots, a spliced README, a
/// checkpoint), never for records. An existing file keeps its permissions;
/// a new one gets what the umask gives; a symbolic link is followed; a
/// read-only file is refused (see [`writable_target`]).
pub fn replace_atomically(path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    Staged::new(path, bytes)?.commit()
}

/// A file's new contents, on disk beside it, not yet in its place: several
/// files can be staged first and committed only when all were written, so
/// that a failure half way leaves every old version in place.
pub struct Staged {
    target: std::path::PathBuf,
    shown: std::path::PathBuf,
    temporary: NamedTempFile,
}

impl Staged {
    /// Writes `bytes` beside `path` (checked with [`writable_target`]).
    pub fn new(path: &Path, bytes: &[u8]) -> Result<Staged, FileError> {
        let target = writable_target(path)?;
        let temporary = staged(&target, bytes)?;
        if let Ok(existing) = fs::metadata(&target) {
            fs::set_permissions(temporary.path(), existing.permissions())
                .map_err(|e| FileError::new(path, format!("cannot keep its permissions: {e}")))?;
        }
        Ok(Staged {
            target,
            shown: path.to_path_buf(),
            temporary,
        })
    }

    /// Puts the new contents in place (one rename).
    pub fn commit(self) -> Result<(), FileError> {
        self.temporary
            .persist(&self.target)
            .map(|_| ())
            .map_err(|e| FileError::new(&self.shown, format!("cannot write: {}", e.error)))
    }
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
    fn a_new_file_gets_the_umasks_permissions_not_private_ones() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("COMPARISON.md");
        replace_atomically(&path, b"new").unwrap();
        let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, new_file_permissions().mode() & 0o777);
        assert_ne!(mode, 0o600, "the temporary file's private mode leaked");
    }

    #[cfg(unix)]
    #[test]
    fn a_read_only_file_is_refused_and_a_link_is_followed() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let locked = dir.path().join("locked.md");
        fs::write(&locked, "mine").unwrap();
        fs::set_permissions(&locked, fs::Permissions::from_mode(0o444)).unwrap();
        let error = replace_atomically(&locked, b"theirs").unwrap_err();
        assert!(error.problem.contains("read-only"), "{error}");
        assert_eq!(fs::read(&locked).unwrap(), b"mine");

        let real = dir.path().join("real.md");
        fs::write(&real, "old").unwrap();
        let link = dir.path().join("README.md");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        replace_atomically(&link, b"new").unwrap();
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read(&real).unwrap(), b"new");
    }

    #[test]
    fn leftovers_of_a_killed_writer_are_removed_by_the_next_write() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run.ckpt");
        // A process id that is not running: above the kernel's pid_max.
        let dead = dir.path().join(".run.ckpt.tmp-4194305-abcdef");
        let unrelated = dir.path().join(".other.tmp-4194305-abcdef");
        fs::write(&dead, "half").unwrap();
        fs::write(&unrelated, "not ours").unwrap();
        replace_atomically(&path, b"whole").unwrap();
        assert!(!dead.exists(), "a dead writer's temporary file is left");
        assert!(unrelated.exists(), "another file's temporary was touched");
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
