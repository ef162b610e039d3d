//! A solver's trace as data (`queens trace --format json`, the report's
//! page): one place that turns the recorded steps into the `queens-trace/1`
//! object, used by the `trace` command and by the page's trace gathering.

use queens_core::Solver;
use queens_core::trace::{CONVENTION, LEGEND, TraceRecorder};

use crate::error::CliError;

/// Beyond this a trace is no longer something a person reads: ask for a
/// count or the solutions instead.
pub const MAX_STEPS: usize = 500;

/// The JSON trace: the first `steps` steps (at most [`MAX_STEPS`]) of the
/// solver's search on the n×n board as one object, format `queens-trace/1`:
/// `solver`, `n`, `legend`, `convention`, `steps` (each with `event`,
/// `text`, `queens` as `[file, rank]` 0-based, `attacked` where the solver's
/// state marks squares, `state` as `[name, value]` pairs, `nodes` and
/// `solutions` so far, `levels` where the solver walks `queens tree`'s
/// tree), `cut`, and the whole search's `nodes` and
/// `solutions` when it was not cut. The words are the text trace's.
pub fn json(solver: &dyn Solver, n: usize, steps: usize) -> Result<String, CliError> {
    Ok(document(solver, n, steps.clamp(1, MAX_STEPS))?.to_string())
}

/// [`json`]'s document with no bound of its own on `steps` (the page plays
/// whole searches), ending, when the search was not cut, with the "search
/// over" step: the board cleared, the counters at the search's totals.
/// Every step carries `levels`, the safe boards reached so far with 0, 1,
/// ... queens, where the solver walks `queens tree`'s tree.
pub(crate) fn document(
    solver: &dyn Solver,
    n: usize,
    steps: usize,
) -> Result<serde_json::Value, CliError> {
    solver.info().check_n(n)?;
    let mut recorder = TraceRecorder::new(steps.max(1));
    let stats = solver.trace(n, &mut recorder)?;
    recorder.finish(stats.nodes, stats.solutions);
    let cut = recorder.stopped_early();
    let steps: Vec<serde_json::Value> = recorder
        .steps()
        .iter()
        .map(|step| {
            let detail = &step.detail;
            let mut object = serde_json::json!({
                "event": step.kind.event(),
                "text": detail.text,
                "queens": detail.queens,
                "state": detail.state,
                "nodes": step.nodes,
                "solutions": step.solutions,
            });
            if let Some(attacked) = &detail.attacked {
                object["attacked"] = serde_json::json!(attacked);
            }
            if !step.levels.is_empty() {
                object["levels"] = serde_json::json!(step.levels);
            }
            object
        })
        .collect();
    let mut trace = serde_json::json!({
        "format": JSON_FORMAT,
        "solver": solver.info().id,
        "n": n,
        "legend": LEGEND,
        "convention": CONVENTION,
        "steps": steps,
        "cut": cut,
    });
    if !cut {
        trace["nodes"] = stats.nodes.into();
        trace["solutions"] = stats.solutions.into();
    }
    Ok(trace)
}

/// The format name of [`json`]'s output.
pub const JSON_FORMAT: &str = "queens-trace/1";
