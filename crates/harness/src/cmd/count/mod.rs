//! `queens count N`: solutions (and classes), nodes, time. Four commands
//! share one [`Args`]: a solver that does not split its work counts in one
//! call (`plain.rs`); one that does runs its units through
//! [`queens_distributed`] (threads, shards, checkpoints, progress bar:
//! `split.rs`), or times a sample of them to predict a run (`estimate.rs`);
//! a program outside the workspace counts in one whole run (`external.rs`).

pub(crate) mod args;
mod checks;
mod estimate;
mod external;
mod plain;
mod split;

use queens_core::memory::Question;

use crate::error::CliError;
use crate::{memory, registry};

pub use args::{Args, MAX_COUNT_N, MAX_THREADS, cores};

/// Counts and prints.
pub fn run(args: &Args) -> Result<(), CliError> {
    if let Some(config) = &args.external {
        let (_, mut specs) = registry::select_with(&[], Some(config))?;
        specs.retain(|spec| Some(&spec.id) == args.board.solver.as_ref());
        if let Some(spec) = specs.pop() {
            return external::run(args, config, spec);
        }
    }
    let solver = registry::choose(args.board.solver.as_deref(), args.board.n, false)?;
    if args.board.n > MAX_COUNT_N {
        return Err(CliError::Input(format!(
            "n = {} cannot be counted: Q(n) would overflow the u64 every count is kept in from n = {} on (n <= {MAX_COUNT_N})",
            args.board.n,
            MAX_COUNT_N + 1
        )));
    }
    match (solver.work_split(), args.estimate) {
        (Some(split), true) => estimate::run(args, solver, split),
        (Some(split), false) => split::run(args, solver, split),
        (None, true) => Err(cannot_split(
            solver.info().id,
            "estimate a run from a sample",
        )),
        (None, false) if args.shard.is_some() || args.checkpoint.is_some() => Err(cannot_split(
            solver.info().id,
            "run in shards or resume from a checkpoint",
        )),
        (None, false) => {
            // A count holds its whole search (an estimate's sample is small).
            memory::check(solver, args.board.n, Question::Count, args.threads())?;
            plain::run(args, solver)
        }
    }
}

/// The refusal of what only a solver that splits its work can do.
fn cannot_split(id: &str, what: &str) -> CliError {
    CliError::Input(format!(
        "{id} does not split its work into units, so it cannot {what}; solvers that can: {}",
        registry::splitting_ids().join(", ")
    ))
}
