//! `queens count N --estimate`: the run's time and memory predicted from a
//! timed sample of its units ([`queens_distributed::estimate`]), compared
//! with the README's table of estimates.

use std::time::{Duration, Instant};

use queens_core::split::WorkSplit;
use queens_core::{Solver, counted};

use super::args::Args;
use queens_report::format::significant;

use crate::budget::{self, seconds_and_human};
use crate::count_record::print_record;
use crate::error::CliError;
use crate::estimate_table::{self, Asked, Table};
use crate::interruption;
use queens_distributed::estimate::{Sample, Status};

/// `--estimate`: times a sample of the run's work (one shard's with
/// `--shard`) within the budget and prints the predicted time and memory.
pub(super) fn run(
    args: &Args,
    solver: &'static dyn Solver,
    split: &dyn WorkSplit,
) -> Result<(), CliError> {
    // The budget bounds the whole estimate: the plan is inside it.
    let started = Instant::now();
    let n = args.board.n;
    // Read before the sample is timed, so that a broken record is refused
    // at once, not after a minute's work. `--json` is for programs
    // (`cargo xtask estimates` makes the record from it) and compares
    // nothing, so that even a broken record can be made again.
    let table = (!args.json)
        .then(|| Table::read(&args.records))
        .transpose()?;
    let budget = Duration::from_secs_f64(args.estimate_seconds);
    interruption::end_with(
        "interrupted during --estimate while making the plan; nothing was timed",
    );
    let plan = split.plan(n)?;
    // A shard's parts; a whole run's are not listed (a plan may hold
    // hundreds of millions).
    let mine: Option<Vec<usize>> =
        (args.shard).map(|shard| queens_core::split::shard_units(&plan, shard.index, shard.count));
    let parts = mine.as_ref().map_or(plan.len(), Vec::len);
    let threads = args.threads();
    let bar = (!args.quiet).then(|| {
        let bar = budget::TimeBar::start(args.estimate_seconds);
        bar.tick_steadily();
        bar
    });
    let mut watch = |status: &Status| watch(bar.as_ref(), status);
    let estimate = queens_distributed::estimate::estimate(
        &Sample {
            split,
            n,
            plan: &plan,
            chosen: mine.as_deref(),
            unique: args.unique,
            budget,
            started,
            seed: args.seed.unwrap_or(n as u64),
        },
        &mut watch,
    )?;
    drop(bar);
    // `mine` is the plan's parts (see `Plan::cut`), which is what threads
    // take: all threads are busy while parts remain, so a run has as many
    // busy threads as it has parts, at most.
    let seconds_on_threads = estimate.seconds / threads.min(parts.max(1)) as f64;
    let compared = table.map_or_else(Vec::new, |table| {
        let asked = Asked {
            n,
            solver: solver.info().id,
            shard: args.shard,
            unique: args.unique,
            seconds: estimate.seconds,
            standard_error: estimate.standard_error,
        };
        table.rows(&asked, &estimate_table::this_machine())
    });
    let report = EstimateRecord {
        format: ESTIMATE_FORMAT,
        format_version: ESTIMATE_VERSION,
        n,
        solver: solver.info().id,
        threads,
        seconds_on_threads,
        core_hours: estimate.seconds / 3600.0,
        interval: [
            (estimate.seconds - 2.0 * estimate.standard_error).max(0.0),
            estimate.seconds + 2.0 * estimate.standard_error,
        ],
        estimate,
        compared,
    };
    print_record(&report, &report.rows(), args.json)
}

/// Shows a step of the sample on the bar (if shown), and says what an
/// interruption during it would end with.
fn watch(bar: Option<&budget::TimeBar>, status: &Status) {
    let doing = status.doing();
    if let Some(bar) = bar {
        bar.left_while(
            status.left.as_secs_f64(),
            &format!("timing {doing}; budget:"),
            &format!("({})", counted(status.draws, "draw", "draws")),
        );
    }
    let so_far = match status.so_far {
        Some(p) => format!(
            "so far {} s ± {} s on one thread from {}",
            significant(p.seconds),
            significant(p.standard_error),
            counted(status.draws, "draw", "draws")
        ),
        None => "no unit finished yet, so no estimate".to_string(),
    };
    interruption::end_with(format!(
        "interrupted during --estimate while timing {doing}; {so_far}"
    ));
}

/// The `format` of `--estimate --json`'s object.
const ESTIMATE_FORMAT: &str = "queens-estimate";

/// Its `format_version`. Version 1 had no `format` field; 2 named itself
/// `queens-estimate/2` and only added fields, as 3, which names its format
/// in two fields, does: a reader of 1 reads 3.
const ESTIMATE_VERSION: u32 = 3;

/// What `--estimate` prints.
#[derive(serde::Serialize)]
struct EstimateRecord<'a> {
    format: &'static str,
    format_version: u32,
    n: usize,
    solver: &'a str,
    threads: usize,
    /// The one-thread estimate spread evenly over the threads (parts are
    /// many and handed out heaviest first, so they even out; the run
    /// cannot end sooner than its longest part,
    /// `longest_piece_seconds`).
    seconds_on_threads: f64,
    /// The one-thread seconds in hours: what a cluster bills.
    core_hours: f64,
    /// The estimate ± 2 standard errors, in seconds (floored at 0): a
    /// nominal 95 % interval.
    interval: [f64; 2],
    #[serde(flatten)]
    estimate: queens_distributed::estimate::Estimate,
    /// The rows about the README's table (`estimate_table`): words for a
    /// reader, not figures for `--json`.
    #[serde(skip)]
    compared: Vec<(&'static str, String)>,
}

impl EstimateRecord<'_> {
    /// The table's rows: the figures in words, then the comparison.
    fn rows(&self) -> Vec<(&'static str, String)> {
        let e = &self.estimate;
        let mut rows = vec![
            ("n", self.n.to_string()),
            ("solver", self.solver.to_string()),
            (
                "sample",
                format!(
                    "{} of {} timed ({}, {}, {}, {} of the weight) in {:.1} s of a {} s budget",
                    e.timed,
                    counted(e.units, "unit", "units"),
                    counted(e.parts_timed, "part", "parts"),
                    counted(e.sub_parts_timed, "part of a part", "parts of parts"),
                    counted(e.draws, "draw", "draws"),
                    percent(e.weight_share),
                    e.sample_seconds,
                    significant(e.budget_seconds)
                ),
            ),
            (
                "one thread",
                format!(
                    "{} ± {} s (standard error)",
                    seconds_and_human(e.seconds),
                    significant(e.standard_error)
                ),
            ),
            (
                "interval",
                format!(
                    "{} s to {} s (± 2 standard errors, nominal 95 %)",
                    significant(self.interval[0]),
                    significant(self.interval[1])
                ),
            ),
            (
                "threads",
                format!(
                    "{} on {}",
                    seconds_and_human(self.seconds_on_threads),
                    counted(self.threads, "thread", "threads")
                ),
            ),
            (
                "core-hours",
                format!(
                    "{} ± {}",
                    significant(self.core_hours),
                    significant(e.standard_error / 3600.0)
                ),
            ),
            (
                "parts",
                format!(
                    "{} in the run; the longest {} on one thread, as the plan weighs it",
                    e.pieces,
                    seconds_and_human(e.longest_piece_seconds)
                ),
            ),
            ("memory", memory(e.peak_bytes)),
        ];
        if e.shared_over_budget {
            rows.push((
                "note",
                format!(
                    "one unit's or part's shared work alone ran past the time the budget had left (the longest: a unit's {} s, a part's {} s): the answer came late and rests on few draws",
                    significant(e.shared_seconds_max),
                    significant(e.part_shared_seconds_max)
                ),
            ));
        }
        rows.extend(self.compared.iter().cloned());
        rows
    }
}

/// The peak memory in words: per thread, as a run on T threads holds T
/// times the engine's buffers.
fn memory(peak_bytes: Option<u64>) -> String {
    peak_bytes.map_or_else(
        || "unknown here".to_string(),
        |bytes| {
            format!(
                "{:.0} MB peak with one thread (per thread: a run on T threads holds T times the engine's buffers)",
                bytes as f64 / 1e6
            )
        },
    )
}

/// A share as a percentage to one decimal, where a share too small to show
/// there is said to be so ("< 0.1 %") rather than shown as none.
fn percent(share: f64) -> String {
    let shown = format!("{:.1}", 100.0 * share);
    if share > 0.0 && shown == "0.0" {
        "< 0.1 %".to_string()
    } else {
        format!("{shown} %")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_share_too_small_to_show_is_said_to_be_so() {
        assert_eq!(percent(0.123), "12.3 %");
        assert_eq!(percent(0.0004), "< 0.1 %");
        assert_eq!(percent(0.0006), "0.1 %");
        assert_eq!(percent(0.0), "0.0 %");
        assert_eq!(percent(1.0), "100.0 %");
    }
}
