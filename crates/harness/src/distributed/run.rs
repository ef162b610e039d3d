//! One count of a solver that splits its work (a
//! [`queens_core::split::WorkSplit`]): its units on threads, optionally only
//! one shard of them, with a progress bar and periodic checkpoints.
//!
//! Workers send each finished unit to this thread, which alone owns the
//! progress bar and the checkpoint, and saves whenever something is new and
//! the last save is older than the save interval.

use std::io::{IsTerminal, Write};
use std::path::Path;
use std::sync::atomic::Ordering;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use queens_core::Solver;
use queens_core::split::{self, UnitCount, WorkSplit};

use super::checkpoint::{Checkpoint, RunIdentity};
use super::interruption;
use super::shard::{ShardSpec, Subtotal};
use crate::error::CliError;

/// What to run.
pub struct UnitRun<'a> {
    /// The solver, for the checkpoint's identity.
    pub solver: &'static dyn Solver,
    /// Its units.
    pub split: &'a dyn WorkSplit,
    /// Board size.
    pub n: usize,
    /// Also count the fixed pairs that give the classes.
    pub unique: bool,
    /// Worker threads; 0 = one per core.
    pub threads: usize,
    /// Only this shard of the units.
    pub shard: Option<ShardSpec>,
    /// Save finished units here, and resume from it.
    pub checkpoint: Option<&'a Path>,
    /// Seconds between checkpoint saves.
    pub save_every: Duration,
    /// No progress bar.
    pub quiet: bool,
}

/// What it found.
pub struct UnitOutcome {
    /// The counts of this run's units (all of them, or one shard's), plus
    /// the plan's nodes in the first (or only) shard.
    pub total: UnitCount,
    /// Every unit's count, in plan order.
    pub subtotals: Vec<Subtotal>,
    /// Units in the whole plan.
    pub plan_units: usize,
    /// Units counted (this shard's, or all).
    pub units: usize,
    /// Units taken from the checkpoint instead of being counted again.
    pub resumed: usize,
    /// Nodes spent making the plan (included in `total.nodes` for the first
    /// or only shard).
    pub plan_nodes: u64,
    /// Seconds spent counting, earlier attempts of a resumed run included.
    pub seconds: f64,
}

impl UnitRun<'_> {
    /// Counts the units not yet in the checkpoint and adds them up.
    pub fn run(&self) -> Result<UnitOutcome, CliError> {
        let started = Instant::now();
        let plan = self.split.plan(self.n)?;
        let mine: Vec<usize> = match self.shard {
            Some(shard) => split::shard_units(&plan.units, shard.index, shard.count),
            None => (0..plan.units.len()).collect(),
        };
        let mut checkpoint = match self.checkpoint {
            Some(path) => {
                let run = RunIdentity {
                    solver: self.solver.info().id.to_string(),
                    split: self.split.version().to_string(),
                    n: self.n,
                    unique: self.unique,
                    shard: self.shard,
                    plan_units: plan.units.len(),
                };
                Some(Checkpoint::open(path, run, &mine)?)
            }
            None => None,
        };
        let earlier_seconds = checkpoint.as_ref().map_or(0.0, |c| c.earlier_seconds);
        let seconds = || earlier_seconds + started.elapsed().as_secs_f64();
        let mut done = checkpoint
            .as_mut()
            .map(|c| std::mem::take(&mut c.done))
            .unwrap_or_default();
        let resumed = done.len();
        if resumed > 0
            && !self.quiet
            && let Some(path) = self.checkpoint
        {
            // Says on stderr (a cluster job's log) that the work of an
            // earlier attempt is kept; stdout stays the record alone.
            let _ = writeln!(
                std::io::stderr(),
                "queens: resuming from {}: {resumed} of {} units already counted",
                path.display(),
                mine.len()
            );
        }
        let todo: Vec<usize> = mine
            .iter()
            .copied()
            .filter(|i| !done.contains_key(i))
            .collect();
        if let Some(checkpoint) = checkpoint.as_mut() {
            // Save at once: an unwritable file should fail now, not after
            // the first few seconds of work.
            checkpoint.done = done.clone();
            checkpoint.save(seconds())?;
        }

        let weight = |units: &mut dyn Iterator<Item = usize>| -> u64 {
            units.map(|i| plan.units[i].weight).sum()
        };
        let progress = self.progress_bar(weight(&mut mine.iter().copied()));
        progress.set_position(weight(&mut done.keys().copied()));
        progress.set_message(format!("{}/{} units", done.len(), mine.len()));

        let interrupted = interruption::watch();
        let (sender, receiver) = mpsc::channel();
        let mut last_save = Instant::now();
        let mut unsaved = false;
        let counted = std::thread::scope(|scope| -> Result<(), CliError> {
            let worker = scope.spawn(|| {
                let sender = sender;
                split::count_units(
                    self.split,
                    self.n,
                    &plan.units,
                    &todo,
                    self.unique,
                    self.threads,
                    &|index, count| {
                        // The receiver outlives the workers.
                        let _ = sender.send((index, count));
                    },
                )
            });
            let tick = self.save_every.min(Duration::from_millis(250));
            loop {
                match receiver.recv_timeout(tick) {
                    Ok((index, count)) => {
                        done.insert(index, count);
                        unsaved = true;
                        progress.inc(plan.units[index].weight);
                        progress.set_message(format!("{}/{} units", done.len(), mine.len()));
                    }
                    Err(mpsc::RecvTimeoutError::Timeout) => {}
                    Err(mpsc::RecvTimeoutError::Disconnected) => break,
                }
                if interrupted.load(Ordering::Relaxed) {
                    // The workers are inside units that cannot be cut short,
                    // and half a unit is worth nothing: save what is
                    // finished, clean the terminal, and end the process
                    // (returning would wait for the running units).
                    if let Some(checkpoint) = checkpoint.as_mut() {
                        checkpoint.done.clone_from(&done);
                        checkpoint.save(seconds())?;
                    }
                    progress.finish_and_clear();
                    interruption::exit(
                        done.len(),
                        mine.len(),
                        checkpoint.as_ref().map(Checkpoint::path),
                    );
                }
                if let Some(checkpoint) = checkpoint.as_mut()
                    && unsaved
                    && last_save.elapsed() >= self.save_every
                {
                    checkpoint.done.clone_from(&done);
                    checkpoint.save(seconds())?;
                    last_save = Instant::now();
                    unsaved = false;
                }
            }
            let outcome = worker.join().expect("workers do not panic");
            if outcome.is_err()
                && let Some(checkpoint) = checkpoint.as_mut()
            {
                // A unit failed (a GPU lost or timed out): what was
                // finished before it is saved, so a rerun resumes there.
                checkpoint.done.clone_from(&done);
                checkpoint.save(seconds())?;
            }
            outcome?;
            Ok(())
        });
        progress.finish_and_clear();
        counted?;
        let seconds = seconds();
        if let Some(checkpoint) = checkpoint.as_mut() {
            checkpoint.done.clone_from(&done);
            checkpoint.save(seconds)?;
        }

        let mut total = UnitCount::default();
        for count in done.values() {
            total += *count;
        }
        let subtotals = done
            .iter()
            .map(|(&index, &count)| Subtotal::new(index, count))
            .collect();
        // The plan is made by every shard, but its work is counted once.
        if self.shard.is_none_or(|s| s.index == 1) {
            total.nodes += plan.nodes;
        }
        Ok(UnitOutcome {
            total,
            subtotals,
            plan_units: plan.units.len(),
            units: mine.len(),
            resumed,
            plan_nodes: plan.nodes,
            seconds,
        })
    }

    /// A bar over the estimated work with an ETA, on stderr when it is a
    /// terminal and `--quiet` is not given.
    fn progress_bar(&self, total_weight: u64) -> ProgressBar {
        let target = if self.quiet || !std::io::stderr().is_terminal() {
            ProgressDrawTarget::hidden()
        } else {
            ProgressDrawTarget::stderr()
        };
        let style = ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] [{wide_bar}] {percent:>3}%  ETA {eta}  {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar());
        ProgressBar::with_draw_target(Some(total_weight), target).with_style(style)
    }
}
