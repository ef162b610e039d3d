//! `queens count N`: solutions (and classes), nodes, time.

use std::time::Instant;

use queens_core::CountOptions;
use serde::Serialize;

use super::split_count;
use crate::cli::CountArgs;
use crate::error::CliError;
use crate::registry;
use crate::shard::ShardRecord;

/// The `--json` object: one line, stable field names.
#[derive(Serialize)]
pub(crate) struct CountRecord<'a> {
    pub n: usize,
    pub solver: &'a str,
    pub solutions: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unique: Option<u64>,
    pub nodes: u64,
    pub seconds: f64,
    /// Present only in the record of one shard (`--shard I/K`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shard: Option<ShardRecord>,
}

pub fn run(args: &CountArgs) -> Result<(), CliError> {
    let solver = registry::choose(args.solver.as_deref(), args.n, false)?;
    if let Some(split) = solver.work_split() {
        return split_count::run(args, solver, split);
    }
    if args.shard.is_some() || args.checkpoint.is_some() {
        return Err(split_count::cannot_split(solver));
    }
    let options = CountOptions {
        unique: args.unique,
        threads: args.threads.unwrap_or(0),
    };
    let started = Instant::now();
    let stats = solver.count(args.n, &options)?;
    let seconds = started.elapsed().as_secs_f64();
    let record = CountRecord {
        n: args.n,
        solver: solver.info().id,
        solutions: stats.solutions,
        unique: stats.unique,
        nodes: stats.nodes,
        seconds,
        shard: None,
    };
    let extra: Vec<(String, String)> = stats
        .extra
        .iter()
        .map(|m| (m.name.clone(), m.value.to_string()))
        .collect();
    print(&record, &extra, args.json);
    Ok(())
}

/// Prints a record as `count` does: one JSON line, or a table with the
/// solver's extra figures before the time.
pub(crate) fn print(record: &CountRecord<'_>, extra: &[(String, String)], json: bool) {
    if json {
        println!(
            "{}",
            serde_json::to_string(record).expect("plain data serialises")
        );
        return;
    }
    let mut rows: Vec<(String, String)> = vec![
        ("n".into(), record.n.to_string()),
        ("solver".into(), record.solver.to_string()),
        ("solutions".into(), record.solutions.to_string()),
    ];
    if let Some(unique) = record.unique {
        rows.push(("unique".into(), unique.to_string()));
    }
    rows.push(("nodes".into(), record.nodes.to_string()));
    rows.extend(extra.iter().cloned());
    rows.push(("seconds".into(), format!("{:.6}", record.seconds)));
    let width = rows.iter().map(|(key, _)| key.len()).max().unwrap_or(0);
    for (key, value) in rows {
        println!("{key:width$}  {value}");
    }
}
