//! A solver's trace as data (`queens trace --format json`, the report's
//! page): one place that turns the recorded steps into the `queens-trace`
//! object, used by the `trace` command and by the page's trace gathering.

use queens_core::Solver;
use serde::Serialize;

use queens_core::trace::{CONVENTION, LEGEND, Step, TraceRecorder};

use crate::error::CliError;

/// Beyond this a trace is no longer something a person reads: ask for a
/// count or the solutions instead.
pub const MAX_STEPS: usize = 500;

/// The JSON trace: the first `steps` steps (`queens trace` asks for at
/// most [`MAX_STEPS`], the page for whole searches) of the solver's search on the n×n board as one object, format `queens-trace`, version 1:
/// `solver`, `n`, `legend`, `convention`, `steps` (each with `event`,
/// `text`, `queens` as `[file, rank]` 0-based, `attacked` where the solver's
/// state marks squares, `refused` (the square a refusal tested), `state` as `[name, value]` pairs, `nodes` and
/// `solutions` so far, `levels` where the solver walks `queens tree`'s
/// tree), `cut`, and the whole search's `nodes` and
/// `solutions` when it was not cut. The words are the text trace's.
/// One line (the frame's keys in the order above).
pub fn document(solver: &dyn Solver, n: usize, steps: usize) -> Result<String, CliError> {
    solver.info().check_n(n)?;
    let mut recorder = TraceRecorder::new(steps.max(1));
    let stats = solver.trace(n, &mut recorder)?;
    recorder.finish(stats.nodes, stats.solutions);
    let whole = (!recorder.stopped_early()).then_some(stats);
    let document = Document {
        format: JSON_FORMAT,
        format_version: JSON_VERSION,
        solver: solver.info().id,
        n,
        legend: LEGEND,
        convention: CONVENTION,
        steps: recorder.steps().iter().map(step_json).collect(),
        cut: whole.is_none(),
        nodes: whole.as_ref().map(|stats| stats.nodes),
        solutions: whole.as_ref().map(|stats| stats.solutions),
    };
    Ok(serde_json::to_string(&document).expect("plain data serialises"))
}

/// The trace as [`document()`] makes it, its keys in this order.
#[derive(Serialize)]
struct Document {
    format: &'static str,
    format_version: u32,
    solver: &'static str,
    n: usize,
    legend: &'static str,
    convention: &'static str,
    steps: Vec<serde_json::Value>,
    cut: bool,
    /// The whole search's, when it was not cut.
    #[serde(skip_serializing_if = "Option::is_none")]
    nodes: Option<u64>,
    /// See [`Document::nodes`].
    #[serde(skip_serializing_if = "Option::is_none")]
    solutions: Option<u64>,
}

/// One step as the JSON trace writes it.
fn step_json(step: &Step) -> serde_json::Value {
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
    if let Some(refused) = detail.refused {
        object["refused"] = serde_json::json!(refused);
    }
    if !step.levels.is_empty() {
        object["levels"] = serde_json::json!(step.levels);
    }
    object
}

/// The format name of [`document()`]'s output, and its version.
pub const JSON_FORMAT: &str = queens_report::page::TRACE_FORMAT;
/// See [`JSON_FORMAT`].
pub const JSON_VERSION: u32 = queens_report::page::TRACE_VERSION;
