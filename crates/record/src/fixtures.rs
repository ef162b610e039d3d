//! Small, fixed records for tests of reading, writing and reporting (here,
//! and in the crates that enable the `fixtures` feature for their tests).
//! The records are documents of the format, in `fixtures/`, read as any
//! record is.

use super::schema::{Outcome, Record, SolverFacts, Timing};
use crate::instructions::InstructionsRecord;

fn parsed<T: serde::de::DeserializeOwned>(text: &str) -> T {
    serde_json::from_str(text).expect("a fixture follows the format")
}

/// One timed entry of three-mask at n = 8, made by `cargo bench`: the
/// statistics of the warm samples 14 000.5, 15 000.25 and 13 999.75 ns,
/// and of the cold ones 41 000, 42 000 and 40 000 ns (three times the warm
/// median, as a learned search gives).
pub fn sample_record() -> Record {
    parsed(include_str!("../fixtures/bench.json"))
}

/// The sample record with `solvers` solvers, each timed at n = 8 and 9 as
/// three-mask is at n = 8 (`solver-00000`, ...): a record far larger
/// than any run makes, for tests that a report's time grows gently with
/// the solvers it shows.
pub fn many_solvers_record(solvers: usize) -> Record {
    let mut record = sample_record();
    let facts = record.solvers[0].clone();
    let entry = record.entries[0].clone();
    record.solvers.clear();
    record.entries.clear();
    for i in 0..solvers {
        let id = format!("solver-{i:05}");
        record.solvers.push(SolverFacts {
            id: id.clone(),
            ..facts.clone()
        });
        for (n, solutions, scale) in [(8, 92, 1.0), (9, 352, 4.0)] {
            let mut timed = entry.clone();
            timed.solver = id.clone();
            timed.n = n;
            timed.solutions = Some(solutions);
            // Each solver a little slower than the one before, so that
            // ranks and ratios differ.
            let slower = scale * (1.0 + i as f64 / solvers as f64);
            if let Outcome::Timed { warm, cold } = &mut timed.outcome {
                for timing in std::iter::once(warm).chain(cold) {
                    timing.median_ns *= slower;
                    timing.min_ns *= slower;
                    timing.max_ns *= slower;
                }
            }
            record.entries.push(timed);
        }
    }
    record
}

/// The same record without cold samples or counters: the warm timing only.
pub fn warm_only_record() -> Record {
    let mut record = sample_record();
    record.settings.cold_rounds = None;
    record.settings.branch_misses_unavailable = None;
    for entry in &mut record.entries {
        entry.drop_cold();
    }
    record
}

/// The sample record with the other question beside its count: three
/// finders timed finding one board (construction at n = 8 and 10^6,
/// min-conflicts, seeded, at n = 8 and over budget at 10^6, three-mask's
/// first board at n = 8, the id of a solver too), with the seed in the
/// settings and the cold samples the settings ask for.
pub fn find_record() -> Record {
    parsed(include_str!("../fixtures/find-bench.json"))
}

/// The timing of a single sample of `ns` nanoseconds, as a measuring run
/// records it.
pub fn one_sample(ns: f64) -> Option<Timing> {
    Some(Timing {
        samples: 1,
        median_ns: ns,
        min_ns: ns,
        max_ns: ns,
        mad_ns: 0.0,
    })
}

/// An instructions record: three-mask counted at n = 8 and 9, and a
/// solver skipped at n = 8 because it counts on a device.
pub fn sample_instructions() -> InstructionsRecord {
    parsed(include_str!("../fixtures/instructions.json"))
}

/// Writes `text` to a file called `name` in a new directory, reads it with
/// `read`, which must refuse it, and returns the refusal: one line that
/// starts with the file's path (what every reader of records promises).
pub fn refusal<T: std::fmt::Debug>(
    name: &str,
    text: &str,
    read: fn(&std::path::Path) -> Result<T, crate::FileError>,
) -> String {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join(name);
    std::fs::write(&path, text).expect("the file is written");
    let problem = read(&path)
        .expect_err("the file must be refused")
        .to_string();
    assert!(
        problem.starts_with(&path.display().to_string()),
        "{problem}"
    );
    assert!(!problem.contains('\n'), "not one line: {problem}");
    problem
}

/// Writes `text` to a file called `name` in a new directory and reads it
/// with `read`, which must accept it.
pub fn accepted<T>(
    name: &str,
    text: &str,
    read: fn(&std::path::Path) -> Result<T, crate::FileError>,
) -> T {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join(name);
    std::fs::write(&path, text).expect("the file is written");
    read(&path).unwrap_or_else(|e| panic!("{e}"))
}

/// A small estimates record (two boards, figures made up for tests, not
/// measured): for the record's reader and the README table it makes.
pub const ESTIMATES_JSON: &str = include_str!("../fixtures/estimates.json");
