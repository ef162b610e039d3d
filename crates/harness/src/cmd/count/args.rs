//! The one argument struct of `queens count`'s three commands, and the
//! defaults they share.

use std::path::PathBuf;

use queens_distributed::DEFAULT_SAVE_EVERY;
use queens_distributed::shard::{ShardSpec, parse_shard};

use crate::args::{Board, number};

/// `--estimate`'s budget when none is given. An estimate should answer in
/// about a minute at every n <= 28 (and within 120 s at n = 24..28).
/// Sampling stops before a step predicted to pass the budget, so what can
/// overrun it is one part of a part in flight or one unit's or part's
/// unpredictable shared work; 45 s leaves the rest of the two minutes for those, the plan and
/// the process start, and still affords dozens of draws where parts are
/// short.
pub(crate) const DEFAULT_ESTIMATE_SECONDS: f64 = 45.0;

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
    /// before a step predicted to pass it; at least one part of one part of
    /// one unit is always timed, however long it takes).
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
    /// A config of programs outside the workspace (see
    /// examples/external/README.md): --solver may name one of them, which
    /// then counts n in one whole run (with --threads, if its command
    /// takes them), checked against OEIS.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["shard", "checkpoint", "estimate"])]
    pub external: Option<PathBuf>,
}

/// The largest board whose count fits the u64 every count is kept in:
/// Q(28) is not known, but the growth of Q(n) (about 10x per n at the
/// frontier, from Q(27) = 234,907,967,154,122,528) puts it below 2^64 and
/// Q(29) above. A solver's mask may
/// reach further (32 files), but its count would overflow after years of
/// work, so `count` refuses that up front.
pub const MAX_COUNT_N: usize = 28;

impl Args {
    /// The worker threads asked for, or one per core.
    pub fn threads(&self) -> usize {
        self.threads.unwrap_or_else(cores)
    }
}

/// This machine's cores (1 where it cannot tell): the default number of
/// threads, and what an estimate's comparison names.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}
