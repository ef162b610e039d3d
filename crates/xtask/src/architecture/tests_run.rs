//! Every integration test file runs. A crate with several test files
//! builds them as one binary (`autotests = false`, `tests/lib.rs` declaring
//! each file as a module), and cargo then compiles only what `tests/lib.rs`
//! names: a new `tests/x.rs` it forgot would pass silently, never built.

use std::path::Path;

use super::source::{code, crates, entries, read_toml};
use crate::Error;

/// A line for each `tests/*.rs` of a crate without automatic test targets
/// that its `tests/lib.rs` does not declare as a module.
pub fn violations(root: &Path) -> Result<Vec<String>, Error> {
    let mut found = Vec::new();
    for (name, dir) in crates(root)? {
        let manifest = read_toml(&dir.join("Cargo.toml"))?;
        let package = manifest.get("package");
        let automatic = package.and_then(|p| p.get("autotests")) != Some(&false.into());
        let tests = dir.join("tests");
        if automatic || !tests.is_dir() {
            continue;
        }
        let lib = tests.join("lib.rs");
        let declared = if lib.is_file() {
            code(&lib)?
        } else {
            String::new()
        };
        for path in entries(&tests)? {
            let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else {
                continue;
            };
            let is_test_file = path.extension().is_some_and(|e| e == "rs") && stem != "lib";
            if is_test_file && !declared.contains(&format!("mod {stem};")) {
                found.push(format!(
                    "crates/{name}/tests/{stem}.rs is never built: crates/{name}/tests/lib.rs does not declare `mod {stem};` (autotests = false)"
                ));
            }
        }
    }
    Ok(found)
}
