//! One run at a time on a checkpoint: two counts given the same
//! `--checkpoint FILE` (a job array whose file name lacks the task's index,
//! a command started twice) would each replace the other's saves, and a
//! resumed task would find another run's file. A run locks its checkpoint
//! before any work and holds it to its end; a second run is refused in one
//! line that names the first.
//!
//! The lock (an exclusive advisory one) is on a companion file beside the
//! checkpoint, not on the checkpoint: every save replaces the checkpoint by
//! a rename, and a lock on a file a rename replaced protects nothing. The
//! companion's name has a fixed length (`.queens-lock-` and 16 hex digits of
//! a hash of the checkpoint's name), as the atomic writer's temporary files
//! do, so that a checkpoint named up to the file system's limit has one; it
//! holds the process id of its holder, for the refusal. A lock dies with its
//! process, so a companion that a killed run left stops nobody; a run that
//! ends removes its own.

use std::fs::{self, File, TryLockError};
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use same_file::Handle;
use sha2::{Digest, Sha256};

use crate::files::{FileError, regular};
use crate::shard::hex;

/// What a companion's name starts with.
const PREFIX: &str = ".queens-lock-";

/// A checkpoint that this process alone uses until the value is dropped.
#[derive(Debug)]
pub struct Locked {
    path: PathBuf,
    companion: PathBuf,
    /// Held open, and so locked, until the value is dropped.
    _file: File,
}

impl Locked {
    /// Locks the checkpoint at `path` for this process, or refuses in one
    /// line naming the process that holds it. Something other than a
    /// regular file at `path` is refused first, as reading it would be.
    pub fn take(path: &Path) -> Result<Locked, FileError> {
        if let Ok(meta) = fs::metadata(path) {
            regular(path, &meta)?;
        }
        // Two names of one file (a symbolic link and its target) share the
        // target's lock, as they share its saves.
        let target = fs::read_link(path)
            .and_then(|_| fs::canonicalize(path))
            .unwrap_or_else(|_| path.to_path_buf());
        let name = target.file_name().unwrap_or(target.as_os_str());
        let digest = hex(&Sha256::digest(name.as_encoded_bytes()));
        let companion = target.with_file_name(format!("{PREFIX}{}", &digest[..16]));
        let shown = companion.display().to_string();
        let cannot = |e| {
            FileError::new(
                path,
                format!("cannot save checkpoint: cannot lock {shown}: {e}"),
            )
        };
        loop {
            let open = File::options().append(true).create(true).open(&companion);
            let mut file = open.map_err(cannot)?;
            match file.try_lock() {
                Ok(()) => {}
                Err(TryLockError::WouldBlock) => return Err(held(path, &companion)),
                Err(TryLockError::Error(e)) => return Err(cannot(e)),
            }
            // A run that ends removes its companion while it still holds
            // it: the file opened may have been removed since, and a lock
            // on it would protect nothing. Then the name's new file is the
            // one to lock.
            let ours = Handle::from_file(file.try_clone().map_err(cannot)?).map_err(cannot)?;
            match Handle::from_path(&companion) {
                Ok(named) if named == ours => {}
                Ok(_) => continue,
                Err(e) if e.kind() == ErrorKind::NotFound => continue,
                Err(e) => return Err(cannot(e)),
            }
            file.set_len(0)
                .and_then(|()| writeln!(file, "{}", std::process::id()))
                .map_err(cannot)?;
            return Ok(Locked {
                path: path.to_path_buf(),
                companion,
                _file: file,
            });
        }
    }

    /// The checkpoint, as it was named.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for Locked {
    /// Removes the companion while still holding it (the lock goes with
    /// the file, after this): see [`Locked::take`].
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.companion);
    }
}

/// The refusal of a checkpoint locked by another process, named by the id
/// in its `companion` (which it writes just after it locks: a moment is
/// allowed for that).
fn held(path: &Path, companion: &Path) -> FileError {
    let holder = (0..20).find_map(|_| {
        let id = fs::read_to_string(companion).ok()?.trim().parse::<u32>();
        id.inspect_err(|_| std::thread::sleep(Duration::from_millis(5)))
            .ok()
    });
    let holder = holder.map_or(String::new(), |id| format!(" (process {id})"));
    FileError::new(
        path,
        format!(
            "another queens run{holder} is using this checkpoint; wait for it to end, or give this run its own --checkpoint file"
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_is_refused_naming_the_holder_and_an_ended_one_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run.ckpt");
        fs::write(&path, "saves").unwrap();
        let first = Locked::take(&path).unwrap();
        // Another open of the companion is another lock, even here.
        let refusal = Locked::take(&path).unwrap_err().to_string();
        let holder = format!("another queens run (process {})", std::process::id());
        assert!(refusal.contains(&holder), "{refusal}");
        assert!(
            refusal.starts_with(&path.display().to_string()),
            "{refusal}"
        );
        #[cfg(unix)]
        {
            let link = dir.path().join("link.ckpt");
            std::os::unix::fs::symlink(&path, &link).unwrap();
            assert!(Locked::take(&link).is_err(), "a link to it is not locked");
            fs::remove_file(link).unwrap();
        }
        drop(first);
        let left: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(left.len(), 1, "only the checkpoint is left");
        assert_eq!(Locked::take(&path).unwrap().path(), path);
    }

    #[test]
    fn what_is_not_a_file_is_refused_before_a_lock_is_made_beside_it() {
        let dir = tempfile::tempdir().unwrap();
        let refusal = Locked::take(dir.path()).unwrap_err().to_string();
        assert!(refusal.contains("is a directory, not a file"), "{refusal}");
        let missing = dir.path().join("no/such/dir/run.ckpt");
        let refusal = Locked::take(&missing).unwrap_err().to_string();
        assert!(refusal.contains("cannot save checkpoint"), "{refusal}");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
    }
}
