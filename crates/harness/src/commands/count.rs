//! `queens count N`: solutions (and classes), nodes, time.

use std::time::Instant;

use queens_core::CountOptions;
use serde::Serialize;

use crate::cli::CountArgs;
use crate::error::CliError;
use crate::registry;

/// The `--json` object: one line, stable field names.
#[derive(Serialize)]
struct CountRecord<'a> {
    n: usize,
    solver: &'a str,
    solutions: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    unique: Option<u64>,
    nodes: u64,
    seconds: f64,
}

pub fn run(args: &CountArgs) -> Result<(), CliError> {
    let solver = registry::choose(args.solver.as_deref(), args.n, false)?;
    let options = CountOptions {
        unique: args.unique,
        ..CountOptions::default()
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
    };
    if args.json {
        println!(
            "{}",
            serde_json::to_string(&record).expect("plain data serialises")
        );
        return Ok(());
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
    rows.extend(
        stats
            .extra
            .iter()
            .map(|m| (m.name.clone(), m.value.to_string())),
    );
    rows.push(("seconds".into(), format!("{:.6}", record.seconds)));
    let width = rows.iter().map(|(key, _)| key.len()).max().unwrap_or(0);
    for (key, value) in rows {
        println!("{key:width$}  {value}");
    }
    Ok(())
}
