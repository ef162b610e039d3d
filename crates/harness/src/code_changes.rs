//! The git facts a report needs to say that a record is older than a
//! solver's code: the last commit that touched each solver's crate, and
//! which of the reported records' commits contain it. Gathered here, by
//! running git, so that `queens_report` stays a pure function of what it
//! is given. Outside a checkout, or for a commit git does not know (a
//! shallow clone), nothing is known and nothing is flagged.

use std::collections::BTreeMap;
use std::path::Path;

use queens_report::{CodeChange, CodeChanges};

use queens_record::git;

/// The crates whose history is each registered solver's code (the GPU
/// engine also runs constellations' plan). Only what is compiled counts:
/// each crate's `src/` and `Cargo.toml`, not its README or ANALYSIS.md,
/// whose rewording changes no measurement. A test checks
/// that every registered solver has an entry and that each one exists.
pub const SOLVER_CODE: &[(&str, &[&str])] = &[
    ("half-join", &["crates/half-join"]),
    ("constellations", &["crates/constellations"]),
    (
        "gpu-constellations",
        &["crates/gpu", "crates/constellations"],
    ),
    ("three-mask-mirror", &["crates/three-mask"]),
    ("three-mask", &["crates/three-mask"]),
    ("threat-mask", &["crates/threat-mask"]),
    ("threat-mask-u128", &["crates/threat-mask"]),
    ("textbook", &["crates/textbook"]),
    ("row-fold", &["crates/row-fold"]),
    ("base-counting", &["crates/base-counting"]),
    ("perm-filter", &["crates/perm-filter"]),
    ("perm-filter-itertools", &["crates/perm-filter"]),
];

/// The same for the finders that are not also solvers (a depth-first
/// solver stopped at its first board is the solver's code, in
/// [`SOLVER_CODE`] under the same id). A test checks that every registered
/// finder has an entry in one of the two.
pub const FINDER_CODE: &[(&str, &[&str])] = &[
    ("construction", &["crates/construction"]),
    ("min-conflicts", &["crates/min-conflicts"]),
    ("fail-first", &["crates/fail-first"]),
];

/// For every registered solver and finder whose history git can tell: the
/// last commit that touched its code, and which of `record_commits`
/// contain it.
pub fn gather(record_commits: &[String]) -> CodeChanges {
    let mut changes = BTreeMap::new();
    for (id, dirs) in SOLVER_CODE.iter().chain(FINDER_CODE) {
        let code: Vec<String> = dirs
            .iter()
            .flat_map(|dir| [format!("{dir}/src"), format!("{dir}/Cargo.toml")])
            .collect();
        let mut args = vec!["log", "-1", "--format=%H", "--"];
        args.extend(code.iter().map(String::as_str));
        let Some(commit) = git(&args).filter(|c| !c.is_empty()) else {
            continue;
        };
        let known: Option<Vec<bool>> = record_commits
            .iter()
            .map(|later| contains(later, &commit))
            .collect();
        // A record commit git cannot place is not called older.
        let contained_in = record_commits
            .iter()
            .enumerate()
            .filter(|(index, _)| known.as_ref().is_none_or(|known| known[*index]))
            .map(|(_, later)| later.clone())
            .collect();
        changes.insert(
            id.to_string(),
            CodeChange {
                commit,
                contained_in,
            },
        );
    }
    changes
}

/// Whether commit `later` contains commit `change` (is it, or descends
/// from it: their merge base is `change` itself); `None` when git cannot
/// say (no checkout, unknown commit).
fn contains(later: &str, change: &str) -> Option<bool> {
    git(&["merge-base", change, later]).map(|base| base == change)
}

/// The commits of the records a report will read: those named, or the
/// newest reference record, as `queens_report::publish` chooses. A record
/// that cannot be read is left to the report, which says why.
pub fn record_commits(records: &[std::path::PathBuf]) -> Vec<String> {
    let paths = if records.is_empty() {
        queens_record::newest_reference(Path::new(queens_record::RECORDS_DIR))
            .map(|p| vec![p])
            .unwrap_or_default()
    } else {
        records.to_vec()
    };
    paths
        .iter()
        .filter_map(|path| queens_record::read(path).ok())
        .filter_map(|record| record.provenance.git_commit)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry;

    #[test]
    fn every_registered_solver_and_finder_names_code_that_exists() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let code: Vec<_> = SOLVER_CODE.iter().chain(FINDER_CODE).collect();
        let solvers = registry::SOLVERS.iter().map(|s| s.info().id);
        let finders = registry::FINDERS.iter().map(|f| f.info().id);
        // Every entry is a registered id: nothing else is gathered.
        let registered = registry::subject_ids();
        for (id, _) in &code {
            assert!(registered.contains(id), "{id} is not registered");
        }
        for id in solvers.chain(finders) {
            let (_, dirs) = code
                .iter()
                .find(|(known, _)| *known == id)
                .unwrap_or_else(|| panic!("{id} has no entry in SOLVER_CODE or FINDER_CODE"));
            for dir in *dirs {
                assert!(root.join(dir).join("Cargo.toml").is_file(), "{id}: {dir}");
            }
        }
        // Each id once: a finder that is also a solver is the solver's code.
        for (id, _) in FINDER_CODE {
            assert!(SOLVER_CODE.iter().all(|(known, _)| known != id), "{id}");
        }
    }
}
