//! The recorded searches the HTML page plays: every registered solver's
//! trace at every n from [`MIN_N`] to [`MAX_N`], as `queens trace N --solver
//! ID --format json` documents, handed to the report library as data (it
//! may not run solvers itself).

use queens_bench::report::Trace;
use queens_core::Solver;

use crate::error::CliError;
use crate::registry;

/// The boards a learner watches: 4 is the smallest with a solution, 8 the
/// classic one; beyond 8 a drawn board and its state stop fitting a pane.
pub const MIN_N: usize = 4;
/// See [`MIN_N`].
pub const MAX_N: usize = 8;
/// Steps kept per trace. Enough for every solver's whole search at n = 4
/// and 5 and for the first solutions at n = 6, while 10 solvers x 5 boards
/// of steps keep the page a few megabytes.
pub const PAGE_STEPS: usize = 300;

/// Every registered solver's traces at n = 4..=8 that it supports, in
/// registry order, then by n.
pub fn gather() -> Result<Vec<Trace>, CliError> {
    let mut traces = Vec::new();
    for &solver in registry::SOLVERS {
        for n in (MIN_N..=MAX_N).filter(|&n| solver.info().supports(n)) {
            if let Some(document) = json_trace(solver, n, PAGE_STEPS) {
                let trace = Trace::from_json(&document?).map_err(|problem| {
                    CliError::Input(format!(
                        "the trace of {} at n = {n} cannot go on the page: {problem}",
                        solver.info().id
                    ))
                })?;
                traces.push(trace);
            }
        }
    }
    Ok(traces)
}

/// The one place the page's traces come from: the `--format json` trace
/// document of `solver` on the n x n board, at most `steps` steps.
///
/// `None` until the JSON trace (issue 14's `queens trace --format json`)
/// is in this tree: the page then says that no trace was recorded.
fn json_trace(solver: &dyn Solver, n: usize, steps: usize) -> Option<Result<String, CliError>> {
    let _ = (solver, n, steps);
    None
}
