//! `--shard I/K`: which part of a split count this run does, and the record
//! a shard leaves for `queens merge`.
//!
//! A shard record carries, besides its totals, the subtotal of every unit it
//! counted and a checksum over all of it (SHA-256 of its canonical JSON).
//! The subtotals make a record re-verifiable (`queens recheck` recounts a
//! sample of them, two records of one shard can be compared unit by unit),
//! and the checksum tells a damaged or edited file from a real one: the
//! lesson of the counts that stood (q27's subtotals could all be checked)
//! and of those that did not (an undetected overflow ended Queens@Home).

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use queens_core::split::UnitCount;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The `format` at the head of a shard record (`count --shard I/K
/// --json`).
pub const SHARD_FORMAT: &str = "queens-shard";

/// Its `format_version`, changed whenever a field changes meaning, so that
/// a record of another version is refused, never misread. Version 3 moved
/// the format from the shard object to the record's head.
pub const SHARD_VERSION: u32 = 3;

/// How version 2 named itself, inside the shard object: still read.
pub const SHARD_FORMAT_2: &str = "queens-shard/2";

/// The most shards a count is split into: far more machines than any
/// cluster run has, and small enough that dealing units to shards (one
/// counter per shard) costs nothing.
pub const MAX_SHARDS: usize = 1 << 20;

/// What a finished run found.
#[derive(Debug)]
pub struct Counted {
    /// The counts of this run's units (all of them, or one shard's), plus
    /// the plan's nodes in the first (or only) shard.
    pub total: UnitCount,
    /// Every unit's count, in plan order.
    pub subtotals: Vec<Subtotal>,
    /// Units in the whole plan.
    pub plan_units: usize,
    /// Units counted (this shard's, or all).
    pub units: usize,
    /// Units taken from the checkpoint instead of being counted again.
    pub resumed: usize,
    /// Saved units recounted (`recheck`) and found as saved.
    pub rechecked: usize,
    /// Nodes spent making the plan (included in `total.nodes` for the first
    /// or only shard).
    pub plan_nodes: u64,
    /// Seconds spent counting, earlier attempts of a resumed run included.
    pub seconds: f64,
}

/// Shard `index` of `count`, both counted from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ShardSpec {
    /// Which shard, from 1.
    pub index: usize,
    /// How many shards in all.
    pub count: usize,
}

impl fmt::Display for ShardSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for ShardSpec {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let malformed = || "expected I/K (shard I of K, 1 <= I <= K), e.g. 3/8".to_string();
        let (index, count) = text.trim().split_once('/').ok_or_else(malformed)?;
        let index: usize = index.trim().parse().map_err(|_| malformed())?;
        let count: usize = count.trim().parse().map_err(|_| malformed())?;
        if count == 0 {
            return Err("the number of shards K must be at least 1".to_string());
        }
        if count > MAX_SHARDS {
            return Err(format!(
                "the number of shards K is at most {MAX_SHARDS}, got {count}"
            ));
        }
        if index == 0 {
            return Err(format!(
                "shards are numbered from 1: 1/{count} .. {count}/{count}"
            ));
        }
        if index > count {
            return Err(format!(
                "there is no shard {index} of {count}: 1/{count} .. {count}/{count}"
            ));
        }
        Ok(ShardSpec { index, count })
    }
}

/// clap's value parser for `--shard`.
pub fn parse_shard(text: &str) -> Result<ShardSpec, String> {
    text.parse()
}

/// The count of one unit, as a shard record and a checkpoint keep it.
///
/// On disk it is the array `[unit, solutions, fixed pairs, nodes]`, the
/// form every record since `queens-shard/2` and `queens-checkpoint/2` was
/// written in (and that their checksums cover), so the named fields change
/// nothing in the files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "SubtotalRow", into = "SubtotalRow")]
pub struct Subtotal {
    /// The unit's index in the plan.
    pub unit: usize,
    /// What counting it found.
    pub count: UnitCount,
}

/// A [`Subtotal`] as written: `[unit, solutions, fixed pairs, nodes]`.
type SubtotalRow = (usize, u64, u64, u64);

impl From<SubtotalRow> for Subtotal {
    fn from((unit, solutions, fixed_pairs, nodes): SubtotalRow) -> Self {
        Subtotal {
            unit,
            count: UnitCount {
                solutions,
                fixed_pairs,
                nodes,
                pair_tests: 0,
            },
        }
    }
}

impl From<Subtotal> for SubtotalRow {
    fn from(subtotal: Subtotal) -> Self {
        let count = subtotal.count;
        (
            subtotal.unit,
            count.solutions,
            count.fixed_pairs,
            count.nodes,
        )
    }
}

/// Finished units by index, as the subtotals a record or a checkpoint
/// keeps, in plan order.
pub(crate) fn subtotals(done: &BTreeMap<usize, UnitCount>) -> Vec<Subtotal> {
    (done.iter())
        .map(|(&unit, &count)| Subtotal { unit, count })
        .collect()
}

/// The part of a `count --shard I/K --json` record that `merge` needs
/// besides the totals: which shard, of which partition, with which options,
/// every unit's subtotal, and the checksum.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShardRecord {
    /// [`SHARD_FORMAT_2`] in a record of version 2; absent since (the
    /// record's head names its format).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub format: Option<String>,
    /// Which shard, from 1.
    pub index: usize,
    /// How many shards in all.
    pub count: usize,
    /// The partition's version ([`queens_core::split::WorkSplit::version`]).
    pub split: String,
    /// Units in the whole plan (all shards).
    pub plan_units: usize,
    /// Work units in this shard.
    pub units: usize,
    /// This shard's share of Burnside's fixed pairs (with `--unique` only):
    /// the classes are the sum over all shards divided by 8.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub fixed_pairs: Option<u64>,
    /// Every unit of the shard with its count, in plan order.
    pub subtotals: Vec<Subtotal>,
    /// SHA-256 (hex) of the record's canonical JSON with this field empty:
    /// see [`checksum`].
    pub checksum: String,
}

impl ShardRecord {
    /// The record of shard `spec` of a finished run of `split` (its
    /// version), sealed with its [`checksum`]: fixed pairs are kept when
    /// the run counted them (`unique`).
    pub fn seal(
        n: usize,
        solver: &str,
        spec: ShardSpec,
        split: &str,
        counted: &Counted,
        unique: bool,
    ) -> ShardRecord {
        let mut shard = ShardRecord {
            format: None,
            index: spec.index,
            count: spec.count,
            split: split.to_string(),
            plan_units: counted.plan_units,
            units: counted.units,
            fixed_pairs: unique.then_some(counted.total.fixed_pairs),
            subtotals: counted.subtotals.clone(),
            checksum: String::new(),
        };
        let total = counted.total;
        shard.checksum = checksum(
            n,
            solver,
            total.solutions,
            total.nodes,
            counted.seconds,
            &shard,
        );
        shard
    }
}

/// The checksum of a shard record: SHA-256 of the JSON of (n, solver,
/// solutions, nodes, seconds, the shard part with an empty checksum), in
/// lower-case hex. Every number of the record is covered, so an edited or
/// damaged record is told apart from a real one.
pub fn checksum(
    n: usize,
    solver: &str,
    solutions: u64,
    nodes: u64,
    seconds: f64,
    shard: &ShardRecord,
) -> String {
    let unsealed = ShardRecord {
        checksum: String::new(),
        ..shard.clone()
    };
    sha256_of_json(&(n, solver, solutions, nodes, seconds, &unsealed))
}

/// SHA-256, in lower-case hex, of `value`'s JSON: the checksum of a shard
/// record and of a checkpoint, each taken with its checksum field empty.
pub(crate) fn sha256_of_json(value: &impl Serialize) -> String {
    let canonical = serde_json::to_string(value).expect("plain data serialises");
    hex(&Sha256::digest(canonical.as_bytes()))
}

/// Lower-case hex of bytes.
pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_read_back_has_the_checksum_it_was_written_with() {
        // Seconds like these once came back one unit in the last place off
        // (serde_json's fast float parser), and the checksum failed.
        for seconds in [
            0.16359590499999999,
            0.1 + 0.2,
            1e-7 / 3.0,
            12345.678901234567,
        ] {
            let shard = ShardRecord {
                format: None,
                index: 1,
                count: 2,
                split: "x/1".to_string(),
                plan_units: 3,
                units: 1,
                fixed_pairs: None,
                subtotals: vec![Subtotal::from((0, 5, 0, 9))],
                checksum: String::new(),
            };
            let sealed = checksum(8, "x", 5, 9, seconds, &shard);
            let text = serde_json::to_string(&seconds).unwrap();
            let back: f64 = serde_json::from_str(&text).unwrap();
            assert_eq!(back.to_bits(), seconds.to_bits(), "{text}");
            assert_eq!(checksum(8, "x", 5, 9, back, &shard), sealed);
        }
    }

    #[test]
    fn a_subtotal_is_written_as_the_array_records_have_always_held() {
        let subtotal = Subtotal {
            unit: 7,
            count: UnitCount {
                solutions: 40,
                fixed_pairs: 4,
                nodes: 300,
                pair_tests: 0,
            },
        };
        let text = serde_json::to_string(&subtotal).unwrap();
        assert_eq!(text, "[7,40,4,300]");
        assert_eq!(serde_json::from_str::<Subtotal>(&text).unwrap(), subtotal);
        for wrong in ["[7,40,4]", "{\"unit\":7}", "[7,40,4,300,1]", "[-1,0,0,0]"] {
            assert!(serde_json::from_str::<Subtotal>(wrong).is_err(), "{wrong}");
        }
    }

    #[test]
    fn shard_specs_parse_and_refuse_nonsense() {
        assert_eq!("3/8".parse(), Ok(ShardSpec { index: 3, count: 8 }));
        assert_eq!("1/1".parse(), Ok(ShardSpec { index: 1, count: 1 }));
        for bad in [
            "0/4",
            "5/4",
            "1/0",
            "3",
            "a/b",
            "-1/4",
            "2/4/8",
            "",
            "1/18446744073709551615",
        ] {
            assert!(bad.parse::<ShardSpec>().is_err(), "{bad}");
        }
    }
}
