//! The second question, "give me one board": the finder registry held to
//! the finder contract, the depth-first solvers' first boards, and
//! `queens find` as a user runs it (formats, n = 2 and 3, bad input, a
//! closed or full stdout).

use std::io::Read;
use std::ops::ControlFlow;
use std::process::{Command, Stdio};

use queens_conformance::finders::FinderConfig;
use queens_core::check::{check, check_linear};
use queens_core::{Finder, Solution};
use queens_harness::registry::{self, FINDERS, SOLVERS};
use serde_json::Value;

use crate::common::{queens, refused, stderr, stdout};

/// Each finder to the default sizes (their own crates take construction
/// and min-conflicts to the bars' sizes), but a listing solver's first
/// board, whose time jumps from one n to the next, only up to 29.
fn config_for(finder: &dyn Finder) -> FinderConfig {
    if SOLVERS.iter().any(|s| s.info().id == finder.info().id) {
        FinderConfig::small_up_to(
            29,
            "rank-by-rank backtracking's first board at n = 30 and 32 takes seconds \
             (textbook, in release); `queens find 32 --solver textbook` shows it",
        )
    } else {
        FinderConfig::DEFAULT
    }
}

queens_conformance::finder_registry_suite!(FINDERS, config_for);

#[test]
fn finder_ids_are_unique_and_the_default_takes_any_n() {
    let mut ids: Vec<_> = FINDERS.iter().map(|f| f.info().id).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), FINDERS.len(), "duplicate finder id");
    let default = registry::choose_finder(None, 100_000_000).unwrap();
    assert_eq!(default.info().id, FINDERS[0].info().id);
}

/// A finder with a solver's id is that solver stopped at its first board:
/// the same board its listing starts with, and its nodes up to there.
#[test]
fn a_solvers_first_board_is_its_listings_first() {
    let shared: Vec<_> = FINDERS
        .iter()
        .filter_map(|f| {
            let solver = SOLVERS.iter().find(|s| s.info().id == f.info().id)?;
            Some((*f, *solver))
        })
        .collect();
    assert!(!shared.is_empty(), "no depth-first solver is a finder");
    for (finder, solver) in shared {
        for n in [1, 3, 8, 13] {
            let mut first = None;
            solver
                .enumerate(n, &mut |rows| {
                    first = Some(rows.iter().map(|&r| u32::from(r)).collect::<Vec<_>>());
                    ControlFlow::Break(())
                })
                .unwrap();
            let found = finder.find(n, 0).unwrap();
            let id = finder.info().id;
            assert_eq!(found.board.map(|b| b.into_rows()), first, "{id}, n = {n}");
            assert_eq!(finder.info().max_n, solver.info().max_n, "{id}");
        }
    }
}

fn ranks(output: &std::process::Output) -> Vec<u32> {
    assert!(output.status.success(), "{}", stderr(output));
    let text = stdout(output);
    assert_eq!(text.lines().count(), 1, "one line of ranks");
    text.split_whitespace()
        .map(|w| w.parse::<u32>().expect("a rank") - 1)
        .collect()
}

#[test]
fn every_finder_prints_a_checked_board_in_every_format() {
    for finder in FINDERS {
        let id = finder.info().id;
        let rows = ranks(&queens(&["find", "8", "--solver", id]));
        assert_eq!(rows.len(), 8, "{id}");
        assert_eq!(check_linear(&rows), Ok(()), "{id}");
        let bytes: Vec<u8> = rows.iter().map(|&r| r as u8).collect();

        let algebraic = stdout(&queens(&[
            "find",
            "8",
            "--solver",
            id,
            "--format",
            "algebraic",
        ]));
        let solution = Solution::from_algebraic(algebraic.trim()).unwrap();
        assert_eq!(
            solution.rows(),
            &bytes[..],
            "{id}: algebraic is the same board"
        );

        let json = queens(&["find", "8", "--solver", id, "--format", "json"]);
        let value: Value = serde_json::from_str(&stdout(&json)).unwrap();
        assert_eq!(value["n"], 8);
        assert_eq!(value["solver"], id);
        assert!(
            value["steps"].as_u64().unwrap() > 0,
            "{id}: no work reported"
        );
        let board: Vec<u8> = serde_json::from_value(value["board"].clone()).unwrap();
        assert_eq!(board, bytes, "{id}: JSON rows are the same board, 0-based");
        assert_eq!(check(&board), Ok(()));

        for (format, queen) in [("unicode", '♛'), ("board", 'Q')] {
            let drawn = stdout(&queens(&["find", "8", "--solver", id, "--format", format]));
            assert_eq!(drawn.matches(queen).count(), 8, "{id} {format}: {drawn}");
        }
    }
}

#[test]
fn a_drawn_board_past_z_names_each_file_under_its_own_column() {
    let args = ["find", "40", "--solver", "min-conflicts", "--seed", "7"];
    let rows = ranks(&queens(&args));
    let drawn = stdout(&queens(&[&args[..], &["--format", "unicode"]].concat()));
    let lines: Vec<&str> = drawn.lines().collect();
    let (tens, units) = (lines[lines.len() - 2], lines[lines.len() - 1]);
    // Rank labels are 2 wide, then a space: file c is character 3 + 2c of
    // every line, the queens' and the names' alike.
    let at = |line: &str, file: usize| line.chars().nth(3 + 2 * file).unwrap_or(' ');
    for (file, &row) in rows.iter().enumerate() {
        let name: String = [at(tens, file), at(units, file)]
            .iter()
            .filter(|c| **c != ' ')
            .collect();
        // a..z, then the files' 1-based numbers, as a trace names them.
        assert_eq!(name, queens_core::file_label(file), "{drawn}");
        let rank_line = lines[lines.len() - 3 - row as usize];
        assert!(
            rank_line.starts_with(&format!("{:>2} ", row + 1)),
            "{rank_line}"
        );
        assert_eq!(at(rank_line, file), '♛', "file {name}: {drawn}");
    }
    assert!(units.starts_with("   a b c"), "{units}");
    assert!(
        units.ends_with("y z 7 8 9 0 1 2 3 4 5 6 7 8 9 0"),
        "{units}"
    );
    assert!(tens.ends_with("2 2 2 3 3 3 3 3 3 3 3 3 3 4"), "{tens}");
}

#[test]
fn two_and_three_have_no_board_said_plainly_with_exit_0() {
    for finder in FINDERS {
        let id = finder.info().id;
        for n in ["2", "3"] {
            let output = queens(&["find", n, "--solver", id]);
            assert!(output.status.success(), "{id}: {}", stderr(&output));
            assert_eq!(stdout(&output), format!("no board exists for n = {n}\n"));
            let json = queens(&["find", n, "--solver", id, "--format", "json"]);
            let value: Value = serde_json::from_str(&stdout(&json)).unwrap();
            assert!(value["board"].is_null(), "{id}: {value}");
        }
    }
}

#[test]
fn a_seed_gives_the_same_large_board_and_another_seed_another() {
    let run = |seed: &str| {
        ranks(&queens(&[
            "find",
            "100000",
            "--solver",
            "min-conflicts",
            "--seed",
            seed,
        ]))
    };
    let (a, b, c) = (run("5"), run("5"), run("6"));
    assert_eq!(a.len(), 100_000);
    assert_eq!(check_linear(&a), Ok(()));
    assert_eq!(a, b, "the same seed");
    assert_ne!(a, c, "another seed");
}

#[test]
fn the_construction_says_which_case_its_n_is() {
    let json = queens(&["find", "14", "--format", "json"]);
    let value: Value = serde_json::from_str(&stdout(&json)).unwrap();
    assert_eq!(value["solver"], "construction", "the default finder");
    assert!(
        value["about"].as_str().unwrap().contains("n mod 6 = 2"),
        "{value}"
    );
    let drawn = stdout(&queens(&["find", "9", "--format", "unicode"]));
    assert!(
        drawn.lines().next().unwrap().contains("n mod 6 = 3"),
        "{drawn}"
    );
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    let cases: &[(&[&str], &str)] = &[
        (&["find", "0"], "n must be at least 1"),
        (&["find", "100000001"], "n is at most 100000000"),
        (&["find", "many"], "whole number"),
        (
            &["find", "101", "--format", "unicode"],
            "a drawn board has n <= 100",
        ),
        (&["find", "27", "--format", "algebraic"], "n <= 26"),
        (
            &["find", "33", "--solver", "three-mask"],
            "three-mask supports n <= 32",
        ),
        (
            &["find", "1001", "--solver", "fail-first"],
            "fail-first supports n <= 1000",
        ),
        (
            &["find", "8", "--solver", "half-join"],
            "unknown finder 'half-join'",
        ),
        (&["find", "8", "--seed", "-1"], "--seed must be at least 0"),
        (&["find", "8", "--format", "pdf"], "possible values"),
        // The first try: listing stops at 32, and says where to go.
        (
            &["solve", "40", "--limit", "1"],
            "`queens find 40` finds one board",
        ),
    ];
    for (args, expected) in cases {
        refused(&queens(args), expected);
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_stdout_is_one_line_and_exit_2() {
    let output = Command::new(env!("CARGO_BIN_EXE_queens"))
        .args(["find", "1000000"])
        .stdout(std::fs::File::create("/dev/full").unwrap())
        .output()
        .unwrap();
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("cannot write to standard output"), "{err}");
}

/// `queens find 1000000 | head -c 20`: the reader leaves early and the
/// command ends quietly, as `solve` does (SIGPIPE's default action).
#[cfg(unix)]
#[test]
fn a_reader_that_leaves_early_ends_it_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_queens"))
        .args(["find", "1000000"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut start = [0u8; 20];
    child
        .stdout
        .as_mut()
        .unwrap()
        .read_exact(&mut start)
        .unwrap();
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap();
    assert!(output.stderr.is_empty(), "{}", stderr(&output));
    assert_ne!(output.status.code(), Some(2));
}

#[test]
fn list_says_which_question_each_answers() {
    let text = stdout(&queens(&["list"]));
    let answers = |id: &str| {
        let line = text
            .lines()
            .find(|l| l.split_whitespace().next() == Some(id))
            .unwrap_or_else(|| panic!("no line for {id}: {text}"));
        line.split_whitespace().nth(2).unwrap().to_string()
    };
    assert_eq!(answers("construction"), "find");
    assert_eq!(answers("min-conflicts"), "find");
    assert_eq!(answers("three-mask"), "count,list,find");
    assert_eq!(answers("half-join"), "count");
    for finder in FINDERS {
        let info = finder.info();
        assert!(text.contains(&format!("n <= {} {}", info.max_n, info.limit_reason)));
    }
}

#[test]
fn solve_prints_ranks_too() {
    let output = queens(&["solve", "6", "--format", "ranks"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let boards: Vec<Vec<u8>> = stdout(&output)
        .lines()
        .map(|l| {
            l.split_whitespace()
                .map(|w| w.parse::<u8>().unwrap() - 1)
                .collect()
        })
        .collect();
    let q6 = queens_core::oeis::total(6).unwrap();
    assert_eq!(boards.len() as u64, q6, "one line per board");
    assert!(boards.iter().all(|b| check(b).is_ok()));
}

/// Fail-first's point, set beside plain backtracking: over the same
/// boards, choosing the most constrained file first takes fewer steps to
/// its first board than rank-by-rank three-mask does to its own.
#[test]
fn fail_first_steps_back_less_than_rank_by_rank_backtracking() {
    let steps = |id: &str| -> u64 {
        let finder = registry::find_finder(id).unwrap();
        (20..=29).map(|n| finder.find(n, 0).unwrap().steps).sum()
    };
    let (heuristic, plain) = (steps("fail-first"), steps("three-mask"));
    assert!(
        heuristic * 10 < plain,
        "fail-first {heuristic} steps, three-mask {plain}"
    );
}
