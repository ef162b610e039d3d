//! The textbook's square tests, as Wirth counts them: what `queens count`
//! reports, and the walk-through's table of them, computed here.

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
