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

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use queens_core::oeis;

use super::meaning::MAX_N;
use super::provenance::Provenance;
use super::store::{newest_of_kind, read_json, write_new_json};
use crate::error::FileError;
use crate::files::from_json;

/// The value of the `schema` field of an instructions record.
pub const INSTRUCTIONS_SCHEMA: &str = "queens-instructions-record";
/// The one version this build reads and writes.
pub const INSTRUCTIONS_SCHEMA_VERSION: u32 = 1;
/// What an instructions record's file name ends with, before `.json`.
pub const INSTRUCTIONS_KIND: &str = "instructions";

/// One run of `cargo xtask instructions`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InstructionsRecord {
    /// Always [`INSTRUCTIONS_SCHEMA`].
    pub schema: String,
    /// Always [`INSTRUCTIONS_SCHEMA_VERSION`] when written by this build.
    pub schema_version: u32,
    /// Where the numbers come from (`rustc`: the compiler of the counted
    /// binary).
    pub provenance: Provenance,
    /// `valgrind --version`, e.g. `valgrind-3.19.0`.
    pub valgrind: String,
    /// How the counted binary was built, as a command.
    pub build: String,
    /// What is counted: the function callgrind collected in, and what runs
    /// in it.
    pub counted: String,
    /// Seconds of callgrind one (solver, n) may take before the solver
    /// climbs no higher.
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
    pub id: String,
    /// What one node is for this solver.
    pub node: String,
    /// The largest n it supports.
    pub max_n: usize,
}

/// What happened to one (solver, n).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum InstructionsStatus {
    /// Counted: `instructions` holds the count.
    Counted,
    /// Not counted: the solver's search does not run in this process (a GPU
    /// engine) or cannot run under valgrind; `reason` says which.
    Skipped,
    /// Not counted: a smaller n already took longer than the budget.
    OverBudget,
    /// Not counted: the run failed or its count was wrong (`reason`).
    Error,
}

/// One (solver, n).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InstructionsEntry {
    /// The solver's id.
    pub solver: String,
    /// Board size.
    pub n: usize,
    /// What happened.
    pub status: InstructionsStatus,
    /// Why it was not counted; null when counted.
    pub reason: Option<String>,
    /// Solutions of the counted search (OEIS A000170 when counted).
    pub solutions: Option<u64>,
    /// Nodes of the counted search, as the solver defines a node.
    pub nodes: Option<u64>,
    /// Instructions retired inside the search, of one count.
    pub instructions: Option<u64>,
    /// `instructions / nodes`.
    pub per_node: Option<f64>,
    /// `instructions / solutions`.
    pub per_solution: Option<f64>,
    /// Seconds the callgrind run took (the emulation, not the search).
    pub callgrind_seconds: Option<f64>,
}

impl InstructionsEntry {
    /// A counted entry, its ratios derived from its counts.
    pub fn counted(
        solver: &str,
        n: usize,
        solutions: u64,
        nodes: u64,
        instructions: u64,
        seconds: f64,
    ) -> Self {
        InstructionsEntry {
            solver: solver.to_string(),
            n,
            status: InstructionsStatus::Counted,
            reason: None,
            solutions: Some(solutions),
            nodes: Some(nodes),
            instructions: Some(instructions),
            per_node: (nodes > 0).then(|| instructions as f64 / nodes as f64),
            per_solution: (solutions > 0).then(|| instructions as f64 / solutions as f64),
            callgrind_seconds: Some(seconds),
        }
    }

    /// An entry that was not counted, and why.
    pub fn absent(solver: &str, n: usize, status: InstructionsStatus, reason: String) -> Self {
        InstructionsEntry {
            solver: solver.to_string(),
            n,
            status,
            reason: Some(reason),
            solutions: None,
            nodes: None,
            instructions: None,
            per_node: None,
            per_solution: None,
            callgrind_seconds: None,
        }
    }
}

impl InstructionsRecord {
    /// A record of this schema version.
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
            schema: INSTRUCTIONS_SCHEMA.to_string(),
            schema_version: INSTRUCTIONS_SCHEMA_VERSION,
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

/// Whether the JSON text is an instructions record (by its `schema`), so
/// that a reader given a file can tell the kinds apart before reading it.
pub fn is_instructions_record(text: &str) -> bool {
    serde_json::from_str::<Value>(text)
        .ok()
        .and_then(|v| v.get("schema").and_then(Value::as_str).map(str::to_string))
        .is_some_and(|schema| schema == INSTRUCTIONS_SCHEMA)
}

/// Reads and checks one instructions record: its shape, then its meaning.
pub fn read_instructions(path: &Path) -> Result<InstructionsRecord, FileError> {
    let (text, value) = read_json(path)?;
    if value.get("schema").and_then(Value::as_str) != Some(INSTRUCTIONS_SCHEMA) {
        return Err(FileError::new(
            path,
            format!("not an instructions record (no \"schema\": \"{INSTRUCTIONS_SCHEMA}\")"),
        ));
    }
    match value.get("schema_version").and_then(Value::as_u64) {
        Some(v) if v == u64::from(INSTRUCTIONS_SCHEMA_VERSION) => {}
        other => {
            return Err(FileError::field(
                path,
                "schema_version",
                format!(
                    "{}, but this queens reads only version {INSTRUCTIONS_SCHEMA_VERSION} \
                     (rerun `cargo xtask instructions`)",
                    other.map_or("missing or not a whole number".to_string(), |v| format!(
                        "schema version {v}"
                    ))
                ),
            ));
        }
    }
    let record: InstructionsRecord = from_json(
        path,
        &text,
        &format!("does not follow instructions schema version {INSTRUCTIONS_SCHEMA_VERSION}"),
    )?;
    check(&record).map_err(|(field, problem)| FileError::field(path, field, problem))?;
    Ok(record)
}

type Problem = (String, String);

/// Checks an instructions record's meaning; the first problem, with its
/// field.
pub fn check(record: &InstructionsRecord) -> Result<(), Problem> {
    let problem = |field: String, text: String| Err((field, text));
    for (field, text) in [
        ("valgrind", &record.valgrind),
        ("build", &record.build),
        ("counted", &record.counted),
        ("provenance.command", &record.provenance.command),
        ("provenance.date", &record.provenance.date),
        ("provenance.rustc", &record.provenance.rustc),
    ] {
        if text.trim().is_empty() || text.chars().any(char::is_control) || text.len() > 4096 {
            return problem(
                field.to_string(),
                "empty, over 4096 bytes, or not one line".to_string(),
            );
        }
    }
    if !(record.budget_seconds.is_finite()
        && record.budget_seconds > 0.0
        && record.budget_seconds <= 86_400.0 * 7.0)
    {
        return problem(
            "budget_seconds".into(),
            "not a duration in seconds (above 0, at most a week)".into(),
        );
    }
    let mut ids = BTreeSet::new();
    for (i, solver) in record.solvers.iter().enumerate() {
        let field = format!("solvers[{i}]");
        if solver.id.is_empty()
            || !solver
                .id
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        {
            return problem(format!("{field}.id"), "not a solver id".into());
        }
        if !ids.insert(solver.id.as_str()) {
            return problem(
                format!("{field}.id"),
                format!("'{}' is listed twice", solver.id),
            );
        }
        if !(1..=MAX_N).contains(&solver.max_n) {
            return problem(format!("{field}.max_n"), format!("not in 1..={MAX_N}"));
        }
        if solver.node.chars().any(char::is_control) || solver.node.len() > 4096 {
            return problem(format!("{field}.node"), "not one line".into());
        }
    }
    let mut seen = BTreeSet::new();
    for (i, entry) in record.entries.iter().enumerate() {
        let field = format!("entries[{i}]");
        check_entry(&field, entry, record)?;
        if !seen.insert((entry.solver.as_str(), entry.n)) {
            return problem(
                field,
                format!("a second entry for ({}, n = {})", entry.solver, entry.n),
            );
        }
    }
    Ok(())
}

fn check_entry(
    field: &str,
    entry: &InstructionsEntry,
    record: &InstructionsRecord,
) -> Result<(), Problem> {
    let at = |name: &str| format!("{field}.{name}");
    let fail = |name: &str, text: String| Err((at(name), text));
    let Some(solver) = record.solvers.iter().find(|s| s.id == entry.solver) else {
        return fail(
            "solver",
            format!("'{}' is not among the record's solvers", entry.solver),
        );
    };
    if !(1..=solver.max_n).contains(&entry.n) {
        return fail(
            "n",
            format!(
                "{} is not a board {} supports (1..={})",
                entry.n, solver.id, solver.max_n
            ),
        );
    }
    if entry.status != InstructionsStatus::Counted {
        let numbers = [
            entry.solutions.is_some(),
            entry.nodes.is_some(),
            entry.instructions.is_some(),
            entry.per_node.is_some(),
            entry.per_solution.is_some(),
            entry.callgrind_seconds.is_some(),
        ];
        return match &entry.reason {
            None => fail(
                "reason",
                "an entry that was not counted must say why".into(),
            ),
            Some(reason) if reason.trim().is_empty() || reason.chars().any(char::is_control) => {
                fail("reason", "empty or not one line".into())
            }
            Some(_) if numbers.contains(&true) => fail(
                "instructions",
                "an entry that was not counted has counts".into(),
            ),
            Some(_) => Ok(()),
        };
    }
    if entry.reason.is_some() {
        return fail("reason", "a counted entry with a reason".into());
    }
    let expected = oeis::total(entry.n);
    if expected.is_none() || entry.solutions != expected {
        return fail(
            "solutions",
            format!(
                "a counted search of n = {} must find the published {}",
                entry.n,
                expected.map_or("count".to_string(), |e| e.to_string())
            ),
        );
    }
    let Some(nodes) = entry.nodes.filter(|&n| n > 0) else {
        return fail("nodes", "a counted search visits at least one node".into());
    };
    let Some(instructions) = entry.instructions.filter(|&i| i > 0) else {
        return fail(
            "instructions",
            "a counted search retires at least one instruction".into(),
        );
    };
    let solutions = expected.unwrap_or(0);
    for (name, ratio, divisor) in [
        ("per_node", entry.per_node, nodes),
        ("per_solution", entry.per_solution, solutions),
    ] {
        let want = (divisor > 0).then(|| instructions as f64 / divisor as f64);
        let agrees = match (ratio, want) {
            (Some(got), Some(want)) => got.is_finite() && (got - want).abs() <= want * 1e-9,
            (None, None) => true,
            _ => false,
        };
        if !agrees {
            return fail(
                name,
                format!("not instructions / its divisor ({want:?}), but {ratio:?}"),
            );
        }
    }
    match entry.callgrind_seconds {
        Some(s) if (0.0..=86_400.0 * 7.0).contains(&s) => Ok(()),
        _ => fail(
            "callgrind_seconds",
            "not a duration in seconds (0 to a week)".into(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::sample_instructions;

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

    #[test]
    fn counts_that_no_real_run_gives_are_refused() {
        assert_eq!(
            blamed(|r| r.entries[0].solutions = Some(93)),
            "entries[0].solutions"
        );
        assert_eq!(
            blamed(|r| r.entries[0].instructions = Some(0)),
            "entries[0].instructions"
        );
        assert_eq!(
            blamed(|r| r.entries[0].per_node = Some(1.0)),
            "entries[0].per_node"
        );
        assert_eq!(
            blamed(|r| r.entries[0].per_solution = None),
            "entries[0].per_solution"
        );
        assert_eq!(blamed(|r| r.entries[0].n = 40), "entries[0].n");
        assert_eq!(
            blamed(|r| r.entries[0].solver = "nobody".into()),
            "entries[0].solver"
        );
        let copy = sample_instructions().entries[0].clone();
        let last = sample_instructions().entries.len();
        assert_eq!(blamed(|r| r.entries.push(copy)), format!("entries[{last}]"));
        assert_eq!(blamed(|r| r.entries[1].reason = None), "entries[1].reason");
        assert_eq!(
            blamed(|r| r.entries[1].instructions = Some(5)),
            "entries[1].instructions"
        );
        assert_eq!(blamed(|r| r.budget_seconds = -1.0), "budget_seconds");
        assert_eq!(blamed(|r| r.valgrind = "a\nb".into()), "valgrind");
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
        other["schema_version"] = serde_json::json!(2);
        assert!(problem_with(&other.to_string()).contains("schema version 2"));
        let mut unknown = good.clone();
        unknown["entries"][0]["cycles"] = serde_json::json!(1);
        assert!(problem_with(&unknown.to_string()).contains("does not follow"));
        let mut wrong = good;
        wrong["entries"][0]["solutions"] = serde_json::json!(91);
        assert!(problem_with(&wrong.to_string()).contains("field `entries[0].solutions`"));
    }
}
