//! `cargo xtask parallel-local` (scripts/parallel-local): the README's GNU
//! parallel example for real, with local slots instead of ssh hosts. Every
//! shard of Q(N) is counted as its own `queens count` process (at most
//! SLOTS at a time); one of them is killed mid-run and run again from its
//! checkpoint; then the shards are merged and the total and the classes
//! compared with OEIS.
//!
//! Environment: N (12 to 18, default 18), SHARDS (default 8), SLOTS
//! (default 2), QUEENS (the binary, default the release build). Installs
//! GNU parallel from Debian's packages if it is missing. Exits 0 only if
//! everything holds.

use std::fs::File;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use crate::counts::{self, saved_units};
use crate::{Error, process, workspace};

const CHORE: &str = "parallel-local";

/// Runs it with the environment's settings.
pub fn run() -> Result<(), Error> {
    let queens = workspace::queens_binary(CHORE)?;
    run_with(
        workspace::env_number("N", 18, CHORE)?,
        workspace::env_number("SHARDS", 8, CHORE)?,
        workspace::env_number("SLOTS", 2, CHORE)?,
        &queens,
    )
}

/// Runs Q(n) in `shards` shards, `slots` at a time, with this binary.
pub fn run_with(n: usize, shards: usize, slots: usize, queens: &Path) -> Result<(), Error> {
    counts::published(n, 12..=18, CHORE)?;
    if shards < 1 || slots < 1 {
        return Err(Error::Usage(format!(
            "{CHORE}: SHARDS and SLOTS must be at least 1"
        )));
    }
    if !process::on_path("parallel") {
        println!("{CHORE}: installing GNU parallel");
        process::apt_install(&["parallel"])?;
    }
    let work = process::scratch(CHORE)?;
    let dir = work.path();
    let started = Instant::now();

    // The README's command with `-j SLOTS` for `--sshlogin`: one record and
    // one checkpoint per shard. Each shard's command is a shell line because
    // that is what GNU parallel runs (the redirection is the README's).
    let count = r#""$0" count "$1" --unique --json --quiet --threads 1 --shard {}/"$2" --checkpoint q-{}.ckpt > q-{}.json"#;
    process::run(
        Command::new("parallel")
            .current_dir(dir)
            .args(["--will-cite", "-j", &slots.to_string()])
            .args(["--halt", "now,fail=1"])
            .arg(format!(
                "bash -c '{count}' '{}' '{n}' '{shards}'",
                queens.display()
            ))
            .arg(":::")
            .args((1..=shards).map(|s| s.to_string())),
    )?;
    println!(
        "{CHORE}: {} of n = {n} counted, {slots} at a time, in {} s",
        queens_core::counted(shards, "shard", "shards"),
        started.elapsed().as_secs()
    );

    // A shard lost half way (its process killed): counted again from its
    // checkpoint, it must give the same record's counts.
    let resumed = kill_and_resume(queens, n, shards, dir)?;
    println!("{CHORE}: shard 1 killed with SIGKILL and counted again: {resumed}");

    let records: Vec<_> = (1..=shards)
        .map(|s| dir.join(format!("q-{s}.json")))
        .collect();
    counts::merge(queens, &records, n, CHORE)
}

/// A new file for a process's output.
fn create(path: &Path) -> Result<File, Error> {
    File::create(path).map_err(Error::io(&format!("{CHORE}: cannot write"), path))
}

/// Kills shard 1's process with SIGKILL once it has saved units, counts it
/// again from the checkpoint, and returns what the resumed run said.
fn kill_and_resume(queens: &Path, n: usize, shards: usize, dir: &Path) -> Result<String, Error> {
    for stale in ["q-1.json", "q-1.ckpt"] {
        let _ = std::fs::remove_file(dir.join(stale));
    }
    // Shard 1's count, its record to q-1.json, its checkpoint q-1.ckpt.
    let shard_one = || -> Result<Command, Error> {
        let line = format!(
            "count {n} --unique --json --threads 1 --shard 1/{shards} --checkpoint q-1.ckpt"
        );
        let mut count = Command::new(queens);
        let record = create(&dir.join("q-1.json"))?;
        count.current_dir(dir).args(line.split(' ')).stdout(record);
        Ok(count)
    };
    let mut first = shard_one()?;
    first.args(["--quiet", "--checkpoint-every", "0.1"]);
    let mut worker = process::spawn(&mut first)?;
    let ckpt = dir.join("q-1.ckpt");
    process::wait_until(Duration::from_secs(4), Duration::from_millis(20), || {
        saved_units(&ckpt) > 0
    });
    // It may have finished already; either way it is gone after this.
    let _ = worker.kill();
    let _ = worker.wait();

    let resumed_log = dir.join("resumed.txt");
    process::run(shard_one()?.stderr(create(&resumed_log)?))?;
    let said = std::fs::read_to_string(&resumed_log).unwrap_or_default();
    Ok(said.trim_end().to_string())
}
