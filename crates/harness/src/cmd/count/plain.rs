//! `queens count N` with a solver that does not split its work: one call,
//! predicted first from the smaller boards.

use std::time::Instant;

use queens_core::{CountOptions, Solver};
use queens_distributed::published;

use super::args::Args;
use super::checks::{WHOSE, advice, device_row};
use crate::budget::{self, Growth};
use crate::count_record::CountRecord;
use crate::error::CliError;
use crate::{interruption, registry};

/// Counts in one call and prints.
pub(super) fn run(args: &Args, solver: &dyn Solver) -> Result<(), CliError> {
    let options = CountOptions {
        unique: args.unique,
        threads: args.threads(),
    };
    // A count that does not split has nothing to save half way.
    interruption::end_with(format!(
        "interrupted: {} does not split its work, so nothing of its count was kept; \
         solvers that can resume from --checkpoint: {}",
        solver.info().id,
        registry::splitting_ids().join(", ")
    ));
    // One count of a large board can take days, with nothing to show for
    // it until it ends: predict it from the smaller boards first.
    let growth = Growth::calibrate(args.board.n, |k| solver.count(k, &options).map(drop))?;
    budget::allow(
        &format!("count {} with {}", args.board.n, solver.info().id),
        growth.predict(args.board.n),
        "its counts at smaller n",
        args.long,
    )?;
    let started = Instant::now();
    let stats = solver.count(args.board.n, &options)?;
    published::check(
        args.board.n,
        stats.solutions,
        stats.unique,
        WHOSE,
        advice(false),
    )?;
    let record = CountRecord {
        n: args.board.n,
        solver: solver.info().id,
        solutions: stats.solutions,
        unique: stats.unique,
        nodes: Some(stats.nodes),
        seconds: started.elapsed().as_secs_f64(),
        extra: &stats.extra,
        ..CountRecord::default()
    };
    let device: Vec<_> = device_row(solver).into_iter().collect();
    record.print(&device, args.json)
}
