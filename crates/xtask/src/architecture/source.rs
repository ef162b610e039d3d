//! Reading the source tree: the crates, and a file's code without its
//! comments and its trailing test module.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use crate::Error;

/// A file's text, or a failure naming it.
pub fn read(path: &Path) -> Result<String, Error> {
    fs::read_to_string(path).map_err(Error::io("cannot read", path))
}

/// A TOML file's table (a manifest), or a failure naming it.
pub fn read_toml(path: &Path) -> Result<toml::Table, Error> {
    let failed = |error: toml::de::Error| Error::Failed(format!("{}: {error}", path.display()));
    read(path)?.parse().map_err(failed)
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

/// `path` as seen from `root`, for messages.
pub fn relative(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .display()
        .to_string()
}

/// Every crate directory under crates/, by directory name.
pub fn crates(root: &Path) -> Result<BTreeMap<String, PathBuf>, Error> {
    let mut found = BTreeMap::new();
    for path in entries(&root.join("crates"))? {
        if path.join("Cargo.toml").is_file() {
            let name = path.file_name().unwrap_or_default().to_string_lossy();
            found.insert(name.into_owned(), path.clone());
        }
    }
    Ok(found)
}

/// Every file under a directory (none if it does not exist), sorted.
pub fn files_under(dir: &Path) -> Result<Vec<PathBuf>, Error> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(path) = stack.pop() {
        if path.is_dir() {
            stack.extend(entries(&path)?);
        } else if path.is_file() {
            found.push(path);
        }
    }
    found.sort();
    Ok(found)
}

/// Every `.rs` file under a directory (none if it does not exist).
pub fn rust_files(dir: &Path) -> Result<Vec<PathBuf>, Error> {
    let mut found = files_under(dir)?;
    found.retain(|path| path.extension().is_some_and(|e| e == "rs"));
    Ok(found)
}

/// A Rust file's production code, read the way the line counts of the
/// bars read it: the lines that are neither blank nor `//` comments,
/// without the bodies of test modules (`#[cfg(test)] mod name { .. }`).
#[derive(Debug, Default)]
pub struct Production {
    /// The code lines, as written.
    pub lines: Vec<String>,
    /// The modules declared as `#[cfg(test)] mod name;`: files of tests.
    pub test_modules: Vec<String>,
    /// Each other line with a `#[cfg(test)]` attribute, by line number
    /// (from 1): an item compiled for tests inside production code.
    pub cfg_test: Vec<usize>,
}

/// The module a line declares (`mod x;`, `pub(crate) mod x {`), and
/// whether its body follows in braces.
fn declared_module(line: &str) -> Option<(&str, bool)> {
    let rest = line
        .strip_prefix("pub(crate) ")
        .or_else(|| line.strip_prefix("pub "))
        .unwrap_or(line)
        .strip_prefix("mod ")?;
    let name = rest.trim_end_matches([';', '{', ' ']);
    let inline = rest.ends_with('{');
    (!name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_'))
        .then_some((name, inline))
}

/// The production code of a Rust file's text.
pub fn production(text: &str) -> Production {
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Production::default();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i].trim();
        let next = lines.get(i + 1).map(|next| declared_module(next.trim()));
        if line == "#[cfg(test)]"
            && let Some(Some((_, true))) = next
        {
            // Skip the module's body: from its `mod` line to its closing brace.
            let mut depth = 0;
            for body in &lines[i + 1..] {
                i += 1;
                depth += body.matches('{').count() as isize - body.matches('}').count() as isize;
                if depth <= 0 {
                    break;
                }
            }
            i += 1;
            continue;
        }
        if line.starts_with("#[") && line.contains("cfg(test)") && !line.contains("not(test)") {
            match next {
                Some(Some((name, false))) if line == "#[cfg(test)]" => {
                    found.test_modules.push(name.to_string());
                }
                _ => found.cfg_test.push(i + 1),
            }
        }
        if !line.is_empty() && !line.starts_with("//") {
            found.lines.push(lines[i].to_string());
        }
        i += 1;
    }
    found
}

/// The code of a file without comments and without its test modules (a
/// test module sees its parent by design).
pub fn code(path: &Path) -> Result<String, Error> {
    Ok(production(&read(path)?).lines.join("\n"))
}
