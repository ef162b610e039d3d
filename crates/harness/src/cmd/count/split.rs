//! `queens count N` with a solver that splits its work: its units on
//! threads through [`queens_distributed::run`], one shard of them, resumed
//! from a checkpoint.

use std::path::Path;
use std::time::Duration;

use queens_core::split::WorkSplit;
use queens_core::{Solver, counted};

use super::args::Args;
use super::checks::{WHOSE, advice, device_row};
use crate::count_record::CountRecord;
use crate::error::CliError;
use crate::{interruption, memory};
use queens_core::memory::Question;
use queens_distributed::lock::Locked;
use queens_distributed::published;
use queens_distributed::run::{Counted, Display, Outcome, Recheck, UnitRun};
use queens_distributed::shard::ShardRecord;

/// A solver that splits its work: its units on threads, one shard of them,
/// resumed from a checkpoint.
pub(super) fn run(
    args: &Args,
    solver: &'static dyn Solver,
    split: &'static dyn WorkSplit,
) -> Result<(), CliError> {
    // Until the units run there is nothing to save: a signal ends the run
    // at once, with its line. No other run may take the checkpoint from
    // here on. Both come before any work: the memory check alone weighs
    // the plan's units (seconds at the largest boards).
    interruption::end_with(
        "interrupted before any unit was counted; nothing was lost (run the same command again)",
    );
    let checkpoint = args.checkpoint.as_deref().map(Locked::take).transpose()?;
    // A count holds its whole search, once per thread.
    memory::check(solver, args.board.n, Question::Count, args.threads())?;
    let recheck = args.recheck.map(|units| Recheck {
        units,
        seed: args.seed.unwrap_or_else(|| fastrand::u64(..)),
    });
    let outcome = count_units(args, solver, split, recheck, checkpoint.as_ref())?;
    let (n, total, id) = (args.board.n, outcome.total, solver.info().id);
    // One shard of several is a part, with nothing published to compare;
    // a whole run (or shard 1/1) is the board's count.
    let whole = args.shard.is_none_or(|spec| spec.count == 1);
    let advice = advice(outcome.resumed > 0);
    let classes = (whole && args.unique)
        .then(|| published::classes(total.fixed_pairs, WHOSE, advice))
        .transpose()?;
    if whole {
        published::check(n, total.solutions, classes, WHOSE, advice)?;
    }
    let shard = (args.shard)
        .map(|spec| ShardRecord::seal(n, id, spec, split.version(), &outcome, args.unique));
    let metrics = queens_core::split::metrics(&total);
    let record = CountRecord {
        n,
        solver: id,
        solutions: total.solutions,
        // A shard's share of the classes is not a whole number: `merge`
        // computes them from the fixed pairs of all shards.
        unique: classes.filter(|_| shard.is_none()),
        nodes: Some(total.nodes),
        seconds: outcome.seconds,
        shard,
        // Pair tests are this run's measure: a shard record keeps only
        // what merge and recheck read, and resumed units kept none (a
        // part of the run's would pass for the whole).
        extra: if args.shard.is_none() && outcome.resumed == 0 {
            &metrics
        } else {
            &[]
        },
    };
    let mut extra = extra_rows(args, &outcome, recheck);
    extra.extend(device_row(solver));
    record.print(&extra, args.json)
}

/// Counts the units of `split` as `args` ask, on threads, with the
/// solver's id in the `checkpoint`; an interruption is the line it ends
/// with.
fn count_units(
    args: &Args,
    solver: &dyn Solver,
    split: &'static dyn WorkSplit,
    recheck: Option<Recheck>,
    checkpoint: Option<&Locked>,
) -> Result<Counted, CliError> {
    let interrupted = interruption::watch();
    let outcome = UnitRun {
        solver_id: solver.info().id,
        split,
        n: args.board.n,
        unique: args.unique,
        threads: args.threads(),
        shard: args.shard,
        checkpoint,
        save_every: Duration::from_secs_f64(args.checkpoint_every),
        display: if args.quiet {
            Display::Quiet
        } else {
            Display::Shown
        },
        interrupted,
        recheck,
        lists_fit: &|units| {
            let (n, threads) = (args.board.n, args.threads());
            let refusal = memory::refusal(solver, n, Question::Count, threads, Some(units));
            refusal.map_or(Ok(()), Err)
        },
    }
    .run()?;
    match outcome {
        Outcome::Counted(counted) => Ok(counted),
        // The units still in flight cannot be cut short and are worth
        // nothing half done: what is finished is saved, and the process
        // ends now (the caller prints the line and exits 130).
        Outcome::Interrupted { done, units } => {
            let saved_in = checkpoint.map(Locked::path);
            Err(CliError::Interrupted(interrupted_line(
                done, units, saved_in,
            )))
        }
    }
}

/// The rows a split count adds to the table: its units and plan, its
/// shard, what it resumed and rechecked.
fn extra_rows(
    args: &Args,
    outcome: &Counted,
    recheck: Option<Recheck>,
) -> Vec<(&'static str, String)> {
    let mut extra = vec![
        ("units", outcome.units.to_string()),
        ("planning nodes", outcome.plan_nodes.to_string()),
    ];
    extra.extend(args.shard.map(|spec| ("shard", spec.to_string())));
    if outcome.resumed > 0 {
        extra.push(("resumed units", outcome.resumed.to_string()));
    }
    if let Some(recheck) = recheck.filter(|_| outcome.rechecked > 0) {
        let saved = format!("{}, as saved (--seed {})", outcome.rechecked, recheck.seed);
        extra.push(("rechecked units", saved));
    }
    extra
}

/// What an interrupted count says: how much is finished, and how to go on.
fn interrupted_line(done: usize, units: usize, saved_in: Option<&Path>) -> String {
    match saved_in {
        Some(path) => format!(
            "interrupted: {done} of {} finished and saved in {}; run the same command again to resume",
            counted(units, "unit", "units"),
            path.display()
        ),
        None => format!(
            "interrupted after {done} of {}; nothing was saved (--checkpoint FILE makes a run resumable)",
            counted(units, "unit", "units")
        ),
    }
}
