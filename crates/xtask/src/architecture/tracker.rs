//! No tracker issue is named in the code, its comments, the documents or
//! a file's name: a reader of the repository cannot follow the number, so
//! a test or a comment says what it protects instead.
//!
//! Named means the word issue or issues followed by a number (after a
//! space, a `#`, `_` or `-`), a `#` and a number after a space or a
//! bracket, or an identifier or a file name after a tracker's test
//! battery (`battery_` and a word). A colour (`"#555"`, never after a
//! space in the files read here), `#[derive]`, `r#"` and numbers alone
//! are not.

use std::path::Path;
use std::sync::LazyLock;

use regex::Regex;

use super::source::{entries, relative};
use crate::Error;

/// What names a tracker issue in a text.
static NAMED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?:\b|_)issues?[ _-]?#?[0-9]+\b|\bbattery_\w+|(?:^|[\s(\[])#[0-9]+\b")
        .expect("a valid pattern")
});

/// The folders read, from the workspace root, and the files at the root.
const FOLDERS: &[&str] = &["crates", "docs", "scripts", "examples", ".ci"];
const ROOT_FILES: &[&str] = &["README.md", "Cargo.toml"];

/// Whether a file's text is read: Rust, Markdown, manifests, scripts
/// (files without an extension), the examples' C and Python, not styles,
/// pages or data.
fn is_read(path: &Path) -> bool {
    path.extension().is_none_or(|ext| {
        ["rs", "md", "toml", "sh", "sbatch", "wgsl", "c", "py"]
            .iter()
            .any(|e| ext == *e)
    })
}

/// Every place under `root` that names a tracker issue: a file's name, or
/// a line of a file (path:line: the line).
pub fn violations(root: &Path) -> Result<Vec<String>, Error> {
    let mut stack: Vec<_> = FOLDERS.iter().map(|folder| root.join(folder)).collect();
    stack.extend(ROOT_FILES.iter().map(|file| root.join(file)));
    let mut found = Vec::new();
    while let Some(path) = stack.pop() {
        let shown = relative(root, &path);
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        if name == "target" || name.starts_with('.') && name != ".ci" {
            continue;
        }
        if NAMED.is_match(&name) || name.to_lowercase().contains("battery") {
            found.push(format!("{shown}: its name names a tracker issue"));
        }
        if path.is_dir() {
            stack.extend(entries(&path)?);
        } else if path.is_file() && is_read(&path) {
            // A program built in place (the examples' C counter) has no
            // extension either, but is no text: it is passed over.
            let bytes = std::fs::read(&path).map_err(Error::io("cannot read", &path))?;
            let Ok(text) = String::from_utf8(bytes) else {
                continue;
            };
            for (number, line) in text.lines().enumerate() {
                if let Some(hit) = NAMED.find(line) {
                    found.push(format!(
                        "{shown}:{}: names a tracker issue ({}): say what it protects",
                        number + 1,
                        hit.as_str().trim()
                    ));
                }
            }
        }
    }
    found.sort();
    Ok(found)
}
