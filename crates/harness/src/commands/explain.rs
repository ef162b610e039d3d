//! `queens explain ID`: a solver's teaching text (its crate README, which is
//! also its crate doc), then what the newest record in `bench-results/`
//! measured for it, so the idea and what it buys are read side by side.

use std::path::{Path, PathBuf};

use queens_core::Solver;

use crate::error::CliError;
use crate::record::{self, Entry};
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

/// One solver's rows from one record, with where they come from.
#[derive(Clone, Debug, PartialEq)]
pub struct Measured {
    pub file: PathBuf,
    /// The command that made the record, the machine and the date.
    pub command: String,
    pub machine: String,
    pub date: String,
    pub rows: Vec<MeasuredRow>,
}

/// One (solver, n) of a record, as `explain` shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct MeasuredRow {
    pub n: usize,
    /// "timed", "over-budget" or "error" (with the reason).
    pub status: String,
    pub solutions: Option<u64>,
    pub nodes: Option<u64>,
    pub median_ns: Option<f64>,
    pub ns_per_node: Option<f64>,
    pub peak_heap_bytes: Option<u64>,
}

impl Measured {
    fn table(&self, id: &str) -> String {
        let mut out = format!(
            "Measured: {id} in {} (`{}`; {}; {})\n\n",
            self.file.display(),
            self.command,
            self.machine,
            self.date
        );
        out.push_str("| n | solutions | nodes | median time | ns / node | peak heap | status |\n");
        out.push_str("|---:|---:|---:|---:|---:|---:|---|\n");
        for row in &self.rows {
            out.push_str(&format!(
                "| {} | {} | {} | {} | {} | {} | {} |\n",
                row.n,
                optional(row.solutions),
                optional(row.nodes),
                row.median_ns.map_or("-".into(), format::duration_ns),
                row.ns_per_node.map_or("-".into(), format::significant),
                row.peak_heap_bytes.map_or("-".into(), format::bytes),
                row.status
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
    let provenance = &record.provenance;
    let rows = record
        .entries
        .iter()
        .filter(|entry| entry.solver == id && entry.question == "count")
        .map(|entry| MeasuredRow {
            n: entry.n,
            status: status_text(entry),
            solutions: entry.solutions,
            nodes: entry.nodes,
            median_ns: entry.timing.map(|timing| timing.median_ns),
            ns_per_node: entry.ns_per_node,
            peak_heap_bytes: entry.peak_heap_bytes,
        })
        .collect();
    Ok(Newest::Found(Measured {
        file,
        command: provenance.command.clone(),
        machine: format!("{}, {} cores", provenance.cpu_model, provenance.cores),
        date: provenance.date.clone(),
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
