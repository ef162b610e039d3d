//! The measuring commands as a user runs them: `queens compare` writes a
//! record that `queens report` turns into the comparison and splices into a
//! README; bad records are refused with exit 2 and one line.

use crate::common;

use common::{queens_in as queens, text};

#[test]
fn compare_writes_a_record_that_report_turns_into_a_comparison_and_a_readme_section() {
    let dir = tempfile::tempdir().unwrap();
    let compared = queens(
        &[
            "compare",
            "--max-n",
            "6",
            "--finder",
            "construction",
            "--finder",
            "three-mask",
            "--find-budget",
            "0.5",
            "--out",
            "records",
        ],
        dir.path(),
    );
    assert!(compared.status.success(), "{}", text(&compared.stderr));
    let stdout = text(&compared.stdout);
    assert!(stdout.starts_with("cross-validated:"), "{stdout}");
    assert!(stdout.contains("three-mask"), "{stdout}");
    // The finders' own table, after the counts': three-mask's first board
    // at n = 8 there, and no board among the counts (they stop at n = 6).
    let (counts, found) = stdout
        .split_once("find one board")
        .expect("the finders' table");
    assert!(!counts.contains("construction"), "{counts}");
    assert!(
        found
            .lines()
            .any(|line| line.trim_start().starts_with("8  three-mask")),
        "{found}"
    );
    let records: Vec<_> = std::fs::read_dir(dir.path().join("records"))
        .unwrap()
        .collect();
    assert_eq!(records.len(), 1, "one new record");
    let record = records[0].as_ref().unwrap().path();
    let record_name = format!("records/{}", record.file_name().unwrap().to_string_lossy());

    std::fs::write(
        dir.path().join("README.md"),
        "# Title\n<!-- BEGIN: comparison -->\nold\n<!-- END: comparison -->\nhand-written tail\n",
    )
    .unwrap();
    let reported = queens(
        &[
            "report",
            &record_name,
            "--out",
            "out",
            "--splice",
            "README.md",
        ],
        dir.path(),
    );
    assert!(reported.status.success(), "{}", text(&reported.stderr));
    let comparison = std::fs::read_to_string(dir.path().join("out/COMPARISON.md")).unwrap();
    assert!(
        comparison
            .lines()
            .next()
            .unwrap()
            .contains(&format!("`queens report {record_name}`"))
    );
    for n in 4..=6 {
        // Some solver is the fastest at every n timed.
        let row = format!("| {n} |");
        assert!(
            comparison
                .lines()
                .any(|line| line.starts_with(&row) && line.contains("(1.00×)**")),
            "n = {n} timed: {comparison}"
        );
    }
    assert!(dir.path().join("out/time-vs-n.svg").is_file());
    assert!(dir.path().join("out/nodes-vs-n.svg").is_file());
    // The finders' section, plot and page part, from the same record.
    assert!(comparison.contains("## Find one board"), "{comparison}");
    assert!(
        comparison.contains("| n | construction | three-mask |"),
        "{comparison}"
    );
    let plot = std::fs::read_to_string(dir.path().join("out/find-vs-n.svg")).unwrap();
    assert!(plot.contains("data-solver=\"construction\""), "{plot}");
    let page = std::fs::read_to_string(dir.path().join("out/index.html")).unwrap();
    assert!(
        page.starts_with("<!DOCTYPE html>") && page.contains("id=\"solver-three-mask\""),
        "the page names the solver measured"
    );
    let readme = std::fs::read_to_string(dir.path().join("README.md")).unwrap();
    assert!(readme.contains("](out/time-vs-n.svg)"), "{readme}");
    assert!(
        !readme.contains("\nold\n")
            && readme.ends_with("<!-- END: comparison -->\nhand-written tail\n")
    );

    // Again into another directory: byte for byte the same.
    let again = queens(&["report", &record_name, "--out", "again"], dir.path());
    assert!(again.status.success());
    for file in [
        "COMPARISON.md",
        "time-vs-n.svg",
        "nodes-vs-n.svg",
        "find-vs-n.svg",
        "index.html",
    ] {
        let first = std::fs::read(dir.path().join("out").join(file)).unwrap();
        let second = std::fs::read(dir.path().join("again").join(file)).unwrap();
        assert!(
            first == second,
            "{file} differs between two runs on the same record"
        );
    }
}

#[test]
fn a_truncated_or_missing_record_is_one_line_and_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("cut.json"),
        "{\"schema\": \"queens-bench-record\", \"schema_version\": 1, \"prov",
    )
    .unwrap();
    for (record, problem) in [("cut.json", "truncated"), ("absent.json", "cannot read")] {
        let output = queens(&["report", record, "--out", "out"], dir.path());
        assert_eq!(output.status.code(), Some(2));
        let stderr = text(&output.stderr);
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.contains(record) && stderr.contains(problem),
            "{stderr}"
        );
    }
    assert!(
        !dir.path().join("out").exists(),
        "nothing is written from a bad record"
    );
}

/// `cargo run --release -- compare`, the README's first command, leaves
/// the checkout clean: its default `--out` (named in its `--help`) is a
/// folder git ignores, and `report`'s default input is not in it.
#[test]
fn compare_writes_into_a_git_ignored_folder_by_default() {
    use queens_record::LOCAL_RECORDS_DIR;
    let help = text(&common::queens(&["compare", "--help"]).stdout);
    assert!(
        help.contains(&format!("[default: {LOCAL_RECORDS_DIR}]")),
        "{help}"
    );
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .current_dir(common::workspace())
            .output()
    };
    match git(&["rev-parse", "--is-inside-work-tree"]) {
        Ok(inside) if inside.status.success() => {}
        // A copy of the sources without git (a tarball): nothing to ask.
        _ => {
            eprintln!("skipped: the workspace is not a git checkout");
            return;
        }
    }
    let record = format!("{LOCAL_RECORDS_DIR}/2026-01-01T000000.000Z-compare.json");
    let ignored = git(&["check-ignore", "--quiet", "--no-index", &record]).unwrap();
    assert!(
        ignored.status.success(),
        "{record} is not ignored by git: a compare would dirty the checkout"
    );
    assert_ne!(LOCAL_RECORDS_DIR, queens_record::RECORDS_DIR);
}

#[test]
fn report_without_records_says_where_it_looked() {
    let dir = tempfile::tempdir().unwrap();
    let output = queens(&["report"], dir.path());
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("bench-results"));
}

#[test]
fn a_splice_target_without_markers_is_refused_before_anything_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let compared = queens(
        &[
            "compare",
            "--max-n",
            "4",
            "--solver",
            "three-mask",
            "--out",
            "records",
        ],
        dir.path(),
    );
    assert!(compared.status.success(), "{}", text(&compared.stderr));
    std::fs::write(dir.path().join("README.md"), "# no markers here\n").unwrap();
    let record = std::fs::read_dir(dir.path().join("records"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let output = queens(
        &[
            "report",
            record.to_str().unwrap(),
            "--out",
            "out",
            "--splice",
            "README.md",
        ],
        dir.path(),
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("README.md: no <!-- BEGIN: comparison --> marker"));
    assert!(!dir.path().join("out").exists());
    assert_eq!(
        std::fs::read_to_string(dir.path().join("README.md")).unwrap(),
        "# no markers here\n"
    );
}

/// The committed records of each kind (bench-results/), newest first.
fn committed(kind: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench-results");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(&format!("-{kind}.json")))
        .collect();
    names.sort();
    names
        .pop()
        .unwrap_or_else(|| panic!("no committed -{kind}.json record"))
}

#[test]
fn an_instructions_record_goes_beside_the_times_and_a_bad_one_is_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(committed("bench"), dir.path().join("b-bench.json")).unwrap();
    let good = std::fs::read_to_string(committed("instructions")).unwrap();
    std::fs::write(dir.path().join("i-instructions.json"), &good).unwrap();
    let made = queens(
        &[
            "report",
            "b-bench.json",
            "i-instructions.json",
            "--out",
            "out",
        ],
        dir.path(),
    );
    assert!(made.status.success(), "{}", text(&made.stderr));
    let comparison = std::fs::read_to_string(dir.path().join("out/COMPARISON.md")).unwrap();
    assert!(
        comparison
            .lines()
            .next()
            .unwrap()
            .contains("queens report b-bench.json i-instructions.json"),
        "the first line names both records"
    );
    assert!(comparison.contains("## Instructions per solution and per node"));

    // One count changed: a number no real run gives, refused by its field.
    let mut value: serde_json::Value = serde_json::from_str(&good).unwrap();
    let solutions = value["entries"][0]["outcome"]["solutions"]
        .as_u64()
        .unwrap();
    value["entries"][0]["outcome"]["solutions"] = serde_json::json!(solutions + 1);
    std::fs::write(dir.path().join("bad-instructions.json"), value.to_string()).unwrap();
    let refused = queens(
        &[
            "report",
            "b-bench.json",
            "bad-instructions.json",
            "--out",
            "bad",
        ],
        dir.path(),
    );
    assert_eq!(refused.status.code(), Some(2));
    let stderr = text(&refused.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("bad-instructions.json") && stderr.contains("entries[0].outcome.solutions"),
        "{stderr}"
    );
    assert!(!dir.path().join("bad").exists(), "nothing written");
}
