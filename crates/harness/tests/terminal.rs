//! What the commands print for a person fits a terminal: every line of
//! `compare`, `list`, `explain` (every solver and finder, beside the
//! committed reference record) and `trace` is at most 100 columns
//! (characters, not bytes: `µs` and `×` are one column each) and none ends
//! in a space, and no command's `--help` is wider (clap indents the blank
//! line between two paragraphs of an option's help); `--wide` keeps each row
//! whole instead; and `compare` off a terminal says on stderr what it has
//! done, one line a solver.

use crate::common;

use common::{queens, stderr, stdout, workspace};
use queens_harness::registry;
use queens_report::terminal::WIDTH;

/// Every line too wide or ending in white space, named with the command.
fn misfits(args: &[&str], text: &str) -> Vec<String> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| line.chars().count() > WIDTH || line.ends_with([' ', '\t']))
        .map(|(index, line)| {
            format!(
                "`queens {}` line {} ({} columns): {line:?}",
                args.join(" "),
                index + 1,
                line.chars().count()
            )
        })
        .collect()
}

#[test]
fn every_table_list_and_text_fits_100_columns_without_trailing_spaces() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    let reference = workspace().join(queens_record::RECORDS_DIR);
    let reference = reference.to_str().unwrap();
    let mut commands: Vec<Vec<&str>> = vec![
        vec![
            "compare",
            "--max-n",
            "6",
            "--budget",
            "0.05",
            "--find-budget",
            "0.05",
            "--out",
            out,
        ],
        vec!["list"],
        vec!["trace", "5", "--solver", "three-mask"],
    ];
    for id in registry::subject_ids() {
        commands.push(vec!["explain", id, "--records", reference]);
    }
    let mut problems = Vec::new();
    for args in &commands {
        let output = queens(args);
        assert!(output.status.success(), "{args:?}: {}", stderr(&output));
        problems.extend(misfits(args, &stdout(&output)));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_help_fits_100_columns_off_a_terminal() {
    use clap::CommandFactory;
    let mut commands = vec![vec!["--help".to_string()]];
    for sub in queens_harness::cli::Cli::command().get_subcommands() {
        commands.push(vec![sub.get_name().to_string(), "--help".to_string()]);
    }
    assert!(commands.len() > 5, "the subcommands are listed");
    let mut problems = Vec::new();
    for args in &commands {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let output = queens(&args);
        assert!(output.status.success(), "{args:?}: {}", stderr(&output));
        let text = stdout(&output);
        let trimmed: String = text
            .lines()
            .map(|l| l.trim_end().to_string() + "\n")
            .collect();
        problems.extend(misfits(&args, &trimmed));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn compare_off_a_terminal_says_on_stderr_what_each_solver_did() {
    let dir = tempfile::tempdir().unwrap();
    let output = queens(&[
        "compare",
        "--max-n",
        "6",
        "--solver",
        "three-mask",
        "--solver",
        "textbook",
        "--finder",
        "construction",
        "--budget",
        "0.5",
        "--find-budget",
        "0.05",
        "--out",
        dir.path().to_str().unwrap(),
        "--wide",
    ]);
    let err = stderr(&output);
    assert!(output.status.success(), "{err}");
    assert!(err.starts_with("cross-validated "), "{err}");
    for id in ["three-mask", "textbook"] {
        let line = format!("{id}: checked, timed n = 4..6, ");
        assert!(
            err.lines()
                .any(|l| l.starts_with(&line) && l.ends_with(" s")),
            "no {line}...:\n{err}"
        );
    }
    assert!(
        err.lines().any(|l| l.starts_with("construction: ")),
        "{err}"
    );
    assert!(err.contains("\ncold rounds: "), "{err}");
    // stdout is the tables alone; with --wide, every row is one line
    // beginning with its n (no row wraps).
    let out = stdout(&output);
    let (counts, _) = out.split_once("\nfind one board").expect("both tables");
    for line in counts.lines().skip(2).take_while(|l| !l.is_empty()) {
        let n = line.split_whitespace().next().unwrap_or("");
        assert!(n.parse::<usize>().is_ok(), "{line:?} in\n{out}");
    }
}

#[test]
fn list_wide_keeps_every_fact_on_one_line() {
    let narrow = stdout(&queens(&["list"]));
    let wide = stdout(&queens(&["list", "--wide"]));
    // The same words, only the line breaks differ.
    let words = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert_eq!(words(&narrow), words(&wide));
    assert!(wide.lines().any(|line| line.chars().count() > WIDTH));
    assert!(wide.lines().all(|line| !line.ends_with(' ')), "{wide}");
}
