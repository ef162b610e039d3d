//! The recorded searches the HTML page plays: every registered solver's
//! trace at every n from [`MIN_N`] to [`MAX_N`], as `queens trace N --solver
//! ID --format json` documents, handed to the report library as data (it
//! may not run solvers itself).

use queens_report::Trace;

use crate::error::CliError;
use crate::{registry, repair_trace, trace_json};

/// The boards a learner watches: 4 is the smallest with a solution, 8 the
/// classic one; beyond 8 a drawn board and its state stop fitting a pane.
pub const MIN_N: usize = 4;
/// See [`MIN_N`].
pub const MAX_N: usize = 8;
/// Steps kept per trace of a solver that walks no tree of safe boards
/// (permutations, units, halves): enough for every such search at n = 4
/// and 5 (the test below checks it) and for the first solutions at 6 to 8,
/// where a learner has long stopped reading and steps instead.
pub const PAGE_STEPS: usize = 300;

/// A depth-first search over the tree of safe boards (one that `queens
/// tree` profiles) is played whole at every n up to [`MAX_N`]: this bound
/// only guards the page against a solver whose trace suddenly grows (the
/// largest, textbook's at n = 8, has about 17,000 steps).
pub const WHOLE_STEPS: usize = 40_000;

/// The local search's repair the page plays, at the classic board (its
/// steps are whole boards, one swap apart: one n is enough to watch it), with
/// the seed `queens trace 8 --solver min-conflicts` uses by default.
pub const REPAIR_N: usize = 8;
/// See [`REPAIR_N`].
pub const REPAIR_SEED: u64 = 0;

/// Every registered solver's traces at n = 4..=8 that it supports, in
/// registry order, then by n; then min-conflicts' repair at [`REPAIR_N`].
pub fn gather() -> Result<Vec<Trace>, CliError> {
    let mut traces = Vec::new();
    for &solver in registry::SOLVERS {
        for n in (MIN_N..=MAX_N).filter(|&n| solver.info().supports(n)) {
            let steps = if solver.tree_profile(n)?.is_some() {
                WHOLE_STEPS
            } else {
                PAGE_STEPS
            };
            let mut json = Vec::new();
            trace_json::write(solver, n, steps, &mut json)?;
            let json = String::from_utf8_lossy(&json);
            traces.push(readable(&json, solver.info().id, n)?);
        }
    }
    let repair = repair_trace::document(REPAIR_N, REPAIR_SEED, WHOLE_STEPS)?.to_string();
    traces.push(readable(&repair, repair_trace::ID, REPAIR_N)?);
    Ok(traces)
}

/// The page plays exactly what `queens trace --format json` prints, read
/// back through the report's checks.
fn readable(document: &str, id: &str, n: usize) -> Result<Trace, CliError> {
    Trace::from_json(document).map_err(|problem| {
        CliError::Input(format!(
            "the trace of {id} at n = {n} cannot go on the page: {problem}"
        ))
    })
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
                // The bound, and the "search over" step after it.
                assert!(trace.steps.len() <= WHOLE_STEPS + 1);
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
        // The repair, whole, ends on its board.
        let repair: Vec<&Trace> = traces
            .iter()
            .filter(|t| t.solver == crate::repair_trace::ID)
            .collect();
        assert_eq!(repair.len(), 1);
        assert_eq!(repair[0].n, REPAIR_N);
        assert!(!repair[0].cut);
        assert_eq!(repair[0].steps.last().unwrap().event, "solution");
    }
}
