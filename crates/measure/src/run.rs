//! Measuring one solver at one n, the same way for `cargo bench` and
//! `queens compare`:
//!
//! 1. a *checking run* with the counting allocator watching: its count is
//!    compared with the published one (OEIS A000170) and its peak heap bytes
//!    recorded. A wrong count or a failure makes an error entry, and that
//!    (solver, n) is never timed;
//! 2. timed runs (criterion's, or [`crate::climb::time_within_budget`]'s
//!    loop), summarised by [`Timing`] ([`crate::stats::timing`]).
//!
//! [`crate::climb`] decides how far up n each solver goes;
//! [`crate::compare`] is a whole `queens compare` run: cross-validation,
//! then climbing every solver, then the record.

use std::hint::black_box;
use std::time::{Duration, Instant};

use queens_core::{CountOptions, Metric, SearchStats, Solver, oeis};

use queens_record::{COUNT, Entry, Outcome, Question};

use crate::heap;

/// What a checking run established, a count's ([`Counting`]) or a found
/// board's ([`crate::find::Finding`]), as its entry records it
/// whatever the question, so that counters and finders climb by one rule.
#[derive(Clone, Debug)]
pub struct CheckedRun {
    /// What was asked.
    pub question: Question,
    /// The solver's id, or the finder's.
    pub solver: &'static str,
    /// Board size.
    pub n: usize,
    /// Wall time of the checking run.
    pub wall: Duration,
    /// Peak heap bytes above the run's start: a count's less the bytes of
    /// the statistics it hands back ([`stats_heap_bytes`]), a finder's with
    /// its board (it is what the finder must hold).
    pub peak_heap_bytes: u64,
    /// Why this (solver, n) must not be timed.
    pub error: Option<String>,
    /// The run's work (a solver's nodes, a finder's steps); `None` when it
    /// gave no answer.
    pub nodes: Option<u64>,
    /// The count found, for a count that answered.
    pub solutions: Option<u64>,
    /// The classes found, where the count computed them.
    pub unique: Option<u64>,
    /// The solver's or finder's own figures.
    pub extra: Vec<Metric>,
}

impl CheckedRun {
    /// The record entry for this run, offered an outcome: a wrong answer is
    /// always an error entry, never a timing.
    pub fn entry(&self, outcome: Outcome) -> Entry {
        let outcome = match &self.error {
            Some(why) => Outcome::Error { why: why.clone() },
            None => outcome,
        };
        Entry {
            solutions: self.solutions,
            unique: self.unique,
            nodes: self.nodes,
            extra: self.extra.clone(),
            // Only a run that answered held what it answered.
            peak_heap_bytes: self.nodes.map(|_| self.peak_heap_bytes),
            check_run_ns: Some(self.wall.as_nanos() as u64),
            ..Entry::new(self.question, self.solver, self.n, outcome)
        }
    }
}

/// Runs `run` once with the allocator watching: its result, wall time and
/// peak heap bytes.
pub(crate) fn watched<T>(run: impl FnOnce() -> T) -> (T, Duration, u64) {
    let ((result, wall), peak) = heap::peak_during(|| {
        let started = Instant::now();
        let result = run();
        (result, started.elapsed())
    });
    (result, wall, peak)
}

/// A solver or a finder as measuring sees it: one checking run and one
/// timed run at n, so that counters and finders climb, and take their
/// cold samples, by one rule.
pub trait Subject {
    /// What it is asked.
    fn question(&self) -> Question;
    /// Its id.
    fn id(&self) -> &'static str;
    /// One checking run at n.
    fn check(&self, n: usize) -> CheckedRun;
    /// One timed run at n.
    fn time(&self, n: usize) -> Duration;
    /// The entry of an n not run at all, because the last run predicts it
    /// would take too long.
    fn skipped(&self, n: usize, why: String) -> Entry {
        Entry::new(self.question(), self.id(), n, Outcome::OverBudget { why })
    }
}

/// A solver counting with `options`: its checking run counts once with the
/// allocator watching and checks the count against the published one
/// (OEIS A000170, the ground truth of every measurement).
#[derive(Clone, Copy)]
pub struct Counting<'a> {
    /// The solver.
    pub solver: &'a dyn Solver,
    /// How it counts.
    pub options: CountOptions,
}

impl Subject for Counting<'_> {
    fn question(&self) -> Question {
        COUNT
    }
    fn id(&self) -> &'static str {
        self.solver.info().id
    }
    fn check(&self, n: usize) -> CheckedRun {
        let id = self.id();
        let (result, wall, peak) = watched(|| self.solver.count(black_box(n), &self.options));
        // The statistics are the run's answer, allocated inside the watched
        // window; left in, a search with no heap of its own would show their
        // list of named counters as its peak (three-mask's one counter read
        // as a hundred-odd bytes). Only the search's own memory is wanted.
        let answer = result.as_ref().map_or(0, stats_heap_bytes);
        let error = match &result {
            Err(error) => Some(error.to_string()),
            Ok(stats) => match oeis::total(n) {
                Some(want) if want == stats.solutions => None,
                Some(want) => Some(format!(
                    "wrong count: {id} found {} for n = {n}, OEIS A000170 says {want}",
                    queens_core::counted(stats.solutions, "solution", "solutions")
                )),
                None => Some(format!("no published count for n = {n} to check against")),
            },
        };
        let stats = result.ok();
        CheckedRun {
            question: COUNT,
            solver: id,
            n,
            wall,
            peak_heap_bytes: peak.saturating_sub(answer),
            error,
            nodes: stats.as_ref().map(|s| s.nodes),
            solutions: stats.as_ref().map(|s| s.solutions),
            unique: stats.as_ref().and_then(|s| s.unique),
            extra: stats.map(|s| s.extra).unwrap_or_default(),
        }
    }
    /// One timed run, its result kept alive so the work cannot be
    /// optimised away.
    fn time(&self, n: usize) -> Duration {
        let started = Instant::now();
        let _ = black_box(self.solver.count(black_box(n), &self.options));
        started.elapsed()
    }
}

/// The heap bytes a [`SearchStats`] holds: its list of extra counters and
/// their names. Subtracted from a run's peak, so that the peak is the
/// search's and not its answer's. (If the answer is built only after the
/// search has freed its memory, the search's peak did not include it and
/// loses these few bytes: an error of at most the answer's size, against a
/// figure that would otherwise never be zero.)
pub fn stats_heap_bytes(stats: &SearchStats) -> u64 {
    let list = stats.extra.capacity() * std::mem::size_of::<queens_core::Metric>();
    let names: usize = stats.extra.iter().map(|m| m.name.capacity()).sum();
    (list + names) as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::timing;
    use queens_core::{QueensError, SolverInfo, Visit, trace::TraceSink};
    use queens_record::Status;
    use queens_three_mask::ThreeMask;

    /// Three-mask with every count one too many.
    struct OffByOne;

    impl Solver for OffByOne {
        fn info(&self) -> &'static SolverInfo {
            ThreeMask.info()
        }
        fn enumerate(&self, n: usize, visit: &mut Visit<'_>) -> Result<SearchStats, QueensError> {
            ThreeMask.enumerate(n, visit)
        }
        fn count(&self, n: usize, options: &CountOptions) -> Result<SearchStats, QueensError> {
            let stats = ThreeMask.count(n, options)?;
            Ok(SearchStats {
                solutions: stats.solutions + 1,
                ..stats
            })
        }
        fn trace(&self, n: usize, sink: &mut dyn TraceSink) -> Result<SearchStats, QueensError> {
            ThreeMask.trace(n, sink)
        }
    }

    fn checked(solver: &dyn Solver, n: usize) -> CheckedRun {
        let options = CountOptions::default();
        Counting { solver, options }.check(n)
    }

    #[test]
    fn a_correct_count_passes_the_check() {
        let run = checked(&ThreeMask, 8);
        assert_eq!(run.error, None);
        let entry = run.entry(Outcome::timed(timing(&[100.0]).unwrap()));
        assert_eq!(entry.status(), Status::Timed);
        assert_eq!(entry.solutions, Some(92));
        assert!(entry.nodes.is_some_and(|nodes| nodes > 92));
        assert!(entry.ns_per_node().is_some());
    }

    #[test]
    fn a_wrong_count_becomes_an_error_entry_never_a_timing() {
        let run = checked(&OffByOne, 8);
        assert!(run.error.is_some());
        // Even when a caller offers a timing, the entry refuses it.
        let entry = run.entry(Outcome::timed(timing(&[100.0]).unwrap()));
        assert_eq!(entry.status(), Status::Error);
        assert_eq!(entry.timing(), None);
        let message = entry.error().unwrap();
        assert!(
            message.contains("93 solutions") && message.contains("says 92"),
            "{message}"
        );
        // What the solver did find is kept, for whoever debugs it.
        assert_eq!(entry.solutions, Some(93));
    }

    #[test]
    fn a_refused_n_is_an_error_entry() {
        let too_large = ThreeMask.info().max_n + 1;
        let entry = checked(&ThreeMask, too_large).entry(Outcome::timed(timing(&[100.0]).unwrap()));
        assert_eq!(entry.status(), Status::Error);
        assert!(entry.error().unwrap().contains("supports n <="));
    }
}
