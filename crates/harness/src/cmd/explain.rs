//! `queens explain ID`: a solver's teaching text (its crate README, which is
//! also its crate doc), then what the newest record in `bench-results/`
//! measured for it, so the idea and what it buys are read side by side.

use std::io::{self, Write};
use std::path::PathBuf;

use queens_core::{Solver, printable, printable_path};
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
    if let Some(kernel) = kernel_line(info.id) {
        out.push_str("\n\n");
        out.push_str(&kernel);
    }
    out.push_str("\n\n---\n\n");
    match newest {
        Newest::Missing(why) => {
            out.push_str(&format!(
                "No measurements of {} yet: {}\n",
                info.id,
                printable(why)
            ));
        }
        Newest::Found(measured) if measured.rows.is_empty() => out.push_str(&format!(
            "The newest record, {}, has no rows for {}.\n",
            printable_path(&measured.file),
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

/// For half-join, which code counts on this machine: the instruction-set
/// level chosen at run time (see its README, "One binary for a whole
/// cluster"), why, and the levels the CPU has.
fn kernel_line(id: &str) -> Option<String> {
    use queens_half_join::kernel;
    if id != queens_half_join::INFO.id {
        return None;
    }
    let chosen = match kernel::choice() {
        Ok(choice) => choice.to_string(),
        Err(why) => why,
    };
    let available: Vec<&str> = kernel::available().iter().map(|l| l.name()).collect();
    Some(format!(
        "Kernel on this machine: {chosen}; this CPU has {} ({} forces one).",
        available.join(", "),
        kernel::KERNEL_VARIABLE
    ))
}

/// One solver's rows of one record, with where they come from. Every text
/// that comes from the record (its provenance, a row's reason) is shown
/// through [`printable`]: a record is a file anyone may have written, and
/// an ESC or a newline in it must not reach the terminal as is.
fn table(measured: &Measured, id: &str) -> String {
    let from = &measured.provenance;
    let mut out = format!(
        "Measured: {id} in {} (`{}`; {}, {}; {})\n\n",
        printable_path(&measured.file),
        printable(&from.command),
        printable(&from.cpu_model),
        queens_core::counted(from.cores, "core", "cores"),
        printable(&from.date)
    );
    out.push_str(
        "Cold: each run one search between runs of other searches. Warm: the same search \
         repeated back to back, which lets the processor's branch predictor learn it.\n\n",
    );
    out.push_str(
        "| n | solutions | nodes | cold median | warm median | cold ns / node | warm ns / node \
         | branch misses / node, cold / warm | peak heap | status |\n",
    );
    out.push_str("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
    let timed = |row: &Entry| row.timing.is_some();
    let cold_cell = |row: &Entry, value: Option<f64>, write: fn(f64) -> String| match value {
        Some(value) => write(value),
        None if timed(row) => "not recorded".to_string(),
        None => "-".to_string(),
    };
    for row in &measured.rows {
        let misses = match (
            row.cold_branch_misses_per_node,
            row.warm_branch_misses_per_node,
        ) {
            (Some(cold), Some(warm)) => {
                format!(
                    "{} / {}",
                    format::significant(cold),
                    format::significant(warm)
                )
            }
            _ => "-".to_string(),
        };
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {misses} | {} | {} |\n",
            row.n,
            optional(row.solutions),
            optional(row.nodes),
            cold_cell(row, row.cold_median_ns(), format::duration_ns),
            row.warm_median_ns().map_or("-".into(), format::duration_ns),
            cold_cell(row, row.cold_ns_per_node, format::significant),
            row.ns_per_node.map_or("-".into(), format::significant),
            row.peak_heap_bytes.map_or("-".into(), format::bytes),
            status_text(row)
        ));
    }
    if measured.rows.iter().any(timed) && measured.rows.iter().all(|r| r.cold.is_none()) {
        out.push_str(
            "\nThis record has no cold figure (schema version 1): only the warm median, which \
             flatters small boards. Rerun `scripts/bench` for both.\n",
        );
    }
    match &measured.branch_misses_unavailable {
        Some(why) => out.push_str(&format!(
            "\nBranch misses per node are absent: {}.\n",
            printable(why)
        )),
        None if measured.schema_version < 2 => out
            .push_str("\nBranch misses per node are absent: not recorded (a version-1 record).\n"),
        None => {}
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
        Some(why) => format!("{status}: {}", printable(why)),
        None => status,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use queens_record::fixtures::{sample_record, version_1_record};
    use queens_record::{Measured, Record};

    fn explained(record: Record) -> String {
        render(
            registry::find("three-mask").unwrap(),
            &Newest::Found(Box::new(Measured {
                file: "bench-results/fixture.json".into(),
                provenance: record.provenance.clone(),
                rows: record.entries.clone(),
                schema_version: record.schema_version,
                branch_misses_unavailable: record.settings.branch_misses_unavailable.clone(),
            })),
        )
    }

    #[test]
    fn explain_shows_cold_and_warm_and_why_branch_misses_are_absent() {
        let out = explained(sample_record());
        // The fixture: 41.0 µs cold, 14.0 µs warm over 2,057 nodes.
        assert!(
            out.contains(
                "| 8 | 92 | 2,057 | 41.0 µs | 14.0 µs | 19.9 | 6.81 | - | 143 B | timed |"
            ),
            "{out}"
        );
        assert!(out.contains("Branch misses per node are absent: perf_event_open failed"));
    }

    #[test]
    fn a_version_1_record_is_explained_without_a_guessed_cold_figure() {
        let out = explained(version_1_record());
        assert!(
            out.contains("| 8 | 92 | 2,057 | not recorded | 14.0 µs | not recorded | 6.81 |"),
            "{out}"
        );
        assert!(out.contains("no cold figure (schema version 1)"), "{out}");
    }

    #[test]
    fn text_from_a_record_reaches_the_terminal_escaped() {
        let mut record = sample_record();
        record.provenance.command = "queens compare\x1b[2J\nforged line".to_string();
        record.provenance.cpu_model = "cpu\x1b]0;title\x07".to_string();
        record.settings.branch_misses_unavailable = Some("no\ncounter\x1b[31m".to_string());
        record.entries[0].error = Some("bad\x1b[1m\nrow".to_string());
        let out = explained(record);
        assert!(!out.contains('\x1b'), "an ESC reached the output: {out:?}");
        assert!(!out.contains('\x07'), "a BEL reached the output: {out:?}");
        assert!(
            out.contains("queens compare\\x1b[2J\\nforged line"),
            "{out}"
        );
        assert!(out.contains("no\\ncounter\\x1b[31m"), "{out}");
        assert!(out.contains("bad\\x1b[1m\\nrow"), "{out}");
        // The forged newlines did not start lines of their own.
        assert!(!out.lines().any(|line| line.starts_with("forged line")));
        assert!(!out.lines().any(|line| line.starts_with("row")));
    }
}
