//! `queens count N`: solutions (and classes), nodes, time. A solver that
//! splits its work runs through [`queens_distributed`] (threads, shards,
//! checkpoints, progress bar); any other counts in one call.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use queens_core::memory::Question;
use queens_core::split::WorkSplit;
use queens_core::{CountOptions, Solver, counted};

use crate::args::{Board, number};
use crate::budget::{self, Growth, seconds_and_human, significant};
use crate::count_record::CountRecord;
use crate::error::CliError;
use crate::estimate_table::{self, Asked, Table};
use crate::interruption;
use crate::memory;
use crate::registry;
use queens_distributed::DEFAULT_SAVE_EVERY;
use queens_distributed::estimate::{Sample, Status};
use queens_distributed::published;
use queens_distributed::run::{Display, Outcome, Recheck, UnitRun};
use queens_distributed::shard::{SHARD_FORMAT, ShardRecord, ShardSpec, checksum, parse_shard};

/// More threads than this only adds start-up cost and scheduling on any
/// machine this runs on.
pub const MAX_THREADS: usize = 1024;

/// `queens count`'s arguments.
#[derive(Debug, clap::Args)]
#[command(allow_negative_numbers = true)]
pub struct Args {
    /// The board and the solver.
    #[command(flatten)]
    pub board: Board,
    /// Also count solutions up to rotation and reflection.
    #[arg(long)]
    pub unique: bool,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Worker threads for solvers that split their work (default: one per core).
    #[arg(long, value_parser = number("--threads", 1..=MAX_THREADS, ""))]
    pub threads: Option<usize>,
    /// Count only shard I of K (e.g. 3/8) of a solver that splits its work;
    /// combine the shards' `--json` records with `queens merge`.
    #[arg(long, value_name = "I/K", value_parser = parse_shard, allow_hyphen_values = true)]
    pub shard: Option<ShardSpec>,
    /// Save finished work units to FILE every few seconds; run the same
    /// command again with the same FILE to resume after a kill.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Seconds between checkpoint saves (at most 5; for tests).
    #[arg(
        long,
        hide = true,
        default_value_t = DEFAULT_SAVE_EVERY.as_secs_f64(),
        value_parser = number("--checkpoint-every", 0.01..=5.0, "")
    )]
    pub checkpoint_every: f64,
    /// Before resuming from --checkpoint, recount K of its saved units drawn
    /// at random, and refuse (exit 1) if any differs from what was saved.
    #[arg(long, value_name = "K", requires = "checkpoint", group = "sampled", value_parser = number("--recheck", 1usize..=1_000_000, ""))]
    pub recheck: Option<usize>,
    /// Seed of --recheck's draw (default: from the clock; printed, so that
    /// the same units can be drawn again), or of --estimate's (default: n).
    #[arg(long, requires = "sampled", value_parser = number("--seed", 0u64..=u64::MAX, ""))]
    pub seed: Option<u64>,
    /// No progress bar (it is also hidden when stderr is not a terminal).
    #[arg(long)]
    pub quiet: bool,
    /// Count nothing: predict the run's time and memory from a random sample
    /// of its units (a solver that splits its work), timed for about
    /// --estimate-seconds.
    #[arg(long, conflicts_with = "checkpoint", group = "sampled")]
    pub estimate: bool,
    /// Seconds the whole --estimate may take, plan included (sampling stops
    /// before a step predicted to pass it; at least one sub-part of one
    /// part of one unit is always timed, however long it takes).
    #[arg(
        long,
        default_value_t = DEFAULT_ESTIMATE_SECONDS,
        requires = "estimate",
        value_parser = number("--estimate-seconds", 0.0..=86_400.0, "")
    )]
    pub estimate_seconds: f64,
    /// Directory of the estimates record behind the README's table
    /// (estimates.json): --estimate names the machine it was measured on
    /// and compares itself with its row at the same n (not with --json).
    #[arg(long, value_name = "DIR", default_value = queens_record::RECORDS_DIR, requires = "estimate")]
    pub records: PathBuf,
    /// Count even if predicted to take more than ten minutes (a solver
    /// that does not split its work; a split count shows its time left).
    #[arg(long)]
    pub long: bool,
}

/// The largest board whose count fits the u64 every count is kept in:
/// Q(28) is not known, but the growth of Q(n) (about 10x per n at the
/// frontier, from Q(27) = 234,907,967,154,122,528) puts it below 2^64 and
/// Q(29) above. A solver's mask may
/// reach further (32 files), but its count would overflow after years of
/// work, so `count` refuses that up front.
pub const MAX_COUNT_N: usize = 28;

/// Counts and prints.
pub fn run(args: &Args) -> Result<(), CliError> {
    let solver = registry::choose(args.board.solver.as_deref(), args.board.n, false)?;
    if args.board.n > MAX_COUNT_N {
        return Err(CliError::Input(format!(
            "n = {} cannot be counted: Q(n) would overflow the u64 every count is kept in from n = {} on (n <= {MAX_COUNT_N})",
            args.board.n,
            MAX_COUNT_N + 1
        )));
    }
    if !args.estimate {
        // A sample for an estimate is small; a count holds its whole
        // search, once per thread for a solver that splits its work.
        let threads = args
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |cores| cores.get()));
        memory::check(solver, args.board.n, Question::Count, threads)?;
    }
    if let Some(split) = solver.work_split() {
        if args.estimate {
            return estimate(args, solver, split);
        }
        return count_units(args, solver, split);
    }
    if args.estimate {
        return Err(CliError::Input(format!(
            "{} does not split its work into units, so it cannot estimate a run from a sample; solvers that can: {}",
            solver.info().id,
            registry::splitting_ids().join(", ")
        )));
    }
    if args.shard.is_some() || args.checkpoint.is_some() {
        return Err(CliError::Input(format!(
            "{} does not split its work into units, so it cannot run in shards or resume from a checkpoint; solvers that can: {}",
            solver.info().id,
            registry::splitting_ids().join(", ")
        )));
    }
    let options = CountOptions {
        unique: args.unique,
        threads: args.threads.unwrap_or(0),
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
    check_published(args.board.n, stats.solutions, stats.unique, false)?;
    let record = CountRecord {
        n: args.board.n,
        solver: solver.info().id,
        solutions: stats.solutions,
        unique: stats.unique,
        nodes: stats.nodes,
        seconds: started.elapsed().as_secs_f64(),
        shard: None,
    };
    let mut extra: Vec<(String, String)> = stats
        .extra
        .iter()
        .map(|m| (m.name.clone(), m.value.to_string()))
        .collect();
    extra.extend(device_row(solver));
    record.print(&extra, args.json)
}

/// The device that counted, for a solver that counts on one (the GPU
/// engine): "on the GPU" may well be Mesa's software driver on the CPU, and
/// the reader should not have to guess which. CPU solvers get no row.
fn device_row(solver: &dyn Solver) -> Option<(String, String)> {
    let device = solver.accelerator().ok().flatten()?;
    Some(("device".to_string(), device.to_string()))
}

/// A solver that splits its work: its units on threads, one shard of them,
/// resumed from a checkpoint.
fn count_units(
    args: &Args,
    solver: &'static dyn Solver,
    split: &'static dyn WorkSplit,
) -> Result<(), CliError> {
    let interrupted = interruption::watch();
    let recheck = args.recheck.map(|units| Recheck {
        units,
        seed: args.seed.unwrap_or_else(|| fastrand::u64(..)),
    });
    let outcome = UnitRun {
        solver_id: solver.info().id,
        split,
        n: args.board.n,
        unique: args.unique,
        threads: args.threads.unwrap_or(0),
        shard: args.shard,
        checkpoint: args.checkpoint.as_deref(),
        save_every: Duration::from_secs_f64(args.checkpoint_every),
        display: if args.quiet {
            Display::Quiet
        } else {
            Display::Shown
        },
        interrupted: &interrupted,
        recheck,
    }
    .run()?;
    let outcome = match outcome {
        Outcome::Counted(counted) => counted,
        // The units still in flight cannot be cut short and are worth
        // nothing half done: what is finished is saved, and the process
        // ends now (the caller prints the line and exits 130).
        Outcome::Interrupted {
            done,
            units,
            saved_in,
        } => {
            return Err(CliError::Interrupted(interrupted_line(
                done,
                units,
                saved_in.as_deref(),
            )));
        }
    };
    let total = outcome.total;
    let id = solver.info().id;
    // One shard of several is a part, with nothing published to compare;
    // a whole run (or shard 1/1) is the board's count.
    let whole = args.shard.is_none_or(|spec| spec.count == 1);
    let classes = if whole && args.unique {
        Some(published::classes(
            total.fixed_pairs,
            WHOSE,
            advice(outcome.resumed > 0),
        )?)
    } else {
        None
    };
    if whole {
        check_published(args.board.n, total.solutions, classes, outcome.resumed > 0)?;
    }
    let shard = args.shard.map(|spec| {
        let mut shard = ShardRecord {
            format: SHARD_FORMAT.to_string(),
            index: spec.index,
            count: spec.count,
            split: split.version().to_string(),
            plan_units: outcome.plan_units,
            units: outcome.units,
            fixed_pairs: args.unique.then_some(total.fixed_pairs),
            subtotals: outcome.subtotals.clone(),
            checksum: String::new(),
        };
        shard.checksum = checksum(
            args.board.n,
            id,
            total.solutions,
            total.nodes,
            outcome.seconds,
            &shard,
        );
        shard
    });
    let record = CountRecord {
        n: args.board.n,
        solver: id,
        solutions: total.solutions,
        // A shard's share of the classes is not a whole number: `merge`
        // computes them from the fixed pairs of all shards.
        unique: classes.filter(|_| shard.is_none()),
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
    if let Some(recheck) = recheck.filter(|_| outcome.rechecked > 0) {
        extra.push((
            "rechecked units".to_string(),
            format!("{}, as saved (--seed {})", outcome.rechecked, recheck.seed),
        ));
    }
    extra.extend(device_row(solver));
    record.print(&extra, args.json)
}

/// How a count's refusal by OEIS begins.
const WHOSE: &str = "this count found";

/// What to do about a count OEIS refuses: a resumed one may have been
/// handed wrong units by its checkpoint.
fn advice(resumed: bool) -> &'static str {
    if resumed {
        "the checkpoint's saved units or the solver are wrong (`--recheck K` recounts K saved units; delete the checkpoint to count from the start)"
    } else {
        "the solver is wrong (`queens verify` cross-checks it)"
    }
}

/// A whole board's count against A000170 and A002562, as `merge` checks
/// its total ([`published::check`]): a mismatch is exit 1 and nothing
/// printed on stdout.
fn check_published(
    n: usize,
    solutions: u64,
    classes: Option<u64>,
    resumed: bool,
) -> Result<(), CliError> {
    published::check(n, solutions, classes, WHOSE, advice(resumed))?;
    Ok(())
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

/// `--estimate`'s budget when none is given. Issue 29 asks for an answer
/// in about a minute at every n <= 28 (and within 120 s at n = 24..28).
/// Sampling stops before a step predicted to pass the budget, so what can
/// overrun it is one sub-part in flight or one unit's or part's
/// unpredictable shared work; 45 s leaves the rest of the two minutes for those, the plan and
/// the process start, and still affords dozens of draws where parts are
/// short.
pub const DEFAULT_ESTIMATE_SECONDS: f64 = 45.0;

/// `--estimate`: times a sample of the run's work (one shard's with
/// `--shard`) within the budget and prints the predicted time and memory.
fn estimate(
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
    let table = if args.json {
        None
    } else {
        Some(Table::read(&args.records)?)
    };
    let budget = Duration::from_secs_f64(args.estimate_seconds);
    interruption::end_with(
        "interrupted during --estimate while making the plan; nothing was timed",
    );
    let plan = split.plan(n)?;
    // A shard's pieces; a whole run's are not listed (a plan may hold
    // hundreds of millions).
    let mine: Option<Vec<usize>> =
        (args.shard).map(|shard| queens_core::split::shard_units(&plan, shard.index, shard.count));
    let pieces = mine.as_ref().map_or(plan.len(), Vec::len);
    let threads = match args.threads {
        Some(threads) => threads,
        None => std::thread::available_parallelism().map_or(1, usize::from),
    };
    let bar = (!args.quiet).then(|| {
        let bar = budget::TimeBar::start(args.estimate_seconds);
        bar.tick_steadily();
        bar
    });
    let mut watch = |status: &Status| {
        let doing = status.doing();
        if let Some(bar) = &bar {
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
    };
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
    // `mine` is the plan's pieces (see `Plan::cut`), which is what threads
    // take: all threads are busy while pieces remain, so a run has as many
    // busy threads as it has pieces, at most.
    let seconds_on_threads = estimate.seconds / threads.min(pieces.max(1)) as f64;
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
    crate::error::output(report.write(&mut std::io::stdout().lock(), args.json))
}

/// The `format` of `--estimate --json`'s object. Version 1 had no
/// `format` field; 2 only adds fields (`format`, `core_hours`, `interval`,
/// `parts_timed`, `budget_seconds`, `shared_seconds_max`, `repeats`, `speed_noise`,
/// `shared_over_budget`, then `sub_parts_timed` and `part_shared_seconds_max`,
/// then `pieces` and `longest_piece_seconds` once plans cut units into
/// pieces, `units` still counting the engine's whole units), so a reader
/// of 1 reads 2.
pub const ESTIMATE_FORMAT: &str = "queens-estimate/2";

/// What `--estimate` prints.
#[derive(serde::Serialize)]
struct EstimateRecord<'a> {
    format: &'static str,
    n: usize,
    solver: &'a str,
    threads: usize,
    /// The one-thread estimate spread evenly over the threads (pieces are
    /// many and handed out heaviest first, so they even out; the run
    /// cannot end sooner than its longest piece,
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
    fn write(&self, out: &mut impl std::io::Write, json: bool) -> std::io::Result<()> {
        if json {
            let line = serde_json::to_string(self).expect("plain data serialises");
            writeln!(out, "{line}")?;
            return out.flush();
        }
        let e = &self.estimate;
        let memory = e.peak_bytes.map_or_else(
            || "unknown here".to_string(),
            |bytes| {
                format!(
                    "{:.0} MB peak with one thread (per thread: a run on T threads holds T times the engine's buffers)",
                    bytes as f64 / 1e6
                )
            },
        );
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
                    counted(e.sub_parts_timed, "sub-part", "sub-parts"),
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
                "pieces",
                format!(
                    "{} in the run; the longest {} on one thread, as the plan weighs it",
                    e.pieces,
                    seconds_and_human(e.longest_piece_seconds)
                ),
            ),
            ("memory", memory),
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
        for (key, value) in rows {
            writeln!(out, "{key:10}  {value}")?;
        }
        out.flush()
    }
}

/// A share as a percentage to one decimal, where a share too small to show
/// there is said to be so ("< 0.1 %") rather than shown as none.
pub fn percent(share: f64) -> String {
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
