//! `queens count N --estimate`: what it prints, that its budget bounds it,
//! its line on a signal, and (ignored: minutes) that its interval holds the
//! real time in most trials.

use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::{json, queens, refused, stderr, stdout};
#[cfg(unix)]
use crate::common::{signal, spawn};

fn estimate(n: u32, budget: &str, seed: u64) -> Value {
    estimate_with(n, budget, seed, &[])
}

fn estimate_with(n: u32, budget: &str, seed: u64, extra: &[&str]) -> Value {
    let (n, seed) = (n.to_string(), seed.to_string());
    let mut args = vec![
        "count",
        &n,
        "--estimate",
        "--estimate-seconds",
        budget,
        "--seed",
        &seed,
        "--threads",
        "1",
        "--json",
    ];
    args.extend_from_slice(extra);
    json(&queens(&args))
}

/// A JSON field as a number.
fn number(record: &Value, field: &str) -> f64 {
    record[field]
        .as_f64()
        .unwrap_or_else(|| panic!("{field} in {record}"))
}

#[test]
fn an_estimate_prints_its_interval_core_hours_and_budget() {
    let started = Instant::now();
    let record = estimate(17, "1", 3);
    // The budget bounds the whole estimate: one part in flight and the
    // process start are all it may add.
    assert!(started.elapsed() < Duration::from_secs(20));
    assert_eq!(record["format"], "queens-estimate");
    assert_eq!(record["format_version"], 3);
    assert_eq!(record["budget_seconds"], 1.0);
    let seconds = record["seconds"].as_f64().unwrap();
    let error = record["standard_error"].as_f64().unwrap();
    assert!(seconds > 0.0);
    assert!((record["core_hours"].as_f64().unwrap() - seconds / 3600.0).abs() < 1e-12);
    let interval = record["interval"].as_array().unwrap();
    assert!((interval[1].as_f64().unwrap() - (seconds + 2.0 * error)).abs() < 1e-9);
    assert!(interval[0].as_f64().unwrap() >= 0.0);
    assert!(record["parts_timed"].as_u64().unwrap() >= 1);
    // The run hands out pieces of the engine's units (a unit not cut is
    // one piece); the longest is its share by weight of the estimate.
    assert!(number(&record, "pieces") >= number(&record, "units"));
    let longest = number(&record, "longest_piece_seconds");
    assert!(longest > 0.0 && longest <= seconds, "{record}");
    // The same seed draws the same units.
    let again = estimate(17, "1", 3);
    assert_eq!(record["units"], again["units"]);
    // A shard's estimate is of its own pieces and the units they belong
    // to: fewer than the whole run's, and fewer seconds.
    let shard = estimate_with(17, "1", 3, &["--shard", "2/3"]);
    assert!(
        number(&shard, "pieces") < number(&record, "pieces"),
        "{shard}"
    );
    assert!(
        number(&shard, "units") <= number(&record, "units"),
        "{shard}"
    );
    assert!(
        number(&shard, "units") <= number(&shard, "pieces"),
        "{shard}"
    );
    assert!(number(&shard, "seconds") < seconds, "{shard}");
    // The table says it in words too.
    let output = queens(&["count", "12", "--estimate", "--estimate-seconds", "1"]);
    let text = stdout(&output);
    for row in [
        "one thread",
        "interval",
        "threads",
        "core-hours",
        "parts",
        "memory",
    ] {
        assert!(text.contains(row), "{row}: {text}");
    }
    // A seed needs something to seed.
    refused(&queens(&["count", "8", "--seed", "1"]), "--estimate");
}

/// The row `key` of `count --estimate`'s table.
fn row<'a>(text: &'a str, key: &str) -> &'a str {
    text.lines()
        .find_map(|line| line.strip_prefix(&format!("{key:10}  ")))
        .unwrap_or_else(|| panic!("no {key} row: {text}"))
}

#[test]
fn an_estimate_names_the_tables_machine_and_compares_with_its_row() {
    // The fixture record with its first row moved to n = 12, a board
    // estimated in a second.
    let dir = tempfile::tempdir().unwrap();
    let fixture = queens_record::fixtures::ESTIMATES_JSON.replacen("\"n\": 23", "\"n\": 12", 1);
    std::fs::write(dir.path().join("estimates.json"), fixture).unwrap();
    let records = dir.path().to_str().unwrap();
    let estimate = |n: &str, extra: &[&str]| {
        let mut args = vec!["count", n, "--estimate", "--estimate-seconds", "1"];
        args.extend_from_slice(&["--threads", "1", "--records", records]);
        args.extend_from_slice(extra);
        let output = queens(&args);
        assert!(output.status.success(), "{}", stderr(&output));
        stdout(&output)
    };
    let text = estimate("12", &[]);
    let table = row(&text, "table");
    assert!(
        table.contains("estimates.json (the README's table)"),
        "{table}"
    );
    assert!(
        table.contains("measured on Test CPU (2 cores), commit 0123456, 2026-01-02"),
        "{table}"
    );
    assert!(
        table.contains("at n = 12, half-join: 7200 s (2.0 h) ± 360 s"),
        "{table}"
    );
    assert!(
        row(&text, "this CPU").contains(&queens_record::cpu_model()),
        "{text}"
    );
    // A second's count against the fixture's two hours: far faster.
    let versus = row(&text, "vs table");
    assert!(versus.contains("× the table's"), "{versus}");
    assert!(versus.contains("faster"), "{versus}");
    // A time under a minute is said once, in seconds.
    let one_thread = row(&text, "one thread");
    let (seconds, _) = one_thread.split_once(" s ± ").expect(one_thread);
    assert!(
        seconds.parse::<f64>().is_ok_and(|s| s < 60.0),
        "{one_thread}"
    );
    assert!(row(&text, "threads").ends_with("on 1 thread"), "{text}");
    // Another n, and a shard, are named but not compared.
    let other = estimate("13", &[]);
    assert!(row(&other, "table").contains("Test CPU"), "{other}");
    assert_eq!(
        row(&other, "vs table"),
        "not compared: the table has no row at n = 13 (it has n = 12, 24)"
    );
    let shard = estimate("12", &["--shard", "1/2"]);
    assert!(row(&shard, "vs table").contains("shard 1/2"), "{shard}");
    // No record there: said, and nothing compared.
    let empty = tempfile::tempdir().unwrap();
    let output = queens(&[
        "count",
        "12",
        "--estimate",
        "--estimate-seconds",
        "1",
        "--records",
        empty.path().to_str().unwrap(),
    ]);
    let text = stdout(&output);
    assert!(
        row(&text, "table").starts_with("no estimates record at"),
        "{text}"
    );
    assert!(!text.contains("vs table"), "{text}");
    // A broken record is refused before a second is spent timing; --json,
    // which makes the record (`cargo xtask estimates`), does not read it.
    std::fs::write(dir.path().join("estimates.json"), "{}").unwrap();
    let started = Instant::now();
    let output = queens(&[
        "count",
        "12",
        "--estimate",
        "--estimate-seconds",
        "30",
        "--records",
        records,
    ]);
    refused(&output, "estimates.json");
    assert!(started.elapsed() < Duration::from_secs(10));
    let json = estimate_with(12, "1", 1, &["--records", records]);
    assert_eq!(json["n"], 12);
    // --records belongs to --estimate.
    refused(&queens(&["count", "8", "--records", records]), "--estimate");
}

#[cfg(unix)]
#[test]
fn a_signal_during_an_estimate_ends_it_with_one_line() {
    for name in ["INT", "TERM"] {
        let child = spawn(&["count", "20", "--estimate", "--estimate-seconds", "60"]);
        std::thread::sleep(Duration::from_millis(1500));
        let output = signal(child, name);
        let err = stderr(&output);
        assert_eq!(output.status.code(), Some(130), "SIG{name}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains("interrupted during --estimate"), "{err}");
        assert!(stdout(&output).is_empty());
    }
}

/// How many of `trials` estimates at `n` (budget `budget` s, one thread)
/// have the full one-thread count's time within ± 2 standard errors, the
/// full count timed once, after them.
pub(crate) fn coverage(n: u32, trials: u64, budget: &str) -> (usize, f64) {
    let estimates: Vec<Value> = (1..=trials).map(|seed| estimate(n, budget, seed)).collect();
    let full = json(&queens(&[
        "count",
        &n.to_string(),
        "--threads",
        "1",
        "--json",
        "--quiet",
    ]));
    let truth = full["seconds"].as_f64().unwrap();
    let covered = estimates
        .iter()
        .filter(|e| {
            let seconds = e["seconds"].as_f64().unwrap();
            let error = e["standard_error"].as_f64().unwrap();
            (seconds - truth).abs() <= 2.0 * error
        })
        .count();
    (covered, truth)
}

/// The honesty check on the real engine. Ignored: the full count of
/// Q(18) on one thread and ten estimates take about a minute and a half
/// of a loaded 2-core CI machine, past its budget; `cargo xtask
/// estimate-coverage` runs n = 18..20. A nominal 95 % interval should hold
/// the full time about 9.5 times in 10; at least 6 leaves room for a
/// machine whose speed drifts between the estimates and the full count
/// (the interval covers sampling error, not a machine slowing down),
/// while a biased estimator or one blind to the within-unit spread misses
/// far more often. The light version runs in CI on a sleeping fake engine
/// (queens-distributed's estimate tests).
#[test]
#[ignore = "minutes of counting; cargo xtask estimate-coverage runs it at n = 18..20"]
fn at_n_18_the_interval_holds_the_full_time_in_most_trials() {
    let (covered, truth) = coverage(18, 10, "5");
    assert!(covered >= 6, "{covered} of 10 intervals held {truth} s");
}
