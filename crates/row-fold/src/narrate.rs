//! The trace's text, in the document's terms: partials as 1-based Haskell
//! lists, newest queen first. Only traced runs call into here.

use crate::level::Level;
use crate::safe::safe_addition;

/// How many partials of each level the level's line shows.
pub const TRACED_PARTIALS: usize = 4;
/// How many partials of each level have their extension shown row by row.
pub const TRACED_EXTENSIONS: usize = 3;

/// `[r1,r2,...]` with rows counted from 1.
pub fn haskell_list(rows: &[u8]) -> String {
    let rows: Vec<String> = rows.iter().map(|r| (r + 1).to_string()).collect();
    format!("[{}]", rows.join(","))
}

/// What `safeAddition rows row 1` said to each of the n rows.
pub fn extension(rows: &[u8], n: usize) -> String {
    let mut safe = Vec::new();
    let mut same_row = Vec::new();
    let mut diagonal = Vec::new();
    for row in 0..n as u8 {
        let shown = (row + 1).to_string();
        if safe_addition(rows, row) {
            safe.push(shown);
        } else if rows.contains(&row) {
            same_row.push(shown);
        } else {
            diagonal.push(shown);
        }
    }
    let mut text = format!("row : {}  safe: {}", haskell_list(rows), listed(&safe));
    for (name, rows) in [("same row", same_row), ("diagonal", diagonal)] {
        if !rows.is_empty() {
            text += &format!("; {name}: {}", rows.join(" "));
        }
    }
    text
}

fn listed(rows: &[String]) -> String {
    if rows.is_empty() {
        "none".into()
    } else {
        rows.join(" ")
    }
}

/// A level's size, its memory, the tests that made it and its first
/// partials.
pub fn level(level: &Level, tests: usize) -> String {
    let shown: Vec<String> = level
        .iter()
        .take(TRACED_PARTIALS)
        .map(haskell_list)
        .collect();
    let more = if level.len() > TRACED_PARTIALS {
        " ..."
    } else {
        ""
    };
    format!(
        "level {}: {} partials x {} B = {} B, from {tests} safeAddition tests: {}{more}",
        level.queens(),
        level.len(),
        level.queens(),
        level.bytes(),
        shown.join(" ")
    )
}
