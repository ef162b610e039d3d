//! `queens explain ID`: a solver's teaching text (its crate README, which is
//! also its crate doc), then what the newest record in `bench-results/`
//! measured for it, so the idea and what it buys are read side by side.

use std::path::{Path, PathBuf};

use queens_core::Solver;

use crate::error::CliError;
use crate::record::{self, Entry, Provenance};
use crate::registry;
use crate::report::format;

#[derive(Debug, clap::Args)]
pub struct ExplainArgs {
    /// Solver id (see `queens list`).
    pub solver: String,
    /// Directory of bench records; the newest one is used.
    #[arg(long, default_value = "bench-results")]
    pub records: PathBuf,
}

pub fn run(args: &ExplainArgs) -> Result<(), CliError> {
    let solver = registry::find(&args.solver)?;
    // Read the record before printing anything, so that a broken record is
    // one line on stderr and not half an explanation.
    let newest = newest_measurements(&args.records, solver.info().id)?;
    print!("{}", render(solver, &newest));
    Ok(())
}

/// What the newest record says about one solver.
#[derive(Clone, Debug, PartialEq)]
pub enum Newest {
    /// There is no record to read; the text says why.
    Missing(String),
    Found(Measured),
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
            out.push_str(&measured.table(info.id));
            if !info.analysis.trim().is_empty() {
                out.push('\n');
                out.push_str(info.analysis.trim_end());
                out.push('\n');
            }
        }
    }
    out
}

/// One solver's entries from one record, with where they come from.
#[derive(Clone, Debug, PartialEq)]
pub struct Measured {
    pub file: PathBuf,
    pub provenance: Provenance,
    pub rows: Vec<Entry>,
}

impl Measured {
    fn table(&self, id: &str) -> String {
        let from = &self.provenance;
        let mut out = format!(
            "Measured: {id} in {} (`{}`; {}, {} cores; {})\n\n",
            self.file.display(),
            from.command,
            from.cpu_model,
            from.cores,
            from.date
        );
        out.push_str("| n | solutions | nodes | median time | ns / node | peak heap | status |\n");
        out.push_str("|---:|---:|---:|---:|---:|---:|---|\n");
        for row in &self.rows {
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
}

/// A count with thousands separators, or `-` where the record has none.
fn optional(value: Option<u64>) -> String {
    value.map_or("-".into(), format::thousands)
}

/// The rows of solver `id` in the newest record in `dir`, read by the
/// record module (the one reader of `bench-results/FORMAT.md`). No record at
/// all is not an error (`Newest::Missing` says why); a record that cannot be
/// read is, naming the file.
pub fn newest_measurements(dir: &Path, id: &str) -> Result<Newest, CliError> {
    let file = match record::newest(dir) {
        Ok(file) => file,
        Err(why) => return Ok(Newest::Missing(why)),
    };
    let record = record::read(&file).map_err(CliError::Usage)?;
    let rows = record
        .entries
        .into_iter()
        .filter(|entry| entry.solver == id && entry.question == "count")
        .collect();
    Ok(Newest::Found(Measured {
        file,
        provenance: record.provenance,
        rows,
    }))
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
