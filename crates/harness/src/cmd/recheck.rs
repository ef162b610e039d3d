//! `queens recheck SHARD`: recounts a sample of a shard record's units (or
//! the units named) and compares them with the subtotals it recorded
//! ([`queens_distributed::recheck`]). Exit 1 if any disagrees.

use std::fmt::Write as _;
use std::path::PathBuf;

use crate::args::number;
use crate::error::{CliError, print};
use crate::{interruption, memory, registry};
use queens_core::memory::Question;
use queens_core::{counted, printable_path};
use queens_distributed::merge;
use queens_distributed::recheck::{self, choose, recount};

/// `queens recheck`'s arguments. Negative numbers reach the parsers (and
/// their one line naming the option and its range) instead of being taken
/// for options by clap.
#[derive(Debug, clap::Args)]
#[command(allow_negative_numbers = true)]
pub struct Args {
    /// A shard record written by `queens count N --shard I/K --json`.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// How many of its units to recount, drawn at random.
    #[arg(long, default_value_t = 3, value_parser = number("--sample", 1usize..=1_000_000, ""))]
    pub sample: usize,
    /// Recount these units (their indices in the plan) instead of a sample.
    #[arg(long, value_delimiter = ',', value_parser = number("--units", 0usize..=usize::MAX, ""))]
    pub units: Vec<usize>,
    /// Seed of the random sample (default: from the clock; printed, so that
    /// a sample can be drawn again).
    #[arg(long, value_parser = number("--seed", 0u64..=u64::MAX, ""))]
    pub seed: Option<u64>,
}

/// Recounts, prints a row per unit, and fails on any disagreement.
pub fn run(args: &Args) -> Result<(), CliError> {
    let (file, solver) = merge::read(&args.file, &|id| registry::find(id).ok())?;
    // A recount holds the plan and one unit's work at a time, as a count
    // on one thread does.
    memory::check(solver, file.n, Question::Count, 1)?;
    let seed = args.seed.unwrap_or_else(|| fastrand::u64(..));
    let chosen = choose(&file, &args.units, args.sample, seed)?;
    interruption::end_with(
        "interrupted while recounting: nothing checked (recheck only compares whole units; \
         --sample or --units make it shorter)",
    );
    let recounts = recount(&file, solver, &chosen)?;
    let mut text = format!(
        "{}: shard {}/{} of {} ({}){}\n",
        printable_path(&args.file),
        file.shard.index,
        file.shard.count,
        file.describe_run(),
        counted(file.shard.units, "unit", "units"),
        if args.units.is_empty() {
            format!(", a sample drawn with --seed {seed}")
        } else {
            String::new()
        }
    );
    let _ = writeln!(
        text,
        "{:>8}  {:>16}  {:>16}  {:>12}  {:>12}  verdict",
        "unit", "solutions", "recounted", "fixed pairs", "recounted"
    );
    for r in &recounts {
        let _ = writeln!(
            text,
            "{:>8}  {:>16}  {:>16}  {:>12}  {:>12}  {}",
            r.unit,
            r.recorded.solutions,
            r.recounted.solutions,
            r.recorded.fixed_pairs,
            r.recounted.fixed_pairs,
            if r.agrees() { "agrees" } else { "DIFFERS" }
        );
    }
    let disagreement = recheck::disagreement(&recounts);
    if disagreement.is_none() {
        let _ = writeln!(
            text,
            "ok: {} of {} recounted, every one as recorded",
            recounts.len(),
            counted(file.shard.units, "unit", "units")
        );
    }
    print(&text)?;
    match disagreement {
        None => Ok(()),
        Some(which) => Err(CliError::Verification(format!(
            "{}: {which} than recorded: this shard's record is wrong",
            args.file.display()
        ))),
    }
}
