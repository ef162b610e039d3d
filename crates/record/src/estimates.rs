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
use crate::meaning::{ensure, reread};
use crate::store::{Kind, read_kind};
use crate::valid::{NonNegative, valid};

/// The record's file name in [`crate::RECORDS_DIR`].
pub const ESTIMATES_FILE: &str = "estimates.json";

/// The `format` field of the record.
pub const ESTIMATES_FORMAT: &str = "queens-estimates";

/// The version this crate writes and reads; any other is refused.
/// Version 2 added each row's `pieces` and `longest_piece_seconds`.
pub const ESTIMATES_VERSION: u32 = 2;

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
    #[serde(deserialize_with = "valid::<NonNegative, _, _>")]
    pub seconds: f64,
    /// Standard error of `seconds`.
    #[serde(deserialize_with = "valid::<NonNegative, _, _>")]
    pub standard_error: f64,
    /// The engine's units in the plan (whole units, however the plan cuts
    /// them into pieces).
    pub units: usize,
    /// The plan's pieces in the run: what threads, shards and checkpoints
    /// hand out (a unit the plan does not cut is one piece).
    pub pieces: usize,
    /// The heaviest piece's predicted seconds on one thread: `seconds`
    /// over the run's weight, times that piece's weight. No thread, no
    /// checkpoint and no preempted task can lose more work than this.
    #[serde(deserialize_with = "valid::<NonNegative, _, _>")]
    pub longest_piece_seconds: f64,
    /// Draws of units.
    pub draws: usize,
    /// Parts timed.
    pub parts_timed: usize,
    /// Seconds the estimate took to time its sample.
    #[serde(deserialize_with = "valid::<NonNegative, _, _>")]
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

/// A float comparison's slack: `longest_piece_seconds` is `seconds`
/// divided and multiplied back, so it may be off by a rounding or two.
const ROUNDING: f64 = 1e-9;

/// The header an estimates record carries, and what a refusal says.
const ESTIMATES: Kind = Kind {
    format: ESTIMATES_FORMAT,
    version: ESTIMATES_VERSION,
    retired: None,
    name: "an estimates record",
    remedy: "rerun `cargo xtask estimates`",
    versions_of: "estimates ",
};

impl EstimatesRecord {
    /// The first field that a real record could not hold, and why.
    pub fn check(&self) -> Result<(), (String, String)> {
        reread(self).and_then(|()| self.consistent())
    }

    /// How the fields of a record that reads agree.
    fn consistent(&self) -> Result<(), (String, String)> {
        let mut last = 0;
        for (i, e) in self.estimates.iter().enumerate() {
            let field = |name: &str| format!("estimates[{i}].{name}");
            ensure(e.n > last, field("n"), "rows must be by increasing n")?;
            last = e.n;
            // Every unit is at least one piece.
            let text = format!(
                "{} cannot hold {}",
                queens_core::counted(e.pieces, "piece", "pieces"),
                queens_core::counted(e.units, "unit", "units")
            );
            ensure(e.pieces >= e.units, field("pieces"), text)?;
            // One piece is a share of the whole, and the heaviest share is
            // at least the mean one.
            let slack = e.seconds * ROUNDING;
            let text = "one piece cannot take longer than the whole count (`seconds`)";
            let longest = field("longest_piece_seconds");
            ensure(e.longest_piece_seconds <= e.seconds + slack, &longest, text)?;
            let text =
                "the longest piece cannot be shorter than the mean one (`seconds` / `pieces`)";
            let mean = e.longest_piece_seconds * e.pieces as f64 + slack >= e.seconds;
            ensure(mean, longest, text)?;
        }
        Ok(())
    }
}

/// Reads and checks a record: a problem is one line naming the file and
/// the field.
pub fn read_estimates(path: &Path) -> Result<EstimatesRecord, FileError> {
    // A record of another version is refused for its version (by its
    // header), not for the first field that version lacks.
    read_kind(path, &ESTIMATES, EstimatesRecord::consistent)
}

/// Reads and checks the record at `path` when one is there: `None` when
/// nothing is (a binary run outside the checkout, say), a one-line refusal
/// when something is there that is not a real record.
pub fn read_estimates_if_present(path: &Path) -> Result<Option<EstimatesRecord>, FileError> {
    if !path.exists() {
        return Ok(None);
    }
    read_estimates(path).map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fixture with `from` replaced by `to`, written to a file, and
    /// what reading it says.
    fn read_changed(from: &str, to: &str) -> Result<EstimatesRecord, FileError> {
        let fixture = crate::fixtures::ESTIMATES_JSON;
        assert!(fixture.contains(from), "the fixture has no {from}");
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(ESTIMATES_FILE);
        std::fs::write(&path, fixture.replacen(from, to, 1)).unwrap();
        read_estimates(&path)
    }

    /// The one-line refusal of a changed fixture, checked to name `field`.
    fn refusal(from: &str, to: &str, field: &str) -> String {
        let message = read_changed(from, to).unwrap_err().to_string();
        assert!(!message.contains('\n'), "{message}");
        assert!(message.contains(&format!("field `{field}`")), "{message}");
        message
    }

    #[test]
    fn a_record_of_another_version_is_refused_for_its_version() {
        // A version-1 record has no pieces: it is refused for its version,
        // not for the first field it lacks.
        let old = crate::fixtures::ESTIMATES_JSON
            .replace("\"format_version\": 2", "\"format_version\": 1")
            .lines()
            .filter(|l| !l.contains("\"pieces\"") && !l.contains("\"longest_piece_seconds\""))
            .collect::<Vec<_>>()
            .join("\n");
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(ESTIMATES_FILE);
        std::fs::write(&path, old).unwrap();
        let message = read_estimates(&path).unwrap_err().to_string();
        assert!(!message.contains('\n'), "{message}");
        assert!(
            message.contains("field `format_version`: version 1"),
            "{message}"
        );
        assert!(message.contains("cargo xtask estimates"), "{message}");
        let missing = refusal("\"format_version\": 2,", "", "format_version");
        assert!(missing.contains("missing"), "{missing}");
        let other = read_changed("\"queens-estimates\"", "\"queens-record\"");
        let other = other.unwrap_err().to_string();
        assert!(other.contains("not an estimates record"), "{other}");
    }

    #[test]
    fn pieces_and_the_longest_piece_must_fit_the_whole() {
        assert!(read_changed("\"pieces\": 5000", "\"pieces\": 2000").is_ok());
        refusal(
            "\"pieces\": 5000",
            "\"pieces\": 1999",
            "estimates[1].pieces",
        );
        for bad in ["-1.0", "1e999"] {
            refusal(
                "\"longest_piece_seconds\": 60.0",
                &format!("\"longest_piece_seconds\": {bad}"),
                "estimates[1].longest_piece_seconds",
            );
        }
        // Longer than the whole count (90000 s), and shorter than the
        // mean of its 5000 pieces (18 s).
        for bad in ["90001.0", "17.0"] {
            refusal(
                "\"longest_piece_seconds\": 60.0",
                &format!("\"longest_piece_seconds\": {bad}"),
                "estimates[1].longest_piece_seconds",
            );
        }
        // One piece holding the whole count is as long as it.
        assert!(
            read_changed(
                "\"longest_piece_seconds\": 60.0",
                "\"longest_piece_seconds\": 90000.0"
            )
            .is_ok()
        );
        refusal("      \"pieces\": 5000,\n", "", "estimates[1]");
    }

    #[test]
    fn a_missing_record_is_none_and_a_broken_one_still_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(ESTIMATES_FILE);
        assert_eq!(read_estimates_if_present(&path), Ok(None));
        std::fs::write(&path, crate::fixtures::ESTIMATES_JSON).unwrap();
        assert!(read_estimates_if_present(&path).unwrap().is_some());
        std::fs::write(&path, "{}").unwrap();
        assert!(read_estimates_if_present(&path).is_err());
    }

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
