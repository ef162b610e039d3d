//! The time budget: requests the program allows but that would run for
//! hours must say so at once (one line, exit 2, naming the prediction and
//! `--long`), and dealing a big board's units to a million shards must not
//! take minutes.

use crate::common;

use std::time::{Duration, Instant};

use common::{queens, refused, stderr};
use queens_distributed::shard::{SHARD_FORMAT, SHARD_VERSION, ShardRecord, checksum};
use queens_harness::registry;

/// Generous for a debug build on a busy machine, and still far from the
/// minutes and hours these requests used to take.
const PROMPT: Duration = Duration::from_secs(60);

/// Runs `queens ARGS`, checks it was refused promptly naming the
/// prediction and the option: exit 2, one line on stderr. (`verify` may
/// have printed the rows it checked before the prediction was firm.)
fn refused_promptly(args: &[&str]) {
    let started = Instant::now();
    let output = queens(args);
    let took = started.elapsed();
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("would take about") && err.contains("--long"),
        "{err}"
    );
    assert!(took < PROMPT, "{args:?} took {took:?}");
}

#[test]
fn tree_of_the_largest_board_asks_for_long() {
    refused_promptly(&["tree", "14"]);
}

#[test]
fn verify_up_to_the_last_published_count_asks_for_long() {
    // Without a cap, half-join's declared memory at n = 27 (extrapolated,
    // erring large) is refused first, in one line too; the time budget is
    // what this test is about.
    refused_promptly(&["verify", "--max-n", "27", "--max-memory", "1T"]);
}

#[test]
fn a_slow_solver_on_a_large_board_asks_for_long() {
    refused_promptly(&["count", "20", "--solver", "textbook"]);
}

#[test]
fn small_requests_run_as_before() {
    let output = queens(&["tree", "6"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let output = queens(&["verify", "--max-n", "6"]);
    assert!(output.status.success(), "{}", stderr(&output));
}

#[test]
fn a_forged_record_of_shard_one_of_a_million_is_judged_promptly() {
    // A record of n = 27 in 2^20 shards with the right number of plan
    // units, sealed: merge makes the plan and deals it, which once took
    // over a minute (each unit looked at every shard).
    let solver = registry::choose(Some("half-join"), 27, false).unwrap();
    let plan_units = solver.work_split().unwrap().plan(27).unwrap().len();
    let shard = ShardRecord {
        format: None,
        index: 1,
        count: 1 << 20,
        split: solver.work_split().unwrap().version().to_string(),
        plan_units,
        units: 0,
        fixed_pairs: None,
        subtotals: Vec::new(),
        checksum: String::new(),
    };
    let mut record = serde_json::json!({
        "format": SHARD_FORMAT, "format_version": SHARD_VERSION,
        "n": 27, "solver": "half-join", "solutions": 0, "nodes": 0, "seconds": 0.0,
        "shard": shard,
    });
    record["shard"]["checksum"] = checksum(27, "half-join", 0, 0, 0.0, &shard).into();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("forged.json");
    std::fs::write(&path, record.to_string()).unwrap();
    let started = Instant::now();
    let output = queens(&["merge", path.to_str().unwrap()]);
    let took = started.elapsed();
    refused(&output, "shard.subtotals");
    assert!(took < PROMPT, "merge took {took:?}");
}

/// A report's wall bound for a record of ten thousand solvers. Generous:
/// the report takes about 4 s of CPU in the tests' build, growing linearly
/// with the solvers (about a third of a millisecond each beside a second
/// of fixed work), but the tests share two cores with other tests and
/// builds, and wall time has been measured at four times the CPU time
/// there. A report whose time grew as the square of the solvers (each
/// table row looking for its n's fastest among every solver) took three
/// minutes here.
const REPORT_OF_MANY: Duration = Duration::from_secs(45);

#[test]
fn a_report_of_ten_thousand_solvers_ends_promptly_and_says_what_it_wrote() {
    let record = queens_record::fixtures::many_solvers_record(10_000);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("many-bench.json");
    std::fs::write(&path, serde_json::to_string(&record).unwrap()).unwrap();
    let out = dir.path().join("report");
    let started = Instant::now();
    let output = queens(&[
        "report",
        path.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let took = started.elapsed();
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(took < REPORT_OF_MANY, "report took {took:?}");
    let comparison = std::fs::read_to_string(out.join("COMPARISON.md")).unwrap();
    // Every solver made it into the report, the first and the last.
    for id in ["solver-00000", "solver-09999"] {
        assert!(comparison.contains(id), "{id} missing from COMPARISON.md");
    }
    assert!(common::stdout(&output).contains("COMPARISON.md"));
}
