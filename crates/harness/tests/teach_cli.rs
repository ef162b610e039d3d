//! `queens trace` and `queens explain` as a user runs them: bad input is one
//! line and exit 2, and the output has the promised shape for every solver.

use crate::common;

use common::{assert_bad_input, queens, text};
use queens_core::oeis;
use queens_harness::cmd::{explain, trace};
use queens_harness::registry::{self, SOLVERS};

#[test]
fn trace_bad_input_is_one_line_and_exit_2() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["trace", "4", "--steps", "0"],
            "--steps must be at least 1",
        ),
        (
            &["trace", "4", "--steps", "-2"],
            "--steps must be at least 1",
        ),
        (&["trace", "4", "--steps", "501"], "--steps is at most 500"),
        (&["trace", "4", "--steps", "lots"], "whole number"),
        (&["trace", "4", "--solver", "nope"], "unknown solver 'nope'"),
        (&["trace", "0"], "at least 1"),
        (&["trace", "x"], "whole number"),
        (
            &["trace", "33", "--solver", "three-mask"],
            "three-mask supports n <= 32",
        ),
    ];
    for (args, expected) in cases {
        assert_bad_input(args, expected);
    }
}

#[test]
fn explain_bad_input_is_one_line_and_exit_2() {
    assert_bad_input(&["explain", "nope"], "unknown solver or finder 'nope'");
    assert_bad_input(&["explain"], "required");

    let dir = tempfile::tempdir().unwrap();
    let broken = dir.path().join("2026-01-01T000000.000Z-bench.json");
    std::fs::write(&broken, "{\"schema\": \"queens-bench-rec").unwrap();
    let records = dir.path().to_str().unwrap();
    assert_bad_input(
        &["explain", SOLVERS[0].info().id, "--records", records],
        "2026-01-01T000000.000Z-bench.json",
    );
}

/// `queens trace n --solver id --steps k` prints a header, exactly k numbered
/// tagged steps when the search is longer, and a footer saying it was cut.
#[test]
fn trace_shows_k_tagged_steps_and_says_it_was_cut() {
    const TAGS: &[&str] = &[
        "place", "reject", "back", "skip", "SOLUTION", "level", "note",
    ];
    for solver in SOLVERS {
        let id = solver.info().id;
        let n = solver.info().max_n.min(8).to_string();
        let output = queens(&["trace", &n, "--solver", id, "--steps", "3"]);
        assert_eq!(output.status.code(), Some(0), "{id}");
        let out = text(&output.stdout);
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines[0].starts_with(id), "{id}: header names the solver");
        let numbered: Vec<(usize, &str)> = lines[1..lines.len() - 1]
            .iter()
            // With fewer than 10 steps a step's number is in column 0 and
            // the lines of a block step are indented.
            .filter(|line| !line.starts_with(' '))
            .filter_map(|line| {
                let mut words = line.split_whitespace();
                let number = words.next()?.parse().ok()?;
                Some((number, words.next()?))
            })
            .collect();
        let numbers: Vec<usize> = numbered.iter().map(|(number, _)| *number).collect();
        assert_eq!(numbers, vec![1, 2, 3], "{id}:\n{out}");
        for (_, tag) in &numbered {
            assert!(TAGS.contains(tag), "{id}: unknown tag {tag}:\n{out}");
        }
        let footer = lines.last().unwrap();
        assert!(
            footer.starts_with("-- cut after 3 steps"),
            "{id}: footer {footer}"
        );
    }
}

#[test]
fn trace_without_steps_fits_about_one_screen() {
    for solver in SOLVERS {
        let id = solver.info().id;
        let n = solver.info().max_n.min(8).to_string();
        let output = queens(&["trace", &n, "--solver", id]);
        assert_eq!(output.status.code(), Some(0), "{id}");
        let out = text(&output.stdout);
        // Header (the legend wrapped to the width) and footer around at
        // most one screen of steps.
        let header = trace::header(id, solver.info().max_n.min(8), None)
            .lines()
            .count();
        let lines = out.lines().count();
        assert!(
            (header + 2..=trace::SCREEN_LINES + header + 1).contains(&lines),
            "{id}: {lines} lines"
        );
    }
}

#[test]
fn every_default_trace_of_the_4x4_board_reaches_a_solution() {
    // A learner who types `queens trace 4 --solver ID` sees the search
    // succeed at least once, even where a step is a whole grid.
    for solver in SOLVERS {
        let id = solver.info().id;
        let output = queens(&["trace", "4", "--solver", id]);
        let out = text(&output.stdout);
        assert!(
            out.lines().skip(2).any(|line| line.contains("SOLUTION")),
            "{id}:\n{out}"
        );
        assert!(out.starts_with(&trace::header(id, 4, None)), "{id}:\n{out}");
    }
}

#[test]
fn trace_of_a_whole_small_search_ends_with_its_count() {
    for solver in SOLVERS.iter().filter(|s| s.info().supports(1)) {
        let id = solver.info().id;
        let output = queens(&["trace", "1", "--solver", id, "--steps", "500"]);
        assert_eq!(output.status.code(), Some(0), "{id}");
        let out = text(&output.stdout);
        let footer = out.lines().last().unwrap();
        assert!(
            footer.starts_with("-- search complete in ") && footer.contains(": 1 solution,"),
            "{id}: {footer}"
        );
    }
}

#[test]
fn every_id_queens_list_shows_is_one_explain_takes() {
    // The list's rows begin at the left margin (their details are
    // indented), after a header row and before a blank line and the key.
    let output = queens(&["list"]);
    assert_eq!(output.status.code(), Some(0));
    let listed: Vec<String> = text(&output.stdout)
        .lines()
        .skip(1)
        .take_while(|line| !line.is_empty())
        .filter(|line| !line.starts_with(' '))
        .filter_map(|line| line.split_whitespace().next().map(str::to_string))
        .collect();
    assert!(listed.iter().any(|id| id == "construction"), "{listed:?}");
    let mut explained: Vec<String> = registry::subject_ids()
        .iter()
        .map(|id| id.to_string())
        .collect();
    let mut sorted = listed.clone();
    sorted.sort();
    sorted.dedup();
    explained.sort();
    assert_eq!(sorted, explained);
}

#[test]
fn explain_prints_the_teaching_text_then_the_measurements_or_says_there_are_none() {
    let empty = tempfile::tempdir().unwrap();
    let records = empty.path().to_str().unwrap();
    for id in registry::subject_ids() {
        let teaching = registry::Subject::find(id).unwrap().teaching;
        // As Markdown: the README as written, then the line that says why
        // there is nothing measured.
        let output = queens(&["explain", id, "--records", records, "--markdown"]);
        assert_eq!(output.status.code(), Some(0), "{id}");
        let out = text(&output.stdout);
        assert!(out.starts_with(teaching.trim_end()), "{id}");
        let last = out.lines().last().unwrap();
        assert!(
            last.starts_with(&format!("No measurements of {id} yet")),
            "{id}: {last}"
        );
        // Rendered: the same words, wrapped (the sentence may span lines).
        let output = queens(&["explain", id, "--records", records]);
        assert_eq!(output.status.code(), Some(0), "{id}");
        let words = text(&output.stdout)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        assert!(
            words.contains(&format!("No measurements of {id} yet")),
            "{id}: {words}"
        );
    }
}

/// `--markdown` prints the Markdown as written, every byte of it: the
/// teaching text, the record's table with its pipes; without it, no line
/// of the Markdown's table syntax is left.
#[test]
fn explain_markdown_is_the_raw_text_and_the_default_renders_it() {
    let dir = tempfile::tempdir().unwrap();
    let records = reference_records(dir.path(), "three-mask");
    let subject = registry::Subject::find("three-mask").unwrap();
    let newest = queens_record::newest_measurements(dir.path(), "three-mask").unwrap();
    let raw = text(&queens(&["explain", "three-mask", "--records", &records, "--markdown"]).stdout);
    assert_eq!(raw, explain::render(&subject, &newest));
    assert!(raw.starts_with(subject.teaching.trim_end()), "{raw}");
    assert!(raw.contains("\n|---:|"), "{raw}");
    let rendered = text(&queens(&["explain", "three-mask", "--records", &records]).stdout);
    assert_ne!(rendered, raw);
    assert!(!rendered.contains("|---"), "{rendered}");
    assert!(
        !rendered.lines().any(|line| line.starts_with("# ")),
        "{rendered}"
    );
}

/// A directory holding a reference record (`*-bench.json`) of a tiny
/// compare of solver `id` at n = 4..5, for `explain --records`.
fn reference_records(dir: &std::path::Path, id: &str) -> String {
    let scratch = tempfile::tempdir().unwrap();
    let made = queens(&[
        "compare",
        "--max-n",
        "5",
        "--solver",
        id,
        "--budget",
        "1",
        "--out",
        scratch.path().to_str().unwrap(),
    ]);
    assert_eq!(made.status.code(), Some(0), "{}", text(&made.stderr));
    let compared = std::fs::read_dir(scratch.path())
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .find(|path| path.extension().is_some_and(|ext| ext == "json"))
        .expect("compare wrote a record");
    // The same record under a reference record's name.
    std::fs::copy(&compared, dir.join("2026-06-01T000000.000Z-bench.json")).unwrap();
    dir.to_str().unwrap().to_string()
}

#[test]
fn explain_shows_the_rows_of_the_newest_reference_record() {
    let dir = tempfile::tempdir().unwrap();
    let id = SOLVERS[0].info().id;
    let records = reference_records(dir.path(), id);
    let reference = "2026-06-01T000000.000Z-bench.json";
    // Neither an older reference record nor a newer quick compare's, both
    // with wrong counts, may be the one shown.
    let mut wrong: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join(reference)).unwrap())
            .unwrap();
    for entry in wrong["entries"].as_array_mut().unwrap() {
        entry["solutions"] = 999_999.into();
    }
    for name in [
        "2000-01-01T000000.000Z-bench.json",
        "2099-01-01T000000.000Z-compare.json",
    ] {
        std::fs::write(dir.path().join(name), wrong.to_string()).unwrap();
    }

    let output = queens(&["explain", id, "--records", &records, "--markdown"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let out = text(&output.stdout);
    let measured = out.split("\n---\n").nth(1).expect("a measured section");
    assert!(measured.contains(reference), "{measured}");
    // Both figures, from one compare run that took cold samples too.
    assert!(
        measured.contains("| cold | warm | cold ns/node | warm ns/node |"),
        "{measured}"
    );
    assert!(!measured.contains("not recorded"), "{measured}");
    for n in 4..=5 {
        // Counts below 1,000: no thousands separator to allow for.
        let row = format!("| {n} | {} |", oeis::total(n).unwrap());
        assert!(measured.contains(&row), "no row {row}:\n{measured}");
    }
    assert!(
        !measured.contains("999,999"),
        "another record shown:\n{measured}"
    );
}

/// `queens explain half-join` names the kernel chosen at run time and why;
/// `QUEENS_KERNEL` forces one the CPU has, and one it lacks (or a name
/// that is no kernel) is refused in one line, exit 2, before any command.
#[test]
fn explain_half_join_names_the_kernel_and_queens_kernel_forces_or_is_refused() {
    use queens_half_join::kernel::{self, KERNEL_VARIABLE, LEVELS};
    let with_kernel = |value: Option<&str>, args: &[&str]| {
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_queens"));
        command.args(args).env_remove(KERNEL_VARIABLE);
        if let Some(value) = value {
            command.env(KERNEL_VARIABLE, value);
        }
        command.output().expect("the queens binary runs")
    };
    let empty = tempfile::tempdir().unwrap();
    let records = empty.path().to_str().unwrap();
    let explain = ["explain", "half-join", "--records", records];
    let out = text(&with_kernel(None, &explain).stdout);
    let best = kernel::best().name();
    assert!(
        out.contains(&format!("Kernel on this machine: {best} (")),
        "{out}"
    );
    for level in LEVELS {
        let forced = with_kernel(Some(level.name()), &explain);
        if level.missing().is_empty() {
            let out = text(&forced.stdout);
            let line = format!("{} (forced by {KERNEL_VARIABLE})", level.name());
            assert!(out.contains(&line), "{out}");
            let count = with_kernel(
                Some(level.name()),
                &["count", "10", "--solver", "half-join"],
            );
            assert_eq!(count.status.code(), Some(0), "{}", level.name());
            assert!(text(&count.stdout).contains(&oeis::total(10).unwrap().to_string()));
        } else {
            eprintln!("skipped: the {} kernel (this CPU lacks it)", level.name());
            common::refused(&forced, "this CPU lacks");
        }
    }
    common::refused(&with_kernel(Some("avx9"), &explain), "is not a kernel");
}
