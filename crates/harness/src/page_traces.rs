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

/// The boards the page's heatmap covers: how often the solutions at n use
/// each square.
pub const HEAT_NS: std::ops::RangeInclusive<usize> = 4..=12;

/// For each n of [`HEAT_NS`], `counts[rank][file]`: how many of the
/// solutions have a queen there, from three-mask's list of every solution,
/// refused unless that list is as long as OEIS A000170 says.
pub fn heatmaps() -> Result<std::collections::BTreeMap<usize, Vec<Vec<u64>>>, CliError> {
    let solver = registry::find("three-mask")?;
    let mut maps = std::collections::BTreeMap::new();
    for n in HEAT_NS {
        let boards = queens_core::list_boards(solver, n)
            .map_err(|e| CliError::Input(format!("the heatmap at n = {n}: {e}")))?;
        if Some(boards.len() as u64) != queens_core::oeis::total(n) {
            return Err(CliError::Input(format!(
                "the heatmap at n = {n}: {} solutions, not A000170's",
                boards.len()
            )));
        }
        let mut counts = vec![vec![0; n]; n];
        for rows in &boards {
            for (rank, &file) in rows.iter().enumerate() {
                counts[rank][file as usize] += 1;
            }
        }
        maps.insert(n, counts);
    }
    Ok(maps)
}

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
            let json = trace_json::document(solver, n, steps)?;
            let mut trace = readable(&json, solver.info().id, n)?;
            trace.walk = registry::tree_walk(solver.info().id);
            traces.push(trace);
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
    fn each_heatmap_has_q_n_queens_on_every_rank_and_file_and_all_eight_symmetries() {
        use queens_core::symmetry::Transform;
        let maps = heatmaps().unwrap();
        assert_eq!(
            maps.keys().copied().collect::<Vec<_>>(),
            HEAT_NS.collect::<Vec<_>>()
        );
        for (&n, counts) in &maps {
            let total = queens_core::oeis::total(n).unwrap();
            for line in 0..n {
                assert_eq!(
                    counts[line].iter().sum::<u64>(),
                    total,
                    "n = {n} rank {line}"
                );
                let file: u64 = counts.iter().map(|rank| rank[line]).sum();
                assert_eq!(file, total, "n = {n} file {line}");
            }
            for transform in Transform::ALL {
                for (rank, row) in counts.iter().enumerate() {
                    for (file, &count) in row.iter().enumerate() {
                        let (f, r) = transform.map_square(n, file, rank);
                        assert_eq!(counts[r][f], count, "n = {n} {transform:?}");
                    }
                }
            }
        }
        // Q(4) = 2: the two boards use b1, d2, a3, c4 and c1, a2, d3, b4.
        assert_eq!(maps[&4][0], vec![0, 1, 1, 0]);
    }

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
