//! The command line: the chores and where each one goes. Each module under
//! `cmd/` owns its `Args` and its `run`; adding a chore is its module and
//! one variant here.

use clap::{Parser, Subcommand};

use crate::{Error, cmd};

/// `cargo xtask`: the parsed command line.
#[derive(Debug, Parser)]
#[command(
    name = "cargo xtask",
    bin_name = "cargo xtask",
    about = "The workspace's chores: CI steps, scaling, comparisons, cluster runs, architecture rules, build time."
)]
pub struct Cli {
    /// The chore.
    #[command(subcommand)]
    pub command: Command,
}

/// The chores.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// CI's steps around the three commands it calls literally.
    Ci(cmd::ci::Args),
    /// Thread scaling and solver ratios, interleaved round by round.
    Scaling(cmd::scaling::Args),
    /// The README's GNU parallel example on local slots, a killed shard resumed.
    ParallelLocal,
    /// A one-node Slurm cluster on this Debian machine: start, stop, env.
    SlurmOneNode(cmd::slurm_one_node::Args),
    /// The Slurm job array for real on a one-node cluster, a task requeued.
    SlurmE2e,
    /// The HTML page in headless Chromium.
    BrowserTest,
    /// The layering rules of docs/ARCHITECTURE.md.
    Architecture,
    /// The first `cargo test --workspace` on a fresh clone of HEAD, timed,
    /// recorded in bench-results/build-time.json and spliced into README.md.
    BuildTime(cmd::build_time::Args),
    /// Instructions retired per search at n = 8..12, counted by callgrind,
    /// as a new `bench-results/<UTC time>-instructions.json`.
    Instructions(cmd::instructions::Args),
    /// Projected whole counts at n = 23..28 (`count N --estimate`), as
    /// bench-results/estimates.json for the README's table.
    Estimates(cmd::estimates::Args),
    /// Whether the estimate's interval holds the full time at n = 18..20.
    EstimateCoverage(cmd::estimate_coverage::Args),
    /// half-join against E. Kluev's quadrant join, one thread each,
    /// recorded in bench-results/vs-quadrant.json and spliced into README.md.
    VsQuadrant(cmd::vs_quadrant::Args),
}

impl Command {
    /// Runs the chore.
    pub fn run(&self) -> Result<(), Error> {
        match self {
            Command::Ci(args) => cmd::ci::run(args),
            Command::Scaling(args) => cmd::scaling::run(args),
            Command::ParallelLocal => cmd::parallel_local::run(),
            Command::SlurmOneNode(args) => cmd::slurm_one_node::run(args),
            Command::SlurmE2e => cmd::slurm_e2e::run(),
            Command::BrowserTest => cmd::browser_test::run(),
            Command::Architecture => cmd::architecture::run(),
            Command::BuildTime(args) => cmd::build_time::run(args),
            Command::Instructions(args) => cmd::instructions::run(args),
            Command::Estimates(args) => cmd::estimates::run(args),
            Command::EstimateCoverage(args) => cmd::estimate_coverage::run(args),
            Command::VsQuadrant(args) => cmd::vs_quadrant::run(args),
        }
    }
}
