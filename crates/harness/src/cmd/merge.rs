//! `queens merge FILE...`: the shard records of `count N --shard I/K --json`
//! added into the full count ([`queens_distributed::merge`]), printed as
//! `count` prints it.

use itertools::Itertools;
use std::path::PathBuf;

use crate::count_record::CountRecord;
use crate::error::CliError;
use crate::memory;
use crate::registry;
use queens_core::memory::Question;
use queens_distributed::merge::{merge, read};

/// `queens merge`'s arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Shard records written by `queens count N --shard I/K --json`.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Print one JSON object (the same as `count --json`) instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// Merges and prints.
pub fn run(args: &Args) -> Result<(), CliError> {
    let find = |id: &str| registry::find(id).ok();
    // A merge makes the solver's plan of n to check the shards against:
    // its memory is checked before, with what the solver declares for a
    // count on one thread (the plan and one unit's work, so an upper bound
    // on the plan alone). The first file says which solver and n; merge
    // itself checks that every other one agrees.
    if let Some(first) = args.files.first() {
        let (file, solver) = read(first, &find)?;
        memory::check(solver, file.n, Question::Count, 1)?;
    }
    let merged = merge(&args.files, &find)?;
    let record = CountRecord {
        n: merged.n,
        solver: &merged.solver,
        solutions: merged.solutions,
        unique: merged.unique,
        nodes: Some(merged.nodes),
        seconds: merged.seconds,
        ..CountRecord::default()
    };
    let mut extra = vec![("shards", merged.shards.to_string())];
    if !merged.confirmed.is_empty() {
        let twice = merged.confirmed.iter().join(", ");
        extra.push(("counted twice, agreeing", format!("shard {twice}")));
    }
    let published = match merged.published {
        true => "agrees",
        false => "none known for this n",
    };
    extra.push(("published count", published.to_string()));
    record.print(&extra, args.json)
}
