//! What `queens count` and `queens merge` print: one JSON object with stable
//! field names (`--json`), or a table of the same figures with the solver's
//! extra statistics before the time. The object begins with its format: a
//! shard's record is [`SHARD_FORMAT`] (what `merge` reads), any other count
//! [`COUNT_FORMAT`]. A count in one call also carries the solver's own
//! counters (`extra`: `{"positions_tried": 1965, ...}`), in the object as
//! in the table.

use queens_core::Metric;
use serde::{Serialize, Serializer};

use crate::error::{CliError, print};
use queens_distributed::shard::{SHARD_FORMAT, SHARD_VERSION, ShardRecord};

/// The `format` of a whole count's `--json` object (`count`, `merge`).
pub const COUNT_FORMAT: &str = "queens-count";

/// Its `format_version`: 1 is the first with a header.
pub const COUNT_VERSION: u32 = 1;

/// The record as written: its format first.
#[derive(Serialize)]
struct Headed<'r, 'a> {
    format: &'static str,
    format_version: u32,
    #[serde(flatten)]
    record: &'r CountRecord<'a>,
}

/// The `--json` object: one line, stable field names.
#[derive(Clone, Debug, Default, Serialize)]
pub struct CountRecord<'a> {
    /// Board size.
    pub n: usize,
    /// The solver's id.
    pub solver: &'a str,
    /// Solutions found.
    pub solutions: u64,
    /// Classes up to symmetry, when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unique: Option<u64>,
    /// The solver's unit of work, summed (none for an external program).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// Compute time (summed over shards for a merge).
    pub seconds: f64,
    /// Present only in the record of one shard (`--shard I/K`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shard: Option<ShardRecord>,
    /// The solver's own counters of a count in one call, as one object
    /// `{"name": value, ...}` in the solver's order; left out when none.
    #[serde(
        skip_serializing_if = "<[Metric]>::is_empty",
        serialize_with = "by_name"
    )]
    pub extra: &'a [Metric],
}

/// Counters as one JSON object, by name.
fn by_name<S: Serializer>(counters: &&[Metric], serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_map(counters.iter().map(|metric| (&metric.name, metric.value)))
}

impl CountRecord<'_> {
    /// Prints the record to stdout: one JSON line, or a table with the
    /// solver's counters and then `rows` (name, value) before the time.
    pub fn print(&self, rows_before_time: &[(&str, String)], json: bool) -> Result<(), CliError> {
        let (format, format_version) = match self.shard {
            Some(_) => (SHARD_FORMAT, SHARD_VERSION),
            None => (COUNT_FORMAT, COUNT_VERSION),
        };
        let headed = Headed {
            format,
            format_version,
            record: self,
        };
        let mut rows = vec![
            ("n", self.n.to_string()),
            ("solver", self.solver.to_string()),
            ("solutions", self.solutions.to_string()),
        ];
        rows.extend(self.unique.map(|unique| ("unique", unique.to_string())));
        rows.extend(self.nodes.map(|nodes| ("nodes", nodes.to_string())));
        rows.extend(
            (self.extra.iter()).map(|metric| (metric.name.as_str(), metric.value.to_string())),
        );
        rows.extend(rows_before_time.iter().cloned());
        rows.push(("seconds", format!("{:.6}", self.seconds)));
        print_record(&headed, &rows, json)
    }
}

/// Prints `record` as one JSON line (`json`), or else `rows` as one
/// `name  value` line each, the names as wide as the widest.
pub fn print_record(
    record: &impl Serialize,
    rows: &[(&str, String)],
    json: bool,
) -> Result<(), CliError> {
    if json {
        let line = serde_json::to_string(record).expect("plain data serialises");
        return print(&format!("{line}\n"));
    }
    let width = rows.iter().map(|(key, _)| key.len()).max().unwrap_or(0);
    let lines: String = (rows.iter())
        .map(|(key, value)| format!("{key:width$}  {value}\n"))
        .collect();
    print(&lines)
}
