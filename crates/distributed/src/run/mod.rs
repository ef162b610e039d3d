//! One count of a solver that splits its work (a
//! [`queens_core::split::WorkSplit`]): its units on threads, optionally only
//! one shard of them, with a progress bar and periodic checkpoints.
//!
//! The run is four parts with one job each, and this module's loop, which
//! only passes events between them:
//!
//! - `workers`: the unit scheduling, the units still to count on worker
//!   threads, each finished one an event;
//! - `saving`: when the checkpoint is written (how it is written and
//!   checked is the checkpoint module's);
//! - `progress`: the bar and the resume line on stderr;
//! - the interruption flag, raised by whoever owns the signals (the
//!   `queens` command sets it on SIGINT and SIGTERM) and polled here: the
//!   run then saves what is finished and returns
//!   [`Outcome::Interrupted`] without waiting for the units in flight.

mod progress;
mod saving;
mod workers;

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use queens_core::split::{self, Plan, UnitCount, WorkSplit};

use crate::Error;
use crate::checkpoint::{Checkpoint, RunIdentity, Saved};
use crate::lock::Locked;
use crate::recheck;
pub use crate::shard::Counted;
use crate::shard::{ShardSpec, subtotals};
use progress::{Progress, say_resumed};
use saving::Saving;
use workers::Workers;

pub use progress::Display;

/// What to run.
pub struct UnitRun<'a> {
    /// The solver's id, for the checkpoint's identity.
    pub solver_id: &'a str,
    /// Its units. `'static` because the workers run on a thread the run
    /// does not wait for when it is interrupted.
    pub split: &'static dyn WorkSplit,
    /// Board size.
    pub n: usize,
    /// Also count the fixed pairs that give the classes.
    pub unique: bool,
    /// Worker threads; 0 = one per core.
    pub threads: usize,
    /// Only this shard of the units.
    pub shard: Option<ShardSpec>,
    /// Save finished units here, and resume from it: locked by the caller
    /// before any work, so that no other run writes it meanwhile.
    pub checkpoint: Option<&'a Locked>,
    /// Time between checkpoint saves.
    pub save_every: Duration,
    /// Whether the progress bar and the resume line are shown.
    pub display: Display,
    /// Polled while the units are counted: once it is raised, the run saves
    /// what is finished and returns [`Outcome::Interrupted`].
    pub interrupted: &'a AtomicBool,
    /// Before going on from a checkpoint, recount a sample of its saved
    /// units and refuse the run if any differs.
    pub recheck: Option<Recheck>,
    /// Asked, once the plan is made and dealt and before the run lists its
    /// units, whether that many units' lists ([`BYTES_PER_LISTED_UNIT`]
    /// each) fit beside the rest of the run: `Err` is the one-line refusal.
    /// What a run lists follows its shard, which only the dealt plan tells.
    pub lists_fit: &'a dyn Fn(usize) -> Result<(), String>,
}

/// What a run holds per unit it counts, at most at once: four lists of
/// indices (its units, those to do, a sorted copy and their order heaviest
/// first) and the order's sort keys (a weight beside each index).
pub const BYTES_PER_LISTED_UNIT: u64 =
    4 * size_of::<usize>() as u64 + size_of::<(u64, usize)>() as u64;

/// How many of a checkpoint's saved units a resumed run recounts, and the
/// seed they are drawn with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Recheck {
    /// Units to recount (all saved ones, if fewer are saved).
    pub units: usize,
    /// Seed of the draw: the same seed draws the same units.
    pub seed: u64,
}

/// How a run ended, when nothing failed.
#[derive(Debug)]
pub enum Outcome {
    /// Every unit of the run is counted.
    Counted(Counted),
    /// The interruption flag rose. The finished units are saved in the
    /// run's checkpoint, if it has one; the units in flight are still being
    /// counted on threads that nobody waits for, so the caller should end
    /// the process soon.
    Interrupted {
        /// Units finished, earlier attempts included.
        done: usize,
        /// Units of the run (this shard's, or all).
        units: usize,
    },
}

/// Why the loop stopped.
enum Stop {
    Finished,
    Interrupted,
}

impl UnitRun<'_> {
    /// Counts the units not yet in the checkpoint and adds them up.
    pub fn run(&self) -> Result<Outcome, Error> {
        let started = Instant::now();
        let plan = self.split.plan(self.n)?;
        let mine: Vec<usize> = match self.shard {
            Some(shard) => split::shard_units(&plan, shard.index, shard.count),
            None => (0..plan.len()).collect(),
        };
        // What the run lists follows what it was dealt (a shard's share is
        // known, and held alone, once dealt): asked before the other lists.
        (self.lists_fit)(mine.len()).map_err(Error::Input)?;
        let (checkpoint, saved) = self.resume(plan.len(), &mine)?;
        // A signal while the plan was made and dealt (seconds at the largest
        // boards) ends the run here, with its line, before any unit starts.
        let path = self.checkpoint.map(Locked::path);
        if self.interrupted.load(Ordering::Acquire) {
            let (done, units) = (saved.done.len(), mine.len());
            return Ok(Outcome::Interrupted { done, units });
        }
        let rechecked = match (self.recheck, path) {
            (Some(recheck), Some(path)) => self.recheck_saved(recheck, path, &plan, &saved.done)?,
            _ => 0,
        };
        let earlier_seconds = saved.seconds;
        let seconds = || earlier_seconds + started.elapsed().as_secs_f64();
        let mut done = saved.done;
        let resumed = done.len();
        let mut saving = Saving::start(checkpoint, self.save_every, &done, seconds())?;

        let progress = Progress::start(self.display, &plan, &mine, &done);
        let todo = (mine.iter().copied()).filter(|i| !done.contains_key(i));
        let (n, unique, threads) = (self.n, self.unique, self.threads);
        let mut workers =
            Workers::start(self.split, n, plan.clone(), todo.collect(), unique, threads)?;
        let tick = self.save_every.min(Duration::from_millis(250));
        let (stop, seconds) = loop {
            let mut counted = Vec::new();
            let mut stop = workers
                .next(tick, &mut counted)
                .map(|r| r.map(|()| Stop::Finished));
            if stop.is_none() && self.interrupted.load(Ordering::Acquire) {
                // Units that finished before the interruption was seen are
                // kept too, not only the one that woke the loop.
                counted.extend(workers.counted_so_far());
                stop = Some(Ok(Stop::Interrupted));
            }
            for (index, count) in counted {
                done.insert(index, count);
                progress.counted(index, done.len());
            }
            let seconds = seconds();
            // The one place a running count saves: a failed unit (a GPU
            // lost) keeps what was finished before it, so a rerun resumes
            // there, and an interruption keeps everything finished by then.
            saving.keep(&done, seconds, stop.is_some())?;
            if let Some(stop) = stop {
                break (stop?, seconds);
            }
        };
        drop(progress);
        if let Stop::Interrupted = stop {
            let (done, units) = (done.len(), mine.len());
            return Ok(Outcome::Interrupted { done, units });
        }
        let mut total = UnitCount::default();
        done.values().for_each(|&count| total += count);
        // The plan is made by every shard, but its work is counted once.
        if self.shard.is_none_or(|s| s.index == 1) {
            total.nodes += plan.nodes;
        }
        Ok(Outcome::Counted(Counted {
            total,
            subtotals: subtotals(&done),
            plan_units: plan.len(),
            units: mine.len(),
            resumed,
            rechecked,
            plan_nodes: plan.nodes,
            seconds,
        }))
    }

    /// The checkpoint of a run of `plan_units` units, and what it holds
    /// of this run's (`mine`): nothing without one.
    fn resume(
        &self,
        plan_units: usize,
        mine: &[usize],
    ) -> Result<(Option<Checkpoint>, Saved), Error> {
        let Some(path) = self.checkpoint.map(Locked::path) else {
            return Ok((None, Saved::default()));
        };
        // What a checkpoint of this run must say it belongs to.
        let run = RunIdentity {
            solver: self.solver_id.to_string(),
            split: self.split.version().to_string(),
            n: self.n,
            unique: self.unique,
            shard: self.shard,
            plan_units,
        };
        let (checkpoint, saved) = Checkpoint::open(path, run, mine)?;
        say_resumed(self.display, path, saved.done.len(), mine.len());
        Ok((Some(checkpoint), saved))
    }

    /// Recounts a sample of the units saved in the checkpoint at `path`
    /// (on this thread, before any other is counted) and refuses the run
    /// if one differs: a checkpoint edited and sealed again passes its
    /// checksum, not a recount. Returns how many were recounted.
    fn recheck_saved(
        &self,
        recheck: Recheck,
        path: &Path,
        plan: &Plan,
        done: &BTreeMap<usize, UnitCount>,
    ) -> Result<usize, Error> {
        let chosen = recheck::draw(&subtotals(done), recheck.units, recheck.seed);
        let recounts = recheck::recount_units(self.split, self.n, plan, self.unique, &chosen)?;
        match recheck::disagreement(&recounts) {
            None => Ok(recounts.len()),
            Some(which) => Err(Error::Verification(format!(
                "{}: saved {which} than saved: the checkpoint is wrong (delete it to count from the start)",
                path.display()
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use queens_core::QueensError;
    use queens_core::split::{Plan, WorkUnit};

    use super::*;

    /// Four units whose solutions are ten times their key; the lightest
    /// (key 3, counted last on one thread) can be made to raise an
    /// interruption and then never finish, like a long unit in flight.
    struct Tens {
        stuck: Option<&'static AtomicBool>,
    }

    impl WorkSplit for Tens {
        fn version(&self) -> &'static str {
            "tens/1"
        }
        fn plan(&self, _: usize) -> Result<Plan, QueensError> {
            let units = (0..4).map(|key| WorkUnit::whole(key, 10 - key)).collect();
            Ok(Plan::whole(units, 7))
        }
        fn count_unit(&self, _: usize, unit: WorkUnit, _: bool) -> Result<UnitCount, QueensError> {
            if unit.key == 3
                && let Some(interrupt) = self.stuck
            {
                interrupt.store(true, Ordering::Release);
                std::thread::sleep(Duration::from_secs(3600));
            }
            Ok(UnitCount {
                solutions: 10 * unit.key,
                fixed_pairs: 0,
                nodes: 1,
                pair_tests: 0,
            })
        }
    }

    fn run<'a>(
        split: &'static dyn WorkSplit,
        checkpoint: Option<&'a Locked>,
        interrupted: &'a AtomicBool,
    ) -> UnitRun<'a> {
        UnitRun {
            solver_id: "tens",
            split,
            n: 6,
            unique: false,
            threads: 1,
            shard: None,
            checkpoint,
            save_every: Duration::from_secs(5),
            display: Display::Quiet,
            interrupted,
            recheck: None,
            lists_fit: &|_| Ok(()),
        }
    }

    #[test]
    fn a_run_asks_whether_the_units_it_lists_fit_before_it_lists_them() {
        static TENS: Tens = Tens { stuck: None };
        let calm = AtomicBool::new(false);
        let asked = std::sync::Mutex::new(Vec::new());
        let note = |units: usize| {
            asked.lock().unwrap().push(units);
            Ok(())
        };
        let shards = [(1, 1), (1, 2), (2, 3)].map(|(index, count)| ShardSpec { index, count });
        for shard in [None].into_iter().chain(shards.map(Some)) {
            let outcome = UnitRun {
                shard,
                lists_fit: &note,
                ..run(&TENS, None, &calm)
            };
            assert!(matches!(outcome.run(), Ok(Outcome::Counted(_))));
        }
        // Weights 10, 9, 8, 7: the whole plan's four units, then each
        // shard's own share ({10, 7} of two; {9} of three).
        assert_eq!(*asked.lock().unwrap(), vec![4, 4, 2, 1]);
        let refuse = |units: usize| Err(format!("no room to list {units} units"));
        let refused = UnitRun {
            lists_fit: &refuse,
            ..run(&TENS, None, &calm)
        };
        assert!(
            matches!(refused.run(), Err(Error::Input(line)) if line == "no room to list 4 units")
        );
    }

    #[test]
    fn a_whole_run_adds_every_unit_and_the_plan() {
        static TENS: Tens = Tens { stuck: None };
        let calm = AtomicBool::new(false);
        let Outcome::Counted(counted) = run(&TENS, None, &calm).run().unwrap() else {
            panic!("nothing interrupted the run");
        };
        assert_eq!(counted.total.solutions, 60);
        assert_eq!(counted.total.nodes, 4 + 7);
        let units: Vec<usize> = counted.subtotals.iter().map(|s| s.unit).collect();
        assert_eq!(units, vec![0, 1, 2, 3]);
        assert_eq!((counted.units, counted.resumed), (4, 0));
    }

    #[test]
    fn an_interrupted_run_returns_what_it_saved_and_a_rerun_resumes_there() {
        static RAISED: AtomicBool = AtomicBool::new(false);
        static STUCK: Tens = Tens {
            stuck: Some(&RAISED),
        };
        static TENS: Tens = Tens { stuck: None };
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run.ckpt");
        let locked = Locked::take(&path).unwrap();
        // Returns although the last unit never finishes.
        match run(&STUCK, Some(&locked), &RAISED).run().unwrap() {
            Outcome::Interrupted { done, units } => assert_eq!((done, units), (3, 4)),
            Outcome::Counted(_) => panic!("the stuck unit finished"),
        }
        let calm = AtomicBool::new(false);
        let Outcome::Counted(counted) = run(&TENS, Some(&locked), &calm).run().unwrap() else {
            panic!("nothing interrupted the rerun");
        };
        assert_eq!(counted.resumed, 3);
        assert_eq!(counted.total.solutions, 60);
    }

    /// Two units of five parts each, a part's solutions its place in
    /// the plan; the third part of the second unit can be made to raise an
    /// interruption and never finish, like a long unit's part in flight.
    struct Pieces {
        stuck: Option<&'static AtomicBool>,
    }

    impl WorkSplit for Pieces {
        fn version(&self) -> &'static str {
            "parts/1"
        }
        fn plan(&self, _: usize) -> Result<Plan, QueensError> {
            let units = vec![WorkUnit::whole(0, 50), WorkUnit::whole(1, 50)];
            Ok(Plan::cut(units, 0, 10, |_| 5))
        }
        fn count_unit(&self, _: usize, unit: WorkUnit, _: bool) -> Result<UnitCount, QueensError> {
            let place = 5 * unit.key + u64::from(unit.piece.index);
            if place == 7
                && let Some(interrupt) = self.stuck
            {
                interrupt.store(true, Ordering::Release);
                std::thread::sleep(Duration::from_secs(3600));
            }
            Ok(UnitCount {
                solutions: place,
                fixed_pairs: 0,
                nodes: 1,
                pair_tests: 0,
            })
        }
    }

    #[test]
    fn an_interrupted_run_keeps_the_finished_parts_of_a_unit_in_flight() {
        static RAISED: AtomicBool = AtomicBool::new(false);
        static STUCK: Pieces = Pieces {
            stuck: Some(&RAISED),
        };
        static PIECES: Pieces = Pieces { stuck: None };
        let dir = tempfile::tempdir().unwrap();
        let locked = Locked::take(&dir.path().join("run.ckpt")).unwrap();
        let runs = |split: &'static Pieces, interrupted: &'static AtomicBool| {
            run(split, Some(&locked), interrupted)
        };
        // The plan's units are the ten parts; one thread counts them in
        // plan order (equal weights), and the second unit's third part
        // never finishes: its first two are saved all the same.
        match runs(&STUCK, &RAISED).run().unwrap() {
            Outcome::Interrupted { done, units, .. } => assert_eq!((done, units), (7, 10)),
            Outcome::Counted(_) => panic!("the stuck part finished"),
        }
        static CALM: AtomicBool = AtomicBool::new(false);
        let Outcome::Counted(counted) = runs(&PIECES, &CALM).run().unwrap() else {
            panic!("nothing interrupted the rerun");
        };
        assert_eq!((counted.resumed, counted.units), (7, 10));
        assert_eq!(counted.total.solutions, (0..10).sum::<u64>());
        let parts: Vec<usize> = counted.subtotals.iter().map(|s| s.unit).collect();
        assert_eq!(parts, (0..10).collect::<Vec<_>>());
    }
}
