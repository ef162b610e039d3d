//! Writing files so that nothing is lost: the bytes go to a temporary file
//! in the same directory, reach the disk (fsync), and only then take the
//! file's name in one rename. A kill or a full disk at any moment leaves the
//! old version or the new one, never a torn one. Records, reports, plots,
//! spliced READMEs and checkpoints are all written here.

use std::fs;
use std::io::{self, ErrorKind, Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use serde::de::DeserializeOwned;

use crate::error::FileError;

/// The directory a file lives in (`.` for a bare name).
fn directory_of(path: &Path) -> &Path {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    }
}

/// What every temporary file written here is called: this prefix, the
/// writer's process id in 8 hex digits, `-` and 8 random characters. The
/// name is short and of fixed length (29 bytes), whatever the target's
/// name, so that a target name up to the file system's limit (255 bytes)
/// can still be written beside it; the prefix tells our leftovers from
/// anything else in the directory.
const TEMPORARY_PREFIX: &str = ".queens-tmp-";

/// A temporary file left by a writer killed mid-write is removed only when
/// it is at least this old: a write (bytes already in memory, then one
/// fsync) takes far less, so a live writer's file is never touched, even
/// one of another machine sharing the directory (whose process ids mean
/// nothing here).
const STALE_AFTER: Duration = Duration::from_secs(60);

/// Past this age a temporary file is removed even if a process with its
/// writer's id is alive (the id was reused, or the writer was on another
/// machine): no write takes an hour.
const ABANDONED_AFTER: Duration = Duration::from_secs(3600);

/// A file of ours in a target's directory, named as [`TEMPORARY_PREFIX`]
/// says, by the directory's path as given: never made absolute, as a
/// working directory deeper than the system's path limit has no absolute
/// path the kernel takes. Removed when dropped unless put in place.
pub(crate) struct Temporary {
    pub(crate) path: PathBuf,
    kept: bool,
}

impl Temporary {
    /// A new name in `dir`, given to what `make` creates there (a name
    /// taken, `AlreadyExists`, is drawn again).
    fn claim<T>(dir: &Path, make: impl Fn(&Path) -> io::Result<T>) -> io::Result<(Self, T)> {
        let pid = std::process::id();
        loop {
            let random: String = (0..8).map(|_| fastrand::alphanumeric()).collect();
            let path = dir.join(format!("{TEMPORARY_PREFIX}{pid:08x}-{random}"));
            match make(&path) {
                Err(e) if e.kind() == ErrorKind::AlreadyExists => continue,
                made => return made.map(|made| (Temporary { path, kept: false }, made)),
            }
        }
    }

    /// Gives the file `target`'s name, replacing what had it.
    fn persist(mut self, target: &Path) -> io::Result<()> {
        fs::rename(&self.path, target)?;
        self.kept = true;
        Ok(())
    }
}

impl Drop for Temporary {
    fn drop(&mut self) {
        if !self.kept {
            let _ = fs::remove_file(&self.path);
        }
    }
}

/// Whether a process with this id runs here. Where that cannot be asked,
/// every writer counts as alive, and only [`ABANDONED_AFTER`] removes its
/// leftovers.
fn process_alive(pid: u32) -> bool {
    #[cfg(unix)]
    {
        let Ok(pid) = libc::pid_t::try_from(pid) else {
            return false;
        };
        if pid <= 0 {
            return false;
        }
        // SAFETY: signal 0 sends nothing; kill only checks that the process
        // exists (ESRCH if not; EPERM means it exists but is another user's).
        let sent = unsafe { libc::kill(pid, 0) };
        sent == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
    }
    #[cfg(not(unix))]
    {
        let _ = pid;
        true
    }
}

/// Removes from `dir` the temporary files that writers killed mid-write
/// left there (by any `queens` command: a compare's record, a report, a
/// checkpoint). Only regular files named as `TEMPORARY_PREFIX` says are
/// touched, and only stale ones: older than `STALE_AFTER` and whose
/// writer is gone, or older than `ABANDONED_AFTER`. Failures are ignored:
/// cleaning is a courtesy, never a reason to refuse a write.
pub fn remove_stale_temporaries(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let now = SystemTime::now();
    for entry in entries.filter_map(Result::ok) {
        let name = entry.file_name();
        let Some(rest) = name
            .to_str()
            .and_then(|name| name.strip_prefix(TEMPORARY_PREFIX))
        else {
            continue;
        };
        let Some(pid) = rest
            .split_once('-')
            .filter(|(pid, _)| pid.len() == 8)
            .and_then(|(pid, _)| u32::from_str_radix(pid, 16).ok())
        else {
            continue;
        };
        // Not followed: a link or a directory with our prefix is not ours.
        let Ok(meta) = fs::symlink_metadata(entry.path()) else {
            continue;
        };
        let age = meta
            .modified()
            .ok()
            .and_then(|modified| now.duration_since(modified).ok())
            .unwrap_or_default();
        let stale = age >= ABANDONED_AFTER
            || (age >= STALE_AFTER && pid != std::process::id() && !process_alive(pid));
        if meta.is_file() && stale {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// A temporary file beside `path` holding `bytes`, flushed to disk, with
/// the permissions a new file gets (created as any file is: 0666 less the
/// umask). The directory must exist: creating directories is the caller's
/// decision.
pub(crate) fn staged(path: &Path, bytes: &[u8]) -> Result<Temporary, FileError> {
    let dir = directory_of(path);
    remove_stale_temporaries(dir);
    let (temporary, mut file) = Temporary::claim(dir, |path: &Path| fs::File::create_new(path))
        .map_err(|e| {
            FileError::new(
                path,
                format!("cannot write (a temporary file in {}): {e}", dir.display()),
            )
        })?;
    file.write_all(bytes)
        .and_then(|()| file.sync_all())
        .map_err(|e| FileError::new(path, format!("cannot write: {e}")))?;
    Ok(temporary)
}

/// Checks that `dir` (which must exist) takes new files, by creating and
/// removing a temporary one, and cleans its stale temporary files: what a
/// command that will write there at its end does before its long work.
pub fn check_writable_dir(dir: &Path) -> std::io::Result<()> {
    remove_stale_temporaries(dir);
    Temporary::claim(dir, |path: &Path| fs::File::create_new(path)).map(drop)
}

/// What a file that is not a regular file is, for a refusal: `None` for a
/// regular file.
fn not_a_file(meta: &fs::Metadata) -> Option<&'static str> {
    let kind = meta.file_type();
    if kind.is_file() {
        return None;
    }
    if kind.is_dir() {
        return Some("is a directory");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return Some("is a named pipe (FIFO)");
        }
        if kind.is_socket() {
            return Some("is a socket");
        }
        if kind.is_char_device() || kind.is_block_device() {
            return Some("is a device");
        }
    }
    Some("is not a regular file")
}

/// Refuses `meta` unless it is a regular file: one line naming `path`.
pub fn regular(path: &Path, meta: &fs::Metadata) -> Result<(), FileError> {
    match not_a_file(meta) {
        None => Ok(()),
        Some(kind) => Err(FileError::new(
            path,
            format!("{kind}, not a file; give a regular file"),
        )),
    }
}

/// Opens `path` for reading without waiting: a named pipe opened the
/// ordinary way blocks until something writes to it, which a command given
/// one by mistake would do forever.
fn open_without_blocking(path: &Path) -> std::io::Result<fs::File> {
    let mut options = fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    options.open(path)
}

/// The bytes of the regular file at `path`, or `None` if there is nothing
/// there. Anything else there (a directory, a named pipe, a device, a
/// socket) is refused in one line, without blocking and without reading
/// it: every file a command reads as a record, shard, checkpoint or
/// document is read here.
pub fn read_bytes_if_present(path: &Path) -> Result<Option<Vec<u8>>, FileError> {
    let cannot = |e: std::io::Error| FileError::new(path, format!("cannot read: {e}"));
    // Looked at before it is opened (opening some devices does something),
    // then again once open, as the name may have been given to something
    // else in between.
    match fs::metadata(path) {
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(cannot(e)),
        Ok(meta) => regular(path, &meta)?,
    }
    let mut file = match open_without_blocking(path) {
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
        other => other.map_err(cannot)?,
    };
    regular(path, &file.metadata().map_err(cannot)?)?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).map_err(cannot)?;
    Ok(Some(bytes))
}

/// The text of the regular file at `path`, refused in one line if it is
/// missing, not a regular file (see [`read_bytes_if_present`]) or not
/// UTF-8.
pub fn read_text(path: &Path) -> Result<String, FileError> {
    let bytes = read_bytes_if_present(path)?
        .ok_or_else(|| FileError::new(path, "cannot read: no such file"))?;
    String::from_utf8(bytes).map_err(|_| FileError::new(path, "is not text (not UTF-8)"))
}

/// Where writing `path` really goes, and whether it may: a symbolic link is
/// followed (the file it points to is replaced, the link stays), and an
/// existing file without write permission is refused rather than replaced
/// behind its owner's back (the rename would succeed, as the directory is
/// writable).
pub fn writable_target(path: &Path) -> Result<PathBuf, FileError> {
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
        if let Some(kind) = not_a_file(&meta) {
            return Err(FileError::new(
                path,
                format!("{kind}, not a file; not writing to it"),
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
/// files can be staged first and put in place together ([`commit_all`]),
/// so that a failure half way leaves every old version in place.
pub struct Staged {
    target: PathBuf,
    shown: PathBuf,
    temporary: Temporary,
}

impl Staged {
    /// Writes `bytes` beside `path` (checked with [`writable_target`]).
    pub fn new(path: &Path, bytes: &[u8]) -> Result<Staged, FileError> {
        let target = writable_target(path)?;
        let temporary = staged(&target, bytes)?;
        if let Ok(existing) = fs::metadata(&target) {
            fs::set_permissions(&temporary.path, existing.permissions())
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
        (self.temporary.persist(&self.target))
            .map_err(|e| FileError::new(&self.shown, format!("cannot write: {e}")))
    }

    /// The version in place, if there is one, kept under a temporary name
    /// (a second link to it: nothing is copied) until the new one is known
    /// to be in place. A file that cannot be linked (immutable) is refused
    /// here, before anything is replaced.
    fn keep_old(&self) -> Result<Option<Temporary>, FileError> {
        if fs::symlink_metadata(&self.target).is_err() {
            return Ok(None);
        }
        let link = |old: &Path| fs::hard_link(&self.target, old);
        Temporary::claim(directory_of(&self.target), link)
            .map(|(old, ())| Some(old))
            .map_err(|e| FileError::new(&self.shown, format!("cannot be replaced: {e}")))
    }
}

/// Puts every staged file in place, or none: the old versions are kept
/// (hard-linked aside) before the first rename, put back if a rename
/// fails, and removed once every one has succeeded.
pub fn commit_all(files: Vec<Staged>) -> Result<(), FileError> {
    let olds = files.iter().map(Staged::keep_old);
    let olds = olds.collect::<Result<Vec<_>, _>>()?;
    let targets: Vec<PathBuf> = files.iter().map(|file| file.target.clone()).collect();
    for (done, file) in files.into_iter().enumerate() {
        let Err(mut error) = file.commit() else {
            continue;
        };
        let restore = |(target, old): (&PathBuf, Option<Temporary>)| match old {
            Some(old) => old.persist(target).is_err(),
            None => fs::remove_file(target).is_err(),
        };
        let lost = (targets.iter().zip(olds).take(done)).map(restore);
        let lost = lost.filter(|&lost| lost).count();
        if lost > 0 {
            error.problem += &format!(
                "; {} already replaced could not be put back",
                queens_core::counted(lost, "file", "files")
            );
        }
        return Err(error);
    }
    Ok(())
}

/// Reads `text` (the contents of `path`) as JSON of type `T`. A problem is
/// one line that names the file, the field to blame as a path into the
/// document (`entries[3].n`) when there is one, and says `what` the file
/// was expected to be.
pub fn from_json<T: DeserializeOwned>(path: &Path, text: &str, what: &str) -> Result<T, FileError> {
    let mut reader = serde_json::Deserializer::from_str(text);
    let parsed =
        serde_path_to_error::deserialize(&mut reader).map_err(|e| refusal(path, what, e))?;
    reader
        .end()
        .map_err(|e| FileError::new(path, format!("{what}: {e}")))?;
    Ok(parsed)
}

/// [`from_json`] for a document already parsed (and perhaps brought up to
/// date from an older layout).
pub fn from_value<T: DeserializeOwned>(
    path: &Path,
    value: serde_json::Value,
    what: &str,
) -> Result<T, FileError> {
    serde_path_to_error::deserialize(value).map_err(|e| refusal(path, what, e))
}

fn refusal<E: std::fmt::Display>(
    path: &Path,
    what: &str,
    e: serde_path_to_error::Error<E>,
) -> FileError {
    let field = e.path().to_string();
    let problem = format!("{what}: {}", e.into_inner());
    if field == "." {
        FileError::new(path, problem)
    } else {
        FileError::field(path, field, problem)
    }
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

    #[test]
    fn staged_files_are_put_in_place_all_or_none() {
        let dir = tempfile::tempdir().unwrap();
        let [a, b, c] = ["a.md", "b.svg", "c.html"].map(|name| dir.path().join(name));
        fs::write(&a, "old a").unwrap();
        fs::write(&c, "old c").unwrap();
        let stage = |path: &Path| Staged::new(path, b"new").unwrap();
        let files = vec![stage(&a), stage(&b), stage(&c)];
        // The last rename fails (its new version is gone): the others are
        // put back as they were.
        fs::remove_file(&files[2].temporary.path).unwrap();
        let error = commit_all(files).unwrap_err();
        assert!(
            error
                .to_string()
                .starts_with(&format!("{}: cannot write", c.display()))
        );
        assert_eq!(fs::read(&a).unwrap(), b"old a");
        assert!(!b.exists(), "a new file was left");
        assert_eq!(fs::read(&c).unwrap(), b"old c");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 2, "files left");
        // Nothing in the way: every one is replaced, nothing left beside.
        commit_all(vec![stage(&a), stage(&b), stage(&c)]).unwrap();
        for path in [&a, &b, &c] {
            assert_eq!(fs::read(path).unwrap(), b"new");
        }
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 3, "files left");
    }

    #[cfg(unix)]
    #[test]
    fn a_new_file_gets_the_umasks_permissions_not_private_ones() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("COMPARISON.md");
        replace_atomically(&path, b"new").unwrap();
        let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        let status = fs::read_to_string("/proc/self/status").unwrap();
        let umask = status
            .lines()
            .find_map(|l| l.strip_prefix("Umask:"))
            .unwrap();
        assert_eq!(mode, 0o666 & !u32::from_str_radix(umask.trim(), 8).unwrap());
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

    /// A file in `dir` named `name`, last written `age` ago.
    fn left(dir: &Path, name: &str, age: Duration) -> std::path::PathBuf {
        let path = dir.join(name);
        fs::write(&path, "half").unwrap();
        let file = fs::File::options().write(true).open(&path).unwrap();
        file.set_modified(SystemTime::now() - age).unwrap();
        path
    }

    #[test]
    fn leftovers_of_a_killed_writer_are_removed_by_the_next_write() {
        let dir = tempfile::tempdir().unwrap();
        let minutes = Duration::from_secs(300);
        // A process id that is not running: above the kernel's pid_max.
        let dead = left(dir.path(), ".queens-tmp-00400001-abcdefgh", minutes);
        let fresh = left(dir.path(), ".queens-tmp-00400001-ijklmnop", Duration::ZERO);
        let alive = format!(".queens-tmp-{:08x}-qrstuvwx", std::process::id());
        let alive = left(dir.path(), &alive, minutes);
        let abandoned = left(
            dir.path(),
            &format!(".queens-tmp-{:08x}-abandone", std::process::id()),
            2 * ABANDONED_AFTER,
        );
        let unrelated = left(dir.path(), ".other.tmp-4194305-abcdef", 2 * ABANDONED_AFTER);
        replace_atomically(&dir.path().join("run.ckpt"), b"whole").unwrap();
        assert!(!dead.exists(), "a dead writer's temporary file is left");
        assert!(!abandoned.exists(), "an hour-old temporary file is left");
        assert!(fresh.exists(), "a temporary file being written was removed");
        assert!(alive.exists(), "a live writer's temporary file was removed");
        assert!(unrelated.exists(), "a file not ours was touched");
    }

    #[test]
    fn a_name_of_255_bytes_can_be_written() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c".repeat(250) + ".ckpt");
        replace_atomically(&path, b"whole").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"whole");
    }

    #[cfg(unix)]
    #[test]
    fn what_is_not_a_regular_file_is_refused_in_one_line_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let pipe = dir.path().join("pipe");
        let name = std::ffi::CString::new(pipe.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: a valid NUL-terminated path; mkfifo only creates a node.
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
        for (path, kind) in [
            (pipe.as_path(), "is a named pipe (FIFO), not a file"),
            (dir.path(), "is a directory, not a file"),
            (Path::new("/dev/null"), "is a device, not a file"),
        ] {
            let error = read_text(path).unwrap_err();
            assert!(error.problem.starts_with(kind), "{error}");
            let error = replace_atomically(path, b"x").unwrap_err();
            assert!(error.problem.starts_with(kind), "{error}");
        }
        assert_eq!(read_bytes_if_present(&dir.path().join("none")), Ok(None));
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
