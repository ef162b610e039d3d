//! Reading the source tree: the crates, and a file's code without its
//! comments and its trailing test module.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use crate::Error;

/// A file's text, or a failure naming it.
pub fn read(path: &Path) -> Result<String, Error> {
    fs::read_to_string(path)
        .map_err(|error| Error::Failed(format!("cannot read {}: {error}", path.display())))
}

/// The entries of a directory.
pub fn entries(dir: &Path) -> Result<Vec<PathBuf>, Error> {
    let failed =
        |error: std::io::Error| Error::Failed(format!("cannot list {}: {error}", dir.display()));
    fs::read_dir(dir)
        .map_err(failed)?
        .map(|entry| entry.map(|e| e.path()).map_err(failed))
        .collect()
}

/// Every crate directory under crates/, by directory name.
pub fn crates(root: &Path) -> Result<BTreeMap<String, PathBuf>, Error> {
    Ok(entries(&root.join("crates"))?
        .into_iter()
        .filter(|path| path.join("Cargo.toml").is_file())
        .map(|path| {
            let name = path
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            (name, path)
        })
        .collect())
}

/// Every `.rs` file under a directory (none if it does not exist).
pub fn rust_files(dir: &Path) -> Result<Vec<PathBuf>, Error> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(path) = stack.pop() {
        if path.is_dir() {
            stack.extend(entries(&path)?);
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
    found.sort();
    Ok(found)
}

/// The code of a file without comments and without its trailing test
/// module (a test module sees its parent by design).
pub fn code(path: &Path) -> Result<String, Error> {
    let text = read(path)?;
    let mut kept = Vec::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let trimmed = line.trim();
        if trimmed == "#[cfg(test)]"
            && lines
                .peek()
                .is_some_and(|next| next.trim().starts_with("mod tests"))
        {
            break;
        }
        if !trimmed.starts_with("//") {
            kept.push(line);
        }
    }
    Ok(kept.join("\n"))
}
