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
//! - every integration test file is built and run ([`tests_run`]);
//! - the size bars: no production file over 600 code lines, at most 4
//!   `#[cfg(test)]` items outside test modules, the infrastructure crates
//!   at most 13,500 code lines ([`bars`]);
//! - no tracker issue named in code, comments, documents or file names
//!   ([`tracker`]).

pub mod bars;
pub mod layers;
pub mod modules;
pub mod records;
pub mod source;
pub mod tests_run;
pub mod tracker;

use std::path::Path;

use crate::Error;

/// Every rule broken in the workspace at `root`, one line each.
pub fn violations(root: &Path) -> Result<Vec<String>, Error> {
    let mut found = layers::violations(root)?;
    found.extend(modules::violations(root)?);
    found.extend(records::violations(root)?);
    found.extend(tests_run::violations(root)?);
    found.extend(bars::violations(root)?);
    found.extend(tracker::violations(root)?);
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

    /// The offenders, one a line, for a failing bar's message.
    fn shown(found: &[String]) -> String {
        format!("{} broken:\n{}", found.len(), found.join("\n"))
    }

    #[test]
    fn no_production_file_is_over_the_bar() {
        let found = bars::long_files(&bars::files(&workspace::root()).unwrap());
        assert!(found.is_empty(), "{}", shown(&found));
    }

    #[test]
    fn few_items_outside_test_modules_are_compiled_for_tests() {
        let found = bars::cfg_test_items(&bars::files(&workspace::root()).unwrap());
        assert!(found.is_empty(), "{}", shown(&found));
    }

    #[test]
    fn the_infrastructure_is_under_its_bar() {
        let found = bars::infrastructure(&bars::files(&workspace::root()).unwrap());
        assert!(found.is_empty(), "{}", shown(&found));
    }

    #[test]
    fn no_tracker_issue_is_named() {
        let found = tracker::violations(&workspace::root()).unwrap();
        assert!(found.is_empty(), "{}", shown(&found));
    }

    /// `lines` code lines, each a statement.
    fn code_lines(lines: usize) -> String {
        "let _ = 0;\n".repeat(lines)
    }

    #[test]
    fn the_file_bar_counts_code_lines_only_and_finds_a_long_file() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let at_the_bar = format!(
            "//! A module.\n\n{}// a comment\n#[cfg(test)]\nmod tests {{\n{}}}\n",
            code_lines(bars::MAX_FILE_LINES),
            code_lines(50)
        );
        write_all(
            root,
            &[
                ("crates/a/Cargo.toml", ""),
                ("crates/a/src/lib.rs", "#[cfg(test)]\nmod tests;\n"),
                ("crates/a/src/tests.rs", &code_lines(900)),
                ("crates/a/src/fits.rs", &at_the_bar),
                (
                    "crates/a/src/long.rs",
                    &code_lines(bars::MAX_FILE_LINES + 1),
                ),
            ],
        );
        let files = bars::files(root).unwrap();
        let lines: Vec<(&str, usize)> = files.iter().map(|f| (f.path.as_str(), f.lines)).collect();
        assert_eq!(
            lines,
            [
                ("crates/a/src/fits.rs", bars::MAX_FILE_LINES),
                ("crates/a/src/lib.rs", 2),
                ("crates/a/src/long.rs", bars::MAX_FILE_LINES + 1),
            ]
        );
        let found = bars::long_files(&files);
        assert_eq!(found.len(), 1, "{found:#?}");
        assert!(found[0].starts_with("crates/a/src/long.rs has 601 code lines"));
    }

    #[test]
    fn the_test_item_bar_finds_one_item_too_many() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let items = "#[cfg(test)]\nfn a() {}\n#[cfg(test)]\nuse std::fmt;\n";
        let not_items = "#[cfg(not(test))]\nfn c() {}\n#[cfg(test)]\nmod tests;\n#[cfg(test)]\nmod more {\n#[cfg(test)]\nfn d() {}\n}\n";
        write_all(
            root,
            &[
                ("crates/a/Cargo.toml", ""),
                ("crates/a/src/lib.rs", &format!("{items}{not_items}")),
                ("crates/a/src/tests.rs", items),
                ("crates/b/Cargo.toml", ""),
                ("crates/b/src/lib.rs", items),
            ],
        );
        assert!(bars::cfg_test_items(&bars::files(root).unwrap()).is_empty());
        write_all(
            root,
            &[("crates/b/src/x.rs", "#[cfg(test)]\nconst X: u8 = 0;\n")],
        );
        let found = bars::cfg_test_items(&bars::files(root).unwrap());
        assert_eq!(found.len(), 1, "{found:#?}");
        assert!(found[0].starts_with("5 #[cfg(test)] items"), "{found:#?}");
        assert!(found[0].contains("crates/a/src/lib.rs:3"), "{found:#?}");
        assert!(found[0].contains("crates/b/src/x.rs:1"), "{found:#?}");
    }

    #[test]
    fn the_infrastructure_bar_adds_up_its_crates_only() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        // Two crates at the ceiling between them, whatever its parity.
        let half = bars::MAX_INFRASTRUCTURE_LINES / 2;
        let rest = bars::MAX_INFRASTRUCTURE_LINES - half;
        write_all(
            root,
            &[
                ("crates/core/Cargo.toml", ""),
                ("crates/core/src/lib.rs", &code_lines(half)),
                ("crates/harness/Cargo.toml", ""),
                ("crates/harness/src/main.rs", &code_lines(rest)),
                ("crates/half-join/Cargo.toml", ""),
                ("crates/half-join/src/lib.rs", &code_lines(half)),
            ],
        );
        assert!(bars::infrastructure(&bars::files(root).unwrap()).is_empty());
        write_all(
            root,
            &[
                ("crates/report/Cargo.toml", ""),
                ("crates/report/src/lib.rs", "fn f() {}\n"),
            ],
        );
        let found = bars::infrastructure(&bars::files(root).unwrap());
        assert_eq!(found.len(), 1, "{found:#?}");
        let over = format!("have {} code lines", half + rest + 1);
        assert!(found[0].contains(&over), "{found:#?}");
        let harness = format!("harness {rest}, report 1,");
        assert!(found[0].contains(&harness), "{found:#?}");
    }

    #[test]
    fn the_tracker_check_finds_issue_numbers_and_not_ordinary_numbers() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        // Built here so that this file does not name one itself.
        let (issue, hash) = (format!("issue {}", 28), format!(" #{}", 7));
        let named = format!("// As {issue} asks.\nfn f() {{}} //{hash}\n");
        let ordinary = "#[derive(Debug)]\nstruct S;\nconst T: &str = r#\"x\"#;\n// 28 issues, #[cfg], \"#555\", {:#?}\n";
        write_all(
            root,
            &[
                ("crates/a/src/lib.rs", &named),
                ("crates/a/src/fine.rs", ordinary),
                (
                    "crates/a/templates/page.css",
                    &format!(".a {{ color: {}; }}\n", "#555"),
                ),
                (&format!("crates/a/tests/{}_time.rs", "battery"), ""),
                (
                    "docs/NOTES.md",
                    &format!("Fixed in {}.\n", issue.replace(' ', "_")),
                ),
                ("README.md", ordinary),
                ("examples/external/count.py", &format!("# See {issue}.\n")),
            ],
        );
        // A compiled example: no extension, like a script, but not text.
        let binary = [b"\x7fELF\xff ".as_slice(), issue.as_bytes()].concat();
        std::fs::write(root.join("examples/external/counter"), binary).unwrap();
        let found = tracker::violations(root).unwrap();
        assert_eq!(found.len(), 5, "{found:#?}");
        assert!(found[0].contains("crates/a/src/lib.rs:1"), "{found:#?}");
        assert!(found[1].contains("crates/a/src/lib.rs:2"), "{found:#?}");
        assert!(found[2].contains("_time.rs: its name"), "{found:#?}");
        assert!(found[3].contains("docs/NOTES.md:1"), "{found:#?}");
        assert!(
            found[4].contains("examples/external/count.py:1"),
            "{found:#?}"
        );
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
