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
