//! The oracle: no wrong count with exit 0 even when the checkpoint it
//! resumes from was forged and sealed again, one definition of twins
//! agreeing, records of the GPU engine read without a GPU, and negative
//! numbers refused naming their option.

use crate::common;

use std::path::Path;
use std::process::Output;

use common::{NO_ADAPTER, queens, refused, reseal, stderr, stdout, without_adapter};
use serde_json::Value;
use sha2::{Digest, Sha256};

/// A failed verification (exit 1, one line) that printed no count as if
/// it were right.
fn failed_verification(output: &Output, expected: &str) {
    common::failed_verification(output, expected);
    assert!(output.stdout.is_empty(), "{}", stdout(output));
}

/// Rewrites the saved units of the checkpoint at `path` with `edit` and
/// seals the file again as `queens` seals it (SHA-256 of its JSON with an
/// empty checksum): a forgery the checksum cannot catch. The units are
/// spliced into the text as written, so that the rest keeps its bytes.
fn forge_checkpoint(path: &Path, edit: impl FnOnce(&mut Vec<[u64; 4]>)) {
    let text = std::fs::read_to_string(path).unwrap();
    let start = text.find("\"done\":").unwrap() + "\"done\":".len();
    let end = text.find(",\"checksum\":").unwrap();
    let mut done: Vec<[u64; 4]> = serde_json::from_str(&text[start..end]).unwrap();
    edit(&mut done);
    let unsealed = format!(
        "{}{},\"checksum\":\"\"}}",
        &text[..start],
        serde_json::to_string(&done).unwrap()
    );
    let sum: String = Sha256::digest(unsealed.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let sealed = unsealed.replace(",\"checksum\":\"\"}", &format!(",\"checksum\":\"{sum}\"}}"));
    std::fs::write(path, sealed).unwrap();
}

/// `count 12` with constellations and a checkpoint at `path`, plus `extra`.
fn count_with(path: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "count",
        "12",
        "--solver",
        "constellations",
        "--quiet",
        "--checkpoint",
        path.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    queens(&args)
}

#[test]
fn a_forged_and_resealed_checkpoint_cannot_give_a_wrong_count_with_exit_0() {
    let dir = tempfile::tempdir().unwrap();
    let checkpoint = dir.path().join("run.ckpt");
    let honest = count_with(&checkpoint, &[]);
    assert!(honest.status.success(), "{}", stderr(&honest));
    let saved = std::fs::read_to_string(&checkpoint).unwrap();

    // An honest checkpoint resealed by the forger's tool is still honest:
    // the forgery below is refused for its count, not for its seal.
    forge_checkpoint(&checkpoint, |_| {});
    assert_eq!(std::fs::read_to_string(&checkpoint).unwrap(), saved);
    let resumed = count_with(&checkpoint, &["--recheck", "3", "--seed", "5"]);
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    assert!(
        stdout(&resumed).contains("rechecked units"),
        "{}",
        stdout(&resumed)
    );

    // +1000 solutions in one unit, sealed again: every unit is saved.
    forge_checkpoint(&checkpoint, |done| done[0][1] += 1000);
    failed_verification(&count_with(&checkpoint, &[]), "OEIS A000170");
    // Rechecking every saved unit finds the forged one before counting.
    let forged_unit = {
        let value: Value =
            serde_json::from_str(&std::fs::read_to_string(&checkpoint).unwrap()).unwrap();
        value["done"][0][0].as_u64().unwrap()
    };
    failed_verification(
        &count_with(&checkpoint, &["--recheck", "1000000"]),
        &format!("saved unit {forged_unit} recounts differently"),
    );

    // A partial checkpoint: the run counts the rest and still may not pass.
    std::fs::write(&checkpoint, &saved).unwrap();
    forge_checkpoint(&checkpoint, |done| {
        done.truncate(done.len() / 2);
        done[0][1] += 1000;
    });
    failed_verification(&count_with(&checkpoint, &[]), "OEIS A000170");
}

#[test]
fn forged_classes_and_a_shard_of_one_are_checked_too() {
    let dir = tempfile::tempdir().unwrap();
    let checkpoint = dir.path().join("unique.ckpt");
    let unique = ["--unique", "--shard", "1/1", "--json"];
    assert!(count_with(&checkpoint, &unique).status.success());
    // Eight more fixed pairs: a multiple of 8, one class too many.
    forge_checkpoint(&checkpoint, |done| done[0][2] += 8);
    failed_verification(&count_with(&checkpoint, &unique), "OEIS A002562");
    // One more: no count of fixed pairs is that.
    forge_checkpoint(&checkpoint, |done| done[0][2] += 1);
    failed_verification(&count_with(&checkpoint, &unique), "not a multiple of 8");
}

/// The shard records of `count 11` in two shards, as JSON values.
fn two_shards(solver: &str) -> Vec<Value> {
    (1..=2)
        .map(|i| {
            let shard = format!("{i}/2");
            let output = queens(&[
                "count", "11", "--solver", solver, "--shard", &shard, "--json",
            ]);
            assert!(output.status.success(), "{}", stderr(&output));
            serde_json::from_str(stdout(&output).trim()).unwrap()
        })
        .collect()
}

/// Writes each record to its own file in `dir`; returns the paths.
fn write_all(dir: &Path, records: &[Value]) -> Vec<String> {
    records
        .iter()
        .enumerate()
        .map(|(i, record)| {
            let path = dir.join(format!("shard{i}.json"));
            std::fs::write(&path, record.to_string()).unwrap();
            path.to_string_lossy().into_owned()
        })
        .collect()
}

/// `queens COMMAND FILES... EXTRA...`.
fn with_files(command: &str, files: &[String], extra: &[&str]) -> Output {
    let mut args = vec![command];
    args.extend(files.iter().map(String::as_str));
    args.extend_from_slice(extra);
    queens(&args)
}

#[test]
fn twins_that_differ_only_in_a_units_nodes_disagree_for_merge_as_for_recheck() {
    let dir = tempfile::tempdir().unwrap();
    let honest = two_shards("constellations");
    let mut twin = honest[1].clone();
    let unit = twin["shard"]["subtotals"][0][0].as_u64().unwrap();
    let nodes = twin["shard"]["subtotals"][0][3].as_u64().unwrap();
    twin["shard"]["subtotals"][0][3] = Value::from(nodes + 1);
    twin["nodes"] = Value::from(twin["nodes"].as_u64().unwrap() + 1);
    reseal(&mut twin);
    let files = write_all(dir.path(), &[honest[0].clone(), honest[1].clone(), twin]);
    failed_verification(&with_files("merge", &files, &[]), "disagree on 1 unit");
    let rechecked = with_files("recheck", &files[2..], &["--units", &unit.to_string()]);
    assert_eq!(rechecked.status.code(), Some(1), "{}", stderr(&rechecked));
    assert!(stdout(&rechecked).contains("DIFFERS"));
}

#[test]
fn seconds_past_f64_and_an_empty_shards_estimate_print_numbers() {
    let dir = tempfile::tempdir().unwrap();
    let mut shards = two_shards("constellations");
    for shard in &mut shards {
        shard["seconds"] = Value::from(f64::MAX);
        reseal(shard);
    }
    let files = write_all(dir.path(), &shards);
    failed_verification(
        &with_files("merge", &files, &["--json"]),
        "seconds add up to more than",
    );

    // More shards than n = 8 has units: the last one is empty.
    let last = "1000/1000".to_string();
    let args = [
        "count",
        "8",
        "--solver",
        "constellations",
        "--shard",
        &last,
        "--estimate",
        "--json",
    ];
    let output = queens(&args);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(!stdout(&output).contains("-0"), "{}", stdout(&output));
}

#[test]
fn negative_numbers_are_refused_naming_the_option_and_its_range() {
    let dir = tempfile::tempdir().unwrap();
    let file = write_all(dir.path(), &[Value::Null]).remove(0);
    for (option, range) in [
        ("--units", "at least 0"),
        ("--seed", "at least 0"),
        ("--sample", "at least 1"),
    ] {
        refused(
            &queens(&["recheck", &file, option, "-1"]),
            &format!("{option} must be {range}, got -1"),
        );
    }
    let checkpoint = dir.path().join("run.ckpt");
    for (option, range) in [("--recheck", "at least 1"), ("--seed", "at least 0")] {
        let mut extra = vec![option, "-1"];
        if option == "--seed" {
            extra.extend(["--recheck", "1"]);
        }
        refused(
            &count_with(&checkpoint, &extra),
            &format!("{option} must be {range}, got -1"),
        );
    }
}

const GPU: &str = "gpu-constellations";

#[test]
fn gpu_records_merge_without_an_adapter_and_a_recount_names_the_missing_one() {
    if queens_conformance::without_its_device(&queens_gpu::GPU_CONSTELLATIONS) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let shards = two_shards(GPU);
    let files = write_all(dir.path(), &shards);
    let merged = without_adapter(&[&["merge"][..], &[&files[0], &files[1]]].concat());
    assert!(merged.status.success(), "{}", stderr(&merged));
    assert!(stdout(&merged).contains("agrees"), "{}", stdout(&merged));
    let rechecked = without_adapter(&["recheck", &files[0], "--sample", "1"]);
    refused(
        &rechecked,
        &format!("gpu-constellations cannot count here: {NO_ADAPTER}"),
    );
}

#[test]
fn compare_of_the_gpu_engine_alone_names_what_it_lacks() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    let args = ["compare", "--solver", GPU, "--max-n", "5", "--out", out];
    refused(&without_adapter(&args), NO_ADAPTER);
    let here = queens(&args);
    let software = queens_core::Solver::accelerator(&queens_gpu::GPU_CONSTELLATIONS)
        .is_ok_and(|device| device.is_some_and(|d| d.software));
    if software {
        refused(&here, "is not a GPU");
    }
    assert!(!stderr(&here).contains("no selected solver supports any n"));
}
