//! `cargo xtask slurm-e2e` (scripts/slurm/e2e): the cluster path for real,
//! on a one-node Slurm ([`crate::slurm`]): submit the job array of
//! scripts/slurm/queens-array.sbatch, requeue one task while it runs (as a
//! preemption would), wait for the array, check that the requeued task
//! saved its finished units on SIGTERM and resumed from them, merge the
//! shards and compare the total and the classes with OEIS.
//!
//! Environment: N (13 to 19, default 19), SHARDS (default 4), QUEENS (the
//! binary, default the release build). A task must outlive the requeue
//! sent once it has saved a unit: at n = 19 a shard of four counts for
//! seconds, at n = 17 for a fraction of one, and the signal can come too
//! late. Exits 0 only if everything holds;
//! one line per step.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::counts::{self, saved_units};
use crate::slurm::Cluster;
use crate::{Error, process, workspace};

const CHORE: &str = "e2e";

/// Runs it with the environment's settings.
pub fn run() -> Result<(), Error> {
    let queens = workspace::queens_binary(CHORE)?;
    let n = workspace::env_number("N", 19, CHORE)?;
    let shards = workspace::env_number("SHARDS", 4, CHORE)?;
    run_with(n, shards, &queens)
}

/// What is cleaned up however the run ends: the job cancelled, the
/// cluster stopped, the scratch directory removed (by its own drop).
struct Cleanup {
    cluster: Cluster,
    job: Option<String>,
}

impl Drop for Cleanup {
    fn drop(&mut self) {
        if let Some(job) = &self.job {
            process::succeeds(self.cluster.client("scancel").arg(job));
        }
        self.cluster.stop();
    }
}

/// What `squeue -h ARGS` prints, trimmed: a job's or task's state is ""
/// once it is gone.
fn squeue(cluster: &Cluster, args: &[&str]) -> String {
    let mut squeue = cluster.client("squeue");
    let output = squeue.arg("-h").args(args).stderr(Stdio::null()).output();
    let printed = output.ok().filter(|output| output.status.success());
    printed.map_or_else(String::new, |o| {
        String::from_utf8_lossy(&o.stdout).trim().to_string()
    })
}

/// Runs the end-to-end test of `n` in `shards` shards with this binary.
pub fn run_with(n: usize, shards: usize, queens: &Path) -> Result<(), Error> {
    counts::published(n, 13..=19, CHORE)?;
    if shards < 1 {
        return Err(Error::Usage(format!("{CHORE}: SHARDS must be at least 1")));
    }
    let root = workspace::root();
    let work = process::scratch(CHORE)?;
    let dir = work.path();
    let mut cleanup = Cleanup {
        cluster: Cluster::from_env(),
        job: None,
    };
    let cluster = cleanup.cluster.clone();
    cluster.start()?;

    let started = Instant::now();
    for sub in ["shards", "logs"] {
        std::fs::create_dir_all(dir.join(sub))
            .map_err(|error| Error::Failed(format!("{CHORE}: cannot create {sub}/: {error}")))?;
    }
    let submitted = process::stdout(
        cluster
            .client("sbatch")
            .current_dir(dir)
            .args(["--parsable", &format!("--array=1-{shards}"), "--cpus-per-task=1"])
            .arg(format!(
                "--export=ALL,N={n},SHARDS={shards},QUEENS={},QUEENS_EXTRA_ARGS=--checkpoint-every 0.2",
                queens.display()
            ))
            .arg(root.join("scripts/slurm/queens-array.sbatch")),
    )?;
    // --parsable prints "id" or "id;cluster".
    let job = submitted.trim().split(';').next().unwrap_or_default();
    if job.is_empty() {
        return Err(Error::Failed(format!("{CHORE}: sbatch printed no job id")));
    }
    cleanup.job = Some(job.to_string());
    println!(
        "{CHORE}: submitted job array {job}: n = {n} in {}",
        queens_core::counted(shards, "shard", "shards")
    );

    let checkpoint = dir.join(format!("checkpoints/{n}-1-of-{shards}.ckpt"));
    requeue_first_task(&cluster, job, &checkpoint)?;

    // The whole array, bounded.
    let done = || squeue(&cluster, &["-j", job]).is_empty();
    if !process::wait_until(Duration::from_secs(900), Duration::from_secs(1), done) {
        return Err(Error::Failed(format!(
            "{CHORE}: the array did not finish in 15 minutes"
        )));
    }
    cleanup.job = None;
    println!(
        "{CHORE}: array {job} done in {} s",
        started.elapsed().as_secs()
    );

    let log_path = dir.join("logs/1.err");
    let log = std::fs::read_to_string(&log_path).unwrap_or_default();
    let resumed = saved_and_resumed(&log).ok_or_else(|| {
        Error::Failed(format!(
            "{CHORE}: task 1's log does not show a save on SIGTERM and a resume:\n{log}"
        ))
    })?;
    println!("{CHORE}: task 1 saved on SIGTERM and {resumed}");

    let records: Vec<PathBuf> = (1..=shards)
        .map(|s| dir.join(format!("shards/{s}.json")))
        .collect();
    for (shard, record) in (1..).zip(&records) {
        let text = std::fs::read_to_string(record).unwrap_or_default();
        if text.lines().filter(|line| line.starts_with('{')).count() != 1 {
            return Err(Error::Failed(format!(
                "{CHORE}: shards/{shard}.json does not hold exactly one record"
            )));
        }
    }
    counts::merge(queens, &records, n, CHORE)
}

/// Requeues task 1 once it runs and has saved some units, as a preemption
/// would (Slurm sends SIGTERM, queens saves and exits); then lets it start
/// again at once (Slurm holds a requeued job back for two minutes).
fn requeue_first_task(cluster: &Cluster, job: &str, checkpoint: &Path) -> Result<(), Error> {
    let task = format!("{job}_1");
    let mut state = String::new();
    let ready = process::wait_until(Duration::from_secs(120), Duration::from_millis(200), || {
        state = squeue(cluster, &["-j", &task, "-o", "%T"]);
        state.is_empty() || state == "RUNNING" && saved_units(checkpoint) > 0
    });
    if state.is_empty() {
        return Err(Error::Failed(format!(
            "{CHORE}: task 1 finished before it could be requeued; use a larger N"
        )));
    }
    if !ready {
        let state = squeue(cluster, &["-j", &task, "-o", "%T (%r)"]);
        return Err(Error::Failed(format!(
            "{CHORE}: task 1 did not run and save a unit in 2 minutes (it is {state}); \
             squeue: {}",
            squeue(cluster, &["-o", "%i %T %r"]).replace('\n', "; ")
        )));
    }
    process::run(cluster.client("scontrol").args(["requeue", &task]))?;
    println!(
        "{CHORE}: requeued task 1 while running, with {} saved",
        queens_core::counted(saved_units(checkpoint), "unit", "units")
    );
    process::wait_until(Duration::from_secs(10), Duration::from_millis(100), || {
        squeue(cluster, &["-j", &task, "-o", "%T"]) == "PENDING"
    });
    // Best effort, as before: the task starts anyway once the hold ends.
    process::succeeds(cluster.client("scontrol").args([
        "update",
        &format!("jobid={task}"),
        "StartTime=now",
    ]));
    Ok(())
}

/// From a task's log: the resume line's words if the log shows a save on
/// SIGTERM ("interrupted: ... units finished and saved") and a resume
/// ("resuming from ...: I of K units already counted").
pub fn saved_and_resumed(log: &str) -> Option<String> {
    let interrupted = log.lines().any(|line| {
        line.find("interrupted: ")
            .is_some_and(|at| line[at..].contains(" units finished and saved"))
    });
    let resumed = log.lines().find_map(|line| {
        let start = line.find("resuming from ")?;
        let end = line.rfind(" units already counted")?;
        (end > start).then(|| line[start..end + " units already counted".len()].to_string())
    });
    resumed.filter(|_| interrupted)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_log_shows_the_save_and_the_resume() {
        let log = "queens: interrupted: 12 of 40 units finished and saved in checkpoints/18-1-of-4.ckpt; run the same command again to resume\n\
                   queens: resuming from checkpoints/18-1-of-4.ckpt: 12 of 40 units already counted\n";
        assert_eq!(
            saved_and_resumed(log).as_deref(),
            Some("resuming from checkpoints/18-1-of-4.ckpt: 12 of 40 units already counted")
        );
        assert_eq!(saved_and_resumed(log.lines().nth(1).unwrap()), None);
        assert_eq!(saved_and_resumed(log.lines().next().unwrap()), None);
    }
}
