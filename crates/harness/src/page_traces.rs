//! The recorded searches the HTML page plays: every registered solver's
//! trace at every n from [`MIN_N`] to [`MAX_N`], as `queens trace N --solver
//! ID --format json` documents, handed to the report library as data (it
//! may not run solvers itself).

use queens_core::Solver;
use queens_report::Trace;

use crate::error::CliError;
use crate::registry;

/// The boards a learner watches: 4 is the smallest with a solution, 8 the
/// classic one; beyond 8 a drawn board and its state stop fitting a pane.
pub const MIN_N: usize = 4;
/// See [`MIN_N`].
pub const MAX_N: usize = 8;
/// Steps kept per trace: enough for every solver's whole search at n = 4
/// and 5 (the test below checks it) and for the first solutions of most
/// solvers at n = 6 and 7, where a learner has long stopped reading and
/// steps instead. Each step is a few hundred bytes of JSON on the page, so
/// the bound is what keeps the page's size in check.
pub const PAGE_STEPS: usize = 300;

/// Every registered solver's traces at n = 4..=8 that it supports, in
/// registry order, then by n.
pub fn gather() -> Result<Vec<Trace>, CliError> {
    let mut traces = Vec::new();
    for &solver in registry::SOLVERS {
        for n in (MIN_N..=MAX_N).filter(|&n| solver.info().supports(n)) {
            let document = json_trace(solver, n, PAGE_STEPS)?;
            let trace = Trace::from_json(&document).map_err(|problem| {
                CliError::Input(format!(
                    "the trace of {} at n = {n} cannot go on the page: {problem}",
                    solver.info().id
                ))
            })?;
            traces.push(trace);
        }
    }
    Ok(traces)
}

/// The one place the page's traces come from: `queens trace N --solver ID
/// --steps K --format json`'s document (the command's generator, used
/// as a library function: the page plays exactly what that command prints).
fn json_trace(solver: &dyn Solver, n: usize, steps: usize) -> Result<String, CliError> {
    crate::trace_json::json(solver, n, steps)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_solver_has_its_trace_at_every_n_from_4_to_8_whole_up_to_5_and_whole_ones_end_at_the_count()
     {
        let traces = gather().unwrap();
        for solver in registry::SOLVERS {
            let info = solver.info();
            for n in (MIN_N..=MAX_N).filter(|&n| info.supports(n)) {
                let trace = traces
                    .iter()
                    .find(|t| t.solver == info.id && t.n == n)
                    .unwrap_or_else(|| panic!("{} at n = {n}: no trace", info.id));
                assert!(trace.steps.len() <= PAGE_STEPS);
                assert!(n > 5 || !trace.cut, "{} n = {n}: cut", info.id);
                assert_eq!(trace.cut, trace.solutions.is_none(), "{} n = {n}", info.id);
                if let Some(solutions) = trace.solutions {
                    // A whole search found every solution: A000170.
                    assert_eq!(
                        Some(solutions),
                        queens_core::oeis::total(n),
                        "{} n = {n}",
                        info.id
                    );
                    assert_eq!(trace.steps.last().map(|s| s.solutions), Some(solutions));
                }
            }
        }
    }
}
