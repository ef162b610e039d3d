//! The workspace's solver contract (the queens-conformance crate), run over
//! every registered solver: a new solver in the registry is covered without
//! writing a test. One test per check, each looping over the registry; the
//! messages name the solver. Where an idea cannot reach the suite's sizes in
//! test time, the exception is below, with the reason.

use queens_conformance::Config;
use queens_core::Solver;
use queens_harness::registry::SOLVERS;

/// Solvers whose idea is too slow for the suite's sizes: (id, the config
/// that says how far and why). Their larger n are left to `queens verify`.
const SLOW: &[(&str, Config)] = &[(
    "perm-filter-itertools",
    Config::count_up_to(
        10,
        "generate-and-test: n = 11 is 11! = 39.9M permutations, each a new Vec (about 6 s a count)",
    ),
)];

fn config_for(solver: &dyn Solver) -> Config {
    SLOW.iter()
        .find(|(id, _)| *id == solver.info().id)
        .map_or(Config::DEFAULT, |&(_, config)| config)
}

queens_conformance::registry_suite!(SOLVERS, config_for);

/// The one check that needs the whole registry: ids pick solvers on the
/// command line and name trace files, so two solvers may not share one.
#[test]
fn registry_ids_are_unique() {
    let mut ids: Vec<_> = SOLVERS.iter().map(|s| s.info().id).collect();
    assert!(!ids.is_empty());
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), SOLVERS.len(), "duplicate solver id");
}

/// Every exception names a registered solver, so a renamed one cannot
/// silently fall back to the full sizes (or keep an exception it no longer
/// needs unnoticed).
#[test]
fn every_slow_exception_names_a_registered_solver() {
    for (id, config) in SLOW {
        assert!(
            SOLVERS.iter().any(|s| s.info().id == *id),
            "{id} is not registered"
        );
        assert!(!config.reason().is_empty());
    }
}

/// The depth-first solvers walk one tree: every solver that reports its
/// tree's profile reports the same one, at every n, and at n = 8 it is the
/// tree of the classic puzzle (1, 8, 42, 140, 344, 568, 550, 312, 92 safe
/// boards with 0..8 queens, 2,057 in all: the Forth program's 1,965
/// positions and 92 solutions). The mirror walks half of it: with k >= 2
/// queens exactly half the safe boards (each has its image in the other
/// half), with one queen half of them rounded up (the middle file of an
/// odd board is its own image).
#[test]
fn the_depth_first_solvers_walk_one_tree() {
    for n in 1..=10 {
        let (mirrors, profiles): (Vec<(&str, Vec<u64>)>, Vec<_>) = SOLVERS
            .iter()
            .filter(|s| s.info().supports(n))
            .filter_map(|s| Some((s.info().id, s.tree_profile(n).unwrap()?)))
            .partition(|(id, _)| id.ends_with("-mirror"));
        assert!(profiles.len() >= 5, "n = {n}: {profiles:?}");
        assert_eq!(mirrors.len(), 1, "n = {n}: {mirrors:?}");
        if n > 1 {
            let (full, half) = (&profiles[0].1, &mirrors[0].1);
            assert_eq!(half[0], 1, "n = {n}: the root");
            assert_eq!(2 * half[1], full[1] + n as u64 % 2, "n = {n}");
            for k in 2..=n {
                assert_eq!(2 * half[k], full[k], "n = {n}, k = {k}");
            }
        }
        for (id, profile) in &profiles {
            assert_eq!(
                profile, &profiles[0].1,
                "n = {n}: {id} against {}",
                profiles[0].0
            );
        }
        if n == 8 {
            assert_eq!(profiles[0].1, vec![1, 8, 42, 140, 344, 568, 550, 312, 92]);
        }
    }
}
