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

use queens_core::{CountOptions, Finder, Solver};
use queens_record::{COUNT, Entry, FIND_ONE, Outcome, Question};
use std::hint::black_box;

use crate::counters::{self, BranchMisses};
use crate::run::timed_run;
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

/// What the cold rounds and the counters measured of one subject.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ColdSamples {
    /// Nanoseconds of each cold run.
    pub ns: Vec<f64>,
    /// Branch misses of each cold run, where counted.
    pub misses: Vec<f64>,
    /// Branch misses of each counted warm run (after repetitions).
    pub warm_misses: Vec<f64>,
}

/// Warm runs counted per subject, after as many uncounted repetitions: the
/// predictor has then seen the search a few times, as in the warm samples.
const WARM_COUNTED_RUNS: usize = 3;

/// Takes the cold samples of `subjects` (solver, n) in [`schedule`]'s order,
/// and, with a counter, their branch misses cold and warm.
pub fn take(
    subjects: &[(&dyn Solver, usize)],
    ids: &[(usize, usize)],
    rounds: usize,
    options: &CountOptions,
    counter: Option<&BranchMisses>,
) -> Vec<ColdSamples> {
    take_runs(ids, rounds, counter, &mut |i| {
        let (solver, n) = subjects[i];
        timed_run(solver, n, options)
    })
}

/// [`take`] for any subjects: `run(i)` is one timed run of subject `i`
/// (keyed `ids[i]`), a count or a finder's search.
fn take_runs(
    ids: &[(usize, usize)],
    rounds: usize,
    counter: Option<&BranchMisses>,
    run: &mut dyn FnMut(usize) -> std::time::Duration,
) -> Vec<ColdSamples> {
    let mut samples = vec![ColdSamples::default(); ids.len()];
    for step in schedule(ids, rounds) {
        match step {
            Step::Run(i) => {
                let (wall, misses) = counters::timed_and_counted(counter, || run(i));
                samples[i].ns.push(wall.as_nanos() as f64);
                samples[i].misses.extend(misses);
            }
            Step::Spacer => spacer(),
        }
    }
    if let Some(counter) = counter {
        for (i, sample) in samples.iter_mut().enumerate() {
            for repetition in 0..2 * WARM_COUNTED_RUNS {
                let (_, misses) = counter.count(|| run(i));
                if repetition >= WARM_COUNTED_RUNS {
                    sample.warm_misses.extend(misses);
                }
            }
        }
    }
    samples
}

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

/// Takes cold samples of every timed count in `entries` (each solver found
/// by id in `solvers`) and writes them into the entries: `cold` and,
/// with a counter, branch misses per node cold and
/// warm. Returns the reason the branch-miss figures are absent, if they
/// are, for the record's settings.
pub fn attach_cold(
    entries: &mut [Entry],
    solvers: &[&dyn Solver],
    rounds: usize,
    options: &CountOptions,
) -> Option<String> {
    let ids: Vec<&str> = solvers.iter().map(|s| s.info().id).collect();
    attach(entries, COUNT, &ids, rounds, &mut |position, n| {
        timed_run(solvers[position], n, options)
    })
}

/// [`attach_cold`] for the timed found boards ([`FIND_ONE`]) in `entries`,
/// each finder found by id in `finders` and run with `seed`: the same
/// rounds, so a finder's figure is taken the way a counter's is.
pub fn attach_cold_found(
    entries: &mut [Entry],
    finders: &[&dyn Finder],
    rounds: usize,
    seed: u64,
) -> Option<String> {
    let ids: Vec<&str> = finders.iter().map(|f| f.info().id).collect();
    attach(entries, FIND_ONE, &ids, rounds, &mut |position, n| {
        crate::find::timed_find(finders[position], n, seed)
    })
}

/// The cold rounds through the timed entries of `question`, each subject
/// found by id in `ids` and run once by `run(position in ids, n)`.
fn attach(
    entries: &mut [Entry],
    question: Question,
    ids: &[&str],
    rounds: usize,
    run: &mut dyn FnMut(usize, usize) -> std::time::Duration,
) -> Option<String> {
    let counter = BranchMisses::open();
    // A solver stopped at its first board keeps the solver's id: only the
    // question tells its two kinds of entry apart.
    let timed: Vec<usize> = (0..entries.len())
        .filter(|&i| entries[i].timing().is_some() && entries[i].question == question)
        .collect();
    let keys: Vec<(usize, usize)> = timed
        .iter()
        .map(|&i| {
            let position = ids
                .iter()
                .position(|&id| id == entries[i].solver)
                .expect("a timed entry's subject is among those measured");
            (position, entries[i].n)
        })
        .collect();
    let samples = take_runs(&keys, rounds, counter.as_ref().ok(), &mut |i| {
        run(keys[i].0, keys[i].1)
    });
    for (&i, sample) in timed.iter().zip(&samples) {
        let entry = &mut entries[i];
        if let Outcome::Timed { cold, .. } = &mut entry.outcome {
            *cold = stats::timing(&sample.ns);
        }
        let nodes = entry.nodes.filter(|&nodes| nodes > 0);
        entry.cold_branch_misses_per_node =
            nodes.and_then(|n| counters::per_node(&sample.misses, n));
        entry.warm_branch_misses_per_node =
            nodes.and_then(|n| counters::per_node(&sample.warm_misses, n));
    }
    counter.err()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one_run() -> queens_record::Timing {
        stats::timing(&[1000.0]).unwrap()
    }
    use queens_three_mask::ThreeMask;

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
        let solvers: [&dyn Solver; 1] = [&ThreeMask];
        let options = CountOptions::default();
        let run = crate::checked_run(&ThreeMask, 6, &options, crate::published_count);
        let timed = run.entry(Outcome::timed(one_run()));
        let over = crate::skipped_entry("three-mask", 7, "too slow".into());
        let mut entries = vec![timed, over];
        let why = attach_cold(&mut entries, &solvers, 3, &options);
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
        let options = CountOptions::default();
        let count = crate::checked_run(&ThreeMask, 6, &options, crate::published_count)
            .entry(Outcome::timed(one_run()));
        let found = crate::find::checked_find(&FIRST, 20, 0).entry(Outcome::timed(one_run()));
        let mut entries = vec![count, found];
        let solvers: [&dyn Solver; 1] = [&ThreeMask];
        attach_cold(&mut entries, &solvers, 2, &options);
        assert_eq!(entries[0].cold().unwrap().samples, 2);
        assert_eq!(entries[1].cold(), None, "a count of n = 20 was never run");
        let finders: [&dyn Finder; 1] = [&FIRST];
        attach_cold_found(&mut entries, &finders, 3, 0);
        assert_eq!(entries[0].cold().unwrap().samples, 2);
        assert_eq!(entries[1].cold().unwrap().samples, 3);
    }
}
