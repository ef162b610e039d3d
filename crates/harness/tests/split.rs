//! Split counts through the `queens` binary, for every registered solver
//! that splits its work: shards add up to the whole count, `merge` refuses
//! incomplete or mixed sets, and a run killed mid-way resumes from its
//! checkpoint to the exact count.

use crate::common;

use common::saved_units;
use common::{json, queens, refused, splitting_solvers};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use queens_core::oeis;
use queens_harness::registry::SOLVERS;
use serde_json::Value;

fn write_shards(dir: &Path, solver: &str, n: &str, count: usize, unique: bool) -> Vec<String> {
    (1..=count)
        .map(|index| {
            let spec = format!("{index}/{count}");
            let mut args = vec!["count", n, "--solver", solver, "--shard", &spec, "--json"];
            if unique {
                args.push("--unique");
            }
            let output = queens(&args);
            json(&output);
            let kind = if unique { "unique" } else { "total" };
            let path = dir.join(format!("{solver}-{n}-{kind}-{index}-of-{count}.json"));
            std::fs::write(&path, &output.stdout).unwrap();
            path.to_str().unwrap().to_string()
        })
        .collect()
}

#[test]
fn shards_merge_into_the_whole_count() {
    let dir = tempfile::tempdir().unwrap();
    for solver in splitting_solvers() {
        let whole = json(&queens(&[
            "count", "11", "--solver", solver, "--unique", "--json",
        ]));
        assert_eq!(whole["solutions"], oeis::total(11).unwrap());
        assert_eq!(whole["unique"], oeis::unique(11).unwrap());
        assert_eq!(
            (&whole["format"], &whole["format_version"]),
            (&"queens-count".into(), &1.into())
        );
        for count in [1, 3, 5] {
            let files = write_shards(dir.path(), solver, "11", count, true);
            let mut args = vec!["merge", "--json"];
            args.extend(files.iter().map(String::as_str));
            let merged = json(&queens(&args));
            for field in [
                "format",
                "format_version",
                "n",
                "solver",
                "solutions",
                "unique",
                "nodes",
            ] {
                assert_eq!(merged[field], whole[field], "{solver} K = {count}: {field}");
            }
            let partial: Vec<u64> = files
                .iter()
                .map(|f| {
                    let record: Value =
                        serde_json::from_str(&std::fs::read_to_string(f).unwrap()).unwrap();
                    // A shard's record names its own format first.
                    assert_eq!(record["format"], "queens-shard");
                    assert_eq!(record["format_version"], 3);
                    record["solutions"].as_u64().unwrap()
                })
                .collect();
            assert_eq!(partial.iter().sum::<u64>(), oeis::total(11).unwrap());
        }
    }
}

#[test]
fn merge_refuses_missing_duplicate_and_mismatched_shards() {
    let dir = tempfile::tempdir().unwrap();
    let solver = splitting_solvers()[0];
    let eleven = write_shards(dir.path(), solver, "11", 3, false);
    let ten = write_shards(dir.path(), solver, "10", 3, false);
    let eleven_unique = write_shards(dir.path(), solver, "11", 3, true);
    let four_shards = write_shards(dir.path(), solver, "11", 4, false);
    refused(
        &queens(&["merge", &eleven[0], &eleven[2]]),
        "missing shard 2 of 3",
    );
    // A shard given twice (counted on two machines) is compared unit by
    // unit and, agreeing, counted once.
    let twice = queens(&["merge", &eleven[0], &eleven[1], &eleven[1], &eleven[2]]);
    assert!(twice.status.success(), "{}", common::stderr(&twice));
    let text = common::stdout(&twice);
    assert!(text.contains("counted twice, agreeing  shard 2"), "{text}");
    assert!(
        text.contains(&oeis::total(11).unwrap().to_string()),
        "{text}"
    );
    refused(
        &queens(&["merge", &eleven[0], &ten[1], &eleven[2]]),
        "another run",
    );
    refused(
        &queens(&["merge", &eleven[0], &eleven_unique[1], &eleven[2]]),
        "another run",
    );
    refused(
        &queens(&["merge", &eleven[0], &four_shards[1], &eleven[2]]),
        "another run",
    );
    let not_a_record = dir.path().join("not-a-record.json");
    std::fs::write(&not_a_record, "{\"n\": 11}").unwrap();
    refused(
        &queens(&["merge", not_a_record.to_str().unwrap()]),
        "is not a shard record",
    );
    refused(
        &queens(&["merge", "/nonexistent/shard.json"]),
        "cannot read",
    );
}

#[test]
fn bad_shard_specs_and_unsplittable_solvers_are_refused() {
    refused(
        &queens(&["count", "10", "--shard", "0/4"]),
        "numbered from 1",
    );
    refused(
        &queens(&["count", "10", "--shard", "5/4"]),
        "no shard 5 of 4",
    );
    refused(&queens(&["count", "10", "--shard", "1/0"]), "at least 1");
    refused(&queens(&["count", "10", "--shard", "half"]), "I/K");
    refused(&queens(&["count", "10", "--threads", "0"]), "at least 1");
    for solver in SOLVERS.iter().filter(|s| s.work_split().is_none()) {
        let id = solver.info().id;
        refused(
            &queens(&["count", "8", "--solver", id, "--shard", "1/2"]),
            "does not split its work",
        );
    }
}

#[test]
fn any_thread_count_gives_the_same_record() {
    for solver in splitting_solvers() {
        let run = |threads: &str| {
            let record = json(&queens(&[
                "count",
                "12",
                "--solver",
                solver,
                "--unique",
                "--json",
                "--threads",
                threads,
            ]));
            (
                record["solutions"].clone(),
                record["unique"].clone(),
                record["nodes"].clone(),
            )
        };
        let one = run("1");
        assert_eq!(one.0, oeis::total(12).unwrap());
        for threads in ["2", "3", "8"] {
            assert_eq!(run(threads), one, "{solver} with {threads} threads");
        }
    }
}

#[test]
fn checkpoints_belong_to_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let solver = splitting_solvers()[0];
    let file = dir.path().join("run.checkpoint");
    let file = file.to_str().unwrap();
    let count = |n: &str, checkpoint: &str, extra: &[&str]| {
        let mut args = vec!["count", n, "--solver", solver, "--checkpoint", checkpoint];
        args.extend_from_slice(extra);
        queens(&args)
    };
    let first = json(&count("9", file, &["--json"]));
    assert_eq!(first["solutions"], oeis::total(9).unwrap());
    // The finished run's file answers the same command at once.
    let again = json(&count("9", file, &["--json"]));
    assert_eq!(again["solutions"], first["solutions"]);
    assert_eq!(again["nodes"], first["nodes"]);
    refused(&count("10", file, &[]), "belongs to another run");
    refused(&count("9", file, &["--unique"]), "belongs to another run");
    let other = dir.path().join("notes.txt");
    std::fs::write(&other, "my notes").unwrap();
    refused(
        &count("9", other.to_str().unwrap(), &[]),
        "refusing to overwrite",
    );
    assert_eq!(std::fs::read_to_string(&other).unwrap(), "my notes");
    refused(
        &count("9", "/nonexistent/dir/run.checkpoint", &[]),
        "cannot save checkpoint",
    );
}

#[test]
fn a_killed_run_resumes_from_its_checkpoint_to_the_exact_count() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("run.checkpoint");
    for solver in splitting_solvers() {
        // Large enough that the solver is still running when its first
        // units are saved, and no larger: the whole count is made again on
        // resuming. On two threads half-join needs about half a second at n = 17;
        // constellations about 1.4 s at n = 16, and its GPU port on Mesa's
        // software driver about 5 s there (38 s at n = 17).
        let n: usize = if solver == "half-join" { 17 } else { 16 };
        let n_arg = n.to_string();
        let _ = std::fs::remove_file(&file);
        let args = [
            "count",
            &n_arg,
            "--solver",
            solver,
            "--unique",
            "--json",
            "--threads",
            "2",
            "--checkpoint",
            file.to_str().unwrap(),
            "--checkpoint-every",
            "0.05",
        ];
        let mut child = Command::new(env!("CARGO_BIN_EXE_queens"))
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let started = Instant::now();
        while saved_units(&file).unwrap_or(0) == 0 {
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "no checkpoint appeared"
            );
            assert!(
                child.try_wait().unwrap().is_none(),
                "the run ended before it could be killed"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        child.kill().unwrap();
        child.wait().unwrap();
        let saved = saved_units(&file).unwrap();
        let resumed = json(&queens(&args));
        assert_eq!(resumed["solutions"], oeis::total(n).unwrap(), "{solver}");
        assert_eq!(resumed["unique"], oeis::unique(n).unwrap(), "{solver}");
        let total = saved_units(&file).unwrap();
        assert!(
            saved > 0 && saved < total,
            "{solver}: killed with {saved} of {total} units saved"
        );
    }
}
