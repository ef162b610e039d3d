//! Work that is not nodes, counted: the textbook's square tests, as Wirth
//! counts them (what `queens count` reports, and the walk-through's table
//! of them, computed here), and half-join's pair tests.

use std::fs;
use std::ops::ControlFlow;

use queens_core::Solver;
use queens_textbook::Textbook;
use serde_json::Value;

use crate::common::{json, queens, stdout, workspace};

/// `queens count N --solver ID --json`, parsed.
fn count(n: usize, solver: &str) -> Value {
    json(&queens(&[
        "count",
        &n.to_string(),
        "--solver",
        solver,
        "--json",
    ]))
}

/// `12,345`: as the walk-through writes counts.
fn thousands(value: u64) -> String {
    let digits = value.to_string();
    let mut out = String::new();
    for (k, digit) in digits.chars().enumerate() {
        if k > 0 && (digits.len() - k).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

#[test]
fn count_reports_wirths_square_tests() {
    // Wirth (CACM, 1971): 15,720 squares tested for all 92 boards of 8x8.
    let record = count(8, "textbook");
    assert_eq!(record["solutions"], 92);
    assert_eq!(record["extra"]["square_tests"], 15_720);
    assert_eq!(record["extra"]["positions_tried"], 1965);
    // The table shows the same counters, before the time.
    let output = queens(&["count", "8", "--solver", "textbook"]);
    let table = stdout(&output);
    let row = |name: &str| {
        table
            .lines()
            .position(|line| line.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("no {name} row in:\n{table}"))
    };
    assert!(
        table
            .lines()
            .any(|l| l.split_whitespace().eq(["square_tests", "15720"]))
    );
    assert!(row("nodes") < row("square_tests") && row("square_tests") < row("seconds"));
    // A solver without counters of its own has no `extra`.
    let perm = count(8, "perm-filter");
    assert!(perm.get("extra").is_none(), "{perm}");
}

#[test]
fn the_walk_through_shows_the_square_tests_computed() {
    let mut rows = vec![
        "| n | nodes (both solvers) | squares the textbook tests | of them refused | \
         squares it tests up to its first board |"
            .to_string(),
        "|---:|---:|---:|---:|---:|".to_string(),
    ];
    for n in [8, 10, 12] {
        let textbook = count(n, "textbook");
        let three_mask = count(n, "three-mask");
        let nodes = textbook["nodes"].as_u64().unwrap();
        assert_eq!(three_mask["nodes"], nodes, "the same tree at n = {n}");
        let tests = textbook["extra"]["square_tests"].as_u64().unwrap();
        // Every node but the empty board is a queen placed on a square
        // found safe; every other square tested was refused.
        let refused = tests - (nodes - 1);
        let first = Textbook
            .enumerate(n, &mut |_| ControlFlow::Break(()))
            .unwrap()
            .metric("square_tests")
            .unwrap();
        rows.push(format!(
            "| {n} | {} | {} | {} | {} |",
            thousands(nodes),
            thousands(tests),
            thousands(refused),
            thousands(first)
        ));
    }
    let table = rows.join("\n");
    let text = fs::read_to_string(workspace().join("docs/ALGORITHMS.md")).unwrap();
    let start = text.find("## 3. The textbook").unwrap();
    let end = text.find("## 4. ").unwrap();
    let section = &text[start..end];
    assert!(
        section.contains(&table),
        "section 3 should show, as computed:\n{table}"
    );
    // Wirth's two figures for 8x8 are the table's first row, and the
    // prose above it quotes them.
    assert!(
        table.contains("| 8 | 2,057 | 15,720 | 13,664 | 876 |"),
        "{table}"
    );
    let quoted = "15,720 of them for all 92 boards of the 8×8 board and 876 up to the first";
    let prose = section.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(prose.contains(quoted), "section 3 should say: {quoted}");
}

#[test]
fn count_reports_half_joins_pair_tests_as_a_measure_of_the_whole_run() {
    for n in [4, 8, 11, 12] {
        let on_threads = |threads: &str| {
            let n = n.to_string();
            json(&queens(&[
                "count",
                &n,
                "--solver",
                "half-join",
                "--json",
                "--threads",
                threads,
            ]))
        };
        let (one, two) = (on_threads("1"), on_threads("2"));
        let tests = one["extra"]["pair_tests"].as_u64().expect("pair tests");
        // Every pair that fits is tested, and the units are the same work
        // on any number of threads.
        assert!(tests > 0, "n = {n}: {one}");
        assert_eq!(two["extra"]["pair_tests"], tests, "n = {n}");
        assert_eq!(one["solutions"], two["solutions"]);
    }
    // At n = 4 the engine tests the four pairs its trace draws: three
    // refused, one solution (the walk-through's steps 10 to 13).
    let pairs = ["reject", "SOLUTION"].map(|tag| {
        let trace = stdout(&queens(&["trace", "4", "--solver", "half-join"])).to_string();
        (trace.lines())
            .filter(|line| line.split_whitespace().nth(1) == Some(tag))
            .count()
    });
    assert_eq!(pairs, [3, 1]);
    assert_eq!(count(4, "half-join")["extra"]["pair_tests"], 4);
    // A shard record keeps only what merge and recheck read.
    let shard = json(&queens(&[
        "count",
        "10",
        "--solver",
        "half-join",
        "--shard",
        "1/1",
        "--json",
    ]));
    assert!(shard.get("extra").is_none(), "{shard}");
}
