//! The instructions record: how many machine instructions each solver's
//! search retires at n = 8..12, counted by valgrind's callgrind (made by
//! `cargo xtask instructions`, documented in `bench-results/FORMAT.md`).
//! Unlike a time, the count is the same on every run of the same binary,
//! so it is the one measure of work that compares solvers whose nodes mean
//! different things: instructions per solution.
//!
//! A record of its own kind, not entries of the bench record: it is made by
//! another tool (an emulator, not a clock), on another build (valgrind
//! decodes no AVX-512), at other moments. Its files are named
//! `<UTC time>-instructions.json` beside the bench records; [`crate::newest`]
//! never takes one for a bench record, [`newest_instructions`] finds them.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use queens_core::oeis;

use super::meaning::{Problem, among, ensure, listed, reread};
use super::provenance::Provenance;
use super::store::{Kind, header, newest_of_kind, read_kind, write_new_json};
use crate::error::FileError;
use crate::valid::*;

/// The value of the `format` field of an instructions record.
pub const INSTRUCTIONS_FORMAT: &str = "queens-instructions";
/// The version this build writes. Version 2 nested what happened to an
/// entry in its `outcome` and stopped storing the ratios (computed);
/// version 1 (`"schema": "queens-instructions-record"`) is refused.
pub const INSTRUCTIONS_FORMAT_VERSION: u32 = 2;
/// What an instructions record's file name ends with, before `.json`.
pub const INSTRUCTIONS_KIND: &str = "instructions";

const INSTRUCTIONS: Kind = Kind {
    format: INSTRUCTIONS_FORMAT,
    version: INSTRUCTIONS_FORMAT_VERSION,
    retired: Some("queens-instructions-record"),
    name: "an instructions record",
    remedy: "rerun `cargo xtask instructions`",
    versions_of: "instructions ",
};

/// One run of `cargo xtask instructions`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InstructionsRecord {
    /// Always [`INSTRUCTIONS_FORMAT`].
    pub format: String,
    /// Always [`INSTRUCTIONS_FORMAT_VERSION`].
    pub format_version: u32,
    /// Where the numbers come from (`rustc`: the compiler of the counted
    /// binary).
    pub provenance: Provenance,
    /// `valgrind --version`, e.g. `valgrind-3.19.0`.
    #[serde(deserialize_with = "valid::<Filled, _, _>")]
    pub valgrind: String,
    /// How the counted binary was built, as a command.
    #[serde(deserialize_with = "valid::<Filled, _, _>")]
    pub build: String,
    /// What is counted: the function callgrind collected in, and what runs
    /// in it.
    #[serde(deserialize_with = "valid::<Filled, _, _>")]
    pub counted: String,
    /// Seconds of callgrind one (solver, n) may take before the solver
    /// climbs no higher.
    #[serde(deserialize_with = "valid::<Seconds<WEEK>, _, _>")]
    pub budget_seconds: f64,
    /// The solvers covered, as they described themselves then.
    pub solvers: Vec<InstructionsSolver>,
    /// One entry per (solver, n).
    pub entries: Vec<InstructionsEntry>,
}

/// A solver as the instructions record saw it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InstructionsSolver {
    /// The solver's id.
    #[serde(deserialize_with = "valid::<Id, _, _>")]
    pub id: String,
    /// What one node is for this solver.
    #[serde(deserialize_with = "valid::<Line, _, _>")]
    pub node: String,
    /// The largest n it supports.
    #[serde(deserialize_with = "valid::<Within<1, COUNT_N>, _, _>")]
    pub max_n: usize,
}

/// What happened to one (solver, n), as a kind: what [`Counting`] is,
/// without its figures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum InstructionsStatus {
    /// Counted.
    Counted,
    /// Not counted: the solver's search does not run in this process (a GPU
    /// engine) or cannot run under valgrind.
    Skipped,
    /// Not counted: a smaller n already took longer than the budget.
    OverBudget,
    /// Not counted: the run failed or its count was wrong.
    Error,
}

/// What happened to one (solver, n), with its counts or why there are none.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Counting {
    /// Counted.
    Counted {
        /// Solutions of the counted search (OEIS A000170's).
        solutions: u64,
        /// Nodes of the counted search, as the solver defines a node.
        nodes: u64,
        /// Instructions retired inside the search, of one count.
        instructions: u64,
        /// Seconds the callgrind run took (the emulation, not the search),
        /// rounded to tenths: a quick run takes 0.0 s.
        #[serde(deserialize_with = "valid::<Span<WEEK>, _, _>")]
        callgrind_seconds: f64,
    },
    /// Not counted: the search does not run in this process.
    Skipped {
        /// Why, on one line.
        #[serde(deserialize_with = "valid::<Filled, _, _>")]
        why: String,
    },
    /// Not counted: a smaller n already took longer than the budget.
    OverBudget {
        /// Why, on one line.
        #[serde(deserialize_with = "valid::<Filled, _, _>")]
        why: String,
    },
    /// Not counted: the run failed or its count was wrong.
    Error {
        /// Why, on one line.
        #[serde(deserialize_with = "valid::<Filled, _, _>")]
        why: String,
    },
}

/// One (solver, n).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InstructionsEntry {
    /// The solver's id.
    pub solver: String,
    /// Board size.
    pub n: usize,
    /// Counted (with its counts), or why not.
    pub outcome: Counting,
}

impl InstructionsEntry {
    /// The entry of (solver, n).
    pub fn new(solver: &str, n: usize, outcome: Counting) -> Self {
        InstructionsEntry {
            solver: solver.to_string(),
            n,
            outcome,
        }
    }

    /// What happened, without its figures.
    pub fn status(&self) -> InstructionsStatus {
        match self.outcome {
            Counting::Counted { .. } => InstructionsStatus::Counted,
            Counting::Skipped { .. } => InstructionsStatus::Skipped,
            Counting::OverBudget { .. } => InstructionsStatus::OverBudget,
            Counting::Error { .. } => InstructionsStatus::Error,
        }
    }

    /// Why it was not counted; `None` when counted.
    pub fn reason(&self) -> Option<&str> {
        match &self.outcome {
            Counting::Counted { .. } => None,
            Counting::Skipped { why } | Counting::OverBudget { why } | Counting::Error { why } => {
                Some(why)
            }
        }
    }

    /// Instructions retired by the counted search.
    pub fn instructions(&self) -> Option<u64> {
        self.counts().map(|(_, _, instructions)| instructions)
    }

    /// Nodes of the counted search.
    pub fn nodes(&self) -> Option<u64> {
        self.counts().map(|(_, nodes, _)| nodes)
    }

    /// Instructions per node of the counted search.
    pub fn per_node(&self) -> Option<f64> {
        let (_, nodes, instructions) = self.counts().filter(|c| c.1 > 0)?;
        Some(instructions as f64 / nodes as f64)
    }

    /// Instructions per solution of the counted search.
    pub fn per_solution(&self) -> Option<f64> {
        let (solutions, _, instructions) = self.counts().filter(|c| c.0 > 0)?;
        Some(instructions as f64 / solutions as f64)
    }

    /// (solutions, nodes, instructions) when counted.
    fn counts(&self) -> Option<(u64, u64, u64)> {
        match self.outcome {
            Counting::Counted {
                solutions,
                nodes,
                instructions,
                ..
            } => Some((solutions, nodes, instructions)),
            _ => None,
        }
    }
}

impl InstructionsRecord {
    /// A record of this format version.
    pub fn new(
        provenance: Provenance,
        valgrind: String,
        build: String,
        counted: String,
        budget_seconds: f64,
        solvers: Vec<InstructionsSolver>,
        entries: Vec<InstructionsEntry>,
    ) -> Self {
        InstructionsRecord {
            format: INSTRUCTIONS_FORMAT.to_string(),
            format_version: INSTRUCTIONS_FORMAT_VERSION,
            provenance,
            valgrind,
            build,
            counted,
            budget_seconds,
            solvers,
            entries,
        }
    }

    /// The entry of (solver, n), if the record has one.
    pub fn entry(&self, solver: &str, n: usize) -> Option<&InstructionsEntry> {
        self.entries.iter().find(|e| e.solver == solver && e.n == n)
    }
}

/// Writes `record` to a new `<date>-instructions.json` in `dir`, never
/// replacing a file (as [`crate::write_new`] does for bench records).
pub fn write_new_instructions(
    dir: &Path,
    record: &InstructionsRecord,
) -> Result<PathBuf, FileError> {
    write_new_json(dir, INSTRUCTIONS_KIND, &record.provenance.date, record)
}

/// The newest instructions record in `dir`, or `None` when there is none.
pub fn newest_instructions(dir: &Path) -> Result<Option<PathBuf>, FileError> {
    newest_of_kind(dir, &[INSTRUCTIONS_KIND])
}

/// Whether the JSON text is an instructions record (by its header), so
/// that a reader given a file can tell the kinds apart before reading it.
pub fn is_instructions_record(text: &str) -> bool {
    serde_json::from_str::<Value>(text)
        .is_ok_and(|value| header(Path::new(""), &value, &INSTRUCTIONS).is_ok())
}

/// Reads and checks one instructions record: its shape, then its meaning.
pub fn read_instructions(path: &Path) -> Result<InstructionsRecord, FileError> {
    read_kind(path, &INSTRUCTIONS, consistent)
}

/// Checks an instructions record's meaning, its fields' values and how
/// they agree; the first problem, with its field.
pub fn check(record: &InstructionsRecord) -> Result<(), Problem> {
    reread(record).and_then(|()| consistent(record))
}

/// Checks how the fields of an instructions record that reads agree.
fn consistent(record: &InstructionsRecord) -> Result<(), Problem> {
    // A record of this kind names its command and compiler.
    for (field, text) in [
        ("provenance.command", &record.provenance.command),
        ("provenance.rustc", &record.provenance.rustc),
    ] {
        ensure(!text.trim().is_empty(), field, "empty")?;
    }
    let mut ids = BTreeMap::new();
    for (i, solver) in record.solvers.iter().enumerate() {
        listed(&format!("solvers[{i}]"), &solver.id, solver.max_n, &mut ids)?;
    }
    let mut seen = BTreeSet::new();
    for (i, entry) in record.entries.iter().enumerate() {
        let at = |name: &str| format!("entries[{i}].{name}");
        among(&at, "solvers", &ids, &entry.solver, entry.n)?;
        let text = format!("a second entry for ({}, n = {})", entry.solver, entry.n);
        ensure(
            seen.insert((entry.solver.as_str(), entry.n)),
            format!("entries[{i}]"),
            text,
        )?;
        if let Counting::Counted {
            solutions,
            nodes,
            instructions,
            ..
        } = entry.outcome
        {
            let expected = oeis::total(entry.n);
            let count = expected.map_or("count".to_string(), |e| e.to_string());
            let text = format!(
                "a counted search of n = {} must find the published {count}",
                entry.n
            );
            ensure(expected == Some(solutions), at("outcome.solutions"), text)?;
            // Named here, not by a type: inside the tagged outcome a
            // refusal could not name its field.
            let text = "a counted search visits at least one node";
            ensure(nodes > 0, at("outcome.nodes"), text)?;
            let text = "a counted search retires at least one instruction";
            ensure(instructions > 0, at("outcome.instructions"), text)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::sample_instructions;
    use serde_json::json;

    fn blamed(change: impl FnOnce(&mut InstructionsRecord)) -> String {
        let mut record = sample_instructions();
        assert_eq!(check(&record), Ok(()), "the fixture is sound");
        change(&mut record);
        check(&record).expect_err("the change must be refused").0
    }

    #[test]
    fn a_record_round_trips_and_is_never_a_bench_record() {
        let dir = tempfile::tempdir().unwrap();
        let record = sample_instructions();
        let path = write_new_instructions(dir.path(), &record).unwrap();
        assert_eq!(
            path.file_name().unwrap(),
            "2026-01-02T030405.678Z-instructions.json"
        );
        assert_eq!(read_instructions(&path).unwrap(), record);
        assert!(is_instructions_record(
            &std::fs::read_to_string(&path).unwrap()
        ));
        assert_eq!(newest_instructions(dir.path()).unwrap(), Some(path.clone()));
        // The newest bench record is not this one, however its name sorts.
        assert!(crate::newest(dir.path()).is_err());
        let bench = crate::write_new(dir.path(), "bench", &crate::fixtures::sample_record());
        assert_eq!(crate::newest(dir.path()).unwrap(), bench.unwrap());
        // A second record never replaces the first.
        let second = write_new_instructions(dir.path(), &record).unwrap();
        assert_ne!(second, path);
        assert_eq!(newest_instructions(dir.path()).unwrap(), Some(second));
    }

    /// The fields of the counted entry `i` of `record`.
    fn counts(record: &mut InstructionsRecord, i: usize) -> (&mut u64, &mut u64, &mut u64) {
        match &mut record.entries[i].outcome {
            Counting::Counted {
                solutions,
                nodes,
                instructions,
                ..
            } => (solutions, nodes, instructions),
            _ => panic!("entry {i} is counted in the fixture"),
        }
    }

    #[test]
    fn counts_that_no_real_run_gives_are_refused() {
        assert_eq!(
            blamed(|r| *counts(r, 0).0 = 93),
            "entries[0].outcome.solutions"
        );
        assert_eq!(blamed(|r| *counts(r, 0).1 = 0), "entries[0].outcome.nodes");
        assert_eq!(
            blamed(|r| *counts(r, 0).2 = 0),
            "entries[0].outcome.instructions"
        );
        assert_eq!(blamed(|r| r.entries[0].n = 40), "entries[0].n");
        assert_eq!(
            blamed(|r| r.entries[0].solver = "nobody".into()),
            "entries[0].solver"
        );
        let copy = sample_instructions().entries[0].clone();
        let last = sample_instructions().entries.len();
        assert_eq!(blamed(|r| r.entries.push(copy)), format!("entries[{last}]"));
        assert_eq!(
            blamed(|r| r.entries[1].outcome = Counting::Error { why: " ".into() }),
            "entries[1].outcome",
            "inside the tagged outcome, the field is not named"
        );
        assert_eq!(blamed(|r| r.budget_seconds = -1.0), "budget_seconds");
        assert_eq!(blamed(|r| r.valgrind = "a\nb".into()), "valgrind");
    }

    #[test]
    fn the_ratios_are_the_counts_over_their_divisors() {
        let record = sample_instructions();
        let entry = &record.entries[0];
        assert_eq!(entry.per_node(), Some(41_140.0 / 2057.0));
        assert_eq!(entry.per_solution(), Some(41_140.0 / 92.0));
        assert_eq!(entry.instructions(), Some(41_140));
        let skipped = &record.entries[1];
        assert_eq!((skipped.per_node(), skipped.instructions()), (None, None));
        assert_eq!(skipped.reason(), Some("counts on a device"));
    }

    #[test]
    fn a_version_1_record_is_refused_in_one_line() {
        let mut old = serde_json::to_value(sample_instructions()).unwrap();
        let object = old.as_object_mut().unwrap();
        object.remove("format");
        object.remove("format_version");
        object.insert("schema".into(), "queens-instructions-record".into());
        object.insert("schema_version".into(), 1.into());
        assert!(!is_instructions_record(&old.to_string()));
        let problem = problem_with(&old.to_string());
        assert!(
            problem.contains("field `schema_version`: version 1")
                && problem.contains("no longer reads")
                && problem.contains("cargo xtask instructions"),
            "{problem}"
        );
    }

    fn problem_with(text: &str) -> String {
        crate::fixtures::refusal("x-instructions.json", text, read_instructions)
    }

    #[test]
    fn bad_files_are_refused_in_one_line() {
        let good = serde_json::to_value(sample_instructions()).unwrap();
        let text = good.to_string();
        assert!(problem_with(&text[..text.len() / 2]).contains("truncated"));
        assert!(problem_with("[]").contains("not an instructions record"));
        let bench = serde_json::to_string(&crate::fixtures::sample_record()).unwrap();
        assert!(problem_with(&bench).contains("not an instructions record"));
        let mut other = good.clone();
        other["format_version"] = json!(3);
        assert!(problem_with(&other.to_string()).contains("version 3"));
        let mut unknown = good.clone();
        unknown["entries"][0]["cycles"] = json!(1);
        assert!(problem_with(&unknown.to_string()).contains("does not follow"));
        let mut wrong = good;
        wrong["entries"][0]["outcome"]["solutions"] = json!(91);
        assert!(problem_with(&wrong.to_string()).contains("field `entries[0].outcome.solutions`"));
    }
}
