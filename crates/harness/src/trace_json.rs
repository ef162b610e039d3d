//! A solver's trace as data (`queens trace --format json`, the report's
//! page): one place that turns the recorded steps into the `queens-trace`
//! object, used by the `trace` command and by the page's trace gathering.

use queens_core::Solver;
use std::io::Write;
use std::ops::ControlFlow;

use queens_core::trace::{CONVENTION, LEGEND, Step, StepStream};

use crate::error::{CliError, output};

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
/// Written to `out` step by step as the search makes them (one valid
/// document: the steps, then `cut` and the totals, each object's keys in
/// the order above), so that a trace holds one step at a time and its
/// reader sees the first at once.
pub fn write(
    solver: &dyn Solver,
    n: usize,
    steps: usize,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    solver.info().check_n(n)?;
    let text = |value: &str| serde_json::Value::from(value).to_string();
    let mut written = write!(
        out,
        "{{\"format\":{},\"format_version\":{JSON_VERSION},\"solver\":{},\"n\":{n},\"legend\":{},\"convention\":{},\"steps\":[",
        text(JSON_FORMAT),
        text(solver.info().id),
        text(LEGEND),
        text(CONVENTION)
    );
    let mut first = true;
    let mut each = |step: &Step| {
        if written.is_ok() {
            let comma = if first { "" } else { "," };
            first = false;
            written = write!(out, "{comma}{}", step_json(step));
        }
        if written.is_ok() {
            ControlFlow::Continue(())
        } else {
            ControlFlow::Break(())
        }
    };
    let mut stream = StepStream::new(steps.max(1), &mut each);
    let stats = solver.trace(n, &mut stream)?;
    let _ = stream.finish(stats.nodes, stats.solutions);
    let cut = stream.stopped_early();
    drop(stream);
    output(written)?;
    let totals = if cut {
        String::new()
    } else {
        format!(
            ",\"nodes\":{},\"solutions\":{}",
            stats.nodes, stats.solutions
        )
    };
    output(writeln!(out, "],\"cut\":{cut}{totals}}}").and_then(|()| out.flush()))
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

/// The format name of [`write()`]'s output, and its version.
pub const JSON_FORMAT: &str = queens_report::page::TRACE_FORMAT;
/// See [`JSON_FORMAT`].
pub const JSON_VERSION: u32 = queens_report::page::TRACE_VERSION;
