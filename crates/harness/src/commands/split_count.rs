//! `queens count` for a solver that splits its work into units: threads,
//! `--shard I/K`, `--checkpoint FILE` and the progress bar, through
//! [`crate::split_run`].

use std::time::Duration;

use queens_core::Solver;
use queens_core::split::WorkSplit;

use super::count::{CountRecord, print};
use crate::cli::CountArgs;
use crate::error::CliError;
use crate::registry::SOLVERS;
use crate::shard::ShardRecord;
use crate::split_run::SplitRun;

pub fn run(
    args: &CountArgs,
    solver: &'static dyn Solver,
    split: &dyn WorkSplit,
) -> Result<(), CliError> {
    let outcome = SplitRun {
        solver,
        split,
        n: args.n,
        unique: args.unique,
        threads: args.threads.unwrap_or(0),
        shard: args.shard,
        checkpoint: args.checkpoint.as_deref(),
        save_every: Duration::from_secs_f64(args.checkpoint_every),
        quiet: args.quiet,
    }
    .run()?;
    let total = outcome.total;
    let shard = args.shard.map(|spec| ShardRecord {
        index: spec.index,
        count: spec.count,
        split: split.version().to_string(),
        units: outcome.units,
        fixed_pairs: args.unique.then_some(total.fixed_pairs),
    });
    let record = CountRecord {
        n: args.n,
        solver: solver.info().id,
        solutions: total.solutions,
        // A shard's share of the classes is not a whole number: `merge`
        // computes them from the fixed pairs of all shards.
        unique: (args.unique && shard.is_none()).then(|| total.classes()),
        nodes: total.nodes,
        seconds: outcome.seconds,
        shard,
    };
    let mut extra = vec![
        ("units".to_string(), outcome.units.to_string()),
        ("planning nodes".to_string(), outcome.plan_nodes.to_string()),
    ];
    if let Some(spec) = args.shard {
        extra.push(("shard".to_string(), spec.to_string()));
    }
    if outcome.resumed > 0 {
        extra.push(("resumed units".to_string(), outcome.resumed.to_string()));
    }
    print(&record, &extra, args.json);
    Ok(())
}

/// The error for `--shard`/`--checkpoint` with a solver that has no units.
pub fn cannot_split(solver: &dyn Solver) -> CliError {
    let able: Vec<&str> = SOLVERS
        .iter()
        .filter(|s| s.work_split().is_some())
        .map(|s| s.info().id)
        .collect();
    CliError::Usage(format!(
        "{} does not split its work into units, so it cannot run in shards or resume from a checkpoint; solvers that can: {}",
        solver.info().id,
        if able.is_empty() {
            "none".to_string()
        } else {
            able.join(", ")
        }
    ))
}
