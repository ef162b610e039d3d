//! What the integration tests share: running the `queens` binary as a user
//! would, and the one definition of a refused command (exit 2, one line on
//! stderr that says what is wrong, nothing on stdout, no panic).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

/// The workspace's root directory (the checkout).
pub(crate) fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Runs `queens ARGS` in the current directory.
pub(crate) fn queens(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_queens"))
        .args(args)
        .output()
        .expect("the queens binary runs")
}

/// Runs `queens ARGS` in `dir`.
pub(crate) fn queens_in(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_queens"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the queens binary runs")
}

/// Output bytes as text (lossy: a test should show what it got).
pub(crate) fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The command's stdout as text.
pub(crate) fn stdout(output: &Output) -> String {
    text(&output.stdout)
}

/// The command's stderr as text.
pub(crate) fn stderr(output: &Output) -> String {
    text(&output.stderr)
}

/// The one JSON object a successful command printed (asserts success).
pub(crate) fn json(output: &Output) -> serde_json::Value {
    assert!(output.status.success(), "{}", stderr(output));
    serde_json::from_slice(&output.stdout).expect("one JSON object")
}

/// Starts `queens ARGS` with its stdout and stderr kept, to be signalled
/// ([`signal`]).
#[cfg(unix)]
pub(crate) fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_queens"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the queens binary starts")
}

/// Sends `child` the signal `SIG{name}` (`INT`, `TERM`) and waits for it
/// to end: what it printed and how it exited.
#[cfg(unix)]
pub(crate) fn signal(child: Child, name: &str) -> Output {
    let status = Command::new("kill")
        .args([&format!("-{name}"), &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success(), "kill -{name} failed");
    child.wait_with_output().expect("the child ends")
}

/// Asserts that the command was refused as bad input mentioning `expected`.
pub(crate) fn refused(output: &Output, expected: &str) {
    let err = stderr(output);
    assert_eq!(
        output.status.code(),
        Some(2),
        "expected exit 2 and '{expected}': {err}"
    );
    assert_eq!(err.lines().count(), 1, "not one line: {err}");
    assert!(err.contains(expected), "expected '{expected}' in: {err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(output.stdout.is_empty(), "something on stdout: {err}");
}

/// `queens ARGS` is refused as bad input mentioning `expected`.
pub(crate) fn assert_bad_input(args: &[&str], expected: &str) {
    refused(&queens(args), expected);
}

/// Units saved in a checkpoint file, if it exists and parses.
pub(crate) fn saved_units(path: &Path) -> Option<usize> {
    let text = std::fs::read_to_string(path).ok()?;
    let value: serde_json::Value = serde_json::from_str(&text).ok()?;
    Some(value["done"].as_array()?.len())
}

/// Asserts a failed verification: exit 1, one line on stderr mentioning
/// `expected`, no panic.
pub(crate) fn failed_verification(output: &Output, expected: &str) {
    let err = stderr(output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains(expected), "expected '{expected}' in: {err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// Recomputes a shard record's checksum after an edit: a forgery that a
/// checksum alone cannot catch, so the other checks must.
pub(crate) fn reseal(record: &mut serde_json::Value) {
    let shard: queens_distributed::shard::ShardRecord =
        serde_json::from_value(record["shard"].clone()).unwrap();
    let sum = queens_distributed::shard::checksum(
        record["n"].as_u64().unwrap() as usize,
        record["solver"].as_str().unwrap(),
        record["solutions"].as_u64().unwrap(),
        record["nodes"].as_u64().unwrap(),
        record["seconds"].as_f64().unwrap(),
        &shard,
    );
    record["shard"]["checksum"] = serde_json::Value::String(sum);
}

/// Why the GPU engine cannot count under [`without_adapter`]: with the
/// `gpu` feature wgpu finds no adapter; without it this build has no GPU
/// backend at all.
pub(crate) const NO_ADAPTER: &str = if cfg!(feature = "gpu") {
    "no GPU adapter found"
} else {
    "this build has no GPU backend"
};

/// `queens ARGS` where wgpu finds no adapter, as on a machine without a GPU
/// driver: only the GL backend, which this build leaves out, is allowed.
pub(crate) fn without_adapter(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_queens"))
        .args(args)
        .env("WGPU_BACKEND", "gl")
        .output()
        .expect("the queens binary runs")
}

/// Every registered solver that splits its count into units (it takes
/// `--checkpoint` and `--shard`).
pub(crate) fn splitting_solvers() -> Vec<&'static str> {
    let ids: Vec<_> = queens_harness::registry::SOLVERS
        .iter()
        .filter(|s| s.work_split().is_some())
        // A GPU engine without an adapter here is skipped, unless
        // QUEENS_REQUIRE_GPU says it must be tested.
        .filter(|s| !queens_conformance::without_its_device(**s))
        .map(|s| s.info().id)
        .collect();
    assert!(!ids.is_empty(), "no registered solver splits its work");
    ids
}

/// The newest committed reference record: something `report` can read.
pub(crate) fn newest_committed_record() -> PathBuf {
    let mut records: Vec<PathBuf> = std::fs::read_dir(workspace().join("bench-results"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.to_string_lossy().ends_with("-bench.json"))
        .collect();
    records.sort();
    records.pop().expect("a committed reference record")
}
