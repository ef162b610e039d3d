//! The command line. Value parsers reject bad input with a message that says
//! what is allowed, so that every error fits on one line.

use clap::{Parser, Subcommand, ValueEnum};

#[derive(Debug, Parser)]
#[command(
    name = "queens",
    version,
    about = "N-Queens solvers side by side: cross-validated, counted, compared.",
    long_about = "N-Queens solvers side by side: every approach behind one trait, \
                  cross-validated against each other, an independent checker and the \
                  published counts (OEIS A000170, A002562).",
    allow_negative_numbers = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the registered solvers: id, seed document, largest n, idea.
    List,
    /// Count the solutions of the n×n board.
    Count(CountArgs),
    /// Print the solutions of the n×n board.
    Solve(SolveArgs),
    /// Cross-validate solvers: checker, equal solution sets, OEIS counts.
    Verify(VerifyArgs),
    /// Add up the shard records of `count N --shard I/K --json` into the full count.
    Merge(MergeArgs),
    /// Cross-validate, then time every solver over n = 4..N and write a record.
    Compare(crate::commands::compare::CompareArgs),
    /// Generate COMPARISON.md and plots from records (default: the newest).
    Report(crate::commands::report::ReportArgs),
    /// Watch a solver think: the first steps of its search, in its own terms.
    Trace(crate::commands::trace::TraceArgs),
    /// A solver's teaching text and its measured row(s) from the newest record.
    Explain(crate::commands::explain::ExplainArgs),
}

#[derive(Debug, clap::Args)]
#[command(allow_negative_numbers = true)]
pub struct CountArgs {
    /// Board size (n queens on an n×n board).
    #[arg(value_parser = parse_n)]
    pub n: usize,
    /// Solver id (see `queens list`); default: the fastest that supports n.
    #[arg(long)]
    pub solver: Option<String>,
    /// Also count solutions up to rotation and reflection.
    #[arg(long)]
    pub unique: bool,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Worker threads for solvers that split their work (default: one per core).
    #[arg(long, value_parser = parse_threads)]
    pub threads: Option<usize>,
    /// Count only shard I of K (e.g. 3/8) of a solver that splits its work;
    /// combine the shards' `--json` records with `queens merge`.
    #[arg(long, value_name = "I/K", value_parser = crate::shard::parse_shard)]
    pub shard: Option<crate::shard::ShardSpec>,
    /// Save finished work units to FILE every few seconds; run the same
    /// command again with the same FILE to resume after a kill.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<std::path::PathBuf>,
    /// Seconds between checkpoint saves (at most 5; for tests).
    #[arg(long, hide = true, default_value_t = 2.0, value_parser = parse_save_every)]
    pub checkpoint_every: f64,
    /// No progress bar (it is also hidden when stderr is not a terminal).
    #[arg(long)]
    pub quiet: bool,
}

#[derive(Debug, clap::Args)]
pub struct MergeArgs {
    /// Shard records written by `queens count N --shard I/K --json`.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<std::path::PathBuf>,
    /// Print one JSON object (the same as `count --json`) instead of a table.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, clap::Args)]
#[command(allow_negative_numbers = true)]
pub struct SolveArgs {
    /// Board size (n queens on an n×n board).
    #[arg(value_parser = parse_n)]
    pub n: usize,
    /// Solver id (see `queens list`); default: the fastest that can list boards.
    #[arg(long)]
    pub solver: Option<String>,
    /// Print one canonical representative of each symmetry class.
    #[arg(long)]
    pub unique: bool,
    /// Print at most this many solutions.
    #[arg(long, value_parser = parse_limit)]
    pub limit: Option<u64>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Board)]
    pub format: Format,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// ASCII board with rank and file labels.
    Board,
    /// Unicode board: a queen glyph on light and dark squares.
    Unicode,
    /// One line per solution: `a2 b4 c1 d3`.
    Algebraic,
    /// One JSON object: {"n", "solver", "solutions": [[row of column 0, ...], ...]}.
    Json,
}

#[derive(Debug, clap::Args)]
#[command(allow_negative_numbers = true)]
pub struct VerifyArgs {
    /// Check every n from 1 to this.
    #[arg(long, default_value_t = 10, value_parser = parse_n)]
    pub max_n: usize,
    /// Solvers to check (repeatable); default: all.
    #[arg(long = "solver")]
    pub solvers: Vec<String>,
}

/// n: a whole number >= 1. Each solver's own upper limit is checked later,
/// with a message that names the solver and the reason.
pub fn parse_n(text: &str) -> Result<usize, String> {
    match text.trim().parse::<i128>() {
        Ok(n) if n >= 1 => usize::try_from(n).map_err(|_| format!("n = {text} is far too large")),
        Ok(_) => Err(format!("n must be at least 1, got {text}")),
        Err(_) => Err(format!("n must be a whole number >= 1, got '{text}'")),
    }
}

/// --limit: a whole number >= 1.
pub fn parse_limit(text: &str) -> Result<u64, String> {
    match text.trim().parse::<i128>() {
        Ok(k) if k >= 1 => u64::try_from(k).map_err(|_| format!("--limit {text} is too large")),
        Ok(_) => Err(format!("--limit must be at least 1, got {text}")),
        Err(_) => Err(format!("--limit must be a whole number >= 1, got '{text}'")),
    }
}

/// --threads: a whole number >= 1.
pub fn parse_threads(text: &str) -> Result<usize, String> {
    match text.trim().parse::<i128>() {
        Ok(k) if k >= 1 => usize::try_from(k).map_err(|_| format!("--threads {text} is too large")),
        Ok(_) => Err(format!("--threads must be at least 1, got {text}")),
        Err(_) => Err(format!(
            "--threads must be a whole number >= 1, got '{text}'"
        )),
    }
}

/// --checkpoint-every: seconds in (0, 5].
pub fn parse_save_every(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if s > 0.0 && s <= 5.0 => Ok(s),
        _ => Err(format!(
            "--checkpoint-every wants seconds in (0, 5], got '{text}'"
        )),
    }
}
