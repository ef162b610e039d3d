//! The layers of docs/ARCHITECTURE.md, checked on the source tree so that
//! they stay true as the code moves (`cargo xtask architecture`, and this
//! crate's tests under `cargo test --workspace`):
//!
//! - which workspace crates each crate may depend on, and which may parse
//!   a command line ([`layers`]: the table to edit when a crate is added);
//! - no import cycle between the modules of any crate (a parent
//!   re-exporting its children while a child reaches back into the parent
//!   counts: a child uses a sibling instead) ([`modules`]);
//! - the default records directory is spelled once ([`records`]);
//! - every integration test file is built and run ([`tests_run`]).

pub mod layers;
pub mod modules;
pub mod records;
pub mod source;
pub mod tests_run;

use std::path::Path;

use crate::Error;

/// Every rule broken in the workspace at `root`, one line each.
pub fn violations(root: &Path) -> Result<Vec<String>, Error> {
    let mut found = layers::violations(root)?;
    found.extend(modules::violations(root)?);
    found.extend(records::violations(root)?);
    found.extend(tests_run::violations(root)?);
    Ok(found)
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::*;
    use crate::workspace;

    #[test]
    fn each_crate_depends_only_on_the_layers_below_it() {
        let found = layers::violations(&workspace::root()).unwrap();
        assert!(found.is_empty(), "{found:#?}");
    }

    #[test]
    fn each_finder_crate_exists_and_uses_only_core() {
        let root = workspace::root();
        let crates = source::crates(&root).unwrap();
        for finder in layers::FINDERS {
            assert!(crates.contains_key(*finder), "crates/{finder} is missing");
            let allowed = layers::allowed(finder).expect("a finder is no harness");
            assert_eq!(allowed, layers::SOLVER.iter().copied().collect());
            let deps = layers::dependencies(&crates[*finder].join("Cargo.toml")).unwrap();
            assert!(deps.contains("queens-core"), "crates/{finder}: {deps:?}");
        }
    }

    #[test]
    fn no_crate_has_an_import_cycle_between_its_modules() {
        let found = modules::violations(&workspace::root()).unwrap();
        assert!(found.is_empty(), "{found:#?}");
    }

    #[test]
    fn the_records_directory_is_named_in_one_place() {
        let found = records::violations(&workspace::root()).unwrap();
        assert!(found.is_empty(), "{found:#?}");
    }

    #[test]
    fn every_integration_test_file_is_run() {
        let found = tests_run::violations(&workspace::root()).unwrap();
        assert!(found.is_empty(), "{found:#?}");
    }

    #[test]
    fn the_test_file_check_finds_a_file_no_binary_builds() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let manifest = "[package]\nname = \"a\"\nautotests = false\n";
        write_all(
            root,
            &[
                ("crates/a/Cargo.toml", manifest),
                ("crates/a/tests/lib.rs", "mod cli;\n// mod split;\n"),
                ("crates/a/tests/cli.rs", ""),
                ("crates/a/tests/split.rs", ""),
                // Automatic targets: every file is its own binary already.
                ("crates/b/Cargo.toml", "[package]\nname = \"b\"\n"),
                ("crates/b/tests/x.rs", ""),
            ],
        );
        let found = tests_run::violations(root).unwrap();
        assert_eq!(found.len(), 1, "{found:#?}");
        assert!(found[0].contains("crates/a/tests/split.rs is never built"));
    }

    /// Writes files under `root`: (relative path, text).
    fn write_all(root: &Path, files: &[(&str, &str)]) {
        for (path, text) in files {
            let path = root.join(path);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, text).unwrap();
        }
    }

    #[test]
    fn the_layering_check_finds_a_crate_above_its_layer() {
        // The check above is only worth something if it can fail.
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        write_all(
            root,
            &[
                ("crates/core/Cargo.toml", "[dependencies]\nserde = \"1\"\n"),
                (
                    "crates/three-mask/Cargo.toml",
                    "[dependencies]\nqueens-core.workspace = true\nqueens-report = { path = \"x\" }\nclap = \"4\"\n\n[dev-dependencies]\nqueens-conformance.workspace = true\n",
                ),
                (
                    "crates/harness/Cargo.toml",
                    "[dependencies]\nclap = \"4\"\nqueens-report.workspace = true\n",
                ),
            ],
        );
        let found = layers::violations(root).unwrap();
        assert_eq!(found.len(), 2, "{found:#?}");
        assert!(found[0].contains("crates/three-mask depends on [\"queens-report\"]"));
        assert!(found[1].contains("crates/three-mask: only"));
    }

    #[test]
    fn the_cycle_finder_finds_a_parent_and_child_that_use_each_other() {
        let dir = tempfile::tempdir().unwrap();
        let src = dir.path();
        write_all(
            src,
            &[
                ("lib.rs", "pub mod report;\n"),
                (
                    "report/mod.rs",
                    "mod tables;\npub use tables::table;\npub struct Source;\n",
                ),
                (
                    "report/tables.rs",
                    "use super::Source;\npub fn table(_: &Source) {}\n",
                ),
            ],
        );
        let graph = modules::module_graph(src).unwrap();
        let report = vec!["report".to_string()];
        let tables = vec!["report".to_string(), "tables".to_string()];
        assert_eq!(modules::cycles(&graph), vec![vec![report, tables]]);
        // Using a sibling instead breaks it.
        write_all(
            src,
            &[
                ("report/source.rs", "pub struct Source;\n"),
                (
                    "report/mod.rs",
                    "mod source;\nmod tables;\npub use tables::table;\npub use source::Source;\n",
                ),
                (
                    "report/tables.rs",
                    "use super::source::Source;\npub fn table(_: &Source) {}\n",
                ),
            ],
        );
        assert!(modules::cycles(&modules::module_graph(src).unwrap()).is_empty());
    }

    #[test]
    fn the_records_check_finds_a_second_spelling() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let spelled = format!("const D: &str = \"{}\";\n", queens_record::RECORDS_DIR);
        write_all(
            root,
            &[
                ("crates/a/Cargo.toml", ""),
                ("crates/a/src/lib.rs", &spelled),
            ],
        );
        assert!(records::violations(root).unwrap().is_empty());
        // A comment does not count; a second crate's bench does.
        let commented = format!("// {spelled}");
        write_all(
            root,
            &[
                ("crates/b/Cargo.toml", ""),
                ("crates/b/benches/x.rs", &spelled),
                ("crates/b/src/lib.rs", &commented),
            ],
        );
        let found = records::violations(root).unwrap();
        assert_eq!(found.len(), 1, "{found:#?}");
        assert!(found[0].contains("crates/b/benches/x.rs"));
    }
}
