//! The walk-through's exercises: each answer sits in a `<details>` block
//! with a line `**Answer: X**` and a pasted `$ queens ...` command; the
//! command is run here and must print X (its pasted lines are checked by
//! docs_traces). Also the refusals of `tree --probes`.

use std::fs;

use crate::common::{self, queens, stderr, stdout, workspace};

/// (answer, command arguments) of every exercise in the walk-through.
fn exercises(text: &str) -> Vec<(String, Vec<String>)> {
    let mut found = Vec::new();
    for block in text.split("<details>").skip(1) {
        let block = block.split("</details>").next().unwrap_or("");
        let answer = block
            .lines()
            .find_map(|l| l.trim().strip_prefix("**Answer: "))
            .and_then(|a| a.strip_suffix("**"));
        let command = block
            .lines()
            .find_map(|l| l.trim().strip_prefix("$ queens "));
        let (Some(answer), Some(command)) = (answer, command) else {
            panic!("an exercise without `**Answer: X**` or `$ queens ...`:\n{block}");
        };
        let args = command.split_whitespace().map(str::to_string).collect();
        found.push((answer.to_string(), args));
    }
    found
}

#[test]
fn every_exercise_answer_is_what_its_command_prints() {
    let text = fs::read_to_string(workspace().join("docs/ALGORITHMS.md")).unwrap();
    let exercises = exercises(&text);
    assert!(
        (4..=6).contains(&exercises.len()),
        "{} exercises",
        exercises.len()
    );
    for (answer, args) in exercises {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let output = queens(&args);
        assert!(output.status.success(), "{args:?}: {}", stderr(&output));
        let printed = stdout(&output);
        assert!(
            printed.contains(&answer),
            "`queens {}` does not print {answer:?}:\n{printed}",
            args.join(" ")
        );
    }
}

#[test]
fn the_estimate_is_repeatable_and_close_at_eight() {
    let args = ["tree", "8", "--probes", "20000", "--seed", "3"];
    let first = stdout(&queens(&args));
    assert_eq!(first, stdout(&queens(&args)));
    let total = first.lines().find(|l| l.starts_with("total")).unwrap();
    let cells: Vec<&str> = total.split_whitespace().collect();
    assert_eq!(cells[1], "2057", "{first}");
    let estimate: f64 = cells[2].parse().unwrap();
    assert!((estimate - 2057.0).abs() < 0.03 * 2057.0, "{first}");
}

#[test]
fn past_fourteen_the_estimate_stands_alone() {
    let output = queens(&["tree", "20", "--probes", "10"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let printed = stdout(&output);
    assert!(printed.contains("the estimate alone"), "{printed}");
    let titles = printed.lines().nth(1).unwrap_or("");
    assert!(!titles.contains("exact"), "{printed}");
}

#[test]
fn bad_probes_are_refused() {
    for (args, expected) in [
        (
            &["tree", "8", "--probes", "0"][..],
            "--probes must be at least 1",
        ),
        (
            &["tree", "8", "--probes", "100000000000"],
            "--probes is at most",
        ),
        (&["tree", "8", "--seed", "3"], "--probes"),
        (&["tree", "20"], "--probes estimates larger trees"),
    ] {
        common::assert_bad_input(args, expected);
    }
}
