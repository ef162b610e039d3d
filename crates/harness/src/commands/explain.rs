//! `queens explain ID`: a solver's teaching text (its crate README, which is
//! also its crate doc), then what the newest record in `bench-results/`
//! measured for it, so the idea and what it buys are read side by side.

use std::path::{Path, PathBuf};

use queens_core::Solver;

use crate::error::CliError;
use crate::registry;

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
    let measured = newest_measurements(&args.records, solver.info().id)?;
    print!("{}", render(solver, &args.records, measured.as_ref()));
    Ok(())
}

/// The whole output: teaching text, a rule, then the measured rows with the
/// solver's own reading of them (`SolverInfo::analysis`), or one line saying
/// why there are none.
pub fn render(solver: &dyn Solver, records: &Path, measured: Option<&Measured>) -> String {
    let info = solver.info();
    let mut out = info.teaching.trim_end().to_string();
    out.push_str("\n\n---\n\n");
    match measured {
        None => out.push_str(&format!(
            "No measurements of {} yet: no record in {} (make one with `queens compare` or `scripts/bench`).\n",
            info.id,
            records.display()
        )),
        Some(measured) if measured.rows.is_empty() => out.push_str(&format!(
            "The newest record, {}, has no rows for {}.\n",
            measured.file.display(),
            info.id
        )),
        Some(measured) => {
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
                row.median_ns.map_or("-".into(), duration),
                row.ns_per_node.map_or("-".into(), |x| format!("{x:.2}")),
                row.peak_heap_bytes.map_or("-".into(), bytes),
                row.status
            ));
        }
        out
    }
}

fn optional(value: Option<u64>) -> String {
    value.map_or("-".into(), |v| v.to_string())
}

fn duration(ns: f64) -> String {
    match ns {
        ns if ns < 1e3 => format!("{ns:.0} ns"),
        ns if ns < 1e6 => format!("{:.1} µs", ns / 1e3),
        ns if ns < 1e9 => format!("{:.1} ms", ns / 1e6),
        ns => format!("{:.2} s", ns / 1e9),
    }
}

fn bytes(count: u64) -> String {
    match count {
        c if c < 1 << 10 => format!("{c} B"),
        c if c < 1 << 20 => format!("{:.1} KiB", c as f64 / 1024.0),
        c => format!("{:.1} MiB", c as f64 / (1 << 20) as f64),
    }
}

/// The rows of solver `id` in the newest record in `dir`; `None` when there
/// is no record at all. A record that cannot be read is an error naming it.
pub fn newest_measurements(dir: &Path, id: &str) -> Result<Option<Measured>, CliError> {
    let Some(file) = newest_record_file(dir) else {
        return Ok(None);
    };
    let text = std::fs::read_to_string(&file)
        .map_err(|e| CliError::Io(format!("{}: cannot read: {e}", file.display())))?;
    let record: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| CliError::Usage(format!("{}: not a valid record ({e})", file.display())))?;
    if record["schema"] != "queens-bench-record" || record["schema_version"] != 1 {
        return Err(CliError::Usage(format!(
            "{}: not a queens bench record of schema version 1",
            file.display()
        )));
    }
    let provenance = &record["provenance"];
    let text_of = |value: &serde_json::Value| value.as_str().unwrap_or("unknown").to_string();
    let rows = record["entries"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|entry| entry["solver"] == id && entry["question"] == "count")
        .map(|entry| MeasuredRow {
            n: entry["n"].as_u64().unwrap_or(0) as usize,
            status: match entry["error"].as_str() {
                Some(why) => format!("{}: {why}", text_of(&entry["status"])),
                None => text_of(&entry["status"]),
            },
            solutions: entry["solutions"].as_u64(),
            nodes: entry["nodes"].as_u64(),
            median_ns: entry["timing"]["median_ns"].as_f64(),
            ns_per_node: entry["ns_per_node"].as_f64(),
            peak_heap_bytes: entry["peak_heap_bytes"].as_u64(),
        })
        .collect();
    Ok(Some(Measured {
        file,
        command: text_of(&provenance["command"]),
        machine: format!(
            "{}, {} cores",
            text_of(&provenance["cpu_model"]),
            provenance["cores"].as_u64().unwrap_or(0)
        ),
        date: text_of(&provenance["date"]),
        rows,
    }))
}

/// Record names begin with their UTC time, so the newest sorts last.
fn newest_record_file(dir: &Path) -> Option<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json") && path.is_file())
        .collect();
    files.sort();
    files.pop()
}
