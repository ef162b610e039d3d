//! Every closure handed to `Isa::run` is marked `#[inline(always)]` (that
//! method's documentation says why): left to LLVM, the tests' build kept
//! such a closure out of its level's featured entry, every intrinsic in it
//! became a call, and the join ran about 13 times slower than released,
//! with every count still exact. No count can see it, so the sources are
//! read.

use std::path::{Path, PathBuf};

/// The Rust files under `dir`, recursively.
fn rust_files(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("the source directory reads") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, found);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            found.push(path);
        }
    }
}

#[test]
fn every_closure_entered_at_a_level_is_inlined_always() {
    let mut files = Vec::new();
    rust_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    let (mut marked, mut bare) = (0, Vec::new());
    for file in &files {
        let text = std::fs::read_to_string(file).expect("a source file reads");
        for (at, _) in text.match_indices(".run(") {
            let argument = text[at + ".run(".len()..].trim_start();
            if argument.starts_with("#[inline(always)]") {
                marked += 1;
            } else if argument.starts_with("||") || argument.starts_with("move ||") {
                let line = text[..at].lines().count();
                bare.push(format!("{}:{line}", file.display()));
            }
        }
    }
    assert!(
        bare.is_empty(),
        "closures entered without #[inline(always)]: {bare:?}"
    );
    // The check looks where the entries are: the join, the index, the
    // quarters, the sort and the searched halves all enter a level.
    assert!(marked >= 6, "only {marked} marked entries found");
}
