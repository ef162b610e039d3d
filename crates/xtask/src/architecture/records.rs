//! The default records directory is spelled once, as
//! `queens_record::RECORDS_DIR`: every other place uses that constant.

use std::path::Path;

use super::source::{code, crates, rust_files};
use crate::Error;

/// Every place under crates/*/src and crates/*/benches that spells the
/// records directory as a string literal.
pub fn places(root: &Path) -> Result<Vec<String>, Error> {
    // The literal is built here rather than written, so that this file is
    // not a place that spells it.
    let literal = format!("\"{}\"", queens_record::RECORDS_DIR);
    let mut places = Vec::new();
    for (name, dir) in crates(root)? {
        for sub in ["src", "benches"] {
            for path in rust_files(&dir.join(sub))? {
                if code(&path)?.contains(&literal) {
                    let inside = path.strip_prefix(&dir).unwrap_or(&path);
                    places.push(format!("crates/{name}/{}", inside.display()));
                }
            }
        }
    }
    Ok(places)
}

/// A line unless the directory is spelled exactly once.
pub fn violations(root: &Path) -> Result<Vec<String>, Error> {
    let places = places(root)?;
    Ok(if places.len() == 1 {
        Vec::new()
    } else {
        vec![format!(
            "the records directory is spelled as a literal in {places:?}: spell it once, as queens_record::RECORDS_DIR"
        )]
    })
}
