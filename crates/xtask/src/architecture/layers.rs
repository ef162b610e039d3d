//! Which workspace crates each crate may depend on, and which crates may
//! parse a command line: the table below is the rule, so that adding a
//! crate is one line here (and one in docs/ARCHITECTURE.md).

use std::collections::BTreeSet;
use std::path::Path;

use super::source::{crates, read_toml};
use crate::Error;

/// Crates that may depend on every workspace crate: the `queens` command
/// (the only one that names solver crates, in its registry).
pub const EVERYTHING: &[&str] = &["harness"];

/// What each crate that is not a solver may depend on: (crate directory,
/// the workspace packages it may use). Any crate not listed here is a
/// solver crate, or a finder crate (construction, min-conflicts,
/// fail-first: `queens_core::Finder`, the other question), and may use
/// [`SOLVER`] only.
pub const LAYERS: &[(&str, &[&str])] = &[
    ("core", &[]),
    ("conformance", &["queens-core"]),
    // Records are the bottom of the libraries: measuring makes them,
    // reporting reads them, and neither of those two uses the other.
    ("record", &["queens-core"]),
    ("measure", &["queens-core", "queens-record"]),
    ("report", &["queens-core", "queens-record"]),
    // Counting split over threads, shards and checkpoints: files and their
    // errors from records, solvers only through the core protocol.
    ("distributed", &["queens-core", "queens-record"]),
    // A port of another solver's idea to other hardware uses that crate's
    // public plan and search rather than copying them (docs/ARCHITECTURE.md).
    ("gpu", &["queens-core", "queens-constellations"]),
    // The chores run the `queens` binary; they never link a solver or the
    // harness.
    (
        "xtask",
        &[
            "queens-core",
            "queens-record",
            "queens-measure",
            "queens-report",
        ],
    ),
];

/// What a solver or finder crate may depend on: the protocols alone, so
/// that no idea leans on another's code (a finder that reuses a solver's
/// search does so through `queens_core::find::FirstBoard`, in the
/// harness's registry, not by depending on its crate).
pub const SOLVER: &[&str] = &["queens-core"];

/// The finder crates: held to [`SOLVER`]'s rule like the solvers, named
/// here so that the rule's test sees each one checked.
pub const FINDERS: &[&str] = &["construction", "min-conflicts", "fail-first"];

/// The crates that may parse a command line (depend on clap).
pub const COMMAND_LINES: &[&str] = &["harness", "xtask"];

/// The package names listed under `[dependencies]` (and target-specific
/// dependency tables), not dev- or build-dependencies.
pub fn dependencies(manifest: &Path) -> Result<BTreeSet<String>, Error> {
    let manifest = read_toml(manifest)?;
    let targets = manifest.get("target").and_then(toml::Value::as_table);
    let tables = (targets.into_iter().flat_map(|targets| targets.values()))
        .map(|target| target.get("dependencies"))
        .chain([manifest.get("dependencies")]);
    let names = tables.flatten().filter_map(toml::Value::as_table);
    Ok(names.flat_map(|table| table.keys().cloned()).collect())
}

/// The workspace packages a crate may depend on; `None` for any.
pub fn allowed(crate_dir: &str) -> Option<BTreeSet<&'static str>> {
    let listed = LAYERS.iter().find(|(name, _)| *name == crate_dir);
    let may_use = listed.map_or(SOLVER, |(_, may_use)| may_use);
    (!EVERYTHING.contains(&crate_dir)).then(|| may_use.iter().copied().collect())
}

/// One line per crate that uses a crate above its layer, or clap outside
/// [`COMMAND_LINES`].
pub fn violations(root: &Path) -> Result<Vec<String>, Error> {
    let mut found = Vec::new();
    for (name, dir) in crates(root)? {
        let deps = dependencies(&dir.join("Cargo.toml"))?;
        if let Some(allowed) = allowed(&name) {
            let extra: Vec<&str> = deps
                .iter()
                .map(String::as_str)
                .filter(|d| d.starts_with("queens-") && !allowed.contains(d))
                .collect();
            if !extra.is_empty() {
                found.push(format!(
                    "crates/{name} depends on {extra:?}: it may use {allowed:?} (the table in crates/xtask/src/architecture/layers.rs)"
                ));
            }
        }
        if deps.contains("clap") && !COMMAND_LINES.contains(&name.as_str()) {
            found.push(format!(
                "crates/{name}: only {COMMAND_LINES:?} parse command lines (depend on clap)"
            ));
        }
    }
    Ok(found)
}
