//! Programs outside the workspace, as a user brings them: the shipped
//! examples (a C and a Python counter) compared beside the solvers and
//! recorded with their provenance; a wrong answer, a hang and an answer
//! that cannot be read each an error row and exit 1; a bad config refused
//! in one line, exit 2, before anything runs.

use std::path::Path;
use std::process::Output;
use std::time::{Duration, Instant};

use sha2::Digest;

use crate::common;

use common::{queens_in, refused, stderr, stdout, workspace};

/// `queens compare --external CONFIG --max-n 6 ...` in `dir`.
fn compare(dir: &Path, config: &str, more: &[&str]) -> Output {
    let mut args = vec![
        "compare",
        "--external",
        config,
        "--max-n",
        "6",
        "--finder",
        "none",
        "--out",
        "records",
    ];
    args.extend(more);
    queens_in(&args, dir)
}

/// A config of one program run by `sh -c SCRIPT` (its `{n}` in a comment).
fn one_program(dir: &Path, script: &str) -> &'static str {
    let config = format!(
        "[[external]]\nid = \"shell\"\ncommand = \"sh -c '{script} # {{n}}'\"\nsolutions = {{ regex = '(\\d+)' }}\n"
    );
    std::fs::write(dir.join("one.toml"), config).unwrap();
    "one.toml"
}

/// The run failed as a verification: exit 1, its last line says so, and
/// the table shows `row` as the program's error.
fn error_row(output: &Output, row: &str) {
    let (out, err) = (stdout(output), stderr(output));
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    let last = err.lines().last().unwrap_or("");
    assert!(last.contains("wrong or failed"), "{err}");
    assert!(out.contains(&format!("ERROR: {row}")), "{out}");
}

/// A copy of the shipped examples, so that the C example's build does not
/// write in the checkout.
fn examples() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let examples = workspace().join("examples/external");
    for entry in std::fs::read_dir(&examples).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            std::fs::copy(&path, dir.path().join(path.file_name().unwrap())).unwrap();
        }
    }
    dir
}

#[test]
fn verify_checks_an_external_count_at_every_n_and_stops_at_a_wrong_one() {
    let dir = examples();
    let output = queens_in(
        &[
            "verify",
            "--external",
            "externals.toml",
            "--solver",
            "c-three-mask",
            "--max-n",
            "9",
        ],
        dir.path(),
    );
    let out = stdout(&output);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        out.contains("  9  c-three-mask         352         -  count only"),
        "{out}"
    );
    assert!(
        out.ends_with("ok: 6 (program, n) pairs agree with OEIS\n"),
        "{out}"
    );
    let config = one_program(dir.path(), "echo 2");
    let output = queens_in(
        &[
            "verify",
            "--external",
            config,
            "--max-n",
            "5",
            "--solver",
            "shell",
        ],
        dir.path(),
    );
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stderr(&output),
        "queens: shell, n = 5: wrong count: shell printed 2 solutions for n = 5, OEIS A000170 says 10\n"
    );
}

#[test]
fn the_shipped_examples_are_checked_timed_and_recorded_beside_the_solvers() {
    let python = std::process::Command::new("python3")
        .arg("--version")
        .output();
    if !python.is_ok_and(|o| o.status.success()) {
        // CI installs it and sets this, so that there the test never skips.
        assert!(
            std::env::var_os("QUEENS_REQUIRE_PYTHON").is_none(),
            "QUEENS_REQUIRE_PYTHON is set and there is no python3"
        );
        eprintln!("NOT RUN: no python3 here for the Python example");
        return;
    }
    let dir = examples();
    let output = compare(
        dir.path(),
        "externals.toml",
        &["--solver", "three-mask", "--budget", "3"],
    );
    let (out, err) = (stdout(&output), stderr(&output));
    assert!(output.status.success(), "{err}");
    for id in ["c-three-mask", "python-three-mask"] {
        assert!(
            out.lines().any(|l| l.starts_with("4  ") && l.contains(id)),
            "{out}"
        );
        assert!(
            out.contains(&format!(
                "note: {id} is an external program (externals.toml), timed whole"
            )),
            "{out}"
        );
    }
    // The record names what ran, with the hash of the file and the
    // start-up bound, and a reader accepts it.
    let records = dir.path().join("records");
    let path = std::fs::read_dir(&records)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let record = queens_record::read(&path).unwrap();
    let c = record
        .solvers
        .iter()
        .find(|s| s.id == "c-three-mask")
        .unwrap();
    let facts = c.external.as_ref().unwrap();
    assert_eq!(facts.command, "./three-mask {n}");
    assert_eq!(facts.program, "./three-mask");
    let binary = std::fs::read(dir.path().join("three-mask")).unwrap();
    let hash: String = (sha2::Sha256::digest(&binary).iter())
        .map(|byte| format!("{byte:02x}"))
        .collect();
    assert_eq!(facts.program_sha256, hash);
    assert_eq!(
        (facts.startup_n, facts.startup_ns.is_some()),
        (Some(4), true)
    );
    for entry in record.entries.iter().filter(|e| e.solver == c.id) {
        assert_eq!(entry.solutions, queens_core::oeis::total(entry.n));
        assert_eq!(entry.nodes, None, "an external has no nodes");
    }
}

#[test]
fn a_wrong_count_is_an_error_row_never_a_time() {
    let dir = tempfile::tempdir().unwrap();
    let config = one_program(dir.path(), "echo 3");
    let output = compare(dir.path(), config, &["--solver", "shell", "--budget", "2"]);
    error_row(
        &output,
        "wrong count: shell printed 3 solutions for n = 4, OEIS A000170 says 2",
    );
}

#[test]
fn a_timed_run_that_answers_wrong_turns_its_row_into_an_error() {
    // Right at its checking run, wrong from then on: every run is checked.
    let dir = tempfile::tempdir().unwrap();
    let config = one_program(
        dir.path(),
        "if [ -e ran ]; then echo 3; else touch ran; echo 2; fi",
    );
    let output = compare(dir.path(), config, &["--solver", "shell", "--budget", "2"]);
    error_row(
        &output,
        "a timed run: wrong count: shell printed 3 solutions for n = 4, OEIS A000170 says 2",
    );
}

#[test]
fn a_hang_is_killed_at_its_budget_as_an_error_row() {
    let dir = tempfile::tempdir().unwrap();
    let config = one_program(dir.path(), "sleep 60");
    let started = Instant::now();
    let output = compare(
        dir.path(),
        config,
        &["--solver", "shell", "--budget", "0.5"],
    );
    error_row(&output, "no answer within 0.5 s: killed");
    assert!(started.elapsed() < Duration::from_secs(30));
}

#[test]
fn an_answer_the_pattern_never_matches_is_an_error_row() {
    let dir = tempfile::tempdir().unwrap();
    let config = one_program(dir.path(), "echo two");
    let output = compare(dir.path(), config, &["--solver", "shell", "--budget", "2"]);
    error_row(
        &output,
        "its output does not match /(\\d+)/ (it printed \"two\")",
    );
}

#[test]
fn a_bad_config_is_refused_in_one_line_before_anything_runs() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.toml");
    let good = "[[external]]\nid = \"shell\"\ncommand = \"sh -c 'echo 2 # {n}'\"\nsolutions = { regex = '(\\d+)' }\n";
    for (config, expected) in [
        (
            good.replace("command", "# command"),
            "bad.toml: line 1: missing field `command`",
        ),
        (format!("{good}colour = 1\n"), "unknown field `colour`"),
        (
            good.replace("sh -c", "./no-such-program -c"),
            "bad.toml: external[0].command: no program './no-such-program' here",
        ),
        (
            format!("{good}build = \"sh -c 'exit 4'\"\n"),
            "bad.toml: external[0].build: sh failed (exit status: 4)",
        ),
    ] {
        std::fs::write(&path, config).unwrap();
        refused(&compare(dir.path(), "bad.toml", &[]), expected);
    }
    refused(
        &compare(dir.path(), "absent.toml", &[]),
        "cannot read absent.toml",
    );
}

#[test]
fn count_runs_an_external_once_and_checks_its_answer() {
    let dir = tempfile::tempdir().unwrap();
    let config = one_program(dir.path(), "echo 92");
    let count = |n: &str| {
        queens_in(
            &[
                "count",
                n,
                "--external",
                config,
                "--solver",
                "shell",
                "--json",
            ],
            dir.path(),
        )
    };
    let json = common::json(&count("8"));
    assert_eq!(
        (json["solver"].as_str(), json["solutions"].as_u64()),
        (Some("shell"), Some(92))
    );
    assert!(
        json.get("nodes").is_none(),
        "an external has no nodes: {json}"
    );
    let wrong = count("9");
    assert_eq!(wrong.status.code(), Some(1));
    assert!(stderr(&wrong).contains("printed 92 solutions for n = 9, OEIS A000170 says 352"));
    refused(
        &count("28"),
        "shell counts n = 4..=27 (one.toml), not n = 28",
    );
}
