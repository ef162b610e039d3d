//! What is particular to generate-and-test: n! permutations made, the
//! post's order and clash reports in the trace, and a limit set by n!
//! itself. The contract every solver keeps (counts, classes, listed sets,
//! limits, traces) is checked in tests/conformance.rs.

use std::ops::ControlFlow;

use queens_core::trace::{StepKind, TraceRecorder};
use queens_core::{CountOptions, QueensError, Solver};
use queens_perm_filter::{MAX_N, PERM_FILTER, PERM_FILTER_ITERTOOLS};

const BOTH: [&dyn Solver; 2] = [&PERM_FILTER, &PERM_FILTER_ITERTOOLS];

fn factorial(n: usize) -> u64 {
    (1..=n as u64).product()
}

/// The generator really makes every permutation: the node count is n! for
/// each size the conformance suite counts (there against A000170).
#[test]
fn both_generate_n_factorial_permutations() {
    // itertools' variant stops at 10: a Vec per permutation makes 11! about 6 s.
    let sizes: [(&dyn Solver, usize); 2] = [(&PERM_FILTER, 11), (&PERM_FILTER_ITERTOOLS, 10)];
    for (solver, up_to) in sizes {
        for n in 1..=up_to {
            let stats = solver.count(n, &CountOptions::default()).unwrap();
            assert_eq!(stats.nodes, factorial(n), "{} n = {n}", solver.info().id);
        }
    }
}

/// Stopping at the first board also stops the generator: far fewer than 8!
/// permutations are made.
#[test]
fn listing_stops_generating_when_told() {
    for solver in BOTH {
        let stats = solver
            .enumerate(8, &mut |_| ControlFlow::Break(()))
            .unwrap();
        assert_eq!(stats.solutions, 1);
        assert!(stats.nodes < factorial(8), "{}", solver.info().id);
    }
}

#[test]
fn trace_of_4_shows_each_permutation_and_its_clash() {
    for solver in BOTH {
        let mut recorder = TraceRecorder::new(100);
        solver.trace(4, &mut recorder).unwrap();
        let steps = recorder.texts();
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
        recorder.texts()[1].1,
        "[1,2,3,4]  clash: [1,1] and [2,2] share X - Y = 0"
    );
    assert_eq!(
        recorder.texts()[2].1,
        "[1,2,4,3]  clash: [1,1] and [2,2] share X - Y = 0"
    );
}

#[test]
fn refuse_boards_whose_permutations_a_u64_cannot_count() {
    for solver in BOTH {
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
