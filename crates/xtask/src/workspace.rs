//! Where the checkout and the `queens` binaries are.

use std::path::{Path, PathBuf};

use queens_record::files;
use serde::Serialize;

use crate::Error;

/// The workspace root: xtask is always run from its own checkout
/// (`cargo xtask`), two directories above this crate.
pub fn root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest
        .parent()
        .and_then(Path::parent)
        .unwrap_or(manifest)
        .to_path_buf()
}

/// Cargo's target directory: `$CARGO_TARGET_DIR` when set (relative to the
/// root), else `target/` in the checkout.
pub fn target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) if !dir.is_empty() => root().join(dir),
        _ => root().join("target"),
    }
}

/// The `queens` binary a chore runs: `$QUEENS` if set (relative to the
/// root), else the release build of this checkout, built first (a no-op
/// when it is fresh): a chore whose record names this commit must not run
/// a binary built from an older one. Refused in one line if it is not
/// there.
pub fn queens_binary(chore: &str) -> Result<PathBuf, Error> {
    let queens = match std::env::var_os("QUEENS") {
        Some(path) if !path.is_empty() => root().join(path),
        _ => {
            crate::process::run(std::process::Command::new("cargo").args([
                "build",
                "--release",
                "--quiet",
            ]))?;
            target_dir().join("release/queens")
        }
    };
    check_binary(chore, queens)
}

/// `queens` must be an existing file: otherwise a usage error naming it.
pub fn check_binary(chore: &str, queens: PathBuf) -> Result<PathBuf, Error> {
    if queens.is_file() {
        Ok(queens)
    } else {
        Err(Error::Usage(format!(
            "{chore}: no queens binary at {} (cargo build --release, or set QUEENS)",
            queens.display()
        )))
    }
}

/// A number from the environment, or its default; refused in one line.
pub fn env_number(name: &str, default: usize, chore: &str) -> Result<usize, Error> {
    match std::env::var(name) {
        Ok(value) if !value.is_empty() => value.parse().map_err(|_| {
            Error::Usage(format!(
                "{chore}: {name} must be a whole number, not '{value}'"
            ))
        }),
        _ => Ok(default),
    }
}

/// Writes a record as pretty JSON ending in a newline, replacing `path`
/// atomically.
pub fn write_json(path: &Path, record: &impl Serialize) -> Result<(), Error> {
    let mut json = serde_json::to_string_pretty(record)
        .map_err(|error| Error::Failed(format!("cannot encode the record: {error}")))?;
    json.push('\n');
    Ok(files::replace_atomically(path, json.as_bytes())?)
}
