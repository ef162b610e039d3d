//! Two runs given one file to write. Two counts started together on one
//! `--checkpoint` (a job array whose file name lacks the task's index, a
//! command started twice): one runs, the other is refused at once in one
//! line, and what the survivor saved resumes to the published count. A
//! lock that a killed run left behind stops nobody, and a run that ends
//! well leaves nothing but its checkpoint.

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::{Duration, Instant};

use crate::common::{json, queens, saved_units, spawn, stderr};
use queens_core::oeis;

/// Rounds of each race: before the lock, both runs went to their end in
/// most rounds; one round where both do fails the test.
const ROUNDS: usize = 20;

/// The board of the races: counted in a fraction of a second, long enough
/// for two runs started together to overlap.
const N: usize = 14;

/// A split count of [`N`] on one thread, its record in JSON, with `extra`.
fn count(extra: &[&str]) -> Vec<String> {
    let n = N.to_string();
    let mut args = vec!["count", &n, "--solver", "half-join", "--threads", "1"];
    args.extend_from_slice(&["--json"]);
    args.extend_from_slice(extra);
    args.into_iter().map(str::to_string).collect()
}

/// `args` with `--checkpoint PATH` added.
fn on(args: &[String], checkpoint: &Path) -> Vec<String> {
    let mut args = args.to_vec();
    args.extend(["--checkpoint".to_string(), checkpoint.display().to_string()]);
    args
}

fn strs(args: &[String]) -> Vec<&str> {
    args.iter().map(String::as_str).collect()
}

/// What is in `dir`, by name.
fn left_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Starts `a` and `b` at once on one new checkpoint in `dir`: one must run
/// to its end and the other be refused in one line (exit 2), as taken by
/// another run or, if the first had already ended, as another run's file.
/// Returns which one ran (0 or 1), what it printed, and the checkpoint.
fn race(dir: &Path, a: &[String], b: &[String]) -> (usize, Output, PathBuf) {
    let checkpoint = dir.join("run.ckpt");
    let children = [a, b].map(|args| spawn(&strs(&on(args, &checkpoint))));
    let [first, second] = children.map(|child| child.wait_with_output().unwrap());
    let ran = match (first.status.code(), second.status.code()) {
        (Some(0), Some(2)) => 0,
        (Some(2), Some(0)) => 1,
        codes => panic!(
            "expected one run and one refusal, got exits {codes:?}: {} / {}",
            stderr(&first),
            stderr(&second)
        ),
    };
    let (survivor, refused) = if ran == 0 {
        (first, second)
    } else {
        (second, first)
    };
    let line = stderr(&refused);
    assert_eq!(line.lines().count(), 1, "not one line: {line}");
    assert!(refused.stdout.is_empty(), "{line}");
    assert!(
        line.contains("is using this checkpoint") || line.contains("belongs to another run"),
        "{line}"
    );
    // The survivor ended well: only its checkpoint is left.
    assert_eq!(left_in(dir), vec!["run.ckpt"]);
    (ran, survivor, checkpoint)
}

#[test]
fn two_counts_on_one_checkpoint_one_runs_and_the_other_is_refused() {
    let commands = [count(&[]), count(&["--unique"])];
    for _ in 0..ROUNDS {
        let dir = tempfile::tempdir().unwrap();
        let (ran, survivor, checkpoint) = race(dir.path(), &commands[0], &commands[1]);
        assert_eq!(json(&survivor)["solutions"], oeis::total(N).unwrap());
        // What it saved is its own, whole: its command again resumes it.
        let resumed = json(&queens(&strs(&on(&commands[ran], &checkpoint))));
        assert_eq!(resumed["solutions"], oeis::total(N).unwrap());
        if ran == 1 {
            assert_eq!(resumed["unique"], oeis::unique(N).unwrap());
        }
    }
}

#[test]
fn two_shards_on_one_checkpoint_one_runs_and_the_other_is_refused() {
    let shards = [count(&["--shard", "1/2"]), count(&["--shard", "2/2"])];
    for _ in 0..ROUNDS {
        let dir = tempfile::tempdir().unwrap();
        let (ran, survivor, checkpoint) = race(dir.path(), &shards[0], &shards[1]);
        let survivor = json(&survivor);
        let resumed = json(&queens(&strs(&on(&shards[ran], &checkpoint))));
        assert_eq!(resumed["solutions"], survivor["solutions"]);
        // The refused shard, on a checkpoint of its own, completes the
        // board: nothing of the survivor's was lost to it.
        let other = on(&shards[1 - ran], &dir.path().join("other.ckpt"));
        let other = json(&queens(&strs(&other)));
        let total = survivor["solutions"].as_u64().unwrap() + other["solutions"].as_u64().unwrap();
        assert_eq!(total, oeis::total(N).unwrap());
    }
}

#[test]
fn a_lock_left_by_a_killed_run_stops_nobody() {
    let dir = tempfile::tempdir().unwrap();
    let checkpoint = dir.path().join("run.ckpt");
    // Large enough to be running still when its first save is seen.
    let args = on(
        &[
            "count",
            "15",
            "--solver",
            "half-join",
            "--threads",
            "1",
            "--json",
        ]
        .map(String::from),
        &checkpoint,
    );
    let mut child = spawn(&strs(&args));
    let started = Instant::now();
    while saved_units(&checkpoint).is_none() {
        assert!(started.elapsed() < Duration::from_secs(60), "no checkpoint");
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    // Its lock's companion is left, naming it; the lock went with it.
    let left = left_in(dir.path());
    let companion = left.iter().find(|name| name.starts_with(".queens-lock-"));
    let companion = dir.path().join(companion.expect("the killed run's lock"));
    let holder = std::fs::read_to_string(companion).unwrap();
    assert_eq!(holder.trim(), child.id().to_string());
    let resumed = json(&queens(&strs(&args)));
    assert_eq!(resumed["solutions"], oeis::total(15).unwrap());
    assert_eq!(left_in(dir.path()), vec!["run.ckpt"]);
}
