//! The record of projected count times: `queens count N --estimate` at
//! each n of a range (Q(23)..Q(28) for the README), on one machine, with
//! where the figures come from. One file, `bench-results/estimates.json`,
//! replaced on purpose by each new record: the README states one projection,
//! the newest. `cargo xtask estimates` writes it; `queens report` splices
//! its table into the README between `<!-- BEGIN: estimates -->` and
//! `<!-- END: estimates -->`.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::FileError;
use crate::Provenance;
use crate::files::{from_json, read_text};

/// The record's file name in [`crate::RECORDS_DIR`].
pub const ESTIMATES_FILE: &str = "estimates.json";

/// The `format` field of the record.
pub const ESTIMATES_FORMAT: &str = "queens-estimates";

/// The version this crate writes and reads; any other is refused.
pub const ESTIMATES_VERSION: u32 = 1;

/// Projected times of whole counts, one row per n.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EstimatesRecord {
    /// Always [`ESTIMATES_FORMAT`].
    pub format: String,
    /// Always [`ESTIMATES_VERSION`].
    pub format_version: u32,
    /// Where the figures come from.
    pub provenance: Provenance,
    /// The estimates, by increasing n.
    pub estimates: Vec<Projected>,
}

/// One `queens count N --estimate --json --threads 1` answer, as kept.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Projected {
    /// Board size.
    pub n: usize,
    /// The solver estimated.
    pub solver: String,
    /// Predicted seconds of the whole count on one thread.
    pub seconds: f64,
    /// Standard error of `seconds`.
    pub standard_error: f64,
    /// The engine's units in the plan (whole units, however the plan cuts
    /// them into pieces).
    pub units: usize,
    /// Draws of units.
    pub draws: usize,
    /// Parts timed.
    pub parts_timed: usize,
    /// Seconds the estimate took to time its sample.
    pub sample_seconds: f64,
    /// Peak resident bytes of the one thread, where known.
    pub peak_bytes: Option<u64>,
}

impl Projected {
    /// Core-hours: one-thread seconds in hours.
    pub fn core_hours(&self) -> f64 {
        self.seconds / 3600.0
    }
}

impl EstimatesRecord {
    /// The first field that a real record could not hold, and why.
    pub fn check(&self) -> Result<(), (String, String)> {
        if self.format != ESTIMATES_FORMAT {
            return Err(("format".into(), format!("must be {ESTIMATES_FORMAT}")));
        }
        if self.format_version != ESTIMATES_VERSION {
            return Err((
                "format_version".into(),
                format!(
                    "{} is not the version this program reads ({ESTIMATES_VERSION})",
                    self.format_version
                ),
            ));
        }
        let mut last = 0;
        for (i, e) in self.estimates.iter().enumerate() {
            let field = |name: &str| format!("estimates[{i}].{name}");
            if e.n <= last {
                return Err((field("n"), "rows must be by increasing n".into()));
            }
            last = e.n;
            for (name, value) in [
                ("seconds", e.seconds),
                ("standard_error", e.standard_error),
                ("sample_seconds", e.sample_seconds),
            ] {
                if !value.is_finite() || value < 0.0 {
                    return Err((field(name), "must be a finite number >= 0".into()));
                }
            }
        }
        Ok(())
    }
}

/// Reads and checks a record: a problem is one line naming the file and
/// the field.
pub fn read_estimates(path: &Path) -> Result<EstimatesRecord, FileError> {
    let text = read_text(path)?;
    let record: EstimatesRecord = from_json(path, &text, "not an estimates record")?;
    record
        .check()
        .map_err(|(field, problem)| FileError::new(path, format!("field `{field}`: {problem}")))?;
    Ok(record)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fixture_reads_and_a_broken_one_names_its_field() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(ESTIMATES_FILE);
        std::fs::write(&path, crate::fixtures::ESTIMATES_JSON).unwrap();
        let record = read_estimates(&path).unwrap();
        assert_eq!(record.estimates.len(), 2);
        let broken = crate::fixtures::ESTIMATES_JSON.replace("\"n\": 24", "\"n\": 22");
        std::fs::write(&path, broken).unwrap();
        let message = read_estimates(&path).unwrap_err().to_string();
        assert!(message.contains("estimates[1].n"), "{message}");
    }
}
