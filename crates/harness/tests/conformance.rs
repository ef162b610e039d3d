//! One test suite, run against every registered solver: a new solver in the
//! registry is covered without writing a test. Where an idea cannot reach the
//! suite's sizes in test time, the skip is explicit, below, with the reason.

use std::ops::ControlFlow;

use queens_core::trace::TraceRecorder;
use queens_core::{CountOptions, QueensError, Solver, check, oeis};
use queens_harness::registry::SOLVERS;

/// Counts are checked for n = 1..=COUNT_MAX_N (or the solver's own limit).
const COUNT_MAX_N: usize = 11;
/// Solution sets are compared with brute force for n = 1..=SET_MAX_N.
const SET_MAX_N: usize = 8;

/// Solvers whose idea is too slow for COUNT_MAX_N in test time:
/// (id, largest n tested, why). Their larger n are left to `queens verify`.
const SLOW: &[(&str, usize, &str)] = &[(
    "perm-filter-itertools",
    10,
    "generate-and-test: n = 11 is 11! = 39.9M permutations, each a new Vec (about 6 s a count)",
)];

fn count_max_n(solver: &dyn Solver) -> usize {
    let id = solver.info().id;
    let bound = SLOW
        .iter()
        .find(|(slow, _, _)| *slow == id)
        .map_or(COUNT_MAX_N, |&(_, n, _)| n);
    bound.min(solver.info().max_n)
}

fn listing_solvers() -> impl Iterator<Item = &'static dyn Solver> {
    SOLVERS.iter().copied().filter(|s| s.info().enumerates)
}

#[test]
fn registry_ids_are_unique_and_well_formed() {
    let mut ids: Vec<_> = SOLVERS.iter().map(|s| s.info().id).collect();
    assert!(!ids.is_empty());
    for id in &ids {
        assert!(
            id.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
            "{id}: ids are used on command lines and in file names"
        );
    }
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), SOLVERS.len(), "duplicate solver id");
}

#[test]
fn every_solver_documents_itself() {
    for solver in SOLVERS {
        let info = solver.info();
        for (field, text) in [
            ("seed", info.seed),
            ("idea", info.idea),
            ("node", info.node),
            ("limit_reason", info.limit_reason),
            ("teaching", info.teaching),
        ] {
            assert!(!text.trim().is_empty(), "{}: empty {field}", info.id);
        }
        assert!(
            info.max_n >= 8,
            "{}: every approach handles the 8×8 board",
            info.id
        );
    }
}

#[test]
fn counts_match_a000170() {
    for solver in SOLVERS {
        for n in 1..=count_max_n(*solver) {
            let stats = solver.count(n, &CountOptions::default()).unwrap();
            assert_eq!(
                Some(stats.solutions),
                oeis::total(n),
                "{} n = {n}",
                solver.info().id
            );
            assert!(
                stats.nodes > 0,
                "{} n = {n}: no work reported",
                solver.info().id
            );
        }
    }
}

#[test]
fn unique_counts_match_a002562() {
    for solver in SOLVERS {
        for n in 1..=count_max_n(*solver) {
            let options = CountOptions {
                unique: true,
                threads: 1,
            };
            let stats = solver.count(n, &options).unwrap();
            assert_eq!(
                stats.unique,
                oeis::unique(n),
                "{} n = {n}",
                solver.info().id
            );
            assert_eq!(
                Some(stats.solutions),
                oeis::total(n),
                "{} n = {n}",
                solver.info().id
            );
        }
    }
}

#[test]
fn listed_sets_equal_brute_force() {
    for n in 1..=SET_MAX_N {
        let reference = check::brute_force_solutions(n);
        for solver in listing_solvers() {
            let boards: Vec<Vec<u8>> = check::checked_listing(solver, n)
                .unwrap_or_else(|problem| panic!("{problem}"))
                .into_iter()
                .collect();
            assert_eq!(boards, reference, "{} n = {n}", solver.info().id);
        }
    }
}

#[test]
fn enumeration_stops_when_the_visitor_says_so() {
    for solver in listing_solvers() {
        let mut seen = 0;
        solver
            .enumerate(8, &mut |_| {
                seen += 1;
                ControlFlow::Break(())
            })
            .unwrap();
        assert_eq!(seen, 1, "{} kept going after Break", solver.info().id);
    }
}

#[test]
fn count_only_solvers_refuse_to_list() {
    for solver in SOLVERS.iter().filter(|s| !s.info().enumerates) {
        let result = solver.enumerate(8, &mut |_| ControlFlow::Continue(()));
        assert_eq!(
            result.unwrap_err(),
            QueensError::CannotEnumerate {
                solver: solver.info().id
            }
        );
    }
}

#[test]
fn limits_are_errors_that_name_the_reason() {
    for solver in SOLVERS {
        let info = solver.info();
        let too_large = info.max_n + 1;
        let error = solver
            .count(too_large, &CountOptions::default())
            .unwrap_err();
        let message = error.to_string();
        assert!(
            message.starts_with(&format!("{} supports n <= {}", info.id, info.max_n)),
            "{message}"
        );
        assert!(message.contains(info.limit_reason), "{message}");
        assert_eq!(
            solver.count(0, &CountOptions::default()).unwrap_err(),
            QueensError::EmptyBoard
        );
        let mut sink = TraceRecorder::new(5);
        assert!(solver.trace(too_large, &mut sink).is_err());
    }
}

#[test]
fn traces_are_deterministic_bounded_and_say_something() {
    for solver in SOLVERS {
        for n in [1, 4, 8] {
            let run = || {
                let mut recorder = TraceRecorder::new(25);
                solver.trace(n, &mut recorder).unwrap();
                recorder
            };
            let (first, second) = (run(), run());
            assert_eq!(
                first.steps(),
                second.steps(),
                "{} n = {n}",
                solver.info().id
            );
            assert!(
                !first.steps().is_empty(),
                "{} n = {n}: empty trace",
                solver.info().id
            );
            assert!(first.steps().len() <= 25);
            if n == 8 {
                assert!(
                    first.stopped_early(),
                    "{}: trace ignored its limit",
                    solver.info().id
                );
            }
        }
    }
}
