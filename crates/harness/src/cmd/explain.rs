//! `queens explain ID`: a solver's teaching text (its crate README, which is
//! also its crate doc), then what the newest record in `bench-results/`
//! measured for it, so the idea and what it buys are read side by side.

use std::io::{self, Write};
use std::path::PathBuf;

use queens_core::Solver;
use queens_record::{Entry, Measured, Newest, newest_measurements};
use queens_report::format;

use crate::error::{CliError, output};
use crate::registry;

/// `queens explain`'s arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Solver id (see `queens list`).
    pub solver: String,
    /// Directory of bench records; the newest one is used.
    #[arg(long, default_value = queens_record::RECORDS_DIR)]
    pub records: PathBuf,
}

/// Prints the teaching text and the measured rows.
pub fn run(args: &Args) -> Result<(), CliError> {
    let solver = registry::find(&args.solver)?;
    // Read the record before printing anything, so that a broken record is
    // one line on stderr and not half an explanation.
    let newest = newest_measurements(&args.records, solver.info().id)?;
    let mut out = io::stdout().lock();
    output(
        out.write_all(render(solver, &newest).as_bytes())
            .and_then(|()| out.flush()),
    )
}

/// The whole output: teaching text, a rule, then the measured rows with the
/// solver's own reading of them (`SolverInfo::analysis`), or one line saying
/// why there are none.
pub fn render(solver: &dyn Solver, newest: &Newest) -> String {
    let info = solver.info();
    let mut out = info.teaching.trim_end().to_string();
    out.push_str("\n\n---\n\n");
    match newest {
        Newest::Missing(why) => {
            out.push_str(&format!("No measurements of {} yet: {why}\n", info.id));
        }
        Newest::Found(measured) if measured.rows.is_empty() => out.push_str(&format!(
            "The newest record, {}, has no rows for {}.\n",
            measured.file.display(),
            info.id
        )),
        Newest::Found(measured) => {
            out.push_str(&table(measured, info.id));
            if !info.analysis.trim().is_empty() {
                out.push('\n');
                out.push_str(info.analysis.trim_end());
                out.push('\n');
            }
        }
    }
    out
}

/// One solver's rows of one record, with where they come from.
fn table(measured: &Measured, id: &str) -> String {
    let from = &measured.provenance;
    let mut out = format!(
        "Measured: {id} in {} (`{}`; {}, {} cores; {})\n\n",
        measured.file.display(),
        from.command,
        from.cpu_model,
        from.cores,
        from.date
    );
    out.push_str("| n | solutions | nodes | median time | ns / node | peak heap | status |\n");
    out.push_str("|---:|---:|---:|---:|---:|---:|---|\n");
    for row in &measured.rows {
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} |\n",
            row.n,
            optional(row.solutions),
            optional(row.nodes),
            row.timing
                .map_or("-".into(), |timing| format::duration_ns(timing.median_ns)),
            row.ns_per_node.map_or("-".into(), format::significant),
            row.peak_heap_bytes.map_or("-".into(), format::bytes),
            status_text(row)
        ));
    }
    out
}

/// A count with thousands separators, or `-` where the record has none.
fn optional(value: Option<u64>) -> String {
    value.map_or("-".into(), format::thousands)
}

/// The status as the record spells it, with the reason when there is one.
fn status_text(entry: &Entry) -> String {
    let status = serde_json::to_value(entry.status)
        .ok()
        .and_then(|value| value.as_str().map(str::to_string))
        .unwrap_or_else(|| format!("{:?}", entry.status));
    match &entry.error {
        Some(why) => format!("{status}: {why}"),
        None => status,
    }
}
