//! `cargo xtask architecture`: the layering rules of docs/ARCHITECTURE.md
//! ([`crate::architecture`]) on this checkout; every broken rule on its own
//! line, exit 1 if there is any. `cargo test` runs the same checks.

use crate::{Error, architecture, workspace};

/// Checks the rules.
pub fn run() -> Result<(), Error> {
    let found = architecture::violations(&workspace::root())?;
    if found.is_empty() {
        println!(
            "architecture: crate layers, module imports, the records directory, test files, size bars and tracker names hold"
        );
        return Ok(());
    }
    for line in &found {
        eprintln!("architecture: {line}");
    }
    Err(Error::Failed(format!(
        "architecture: {} broken",
        queens_core::counted(found.len(), "rule", "rules")
    )))
}
