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

/// The ids `queens list` shows: its rows begin at the left margin (their
/// details are indented), after a header row and before a blank line and
/// the key.
fn listed_ids() -> Vec<String> {
    let output = queens(&["list"]);
    assert_eq!(output.status.code(), Some(0));
    text(&output.stdout)
        .lines()
        .skip(1)
        .take_while(|line| !line.is_empty())
        .filter(|line| !line.starts_with(' '))
        .filter_map(|line| line.split_whitespace().next().map(str::to_string))
        .collect()
}

#[test]
fn every_id_queens_list_shows_is_one_explain_takes() {
    let listed = listed_ids();
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

/// Every id `queens list` shows, a finder that is no solver included
/// (construction, min-conflicts, fail-first), is explained by its own
/// teaching text: the idea, up to the engineering heading where there is
/// one, then the line that says why nothing is measured and how to point
/// `--records` at the records.
#[test]
fn explain_prints_the_teaching_text_of_every_listed_id_then_the_measurements_or_none() {
    let empty = tempfile::tempdir().unwrap();
    let records = empty.path().to_str().unwrap();
    for id in listed_ids() {
        let id = id.as_str();
        let teaching = registry::Subject::find(id).unwrap().info.teaching;
        let idea = explain::Lesson::of(teaching).idea;
        assert!(!idea.trim().is_empty(), "{id}");
        // As Markdown: the README as written, then the line that says why
        // there is nothing measured.
        let output = queens(&["explain", id, "--records", records, "--markdown"]);
        assert_eq!(output.status.code(), Some(0), "{id}");
        let out = text(&output.stdout);
        assert!(out.starts_with(idea.trim_end()), "{id}");
        let last = out.lines().last().unwrap();
        assert!(
            last.starts_with(&format!("No measurements of {id} yet")),
            "{id}: {last}"
        );
        assert!(last.contains("Point `--records DIR` at"), "{id}: {last}");
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
        assert!(!words.contains("unknown"), "{id}: {words}");
    }
}

/// Outside a checkout the default `bench-results` is not there: explain
/// still teaches, and says how to point it at the records.
#[test]
fn explain_outside_the_checkout_says_to_point_records_at_them() {
    let elsewhere = tempfile::tempdir().unwrap();
    let output = common::queens_in(&["explain", "perm-filter"], elsewhere.path());
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let words = text(&output.stdout)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        words.contains("No measurements of perm-filter yet: bench-results: cannot list records: "),
        "{words}"
    );
    assert!(
        words.contains(
            "Point `--records DIR` at a directory of bench records, such as `bench-results/` \
             in a checkout of this workspace."
        ),
        "{words}"
    );
}

/// The words a learner reads: every whitespace-separated word `explain`
/// prints (rendered, as a terminal shows it) before the rule that sets the
/// measurements apart; with no record at hand, so that what follows the
/// rule is the one line saying there are none. Returns that count and the
/// whole output.
fn words_explained(id: &str, more: &[&str]) -> (usize, String) {
    let empty = tempfile::tempdir().unwrap();
    let records = empty.path().to_str().unwrap();
    let mut args = vec!["explain", id, "--records", records];
    args.extend_from_slice(more);
    let output = queens(&args);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let out = text(&output.stdout);
    // The rule spans the width; a heading's underline only its title.
    let rule = "-".repeat(queens_report::terminal::WIDTH);
    let lines: Vec<&str> = out.lines().collect();
    let at = lines.iter().rposition(|line| *line == rule);
    let at = at.unwrap_or_else(|| panic!("no rule before the measurements:\n{out}"));
    assert!(
        lines[at + 1..]
            .join(" ")
            .contains(&format!("No measurements of {id} yet")),
        "{out}"
    );
    let words = lines[..at]
        .iter()
        .map(|line| line.split_whitespace().count());
    (words.sum(), out)
}

/// `explain half-join` is the idea for a learner, about 800 words at most;
/// `--engineering` adds the engine, its kernels, units, plan and costs,
/// which are the README's sections after its engineering heading.
#[test]
fn explain_half_join_is_the_idea_and_engineering_asks_for_the_rest() {
    let (words, idea) = words_explained("half-join", &[]);
    assert!(words <= 850, "{words} words:\n{idea}");
    let teaching = registry::Subject::find("half-join").unwrap().info.teaching;
    let lesson = explain::Lesson::of(teaching);
    let sections = lesson.engineering_sections();
    for section in [
        "The engine, step by step",
        "One binary for every CPU",
        "Units: threads, shards, checkpoints, bounded memory",
        "The plan: units weighed by their predicted time, cut into parts",
        "Cost and limits",
    ] {
        assert!(sections.contains(&section), "{section}: {sections:?}");
        // The idea names each section (up to a colon) and shows none.
        let one_line = idea.split_whitespace().collect::<Vec<_>>().join(" ");
        let named = section.split(':').next().unwrap();
        assert!(one_line.contains(named), "{named} not named:\n{idea}");
        assert!(
            !idea.lines().any(|line| line.trim() == section),
            "{section} shown:\n{idea}"
        );
    }
    assert!(
        idea.contains("queens explain half-join --engineering"),
        "{idea}"
    );

    let (more, whole) = words_explained("half-join", &["--engineering"]);
    assert!(more > 2 * words, "{more} words with the engineering");
    for section in &sections {
        assert!(
            whole.lines().any(|line| line.trim() == *section),
            "no section {section}:\n{whole}"
        );
    }
    // The whole README, as written, with --markdown.
    let empty = tempfile::tempdir().unwrap();
    let records = empty.path().to_str().unwrap();
    let raw = text(
        &queens(&[
            "explain",
            "half-join",
            "--records",
            records,
            "--markdown",
            "--engineering",
        ])
        .stdout,
    );
    assert!(raw.starts_with(teaching.trim_end()), "{raw}");
}

/// A teaching text with no engineering heading is the idea whole:
/// `--engineering` prints the same, so one flag serves every id.
#[test]
fn explain_engineering_of_a_text_without_it_is_the_same_text() {
    let empty = tempfile::tempdir().unwrap();
    let records = empty.path().to_str().unwrap();
    let mut plain_texts = 0;
    for id in registry::subject_ids() {
        let teaching = registry::Subject::find(id).unwrap().info.teaching;
        if explain::Lesson::of(teaching).engineering.is_some() {
            continue;
        }
        plain_texts += 1;
        let plain = queens(&["explain", id, "--records", records]);
        let engineering = queens(&["explain", id, "--records", records, "--engineering"]);
        assert_eq!(plain.status.code(), Some(0), "{id}");
        assert_eq!(text(&plain.stdout), text(&engineering.stdout), "{id}");
    }
    assert!(plain_texts > 0);
}

#[test]
fn the_engineering_heading_divides_a_text_once_and_nowhere_else() {
    let text = "# t\n\nidea\n\n## Engineering: how\n\n### One\n\n```\n### not\n```\n\n## Engineering\n### Two\n";
    let lesson = explain::Lesson::of(text);
    assert_eq!(lesson.idea, "# t\n\nidea\n\n");
    assert_eq!(lesson.engineering, Some(&text[lesson.idea.len()..]));
    assert_eq!(lesson.engineering_sections(), vec!["One", "Two"]);
    for whole in [
        "# t\n\n## Engineered boards\n",
        "# t\n\n### Engineering\n",
        "# t\n\n```text\n## Engineering\n```\n",
        "no heading",
    ] {
        let lesson = explain::Lesson::of(whole);
        assert_eq!((lesson.idea, lesson.engineering), (whole, None), "{whole}");
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
    assert_eq!(raw, explain::render(&subject, &newest, false));
    assert!(raw.starts_with(subject.info.teaching.trim_end()), "{raw}");
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

/// `queens explain half-join --engineering` names the kernel chosen at run
/// time and why (the idea alone does not: `explain` without the flag);
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
    let explain = [
        "explain",
        "half-join",
        "--records",
        records,
        "--engineering",
    ];
    let out = text(&with_kernel(None, &explain).stdout);
    let best = kernel::best().name();
    assert!(
        out.contains(&format!("Kernel on this machine: {best} (")),
        "{out}"
    );
    let idea = text(&with_kernel(None, &explain[..4]).stdout);
    assert!(!idea.contains("Kernel on this machine"), "{idea}");
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

/// The bit order textbook's README states for the masks its trace shows:
/// `rising` from the last file's first square (index 0) to a8's, its
/// middle entry the long diagonal a1-h8; `falling` from a1's.
#[test]
fn textbooks_diagonal_masks_run_in_the_order_its_readme_states() {
    let state_after_first_queen = |n: &str, files_tried: &str| {
        let out = queens(&[
            "trace",
            n,
            "--solver",
            "textbook",
            "--format",
            "json",
            "--steps",
            files_tried,
        ]);
        let trace = common::json(&out);
        let steps = trace["steps"].as_array().unwrap();
        let last = steps.last().unwrap();
        assert_eq!(last["event"], "place", "{last}");
        let mask = |name: &str| {
            let state = last["state"].as_array().unwrap();
            let row = state.iter().find(|row| row[0] == name).unwrap();
            row[1].as_str().unwrap().to_string()
        };
        (mask("rising"), mask("falling"))
    };
    // The first queen of the 4×4 board, on a1: the long diagonal a1-d4,
    // rising index n - 1, and a1's own falling diagonal, index 0.
    assert_eq!(
        state_after_first_queen("4", "2"),
        ("1110111".to_string(), "0111111".to_string())
    );
    let readme = registry::Subject::find("textbook").unwrap().info.teaching;
    let one_line = readme.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        one_line.contains("So `rising`'s middle entry, index n - 1, is the long diagonal a1-h8"),
        "{readme}"
    );
}
