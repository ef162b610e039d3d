//! What `queens count N --estimate` says beside its own figures about the
//! README's table of projected counts (`bench-results/estimates.json`):
//! the machine, code and day the table was measured on, this machine's
//! CPU, and this estimate over the table's at the same n. A time twice the
//! table's may be a slower machine or a wrong estimate; named machines and
//! a ratio with its error let the reader tell which. The record holds no
//! timing of a fixed part of work, so the only figure measured on both
//! machines is the estimate itself, at the n the table has.

use itertools::Itertools;
use std::path::{Path, PathBuf};

use queens_core::{counted, printable, printable_path};
use queens_distributed::shard::ShardSpec;
use queens_record::estimates::{EstimatesRecord, read_estimates_if_present};
use queens_report::{Ratio, measured_on};

use queens_report::format::significant;

use crate::budget::seconds_and_human;
use crate::error::CliError;

/// The estimates record, as `--estimate` found it.
#[derive(Clone, Debug)]
pub struct Table {
    /// Where it was looked for.
    pub path: PathBuf,
    /// The record; `None` when nothing was there (a binary run outside
    /// the checkout, say).
    pub record: Option<EstimatesRecord>,
}

/// What one estimate answered, as the comparison needs it.
#[derive(Clone, Copy, Debug)]
pub struct Asked<'a> {
    /// Board size.
    pub n: usize,
    /// The solver estimated.
    pub solver: &'a str,
    /// The shard estimated, if not the whole count.
    pub shard: Option<ShardSpec>,
    /// Whether classes were asked for (the table's counts are without).
    pub unique: bool,
    /// Its one-thread seconds.
    pub seconds: f64,
    /// Their standard error.
    pub standard_error: f64,
}

impl Table {
    /// The record in `dir` (its [`queens_record::estimates::ESTIMATES_FILE`]),
    /// or that there is none; a file there that is not a real record is
    /// refused in one line naming it and the field to blame.
    pub fn read(dir: &Path) -> Result<Table, CliError> {
        let path = dir.join(queens_record::estimates::ESTIMATES_FILE);
        let record = read_estimates_if_present(&path)?;
        Ok(Table { path, record })
    }

    /// The rows `--estimate` prints after its own: `table` (where the
    /// record is, the machine it names and its figure at this n), `this
    /// CPU` (`this_machine`), and `vs table` (this estimate over the
    /// table's, or why the two are not the same question).
    pub fn rows(&self, asked: &Asked, this_machine: &str) -> Vec<(&'static str, String)> {
        let path = &self.path;
        let Some(record) = &self.record else {
            return vec![(
                "table",
                format!(
                    "no estimates record at {} (the README's table comes from the one in the checkout; --records DIR names another), so nothing is compared",
                    printable_path(path)
                ),
            )];
        };
        let row = record.estimates.iter().find(|e| e.n == asked.n);
        let mut table = format!(
            "{} (the README's table): measured on {}",
            printable_path(path),
            printable(&measured_on(record))
        );
        if let Some(row) = row {
            table.push_str(&format!(
                "; at n = {}, {}: {} ± {} s on one thread",
                row.n,
                printable(&row.solver),
                seconds_and_human(row.seconds),
                significant(row.standard_error)
            ));
        }
        let versus = match row {
            None => format!(
                "not compared: the table has no row at n = {} (it has n = {})",
                asked.n,
                record.estimates.iter().map(|e| e.n).join(", ")
            ),
            Some(row) if row.solver != asked.solver => format!(
                "not compared: the table's row at n = {} estimates {}, not {}",
                asked.n,
                printable(&row.solver),
                asked.solver
            ),
            Some(_) if asked.shard.is_some() => format!(
                "not compared: this estimate is of shard {}, the table's of the whole count",
                asked.shard.map(|s| s.to_string()).unwrap_or_default()
            ),
            Some(_) if asked.unique => {
                "not compared: the table's counts are without --unique".to_string()
            }
            Some(row) => match Ratio::of(
                asked.seconds,
                asked.standard_error,
                row.seconds,
                row.standard_error,
            ) {
                None => "not compared: an estimate of 0 s has no ratio".to_string(),
                Some(ratio) => say_ratio(&ratio),
            },
        };
        vec![
            ("table", table),
            ("this CPU", this_machine.to_string()),
            ("vs table", versus),
        ]
    }
}

/// This machine as the comparison names it: its CPU model and cores, as a
/// record's provenance names its own.
pub fn this_machine() -> String {
    let cores = crate::cmd::count::args::cores();
    format!(
        "{} ({})",
        queens_record::cpu_model(),
        counted(cores, "core", "cores")
    )
}

/// The ratio in words: its value and error, and whether the two estimates'
/// sampling explains it.
fn say_ratio(ratio: &Ratio) -> String {
    // What differs besides the machine: the build (a debug one is far
    // slower) and the code since the record was made.
    let verdict = if !ratio.beyond_sampling() {
        "within what the two samples' errors explain (1 is inside ± 2 standard errors), \
         so no difference in speed is shown"
    } else if ratio.value > 1.0 {
        "beyond what the two samples' errors explain, so this machine, its build or \
         the code since the table's commit is slower at this count"
    } else {
        "beyond what the two samples' errors explain, so this machine, its build or \
         the code since the table's commit is faster at this count"
    };
    format!(
        "this estimate is {}× the table's, standard error {} (from both estimates'): {verdict}",
        significant(ratio.value),
        significant(ratio.standard_error)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture() -> Table {
        Table {
            path: PathBuf::from("records/estimates.json"),
            record: Some(serde_json::from_str(queens_record::fixtures::ESTIMATES_JSON).unwrap()),
        }
    }

    fn asked(n: usize, seconds: f64, standard_error: f64) -> Asked<'static> {
        Asked {
            n,
            solver: "half-join",
            shard: None,
            unique: false,
            seconds,
            standard_error,
        }
    }

    fn row<'a>(rows: &'a [(&str, String)], key: &str) -> &'a str {
        &rows.iter().find(|(k, _)| *k == key).unwrap().1
    }

    #[test]
    fn the_rows_name_the_tables_machine_and_this_one() {
        let rows = fixture().rows(&asked(23, 14_400.0, 720.0), "Other CPU (16 cores)");
        let table = row(&rows, "table");
        assert!(table.contains("records/estimates.json"), "{table}");
        assert!(
            table.contains("Test CPU (2 cores), commit 0123456, 2026-01-02"),
            "{table}"
        );
        assert!(table.contains("7200 s (2.0 h) ± 360 s"), "{table}");
        assert_eq!(row(&rows, "this CPU"), "Other CPU (16 cores)");
        // 14400 ± 720 over 7200 ± 360: 2, each 5 % off, so ± 2 · 0.0707.
        let versus = row(&rows, "vs table");
        assert!(
            versus.contains("2.00× the table's, standard error 0.141"),
            "{versus}"
        );
        assert!(versus.contains("slower"), "{versus}");
        let close = fixture().rows(&asked(23, 7_000.0, 700.0), "x");
        assert!(
            row(&close, "vs table").contains("no difference in speed is shown"),
            "{close:?}"
        );
        let faster = fixture().rows(&asked(23, 3_600.0, 100.0), "x");
        assert!(row(&faster, "vs table").contains("0.500×"), "{faster:?}");
        assert!(row(&faster, "vs table").contains("faster"), "{faster:?}");
    }

    #[test]
    fn other_questions_are_named_and_not_compared() {
        let table = fixture();
        let rows = table.rows(&asked(20, 100.0, 5.0), "x");
        assert!(row(&rows, "table").contains("Test CPU"), "{rows:?}");
        assert_eq!(
            row(&rows, "vs table"),
            "not compared: the table has no row at n = 20 (it has n = 23, 24)"
        );
        let other = Asked {
            solver: "constellations",
            ..asked(23, 100.0, 5.0)
        };
        assert!(row(&table.rows(&other, "x"), "vs table").contains("estimates half-join"));
        let shard = Asked {
            shard: Some("2/3".parse().unwrap()),
            ..asked(23, 100.0, 5.0)
        };
        assert!(row(&table.rows(&shard, "x"), "vs table").contains("shard 2/3"));
        let unique = Asked {
            unique: true,
            ..asked(23, 100.0, 5.0)
        };
        assert!(row(&table.rows(&unique, "x"), "vs table").contains("--unique"));
        let missing = Table {
            path: PathBuf::from("nowhere/estimates.json"),
            record: None,
        };
        let rows = missing.rows(&asked(23, 100.0, 5.0), "x");
        assert_eq!(rows.len(), 1);
        assert!(row(&rows, "table").contains("nowhere/estimates.json"));
    }
}
