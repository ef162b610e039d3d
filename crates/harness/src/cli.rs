//! The command line: the subcommands and where each one goes. Each command
//! module owns its arguments (`Args`), their parsing and its `run`; this
//! file only names them. Adding a subcommand touches two places: its module
//! under `cmd/` and one variant here (its `run` arm below follows from it).

use clap::{Parser, Subcommand};

use crate::cmd;
use crate::error::CliError;

/// `queens`: the parsed command line.
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
    /// The subcommand.
    #[command(subcommand)]
    pub command: Command,
    /// The most memory a search may plan to hold (e.g. 512M, 2G; powers of
    /// 1024); default: what the machine has available. A command whose
    /// search would need more refuses before it starts.
    #[arg(long, global = true, value_name = "SIZE", value_parser = crate::memory::parse_size)]
    pub max_memory: Option<u64>,
}

impl Cli {
    /// Runs the command under the memory budget given.
    pub fn run(&self) -> Result<(), CliError> {
        crate::memory::set_max_memory(self.max_memory);
        self.command.run()
    }
}

/// The subcommands, in the order `queens --help` lists them.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the registered solvers and finders: id, the questions each answers, largest n, idea, seed.
    List(cmd::list::Args),
    /// Count the solutions of the n×n board.
    Count(cmd::count::Args),
    /// Print the solutions of the n×n board.
    Solve(cmd::solve::Args),
    /// Find one board of the n×n board, for any n up to 10^8.
    Find(cmd::find::Args),
    /// Cross-validate solvers: checker, equal solution sets, OEIS counts.
    Verify(cmd::verify::Args),
    /// Add up the shard records of `count N --shard I/K --json` into the full count.
    Merge(cmd::merge::Args),
    /// Recount a sample of a shard record's units and compare with what it recorded.
    Recheck(cmd::recheck::Args),
    /// Cross-validate, then time every solver over n = 4..N and write a record (into the git-ignored bench-results/local/).
    Compare(cmd::compare::Args),
    /// Generate COMPARISON.md, plots and index.html from records (default: the newest reference record, scripts/bench's).
    Report(cmd::report::Args),
    /// Watch a solver think: the first steps of its search, in its own terms.
    Trace(cmd::trace::Args),
    /// The tree each solver walks: its safe boards by number of queens.
    Tree(cmd::tree::Args),
    /// A solver's or finder's teaching text and its measured rows from the newest reference record (the one report reads).
    Explain(cmd::explain::Args),
    /// Count plainly (one thread) K times and print solutions and nodes:
    /// the search `cargo xtask instructions` counts instructions of.
    #[command(hide = true)]
    Search(cmd::search::Args),
}

impl Command {
    /// Runs the command.
    pub fn run(&self) -> Result<(), CliError> {
        match self {
            Command::List(args) => cmd::list::run(args),
            Command::Count(args) => cmd::count::run(args),
            Command::Solve(args) => cmd::solve::run(args),
            Command::Find(args) => cmd::find::run(args),
            Command::Verify(args) => cmd::verify::run(args),
            Command::Merge(args) => cmd::merge::run(args),
            Command::Recheck(args) => cmd::recheck::run(args),
            Command::Compare(args) => cmd::compare::run(args),
            Command::Report(args) => cmd::report::run(args),
            Command::Trace(args) => cmd::trace::run(args),
            Command::Tree(args) => cmd::tree::run(args),
            Command::Explain(args) => cmd::explain::run(args),
            Command::Search(args) => cmd::search::run(args),
        }
    }
}
