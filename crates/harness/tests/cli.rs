//! The `queens` binary as a user runs it: exit codes, one-line errors, and
//! machine-readable outputs that parse and agree with each other.

use crate::common;

use common::{queens, refused, stderr, stdout};
use queens_core::{Solution, check, oeis};
use serde_json::Value;

#[test]
fn bad_input_is_one_line_and_exit_2() {
    let cases: &[(&[&str], &str)] = &[
        (&["count", "0"], "at least 1"),
        (&["count", "-3"], "at least 1"),
        (&["count", "abc"], "whole number"),
        (&["count", "8.5"], "whole number"),
        (&["count", "99999999999999999999999999"], "n is at most"),
        (&["count", "40"], "no registered solver supports n = 40"),
        (
            &["count", "33", "--solver", "three-mask"],
            "three-mask supports n <= 32",
        ),
        (&["count", "8", "--solver", "nope"], "unknown solver 'nope'"),
        (&["count", "29"], "Q(n) would overflow the u64"),
        (
            &["count", "30", "--solver", "three-mask"],
            "n = 30 cannot be counted",
        ),
        (
            &["solve", "8", "--limit", "0"],
            "--limit must be at least 1",
        ),
        (
            &["solve", "8", "--limit", "many"],
            "--limit must be a whole number",
        ),
        (&["solve", "27", "--format", "algebraic"], "n <= 26"),
        (
            &["solve", "8", "--format", "pdf"],
            "possible values: board, unicode, algebraic, json",
        ),
        (&["verify", "--max-n", "28"], "--max-n is at most 27"),
        (&["verify", "--solver", "nope"], "unknown solver"),
        (&["frobnicate"], "frobnicate"),
        (&["count"], "required arguments were not provided: <N>"),
    ];
    for (args, expected) in cases {
        refused(&queens(args), expected);
    }
}

#[test]
fn help_and_version_succeed() {
    for args in [&["--help"][..], &["count", "--help"], &["--version"]] {
        let output = queens(args);
        assert_eq!(output.status.code(), Some(0), "{args:?}");
        assert!(!output.stdout.is_empty());
    }
}

#[test]
fn count_json_matches_oeis() {
    let output = queens(&["count", "10", "--unique", "--json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let record: Value = serde_json::from_str(stdout(&output).trim()).unwrap();
    assert_eq!(record["n"], 10);
    assert_eq!(record["solutions"], oeis::total(10).unwrap());
    assert_eq!(record["unique"], oeis::unique(10).unwrap());
    assert!(record["nodes"].as_u64().unwrap() > 0);
    assert!(record["seconds"].as_f64().unwrap() >= 0.0);
    assert!(record["solver"].is_string());

    let plain = queens(&["count", "10", "--json"]);
    let record: Value = serde_json::from_str(stdout(&plain).trim()).unwrap();
    assert!(record.get("unique").is_none(), "unique only when asked");
}

#[test]
fn solve_json_lists_valid_distinct_boards_agreeing_with_count() {
    let output = queens(&["solve", "8", "--format", "json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let listing: Value = serde_json::from_str(stdout(&output).trim()).unwrap();
    assert_eq!(listing["n"], 8);
    let mut boards: Vec<Vec<u8>> = serde_json::from_value(listing["solutions"].clone()).unwrap();
    for board in &boards {
        assert_eq!(check::check(board), Ok(()));
    }
    boards.sort();
    boards.dedup();
    let count: Value =
        serde_json::from_str(stdout(&queens(&["count", "8", "--json"])).trim()).unwrap();
    assert_eq!(count["solutions"], boards.len() as u64);
}

#[test]
fn solve_unique_prints_one_canonical_board_per_class() {
    let output = queens(&["solve", "8", "--unique", "--format", "algebraic"]);
    assert!(output.status.success());
    let text = stdout(&output);
    let mut lines: Vec<&str> = text.lines().collect();
    let sum = lines.pop().expect("a closing sum");
    let mut sizes = Vec::new();
    let boards: Vec<Solution> = lines
        .iter()
        .map(|l| {
            let (board, class) = l.split_once("  class of ").expect("each board's class");
            sizes.push(class.parse::<usize>().unwrap());
            board.parse().unwrap()
        })
        .collect();
    assert_eq!(boards.len(), 12);
    for (board, size) in boards.iter().zip(&sizes) {
        assert_eq!(&queens_core::symmetry::canonical(board), board);
        // The class's size is its orbit: the distinct images under the
        // eight symmetries, counted here by applying them.
        let images: std::collections::BTreeSet<Solution> = queens_core::symmetry::Transform::ALL
            .iter()
            .map(|t| t.apply(board))
            .collect();
        assert_eq!(images.len(), *size, "{board}");
    }
    // Burnside seen from the classes: their sizes add up to every solution.
    let total: usize = sizes.iter().sum();
    assert_eq!(total, 92);
    assert!(sum.ends_with(&format!("= {total} boards")), "{sum}");
    assert!(sum.starts_with("12 classes"), "{sum}");
    // One board of one class is said in the singular.
    let one = stdout(&queens(&["solve", "1", "--unique", "--format", "ranks"]));
    assert_eq!(
        one.lines().last(),
        Some("1 class, 1 × 1 = 1 board"),
        "{one}"
    );
    // No board: no sum of classes to show.
    let none = stdout(&queens(&["solve", "2", "--unique", "--format", "ranks"]));
    assert_eq!(none.lines().last(), Some("0 classes, 0 boards"), "{none}");
}

/// Every count a command prints with its noun agrees with it: n = 1 has one
/// solution, one step may be asked for, one thread, one unit.
#[test]
fn a_count_of_one_takes_the_singular() {
    let trace = stdout(&queens(&[
        "trace",
        "1",
        "--solver",
        "three-mask",
        "--steps",
        "1",
    ]));
    assert!(
        trace.starts_with("three-mask on the 1x1 board, at most 1 step\n"),
        "{trace}"
    );
    assert!(trace.contains("-- cut after 1 step:"), "{trace}");
    let whole = stdout(&queens(&["trace", "1", "--solver", "three-mask"]));
    let footer = whole.lines().last().unwrap();
    assert!(footer.contains(": 1 solution, "), "{footer}");
    for (args, plural) in [
        (&["trace", "1", "--solver", "textbook"][..], "1 files"),
        (&["trace", "1", "--solver", "textbook"][..], "1 diagonals"),
        (&["trace", "1", "--solver", "three-mask"][..], "1 solutions"),
        (&["solve", "1", "--unique"][..], "1 classes"),
    ] {
        let text = stdout(&queens(args));
        assert!(!text.contains(plural), "{args:?}: {text}");
    }
}

#[test]
fn solve_limit_and_board_formats() {
    let output = queens(&["solve", "6", "--limit", "1"]);
    let text = stdout(&output);
    assert_eq!(text.matches('Q').count(), 6, "{text}");
    assert!(text.contains("a b c d e f"));
    let unicode = stdout(&queens(&[
        "solve", "6", "--limit", "2", "--format", "unicode",
    ]));
    assert_eq!(unicode.matches('♛').count(), 12);
}

#[test]
fn verify_passes_and_prints_what_it_checked() {
    let output = queens(&["verify", "--max-n", "8"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.contains("ok:"));
    let line_for_8 = text
        .lines()
        .find(|l| l.trim_start().starts_with("8 "))
        .expect("a row for n = 8");
    assert!(line_for_8.contains("92"));
    assert!(line_for_8.contains("12"));
}

#[test]
fn list_names_every_solver_with_its_limit() {
    for args in [&["list"][..], &["list", "--wide"]] {
        // A sentence may wrap onto the next line: compare words.
        let text = stdout(&queens(args));
        let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
        for solver in queens_harness::registry::SOLVERS {
            let info = solver.info();
            assert!(text.contains(info.id));
            let limit = format!("limit: n <= {} {}", info.max_n, info.limit_reason);
            assert!(words.contains(&limit), "{args:?}: no {limit}");
            if args.len() > 1 {
                // --wide: each fact on one line of its own.
                assert!(text.lines().any(|line| line.trim() == limit), "{text}");
            }
        }
    }
}

#[test]
fn an_estimate_times_units_instead_of_counting() {
    // A small plan is timed whole: the answer is the measured sum, every
    // unit timed.
    let output = queens(&[
        "count",
        "12",
        "--solver",
        "half-join",
        "--estimate",
        "--estimate-seconds",
        "5",
        "--threads",
        "2",
        "--json",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let record: Value = serde_json::from_str(stdout(&output).trim()).unwrap();
    assert_eq!(record["n"], 12);
    assert_eq!(record["solver"], "half-join");
    assert_eq!(record["timed"], record["units"]);
    assert_eq!(record["weight_share"], 1.0);
    let seconds = record["seconds"].as_f64().unwrap();
    // No sampling error: only the machine's speed, as parts timed twice saw it.
    assert_eq!(
        record["standard_error"].as_f64().unwrap(),
        seconds * record["speed_noise"].as_f64().unwrap()
    );
    assert!(seconds > 0.0);
    assert_eq!(
        record["seconds_on_threads"].as_f64().unwrap(),
        seconds / 2.0
    );
    // A piece is a share of the run by weight: the longest is at most
    // the whole.
    assert!(record["pieces"].as_u64().unwrap() >= record["units"].as_u64().unwrap());
    let longest = record["longest_piece_seconds"].as_f64().unwrap();
    assert!(longest > 0.0 && longest <= seconds, "{record}");
    assert!(
        record.get("solutions").is_none(),
        "an estimate counts nothing"
    );
    // A budget of nothing still times one unit, of a plan too big to time.
    let output = queens(&[
        "count",
        "17",
        "--solver",
        "half-join",
        "--estimate",
        "--estimate-seconds",
        "0",
        "--json",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let record: Value = serde_json::from_str(stdout(&output).trim()).unwrap();
    assert_eq!(record["timed"], 1);
    assert!(record["units"].as_u64().unwrap() > 1);
    assert!(record["seconds"].as_f64().unwrap() > 0.0);
    // Refused: a solver without units, and a checkpoint (nothing is counted).
    refused(
        &queens(&["count", "8", "--solver", "three-mask", "--estimate"]),
        "cannot estimate",
    );
    refused(
        &queens(&["count", "8", "--estimate", "--checkpoint", "x.json"]),
        "cannot be used with",
    );
    refused(
        &queens(&["count", "8", "--estimate-seconds", "3"]),
        "--estimate",
    );
}
