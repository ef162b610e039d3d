//! `queens trace N --solver min-conflicts [--seed S]`: the local search's
//! repair, swap by swap, from the greedy start to the solved board. The
//! steps come from the real search (`queens_min_conflicts::Search` told of
//! each start and swap through its observer), so the trace is what `queens
//! find N --solver min-conflicts --seed S` does, not a re-enactment.
//!
//! Conflicts are counted the way the search counts them: over every
//! diagonal, the queens on it beyond the first ([`CONFLICTS`]); 0 exactly
//! when no two queens attack. Rows and files never clash: the board is a
//! permutation throughout, and a swap exchanges two queens' ranks.

use itertools::Itertools;
use queens_core::find::no_board_exists;
use queens_min_conflicts::{Observe, Outcome, Search, Swap};
use serde_json::json;

use crate::error::CliError;
use crate::trace_json::{JSON_FORMAT, JSON_VERSION, MAX_STEPS};
use crate::trace_text;

/// The finder this module traces.
pub const ID: &str = "min-conflicts";

/// The largest board traced: files are named by letters, a to z.
pub const MAX_N: usize = 26;

/// What a conflict is, said once for the text and the JSON trace.
pub const CONFLICTS: &str = "conflicts: over every diagonal, the queens on it beyond the first (the figure the search lowers; 0 = no two queens attack); a swap exchanges two queens' ranks, so every rank and file keeps one queen";

/// The tags of a repair trace.
pub const LEGEND: &str = "tags: start = the greedy start's board | swap = two queens' ranks exchanged, the conflicts lowered | SOLUTION = no conflict left";

/// One step of the repair: a start, a swap or the solved board, its
/// words, and the board after it with its conflicts and the swaps tried so
/// far.
#[derive(Clone, Debug)]
struct Step {
    event: &'static str,
    text: String,
    swap: Option<Swap>,
    rows: Vec<u32>,
    conflicts: u64,
    steps: u64,
}

/// The observer: every start and swap, as a step.
#[derive(Default)]
struct Recorder {
    steps: Vec<Step>,
}

impl Observe for Recorder {
    fn started(&mut self, rows: &[u32], conflicts: u64, steps: u64) {
        let again = match self.steps.is_empty() {
            true => "",
            false => "no swap helped any more, so a new ",
        };
        self.steps.push(Step {
            event: "start",
            text: format!(
                "{again}greedy start: {}; conflicts {conflicts}; queens in conflict: {}",
                board_text(rows),
                conflicted(rows)
            ),
            swap: None,
            rows: rows.to_vec(),
            conflicts,
            steps,
        });
    }

    fn swapped(&mut self, swap: Swap, rows: &[u32], steps: u64) {
        self.steps.push(Step {
            event: "swap",
            text: format!(
                "queen {} from rank {} to {} (queen {} from {} to {}): conflicts {} -> {}; in conflict now: {}",
                file(swap.file),
                swap.from + 1,
                swap.to + 1,
                file(swap.partner),
                swap.to + 1,
                swap.from + 1,
                swap.before,
                swap.after,
                conflicted(rows)
            ),
            swap: Some(swap),
            rows: rows.to_vec(),
            conflicts: swap.after,
            steps,
        });
    }
}

/// A whole repair: its steps, the solved board's last, and how the search
/// ended.
fn repair(n: usize, seed: u64) -> Result<(Vec<Step>, Outcome), CliError> {
    if !(1..=MAX_N).contains(&n) {
        return Err(CliError::Input(format!(
            "{ID} is traced for n from 1 to {MAX_N} (files named a to z), got {n}; `queens find {n} --solver {ID}` finds the board"
        )));
    }
    if no_board_exists(n) {
        return Err(CliError::Input(format!(
            "no board exists for n = {n}: there is no repair to trace"
        )));
    }
    let mut recorder = Recorder::default();
    let outcome = Search::observed(n, seed, &mut recorder).run();
    let mut steps = recorder.steps;
    if let Some(last) = steps.last().cloned() {
        steps.push(Step {
            event: "solution",
            text: format!(
                "{}: no two queens attack (swaps made: {}, tried: {}, restarts: {})",
                board_text(&last.rows),
                outcome.swaps,
                outcome.steps,
                outcome.restarts
            ),
            swap: None,
            ..last
        });
    }
    Ok((steps, outcome))
}

fn file(f: usize) -> char {
    char::from(b'a' + f as u8)
}

fn square(f: usize, row: u32) -> String {
    format!("{}{}", file(f), row + 1)
}

fn board_text(rows: &[u32]) -> String {
    rows.iter()
        .enumerate()
        .map(|(f, &r)| square(f, r))
        .join(" ")
}

/// The files of the queens that share a diagonal with another, found
/// pairwise from the board alone (what the page highlights).
fn in_conflict(rows: &[u32]) -> Vec<usize> {
    (0..rows.len())
        .filter(|&a| {
            (0..rows.len()).any(|b| b != a && rows[a].abs_diff(rows[b]) as usize == a.abs_diff(b))
        })
        .collect()
}

/// The squares of the queens in conflict, or "none".
fn conflicted(rows: &[u32]) -> String {
    let squares = (in_conflict(rows).into_iter())
        .map(|f| square(f, rows[f]))
        .join(" ");
    if squares.is_empty() {
        "none".to_string()
    } else {
        squares
    }
}

/// The text trace: a header, one line per step (at most `limit`), a footer.
pub fn text(n: usize, seed: u64, limit: Option<usize>) -> Result<String, CliError> {
    let (all, repair) = repair(n, seed)?;
    let shown = limit
        .unwrap_or(MAX_STEPS)
        .clamp(1, MAX_STEPS)
        .min(all.len());
    let width = shown.to_string().len();
    let title = format!("{ID} on the {n}x{n} board, seed {seed}");
    let mut out = trace_text::header(&title, [LEGEND, CONFLICTS]);
    for (index, step) in all.iter().take(shown).enumerate() {
        let tag = if step.event == "solution" {
            "SOLUTION"
        } else {
            step.event
        };
        out.push_str(&trace_text::format_step(index + 1, width, tag, &step.text));
    }
    if shown < all.len() {
        out.push_str(&trace_text::cut_footer(shown, "repair"));
    } else {
        out.push_str(&format!(
            "-- solved: swaps made {}, tried {} (a step of `queens find`: one swap tried), restarts {}\n",
            repair.swaps, repair.steps, repair.restarts
        ));
    }
    Ok(out)
}

/// The JSON trace (format `queens-trace`, version 1, as the solvers' traces), the
/// first `limit` steps: each step's `event` (start, swap, solution), `text`,
/// `queens`, `conflicts` (the board's, [`CONFLICTS`]), `conflicting` (the
/// squares of the queens that share a diagonal with another), on a swap
/// `moved` (`file`, `partner`, `from`, `to` 0-based, `before` and `after`:
/// the conflicts), `nodes` (swaps tried so far) and `solutions` (1 at the
/// end); and, when it was not cut, the search's `nodes` and `solutions`.
pub fn document(n: usize, seed: u64, limit: usize) -> Result<serde_json::Value, CliError> {
    let (all, repair) = repair(n, seed)?;
    let shown = limit.max(1).min(all.len());
    let cut = shown < all.len();
    let steps: Vec<serde_json::Value> = all
        .iter()
        .take(shown)
        .map(|step| {
            let rows = &step.rows;
            // A queen as `[file, rank]`, 0-based.
            let queen = |f: usize| [f, rows[f] as usize];
            let queens: Vec<[usize; 2]> = (0..rows.len()).map(queen).collect();
            let conflicting: Vec<[usize; 2]> = in_conflict(rows).into_iter().map(queen).collect();
            let mut object = json!({
                "event": step.event,
                "text": step.text,
                "queens": queens,
                "conflicts": step.conflicts,
                "conflicting": conflicting,
                "state": [
                    ["conflicts", step.conflicts.to_string()],
                    ["ranks, file a first", rows.iter().map(|r| r + 1).join(" ")],
                ],
                "nodes": step.steps,
                "solutions": u64::from(step.event == "solution"),
            });
            if let Some(swap) = step.swap {
                object["moved"] = json!({
                    "file": swap.file,
                    "partner": swap.partner,
                    "from": swap.from,
                    "to": swap.to,
                    "before": swap.before,
                    "after": swap.after,
                });
            }
            object
        })
        .collect();
    // Framed as a solver's trace is (`crate::trace_json::document`).
    let mut trace = json!({
        "format": JSON_FORMAT,
        "format_version": JSON_VERSION,
        "solver": ID,
        "n": n,
        "legend": LEGEND,
        "convention": CONFLICTS,
        "steps": steps,
        "cut": cut,
    });
    if !cut {
        trace["nodes"] = repair.steps.into();
        trace["solutions"] = 1.into();
    }
    Ok(trace)
}

#[cfg(test)]
mod tests {
    use super::*;
    use queens_core::check;

    #[test]
    fn the_conflicting_queens_are_those_the_checker_finds_attacked() {
        // The pairwise search for conflicts against the core's checker.
        for rows in [vec![0u32, 1, 2, 3], vec![1, 3, 0, 2], vec![0, 2, 4, 1, 3]] {
            let attacked = !in_conflict(&rows).is_empty();
            assert_eq!(attacked, check::check_linear(&rows).is_err(), "{rows:?}");
        }
    }

    #[test]
    fn boards_without_a_repair_are_refused_in_one_line() {
        for n in [0, 2, 3, MAX_N + 1] {
            let CliError::Input(message) = text(n, 0, None).unwrap_err() else {
                panic!("n = {n}: not an input error");
            };
            assert!(!message.contains('\n'), "{message}");
        }
    }
}
