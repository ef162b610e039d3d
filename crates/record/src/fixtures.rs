//! A small, fixed record for tests of reading, writing and reporting (here,
//! and in the crates that enable the `fixtures` feature for their tests).

use queens_core::Metric;

use super::provenance::Provenance;
use super::schema::{Entry, Record, Settings, SolverFacts, Status, Timing};

/// One timed entry of three-mask at n = 8, made by `cargo bench`.
pub fn sample_record() -> Record {
    let provenance = Provenance {
        git_commit: Some("0123456789abcdef0123456789abcdef01234567".into()),
        git_dirty: Some(false),
        rustc: "rustc 1.95.0".into(),
        cpu_model: "Test CPU".into(),
        cores: 2,
        os: "linux".into(),
        date: "2026-01-02T03:04:05.678Z".into(),
        command: "cargo bench --bench count".into(),
    };
    let settings = Settings {
        tool: "cargo bench".into(),
        threads: 1,
        min_n: 4,
        max_n: None,
        max_run_seconds: Some(0.5),
        budget_seconds: None,
        cold_rounds: Some(3),
        branch_misses_unavailable: Some(
            "perf_event_open failed: Operation not permitted (perf_event_paranoid is 3)".into(),
        ),
        find_seed: None,
    };
    let solvers = vec![SolverFacts {
        id: "three-mask".into(),
        node: "a call".into(),
        max_n: 32,
        enumerates: true,
        accelerator: None,
    }];
    let entry = Entry {
        question: "count".into(),
        solver: "three-mask".into(),
        n: 8,
        status: Status::Timed,
        error: None,
        solutions: Some(92),
        unique: None,
        nodes: Some(2057),
        extra: vec![Metric {
            name: "peak_level_bytes".into(),
            value: 4096,
        }],
        peak_heap_bytes: Some(143),
        check_run_ns: Some(20_000),
        // The statistics of the samples 14 000.5, 15 000.25 and 13 999.75 ns.
        timing: Some(Timing {
            samples: 3,
            median_ns: 14_000.5,
            min_ns: 13_999.75,
            max_ns: 15_000.25,
            mad_ns: 0.75,
        }),
        ns_per_node: Some(14_000.5 / 2057.0),
        // The statistics of the cold samples 41 000, 42 000 and 40 000 ns:
        // three times the warm median, as a learned search gives.
        cold: Some(Timing {
            samples: 3,
            median_ns: 41_000.0,
            min_ns: 40_000.0,
            max_ns: 42_000.0,
            mad_ns: 1_000.0,
        }),
        cold_ns_per_node: Some(41_000.0 / 2057.0),
        cold_branch_misses_per_node: None,
        warm_branch_misses_per_node: None,
    };
    Record::new(provenance, settings, solvers, vec![entry])
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
            for timing in [&mut timed.timing, &mut timed.cold].into_iter().flatten() {
                timing.median_ns *= slower;
                timing.min_ns *= slower;
                timing.max_ns *= slower;
            }
            timed.ns_per_node = timed.ns_per_node.map(|v| v * slower);
            timed.cold_ns_per_node = timed.cold_ns_per_node.map(|v| v * slower);
            record.entries.push(timed);
        }
    }
    record
}

/// The same record as version 1 wrote it: the warm timing only, no cold
/// samples and no counters.
pub fn version_1_record() -> Record {
    let mut record = sample_record();
    record.schema_version = 1;
    record.settings.cold_rounds = None;
    record.settings.branch_misses_unavailable = None;
    for entry in &mut record.entries {
        entry.cold = None;
        entry.cold_ns_per_node = None;
    }
    record
}

/// The sample record with the other question beside its count: three
/// finders timed finding one board (construction at n = 8 and 10^6,
/// min-conflicts, seeded, at n = 8 and over budget at 10^6, three-mask's
/// first board at n = 8, the id of a solver too), with the seed in the
/// settings and the cold samples the settings ask for.
pub fn find_record() -> Record {
    use super::schema::{FIND_ONE, FinderFacts};
    let mut record = sample_record();
    record.settings.find_seed = Some(1);
    let finder = |id: &str, step: &str, max_n: usize, seeded: bool| FinderFacts {
        id: id.into(),
        step: step.into(),
        max_n,
        seeded,
    };
    let timed = |id: &str, n: usize, steps: u64, ns: f64| {
        let timing = Timing {
            samples: 3,
            median_ns: ns,
            min_ns: ns,
            max_ns: ns,
            mad_ns: 0.0,
        };
        Entry {
            question: FIND_ONE.into(),
            solver: id.into(),
            n,
            status: Status::Timed,
            error: None,
            solutions: None,
            unique: None,
            nodes: Some(steps),
            extra: Vec::new(),
            peak_heap_bytes: Some(4 * n as u64),
            check_run_ns: Some(ns as u64),
            timing: Some(timing),
            ns_per_node: Some(ns / steps as f64),
            cold: Some(Timing {
                median_ns: 2.0 * ns,
                min_ns: 2.0 * ns,
                max_ns: 2.0 * ns,
                ..timing
            }),
            cold_ns_per_node: Some(2.0 * ns / steps as f64),
            cold_branch_misses_per_node: None,
            warm_branch_misses_per_node: None,
        }
    };
    let over = Entry {
        status: Status::OverBudget,
        error: Some("one run took 0.90 s, over the 0.50 s limit".into()),
        timing: None,
        ns_per_node: None,
        cold: None,
        cold_ns_per_node: None,
        ..timed("min-conflicts", 1_000_000, 3_000_000, 900e6)
    };
    record.entries.extend([
        timed("construction", 8, 8, 50.0),
        timed("construction", 1_000_000, 1_000_000, 2e6),
        timed("min-conflicts", 8, 30, 2_000.0),
        over,
        timed("three-mask", 8, 114, 500.0),
    ]);
    record.with_finders(vec![
        finder("construction", "a queen written", 100_000_000, false),
        finder("min-conflicts", "a queen moved", 100_000_000, true),
        finder("three-mask", "a call", 32, false),
    ])
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
pub fn sample_instructions() -> crate::instructions::InstructionsRecord {
    use crate::instructions::{
        InstructionsEntry, InstructionsRecord, InstructionsSolver, InstructionsStatus,
    };
    let provenance = Provenance {
        command: "cargo xtask instructions".into(),
        ..sample_record().provenance
    };
    let solvers = vec![
        InstructionsSolver {
            id: "three-mask".into(),
            node: "a call".into(),
            max_n: 32,
        },
        InstructionsSolver {
            id: "gpu-constellations".into(),
            node: "a queen placed".into(),
            max_n: 23,
        },
    ];
    let entries = vec![
        InstructionsEntry::counted("three-mask", 8, 92, 2057, 41_140, 0.5),
        InstructionsEntry::absent(
            "gpu-constellations",
            8,
            InstructionsStatus::Skipped,
            "counts on a device".into(),
        ),
        InstructionsEntry::counted("three-mask", 9, 352, 8394, 176_274, 0.6),
    ];
    InstructionsRecord::new(
        provenance,
        "valgrind-3.19.0".into(),
        "cargo build --release".into(),
        "queens_harness::cmd::search::searched".into(),
        900.0,
        solvers,
        entries,
    )
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

/// A small estimates record (two boards, figures made up for tests, not
/// measured): for the record's reader and the README table it makes.
pub const ESTIMATES_JSON: &str = r#"{
  "format": "queens-estimates",
  "format_version": 2,
  "provenance": {
    "git_commit": "0123456789abcdef0123456789abcdef01234567",
    "git_dirty": false,
    "rustc": "rustc 1.95.0",
    "cpu_model": "Test CPU",
    "cores": 2,
    "os": "linux",
    "date": "2026-01-02T03:04:05.678Z",
    "command": "cargo xtask estimates 23 24"
  },
  "estimates": [
    {
      "n": 23,
      "solver": "half-join",
      "seconds": 7200.0,
      "standard_error": 360.0,
      "units": 1000,
      "pieces": 1000,
      "longest_piece_seconds": 30.0,
      "draws": 40,
      "parts_timed": 400,
      "sample_seconds": 44.0,
      "peak_bytes": 104857600
    },
    {
      "n": 24,
      "solver": "half-join",
      "seconds": 90000.0,
      "standard_error": 9000.0,
      "units": 2000,
      "pieces": 5000,
      "longest_piece_seconds": 60.0,
      "draws": 12,
      "parts_timed": 300,
      "sample_seconds": 45.0,
      "peak_bytes": null
    }
  ]
}
"#;
