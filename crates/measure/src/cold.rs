//! Cold timing: each sample is ONE run of a search that has not just run.
//!
//! Repeating one small deterministic search back to back lets the
//! processor's branch predictor learn it: after a few repetitions a search
//! of a few thousand nodes runs with almost no mispredicted branch, and it
//! looks several times cheaper per node than the same code on a larger
//! board whose branches no longer fit in the predictor's memory (D. Lemire,
//! "Benchmarking is hard: processors learn to predict branches", 2019). A
//! real count runs once. So the figure tables rank by is taken the way a
//! real count runs: rounds through every timed (solver, n) of the run, each
//! sample one run between runs of other searches, never the same search
//! twice in a row ([`schedule`]). The warm figure (repeated runs, what
//! criterion and `queens compare`'s loop measure) is kept beside it: the gap
//! between the two is the predictor's learning.
//!
//! This is the one place both `cargo bench` and `queens compare` take their
//! cold samples ([`attach_cold`]).

use queens_record::{Entry, Outcome};
use std::hint::black_box;

use crate::counters::{self, BranchMisses};
use crate::run::Subject;
use crate::stats;

/// Cold rounds `cargo bench` takes: every timed (solver, n) gets this many
/// one-run samples. Odd, so the median is one of them; the rounds cost this
/// many times one run of every timed (solver, n), about a minute with the
/// bench's defaults.
pub const BENCH_COLD_ROUNDS: usize = 11;
/// Cold rounds `queens compare` takes (charged to each solver's budget).
pub const COMPARE_COLD_ROUNDS: usize = 5;

/// One step of the cold schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// A timed run of subject `i`.
    Run(usize),
    /// An untimed run of another search, between two runs of the same
    /// subject (only when there is one subject): it stands in for the other
    /// searches a larger run rotates through.
    Spacer,
}

/// The order of the cold runs of subjects keyed `(solver index, n)`:
/// `rounds` passes, each through every subject, ordered by n and then
/// solver so that a run follows another solver's search where there is
/// one. Consecutive runs are never of the same subject (a lone subject is
/// separated from itself by a [`Step::Spacer`]).
pub fn schedule(keys: &[(usize, usize)], rounds: usize) -> Vec<Step> {
    let mut order: Vec<usize> = (0..keys.len()).collect();
    order.sort_by_key(|&i| (keys[i].1, keys[i].0));
    let mut steps = Vec::with_capacity(keys.len() * rounds * 2);
    for _ in 0..rounds {
        for &i in &order {
            if steps.last() == Some(&Step::Run(i)) {
                steps.push(Step::Spacer);
            }
            steps.push(Step::Run(i));
        }
    }
    steps
}

/// Warm runs counted per subject, after as many uncounted repetitions: the
/// predictor has then seen the search a few times, as in the warm samples.
const WARM_COUNTED_RUNS: usize = 3;

/// Another search's worth of unpredictable branches: a pseudo-random walk
/// whose every branch is a coin flip, long enough (about 2^16 branches) to
/// overwrite what the predictor kept of the previous run.
fn spacer() {
    let mut state = 0x2545_f491_u32;
    let mut taken = 0u32;
    for _ in 0..1 << 16 {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        if black_box(state) & 1 == 1 {
            taken = taken.wrapping_add(1);
        }
    }
    black_box(taken);
}

/// Subjects of one kind as [`attach_cold`] takes them, beside others.
pub fn subjects<S: Subject>(list: &[S]) -> Vec<&dyn Subject> {
    list.iter().map(|s| s as &dyn Subject).collect()
}

/// Takes cold samples of every timed entry in `entries` of the subjects'
/// question (each subject found by id in `subjects`) and writes them into
/// the entries: `cold` and, with a counter, branch misses per node cold
/// and warm. Returns the reason the branch-miss figures are absent, if
/// they are, for the record's settings. Counts and found boards take their
/// rounds apart, one call each, so that a finder's figure is taken the way
/// a counter's is.
pub fn attach_cold(
    entries: &mut [Entry],
    subjects: &[&dyn Subject],
    rounds: usize,
) -> Option<String> {
    let counter = BranchMisses::open();
    // A solver stopped at its first board keeps the solver's id: only the
    // question tells its two kinds of entry apart.
    let question = subjects.first().map(|s| s.question());
    let timed: Vec<usize> = (0..entries.len())
        .filter(|&i| entries[i].timing().is_some() && Some(entries[i].question) == question)
        .collect();
    let keys: Vec<(usize, usize)> = timed
        .iter()
        .map(|&i| {
            let position = subjects
                .iter()
                .position(|s| s.id() == entries[i].solver)
                .expect("a timed entry's subject is among those measured");
            (position, entries[i].n)
        })
        .collect();
    let run = |k: usize| subjects[keys[k].0].time(keys[k].1);
    // Nanoseconds and branch misses of each cold run, by subject.
    let mut cold = vec![(Vec::new(), Vec::new()); keys.len()];
    for step in schedule(&keys, rounds) {
        let Step::Run(k) = step else {
            spacer();
            continue;
        };
        let (wall, misses) = match &counter {
            Ok(counter) => counter.count(|| run(k)),
            Err(_) => (run(k), None),
        };
        cold[k].0.push(wall.as_nanos() as f64);
        cold[k].1.extend(misses);
    }
    for (k, (&i, (ns, misses))) in timed.iter().zip(&cold).enumerate() {
        // The warm misses: the counted runs after the uncounted ones.
        let warm: Vec<f64> = (0..2 * WARM_COUNTED_RUNS)
            .filter_map(|repetition| {
                let (_, misses) = counter.as_ref().ok()?.count(|| run(k));
                misses.filter(|_| repetition >= WARM_COUNTED_RUNS)
            })
            .collect();
        let entry = &mut entries[i];
        if let Outcome::Timed { cold, .. } = &mut entry.outcome {
            *cold = stats::timing(ns);
        }
        let nodes = entry.nodes;
        let per_node = |misses: &[f64]| nodes.and_then(|n| counters::per_node(misses, n));
        entry.cold_branch_misses_per_node = per_node(misses);
        entry.warm_branch_misses_per_node = per_node(&warm);
    }
    counter.err()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one_run() -> queens_record::Timing {
        stats::timing(&[1000.0]).unwrap()
    }
    use crate::Counting;
    use crate::find::Finding;
    use queens_core::CountOptions;
    use queens_three_mask::ThreeMask;

    fn counting() -> Counting<'static> {
        Counting {
            solver: &ThreeMask,
            options: CountOptions::default(),
        }
    }

    #[test]
    fn no_search_runs_twice_in_a_row_and_each_gets_every_round() {
        // Three solvers over different ranges of n, as a bench has them.
        let keys: Vec<(usize, usize)> = (4..=9)
            .map(|n| (0, n))
            .chain((4..=6).map(|n| (1, n)))
            .chain([(2, 4)])
            .collect();
        for rounds in [1, 2, 11] {
            let steps = schedule(&keys, rounds);
            for pair in steps.windows(2) {
                assert_ne!(pair[0], pair[1], "{pair:?} back to back");
            }
            assert!(!steps.contains(&Step::Spacer), "more than one subject");
            for i in 0..keys.len() {
                let runs = steps.iter().filter(|&&s| s == Step::Run(i)).count();
                assert_eq!(runs, rounds, "subject {i}");
            }
            // Where n has several solvers, a run follows another solver.
            let run_keys: Vec<(usize, usize)> = steps
                .iter()
                .filter_map(|s| match s {
                    Step::Run(i) => Some(keys[*i]),
                    Step::Spacer => None,
                })
                .collect();
            assert_eq!(run_keys[..3], [(0, 4), (1, 4), (2, 4)]);
        }
    }

    #[test]
    fn a_lone_search_is_separated_from_itself_by_a_spacer() {
        assert_eq!(
            schedule(&[(0, 8)], 3),
            vec![
                Step::Run(0),
                Step::Spacer,
                Step::Run(0),
                Step::Spacer,
                Step::Run(0)
            ]
        );
        assert!(schedule(&[], 5).is_empty());
    }

    #[test]
    fn cold_samples_are_attached_to_timed_entries_only() {
        let solvers = [counting()];
        let timed = solvers[0].check(6).entry(Outcome::timed(one_run()));
        let over = solvers[0].skipped(7, "too slow".into());
        let mut entries = vec![timed, over];
        let why = attach_cold(&mut entries, &[&solvers[0]], 3);
        let cold = entries[0]
            .cold()
            .expect("the timed entry has a cold timing");
        assert_eq!(cold.samples, 3);
        assert_eq!(entries[1].cold(), None);
        // Branch misses exactly when the counter opened.
        assert_eq!(
            entries[0].cold_branch_misses_per_node.is_none(),
            why.is_some(),
            "{why:?}"
        );
    }

    #[test]
    fn a_first_board_is_never_timed_as_its_solvers_count() {
        // three-mask is a solver and, stopped at its first board, a finder
        // of the same id: each question's rounds take its own entries only.
        static FIRST: queens_core::find::FirstBoard =
            queens_core::find::FirstBoard::new(&ThreeMask, &queens_three_mask::INFO);
        let solvers = [counting()];
        let finders = [Finding {
            finder: &FIRST,
            seed: 0,
        }];
        let count = solvers[0].check(6).entry(Outcome::timed(one_run()));
        let found = finders[0].check(20).entry(Outcome::timed(one_run()));
        let mut entries = vec![count, found];
        attach_cold(&mut entries, &[&solvers[0]], 2);
        assert_eq!(entries[0].cold().unwrap().samples, 2);
        assert_eq!(entries[1].cold(), None, "a count of n = 20 was never run");
        attach_cold(&mut entries, &[&finders[0]], 3);
        assert_eq!(entries[0].cold().unwrap().samples, 2);
        assert_eq!(entries[1].cold().unwrap().samples, 3);
    }
}
