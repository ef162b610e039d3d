//! The trace's text, in the document's terms: partials as 1-based Haskell
//! lists, newest queen first. Only traced runs call into here.

use queens_core::trace::Detail;

use crate::level::Level;
use crate::safe::safe_addition;

/// How many partials of each level the level's line shows.
pub(crate) const TRACED_PARTIALS: usize = 4;
/// How many partials of each level have their extension shown row by row.
pub(crate) const TRACED_EXTENSIONS: usize = 3;

/// `[r1,r2,...]` with rows counted from 1.
pub(crate) fn haskell_list(rows: &[u8]) -> String {
    let rows: Vec<String> = rows.iter().map(|r| (r + 1).to_string()).collect();
    format!("[{}]", rows.join(","))
}

/// A partial on the board: a list of k queens, newest first, fills the k
/// rightmost files (the fold adds each queen in the file left of the
/// others, so a full list reads file a to h), its rows being ranks.
pub(crate) fn board(rows: &[u8], n: usize) -> Detail {
    let first_file = n - rows.len();
    Detail::default().queens(
        rows.iter()
            .enumerate()
            .map(|(i, &row)| (first_file + i, row as usize)),
    )
}

/// What `safeAddition rows row 1` said to each of the n rows; as data, the
/// partial, and the rows of the file to its left that the test refuses.
pub(crate) fn extension(rows: &[u8], n: usize, tests: u64) -> Detail {
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
    for (name, rows) in [("same row", &same_row), ("diagonal", &diagonal)] {
        if !rows.is_empty() {
            text += &format!("; {name}: {}", rows.join(" "));
        }
    }
    let file = n - rows.len() - 1;
    Detail {
        text,
        ..board(rows, n)
            .attacked(
                (0..n as u8)
                    .filter(|&row| !safe_addition(rows, row))
                    .map(|row| (file, row as usize)),
            )
            .state("rows", haskell_list(rows))
            .state("safe", listed(&safe))
            .nodes(tests)
    }
}

fn listed(rows: &[String]) -> String {
    if rows.is_empty() {
        "none".into()
    } else {
        rows.join(" ")
    }
}

/// A level's size, its memory, the tests that made it and its first
/// partials; as data, the first partial on the board and the level's size.
pub(crate) fn level(level: &Level, n: usize, tests: usize, total_tests: u64) -> Detail {
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
    let text = format!(
        "level {}: {} x {} B = {} B, from {}: {}{more}",
        level.queens(),
        queens_core::counted(level.len(), "partial", "partials"),
        level.queens(),
        level.bytes(),
        queens_core::counted(tests, "safeAddition test", "safeAddition tests"),
        shown.join(" ")
    );
    let first = level
        .iter()
        .next()
        .map_or(Detail::default(), |rows| board(rows, n));
    Detail {
        text,
        ..first
            .state("level", level.queens().to_string())
            .state("partials", level.len().to_string())
            .state("bytes", level.bytes().to_string())
            .nodes(total_tests)
    }
}
