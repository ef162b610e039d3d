//! `cargo xtask parallel-local` (scripts/parallel-local): the README's GNU
//! parallel example for real, with local slots instead of ssh hosts. Every
//! shard of Q(N) is counted as its own `queens count` process (at most
//! SLOTS at a time); one of them is killed mid-run and run again from its
//! checkpoint; then the shards are merged and the total and the classes
//! compared with OEIS.
//!
//! Environment: N (12 to 18, default 17), SHARDS (default 8), SLOTS
//! (default 2), QUEENS (the binary, default the release build). Installs
//! GNU parallel from Debian's packages if it is missing. Exits 0 only if
//! everything holds.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::thread::sleep;
use std::time::{Duration, Instant};

use crate::counts::{self, merge, saved_units};
use crate::{Error, process, workspace};

const CHORE: &str = "parallel-local";

/// No arguments: the environment variables above choose the run.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// What to run.
#[derive(Debug)]
pub struct Settings {
    /// The board size.
    pub n: usize,
    /// Shards of the count.
    pub shards: usize,
    /// Processes at a time.
    pub slots: usize,
    /// The `queens` binary.
    pub queens: PathBuf,
}

impl Settings {
    /// From the environment, as the script read it.
    pub fn from_env() -> Result<Settings, Error> {
        let queens = workspace::queens_binary(CHORE)?;
        Settings::new(
            workspace::env_number("N", 17, CHORE)?,
            workspace::env_number("SHARDS", 8, CHORE)?,
            workspace::env_number("SLOTS", 2, CHORE)?,
            queens,
        )
    }

    /// Checks N against the sizes this run is meant for.
    pub fn new(n: usize, shards: usize, slots: usize, queens: PathBuf) -> Result<Settings, Error> {
        counts::published(n, 12..=18, CHORE)?;
        if shards < 1 || slots < 1 {
            return Err(Error::Usage(format!(
                "{CHORE}: SHARDS and SLOTS must be at least 1"
            )));
        }
        Ok(Settings {
            n,
            shards,
            slots,
            queens,
        })
    }
}

/// Runs it with the environment's settings.
pub fn run(_: &Args) -> Result<(), Error> {
    run_with(&Settings::from_env()?)
}

/// Runs it.
pub fn run_with(settings: &Settings) -> Result<(), Error> {
    let Settings {
        n, shards, slots, ..
    } = *settings;
    let queens = settings.queens.to_string_lossy().into_owned();
    if !process::on_path("parallel") {
        println!("{CHORE}: installing GNU parallel");
        process::apt_install(&["parallel"])?;
    }
    let work = tempfile::tempdir()
        .map_err(|error| Error::Failed(format!("{CHORE}: no scratch directory: {error}")))?;
    let dir = work.path();
    let started = Instant::now();

    // The README's command with `-j SLOTS` for `--sshlogin`: one record and
    // one checkpoint per shard. Each shard's command is a shell line because
    // that is what GNU parallel runs (the redirection is the README's).
    let count = r#""$0" count "$1" --unique --json --quiet --threads 1 --shard {}/"$2" --checkpoint q-{}.ckpt > q-{}.json"#;
    let shard_ids: Vec<String> = (1..=shards).map(|s| s.to_string()).collect();
    process::run(
        Command::new("parallel")
            .current_dir(dir)
            .args([
                "--will-cite",
                "-j",
                &slots.to_string(),
                "--halt",
                "now,fail=1",
            ])
            .arg(format!("bash -c '{count}' '{queens}' '{n}' '{shards}'"))
            .arg(":::")
            .args(&shard_ids),
    )?;
    println!(
        "{CHORE}: {} of n = {n} counted, {slots} at a time, in {} s",
        queens_core::counted(shards, "shard", "shards"),
        started.elapsed().as_secs()
    );

    // A shard lost half way (its process killed): counted again from its
    // checkpoint, it must give the same record's counts.
    let resumed = kill_and_resume(settings, dir)?;
    println!("{CHORE}: shard 1 killed with SIGKILL and counted again: {resumed}");

    let merged = merge(&settings.queens, &shard_records(dir, shards))?;
    println!("{CHORE}: merged: {}", merged.0);
    println!("{}", counts::check_merged(&merged.1, n, CHORE)?);
    Ok(())
}

/// A new file for a process's output.
fn create(path: &Path) -> Result<File, Error> {
    File::create(path).map_err(Error::io(&format!("{CHORE}: cannot write"), path))
}

/// Kills shard 1's process with SIGKILL once it has saved units, counts it
/// again from the checkpoint, and returns what the resumed run said.
fn kill_and_resume(settings: &Settings, dir: &Path) -> Result<String, Error> {
    let (n, shards) = (settings.n.to_string(), settings.shards);
    let shard = format!("1/{shards}");
    for stale in ["q-1.json", "q-1.ckpt"] {
        let _ = std::fs::remove_file(dir.join(stale));
    }
    let mut first = Command::new(&settings.queens);
    first
        .current_dir(dir)
        .args([
            "count",
            &n,
            "--unique",
            "--json",
            "--quiet",
            "--threads",
            "1",
        ])
        .args([
            "--shard",
            &shard,
            "--checkpoint",
            "q-1.ckpt",
            "--checkpoint-every",
            "0.1",
        ])
        .stdout(create(&dir.join("q-1.json"))?);
    let mut worker = first.spawn().map_err(|error| {
        Error::Failed(format!(
            "cannot run `{}`: {error}",
            process::describe(&first)
        ))
    })?;
    for _ in 0..200 {
        if saved_units(&dir.join("q-1.ckpt")) > 0 {
            break;
        }
        sleep(Duration::from_millis(20));
    }
    // It may have finished already; either way it is gone after this.
    let _ = worker.kill();
    let _ = worker.wait();

    let resumed_log = dir.join("resumed.txt");
    process::run(
        Command::new(&settings.queens)
            .current_dir(dir)
            .args(["count", &n, "--unique", "--json", "--threads", "1"])
            .args(["--shard", &shard, "--checkpoint", "q-1.ckpt"])
            .stdout(create(&dir.join("q-1.json"))?)
            .stderr(create(&resumed_log)?),
    )?;
    let said = std::fs::read_to_string(&resumed_log).unwrap_or_default();
    Ok(said.trim_end().to_string())
}

/// The shard records q-1.json .. q-K.json.
fn shard_records(dir: &Path, shards: usize) -> Vec<PathBuf> {
    (1..=shards)
        .map(|s| dir.join(format!("q-{s}.json")))
        .collect()
}
