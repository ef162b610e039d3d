//! Trust in every number, tried as an adversary would: damaged and forged
//! shard records and checkpoints, absurd arguments, full disks, signals.
//! Every case must end in one line and the right exit code (2 bad input, 1
//! a failed verification, 130 interrupted), never a panic, a hang or a
//! wrong total with exit 0.

use crate::common;

use common::saved_units;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{failed_verification, json, queens, refused, reseal, stderr, stdout};
#[cfg(unix)]
use common::{signal, spawn};
use queens_core::oeis;
use serde_json::Value;

/// The shard records of `count 12 --unique` in `k` shards, as JSON values.
fn shards(k: usize) -> Vec<Value> {
    (1..=k)
        .map(|i| {
            json(&queens(&[
                "count",
                "12",
                "--unique",
                "--json",
                "--solver",
                "constellations",
                "--shard",
                &format!("{i}/{k}"),
            ]))
        })
        .collect()
}

fn write(dir: &Path, name: &str, record: &Value) -> String {
    let path = dir.join(name);
    std::fs::write(&path, record.to_string()).unwrap();
    path.to_string_lossy().into_owned()
}

/// `merge` over the records, written to files.
fn merge(dir: &Path, records: &[Value]) -> std::process::Output {
    let files: Vec<String> = records
        .iter()
        .enumerate()
        .map(|(i, r)| write(dir, &format!("s{i}.json"), r))
        .collect();
    let mut args = vec!["merge"];
    args.extend(files.iter().map(String::as_str));
    queens(&args)
}

#[test]
fn honest_shards_merge_to_the_published_count() {
    let dir = tempfile::tempdir().unwrap();
    let output = merge(dir.path(), &shards(3));
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(
        text.contains(&oeis::total(12).unwrap().to_string()),
        "{text}"
    );
    assert!(text.contains("published count  agrees"), "{text}");
}

#[test]
fn an_edited_shard_record_fails_its_checksum() {
    let dir = tempfile::tempdir().unwrap();
    let mut records = shards(3);
    let solutions = records[1]["solutions"].as_u64().unwrap();
    records[1]["solutions"] = Value::from(solutions + 1);
    refused(&merge(dir.path(), &records), "field `shard.checksum`");
}

#[test]
fn forged_records_are_caught_by_what_they_must_agree_with() {
    let dir = tempfile::tempdir().unwrap();
    let honest = shards(3);

    // A unit's count and the totals raised together, resealed: every file
    // is consistent, but the sum is not the published count.
    let mut raised = honest.clone();
    let first = raised[1]["shard"]["subtotals"][0][1].as_u64().unwrap();
    raised[1]["shard"]["subtotals"][0][1] = Value::from(first + 8);
    raised[1]["solutions"] = Value::from(raised[1]["solutions"].as_u64().unwrap() + 8);
    reseal(&mut raised[1]);
    failed_verification(&merge(dir.path(), &raised), "OEIS A000170 says 14200");

    // Totals that are not the sums of the subtotals.
    let mut unsummed = honest.clone();
    unsummed[0]["solutions"] = Value::from(1u64);
    reseal(&mut unsummed[0]);
    refused(&merge(dir.path(), &unsummed), "field `solutions`");

    // A unit count that does not match the shard's units.
    let mut units = honest.clone();
    units[2]["shard"]["units"] = Value::from(1000u64);
    reseal(&mut units[2]);
    refused(&merge(dir.path(), &units), "field `shard.subtotals`");

    // A unit dropped from the list.
    let mut dropped = honest.clone();
    dropped[2]["shard"]["subtotals"]
        .as_array_mut()
        .unwrap()
        .pop();
    reseal(&mut dropped[2]);
    refused(&merge(dir.path(), &dropped), "field `shard.subtotals`");

    // Fixed pairs that are not a multiple of 8 in all.
    let mut pairs = honest.clone();
    let fixed = pairs[0]["shard"]["subtotals"][0][2].as_u64().unwrap();
    pairs[0]["shard"]["subtotals"][0][2] = Value::from(fixed + 1);
    pairs[0]["shard"]["fixed_pairs"] =
        Value::from(pairs[0]["shard"]["fixed_pairs"].as_u64().unwrap() + 1);
    reseal(&mut pairs[0]);
    failed_verification(&merge(dir.path(), &pairs), "not a multiple of 8");

    // An n the solver does not support.
    let mut big = honest.clone();
    big[0]["n"] = Value::from(99u64);
    reseal(&mut big[0]);
    refused(&merge(dir.path(), &big), "field `n`");

    // Counts near 2^64 that would wrap when added.
    let mut huge = honest.clone();
    for record in &mut huge[..2] {
        let units = record["shard"]["subtotals"].as_array().unwrap().len() as u64;
        for subtotal in record["shard"]["subtotals"].as_array_mut().unwrap() {
            subtotal[1] = Value::from(u64::MAX / units);
        }
        record["solutions"] = Value::from(u64::MAX / units * units);
        reseal(record);
    }
    let output = merge(dir.path(), &huge);
    assert!(
        matches!(output.status.code(), Some(1 | 2)),
        "{}",
        stderr(&output)
    );
    assert!(stderr(&output).contains("64 bits"), "{}", stderr(&output));

    // A record claiming millions of shards: refused in one short line.
    let mut many = honest[0].clone();
    many["shard"]["count"] = Value::from(100_000_000u64);
    reseal(&mut many);
    let output = merge(dir.path(), &[many]);
    refused(&output, "shard");
    assert!(stderr(&output).len() < 400, "{}", stderr(&output));
}

#[test]
fn a_shard_counted_twice_must_agree_unit_by_unit() {
    let dir = tempfile::tempdir().unwrap();
    let honest = shards(2);
    let mut twice = honest.clone();
    twice.push(honest[1].clone());
    let output = merge(dir.path(), &twice);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("counted twice, agreeing"));

    // The second copy moves 8 solutions from one unit to another: same
    // totals, different units.
    let mut other = honest[1].clone();
    let subtotals = other["shard"]["subtotals"].as_array_mut().unwrap();
    assert!(subtotals.len() >= 2);
    let a = subtotals[0][1].as_u64().unwrap();
    let b = subtotals[1][1].as_u64().unwrap();
    subtotals[0][1] = Value::from(a + 8);
    subtotals[1][1] = Value::from(b.saturating_sub(8));
    reseal(&mut other);
    if b >= 8 {
        let output = merge(dir.path(), &[honest[0].clone(), honest[1].clone(), other]);
        failed_verification(&output, "disagree");
    }
}

#[test]
fn recheck_recounts_units_and_names_a_wrong_one() {
    let dir = tempfile::tempdir().unwrap();
    let honest = shards(2);
    let file = write(dir.path(), "honest.json", &honest[0]);
    let output = queens(&["recheck", &file, "--sample", "4", "--seed", "7"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("every one as recorded"));

    let mut forged = honest[0].clone();
    let unit = forged["shard"]["subtotals"][0][0].as_u64().unwrap();
    let solutions = forged["shard"]["subtotals"][0][1].as_u64().unwrap();
    forged["shard"]["subtotals"][0][1] = Value::from(solutions + 8);
    forged["solutions"] = Value::from(forged["solutions"].as_u64().unwrap() + 8);
    reseal(&mut forged);
    let file = write(dir.path(), "forged.json", &forged);
    let output = queens(&["recheck", &file, "--units", &unit.to_string()]);
    failed_verification(&output, &format!("unit {unit} recounts differently"));
    assert!(stdout(&output).contains("DIFFERS"));
    refused(
        &queens(&["recheck", &file, "--units", "999999"]),
        "not in this shard",
    );
}

#[test]
fn recheck_recounts_a_unit_named_several_times_once() {
    let dir = tempfile::tempdir().unwrap();
    let record = &shards(2)[0];
    let file = write(dir.path(), "shard.json", record);
    let unit = record["shard"]["subtotals"][0][0]
        .as_u64()
        .unwrap()
        .to_string();
    for copies in [3, 20_000] {
        let named = vec![unit.as_str(); copies].join(",");
        let output = queens(&["recheck", &file, "--units", &named]);
        assert!(output.status.success(), "{}", stderr(&output));
        let out = stdout(&output);
        let rows = out
            .lines()
            .filter(|row| row.split_whitespace().next() == Some(&unit));
        assert_eq!(rows.count(), 1, "{out}");
        assert!(out.contains("ok: 1 of "), "{out}");
    }
}

#[test]
fn arguments_beyond_their_ranges_are_one_line() {
    refused(
        &queens(&["count", "8", "--shard", "1/18446744073709551615"]),
        "at most",
    );
    refused(
        &queens(&["count", "8", "--shard", "1/1099511627776"]),
        "at most",
    );
    refused(&queens(&["count", "8", "--shard", "-1/4"]), "expected I/K");
    refused(
        &queens(&["count", "8", "--threads", "100000"]),
        "--threads is at most",
    );
    refused(
        &queens(&["compare", "--max-n", "18446744073709551615"]),
        "--max-n is at most 27",
    );
    refused(
        &queens(&["verify", "--max-n", "28"]),
        "--max-n is at most 27",
    );
    let empty = queens(&["compare", "--out", ""]);
    refused(&empty, "a value is required for '--out");
    assert!(
        !stderr(&empty).contains("possible values"),
        "{}",
        stderr(&empty)
    );
    // Many threads for a small board: only as many start as there are units.
    let output = queens(&["count", "10", "--threads", "1000", "--json"]);
    assert!(output.status.success(), "{}", stderr(&output));
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_stdout_is_one_line_and_exit_2_for_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let honest = shards(1);
    let shard = write(dir.path(), "s.json", &honest[0]);
    let out = dir.path().join("records");
    let out = out.to_str().unwrap();
    let commands: &[&[&str]] = &[
        &["list"],
        &["count", "8"],
        &["count", "8", "--shard", "1/2", "--json"],
        &["solve", "6"],
        &["find", "100000"],
        &["verify", "--max-n", "6"],
        &["trace", "5"],
        &["explain", "three-mask"],
        &["merge", &shard],
        &["recheck", &shard],
        &[
            "compare", "--max-n", "5", "--budget", "0.5", "--finder", "none", "--out", out,
        ],
    ];
    for args in commands {
        let output = Command::new(env!("CARGO_BIN_EXE_queens"))
            .args(*args)
            .stdout(std::fs::File::create("/dev/full").unwrap())
            .output()
            .unwrap();
        let all = stderr(&output);
        // compare says how far it has got on stderr as it goes (one line a
        // solver, off a terminal): the failure is still one line, the last.
        let err = if args[0] == "compare" {
            all.lines().last().unwrap_or("").to_string()
        } else {
            all.clone()
        };
        assert_eq!(output.status.code(), Some(2), "{args:?}: {all}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {all}");
        assert_eq!(
            all.lines().filter(|l| l.starts_with("queens: ")).count(),
            1,
            "{args:?}: {all}"
        );
        assert!(
            err.contains("cannot write to standard output"),
            "{args:?}: {all}"
        );
        assert!(!all.contains("panicked"), "{args:?}: {all}");
    }
    // compare kept its record although its table could not be printed.
    assert_eq!(std::fs::read_dir(out).unwrap().count(), 1);
}

#[cfg(unix)]
#[test]
fn sigterm_and_sigint_save_the_checkpoint_and_say_how_to_resume() {
    let mut interrupted = 0;
    for name in ["TERM", "INT"] {
        let dir = tempfile::tempdir().unwrap();
        let checkpoint: PathBuf = dir.path().join("run.ckpt");
        let child = spawn(&[
            "count",
            "17",
            "--solver",
            "half-join",
            "--threads",
            "1",
            "--unique",
            "--json",
            "--checkpoint",
            checkpoint.to_str().unwrap(),
            "--checkpoint-every",
            "5",
        ]);
        // Wait for the first save (made at once), then a little work.
        let started = Instant::now();
        while saved_units(&checkpoint).is_none() {
            assert!(started.elapsed() < Duration::from_secs(60), "no checkpoint");
            std::thread::sleep(Duration::from_millis(20));
        }
        std::thread::sleep(Duration::from_millis(100));
        let output = signal(child, name);
        let err = stderr(&output);
        if output.status.code() == Some(0) {
            // The whole count finished before the signal: nothing to test.
            continue;
        }
        assert_eq!(output.status.code(), Some(130), "SIG{name}: {err}");
        interrupted += 1;
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains("run the same command again to resume"),
            "{err}"
        );
        // Everything finished before the signal is in the file at once,
        // not only what the (5 s) periodic save had written.
        let saved = saved_units(&checkpoint).unwrap();
        assert!(
            err.contains(&format!("{saved} of")),
            "{err} / saved {saved}"
        );
        let resumed = queens(&[
            "count",
            "17",
            "--solver",
            "half-join",
            "--unique",
            "--json",
            "--checkpoint",
            checkpoint.to_str().unwrap(),
        ]);
        let record = json(&resumed);
        assert_eq!(record["solutions"], oeis::total(17).unwrap());
        assert_eq!(record["unique"], oeis::unique(17).unwrap());
    }
    assert!(interrupted > 0, "every run finished before its signal");
}

#[cfg(unix)]
#[test]
fn a_signal_before_the_units_run_ends_the_count_with_its_line() {
    for name in ["TERM", "INT"] {
        let dir = tempfile::tempdir().unwrap();
        let checkpoint = dir.path().join("run.ckpt");
        // Weighing and dealing the units of n = 27 takes seconds. The
        // checkpoint is locked before that: its lock's companion, beside
        // it, says the run has started.
        let child = spawn(&[
            "--max-memory",
            "1T",
            "count",
            "27",
            "--solver",
            "half-join",
            "--shard",
            "1/100000",
            "--threads",
            "1",
            "--checkpoint",
            checkpoint.to_str().unwrap(),
        ]);
        let started = Instant::now();
        while std::fs::read_dir(dir.path()).unwrap().next().is_none() {
            assert!(started.elapsed() < Duration::from_secs(60), "no lock");
            std::thread::sleep(Duration::from_millis(1));
        }
        let output = signal(child, name);
        let err = stderr(&output);
        assert_eq!(output.status.code(), Some(130), "SIG{name}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains("run the same command again"), "{err}");
        assert!(!checkpoint.exists(), "a checkpoint of nothing was written");
    }
}

#[test]
fn a_damaged_or_forged_checkpoint_is_refused_and_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let checkpoint = dir.path().join("run.ckpt");
    let path = checkpoint.to_str().unwrap();
    let count = |extra: &[&str]| {
        let mut args = vec![
            "count",
            "11",
            "--solver",
            "constellations",
            "--checkpoint",
            path,
        ];
        args.extend_from_slice(extra);
        queens(&args)
    };
    assert!(count(&["--json"]).status.success());
    let saved = std::fs::read_to_string(&checkpoint).unwrap();

    // A unit's count edited by hand: the checksum no longer matches.
    let mut value: Value = serde_json::from_str(&saved).unwrap();
    let solutions = value["done"][0][1].as_u64().unwrap();
    value["done"][0][1] = Value::from(solutions + 1000);
    std::fs::write(&checkpoint, value.to_string()).unwrap();
    refused(&count(&[]), "field `checksum`");
    assert_eq!(
        std::fs::read_to_string(&checkpoint).unwrap(),
        value.to_string(),
        "a refused checkpoint is left as it was"
    );

    // An older format is named as such.
    value["format"] = Value::from("queens-checkpoint/1");
    std::fs::write(&checkpoint, value.to_string()).unwrap();
    refused(&count(&[]), "another queens version");
}

/// The newest committed record, as JSON: found as `queens report` finds it,
/// so that another file kept beside the records (build-time.json) is not
/// taken for one.
fn committed_record() -> Value {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench-results");
    let newest = queens_record::newest(&dir).unwrap();
    serde_json::from_str(&std::fs::read_to_string(newest).unwrap()).unwrap()
}

#[test]
fn a_record_that_would_crash_or_mislead_the_report_is_refused_naming_the_field() {
    let dir = tempfile::tempdir().unwrap();
    let timed = committed_record()["entries"]
        .as_array()
        .unwrap()
        .iter()
        .position(|e| e["outcome"]["status"] == "timed")
        .unwrap();
    type Change = Box<dyn Fn(&mut Value)>;
    let cases: Vec<(&str, Change)> = vec![
        (
            "provenance.git_commit",
            Box::new(|r| r["provenance"]["git_commit"] = "ü".repeat(40).into()),
        ),
        (
            "n",
            Box::new(move |r| r["entries"][timed]["n"] = 2_147_483_648u64.into()),
        ),
        (
            "outcome.warm.median_ns",
            Box::new(move |r| r["entries"][timed]["outcome"]["warm"]["median_ns"] = 1e308.into()),
        ),
        (
            "outcome.warm.median_ns",
            Box::new(move |r| r["entries"][timed]["outcome"]["warm"]["median_ns"] = 0.0.into()),
        ),
        (
            "outcome.cold.median_ns",
            Box::new(move |r| {
                r["entries"][timed]["outcome"]["cold"]["median_ns"] = (-1e308).into()
            }),
        ),
        (
            "solutions",
            Box::new(move |r| {
                let wrong = r["entries"][timed]["solutions"].as_u64().unwrap() + 1;
                r["entries"][timed]["solutions"] = wrong.into();
            }),
        ),
    ];
    for (field, change) in cases {
        let mut record = committed_record();
        change(&mut record);
        let file = write(dir.path(), "bad.json", &record);
        let out = dir.path().join("out");
        let output = queens(&["report", &file, "--out", out.to_str().unwrap()]);
        refused(&output, field);
        assert!(
            !out.join("COMPARISON.md").exists(),
            "{field}: a report was written"
        );
    }
}

#[test]
fn compare_refuses_an_unusable_out_before_measuring() {
    let started = Instant::now();
    refused(
        &queens(&["compare", "--out", "/proc/queens-records"]),
        "/proc/queens-records",
    );
    // Refused before measuring: not after the tens of seconds a run takes.
    assert!(started.elapsed() < Duration::from_secs(20));
}

#[cfg(unix)]
#[test]
fn compare_keeps_its_record_when_its_reader_goes_away() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("records");
    let mut child = Command::new(env!("CARGO_BIN_EXE_queens"))
        .args([
            "compare",
            "--max-n",
            "6",
            "--budget",
            "0.5",
            "--finder",
            "none",
            "--out",
            out.to_str().unwrap(),
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // `queens compare | head -0`: the reader closes before anything is read.
    drop(child.stdout.take());
    let _ = child.wait().unwrap();
    assert_eq!(
        std::fs::read_dir(&out).unwrap().count(),
        1,
        "the record was lost"
    );
}
