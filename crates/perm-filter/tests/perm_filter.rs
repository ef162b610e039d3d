//! Both perm-filter variants against the published counts, the independent
//! checker, three-mask's solution sets, and n! itself.

use std::collections::BTreeSet;
use std::ops::ControlFlow;

use queens_core::trace::{StepKind, TraceRecorder};
use queens_core::{CountOptions, QueensError, Solver, check, list_boards, oeis};
use queens_perm_filter::{MAX_N, PERM_FILTER, PERM_FILTER_ITERTOOLS};
use queens_three_mask::ThreeMask;

const BOTH: [&dyn Solver; 2] = [&PERM_FILTER, &PERM_FILTER_ITERTOOLS];

fn factorial(n: usize) -> u64 {
    (1..=n as u64).product()
}

#[test]
fn in_place_counts_equal_a000170_and_generate_n_factorial_up_to_11() {
    for n in 1..=11 {
        let stats = PERM_FILTER.count(n, &CountOptions::default()).unwrap();
        assert_eq!(Some(stats.solutions), oeis::total(n), "n = {n}");
        assert_eq!(stats.nodes, factorial(n), "n = {n}");
    }
}

#[test]
fn itertools_counts_equal_a000170_and_generate_n_factorial_up_to_10() {
    for n in 1..=10 {
        let stats = PERM_FILTER_ITERTOOLS
            .count(n, &CountOptions::default())
            .unwrap();
        assert_eq!(Some(stats.solutions), oeis::total(n), "n = {n}");
        assert_eq!(stats.nodes, factorial(n), "n = {n}");
    }
}

#[test]
fn classes_equal_a002562_up_to_8() {
    // The post's third wish: only the rotation/reflection-unique solutions.
    let options = CountOptions {
        unique: true,
        threads: 1,
    };
    for solver in BOTH {
        for n in 1..=8 {
            let stats = solver.count(n, &options).unwrap();
            assert_eq!(
                stats.unique,
                oeis::unique(n),
                "{} n = {n}",
                solver.info().id
            );
        }
    }
}

#[test]
fn list_the_same_valid_boards_as_three_mask_up_to_8() {
    for n in 1..=8 {
        let reference: BTreeSet<_> = list_boards(&ThreeMask, n).unwrap().into_iter().collect();
        for solver in BOTH {
            let listed = list_boards(solver, n).unwrap();
            assert!(listed.iter().all(|rows| check::is_valid(rows)), "n = {n}");
            let set: BTreeSet<_> = listed.iter().cloned().collect();
            assert_eq!(
                set.len(),
                listed.len(),
                "{} n = {n}: a board listed twice",
                solver.info().id
            );
            assert_eq!(set, reference, "{} n = {n}", solver.info().id);
        }
    }
}

#[test]
fn listing_stops_at_once_when_told() {
    for solver in BOTH {
        let mut seen = 0;
        let stats = solver
            .enumerate(8, &mut |_| {
                seen += 1;
                ControlFlow::Break(())
            })
            .unwrap();
        assert_eq!((seen, stats.solutions), (1, 1));
        assert!(stats.nodes < factorial(8), "{}", solver.info().id);
    }
}

#[test]
fn trace_of_4_shows_each_permutation_and_its_clash() {
    for solver in BOTH {
        let mut recorder = TraceRecorder::new(100);
        solver.trace(4, &mut recorder).unwrap();
        let steps = recorder.steps();
        assert_eq!(steps.len(), 1 + 24, "a note, then the 24 permutations");
        assert_eq!(steps[0].0, StepKind::Note);
        let mut solutions: Vec<&str> = steps
            .iter()
            .filter(|(kind, _)| *kind == StepKind::Solution)
            .map(|(_, text)| text.as_str())
            .collect();
        solutions.sort_unstable();
        assert_eq!(solutions, ["[2,4,1,3]  safe", "[3,1,4,2]  safe"]);
        for (kind, text) in &steps[1..] {
            assert!(
                *kind == StepKind::Solution
                    || (*kind == StepKind::Reject && text.contains("clash: [")),
                "{text}"
            );
        }
    }
}

#[test]
fn itertools_trace_starts_in_the_posts_order() {
    let mut recorder = TraceRecorder::new(3);
    PERM_FILTER_ITERTOOLS.trace(4, &mut recorder).unwrap();
    assert!(recorder.stopped_early());
    assert_eq!(
        recorder.steps()[1].1,
        "[1,2,3,4]  clash: [1,1] and [2,2] share X - Y = 0"
    );
    assert_eq!(
        recorder.steps()[2].1,
        "[1,2,4,3]  clash: [1,1] and [2,2] share X - Y = 0"
    );
}

#[test]
fn refuse_boards_whose_permutations_a_u64_cannot_count() {
    for solver in BOTH {
        assert_eq!(
            solver.count(0, &CountOptions::default()),
            Err(QueensError::EmptyBoard)
        );
        let error = solver
            .count(MAX_N + 1, &CountOptions::default())
            .unwrap_err();
        assert!(
            matches!(error, QueensError::TooLarge { max_n: 20, .. }),
            "{error}"
        );
        assert!(
            error
                .to_string()
                .ends_with("supports n <= 20 counting permutations in a u64: 21! overflows it")
        );
    }
    assert!(factorial(20) < u64::MAX);
    assert!(21u64.checked_mul(factorial(20)).is_none());
}
