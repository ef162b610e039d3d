//! The traces' counters against the tree they count. Every trace the page
//! embeds and every `queens trace N --format json` at n = 4..8, for every
//! solver: at every step, the tree so far (`levels`: safe boards reached
//! with 0, 1, ... queens) is exactly the set of safe boards the steps have
//! drawn so far, never more than `queens tree`'s profile, and the node
//! counter moves with it where the solver's node is a safe board; a whole
//! search ends on a cleared board with `queens tree`'s profile and the
//! solver's own totals (`queens count`'s nodes and solutions).

use std::collections::{BTreeMap, BTreeSet};

use queens_core::{CountOptions, SearchStats, Solver};
use queens_harness::page_traces::{self, MAX_N, MIN_N};
use queens_harness::registry::SOLVERS;
use queens_report::Trace;

use crate::common::{queens, text};

/// `queens tree N`'s table, by solver id: the safe boards with 0..=n queens.
fn tree_profiles(n: usize) -> BTreeMap<String, Vec<u64>> {
    let output = queens(&["tree", &n.to_string()]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let mut profiles = BTreeMap::new();
    for line in text(&output.stdout).lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        // A row: the id, n + 1 counts, the total.
        if words.len() != n + 3 || words[0] == "k" {
            continue;
        }
        let Ok(counts) = words[1..]
            .iter()
            .map(|w| w.parse())
            .collect::<Result<Vec<u64>, _>>()
        else {
            continue;
        };
        assert_eq!(counts[..=n].iter().sum::<u64>(), counts[n + 1], "{line}");
        profiles.insert(words[0].to_string(), counts[..=n].to_vec());
    }
    profiles
}

/// No two queens share a file, rank or diagonal.
fn safe(queens: &[[usize; 2]]) -> bool {
    queens.iter().enumerate().all(|(i, &[f, r])| {
        queens[..i]
            .iter()
            .all(|&[g, s]| f != g && r != s && f.abs_diff(g) != r.abs_diff(s))
    })
}

/// The checks of the module's header for one trace; `profile` is the
/// solver's row of `queens tree`, `stats` its count.
fn check(trace: &Trace, profile: Option<&Vec<u64>>, stats: &SearchStats) {
    let n = trace.n;
    let at = |index: usize| format!("{} n = {n} step {}", trace.solver, index + 1);
    // A step that stands for a whole level of boards (breadth-first) draws
    // none of them one by one.
    let drawn_one_by_one = trace.steps.iter().all(|s| s.event != "level");
    let offset = profile.map(|p| stats.nodes as i64 - p.iter().sum::<u64>() as i64);
    let mut seen: BTreeSet<Vec<[usize; 2]>> = BTreeSet::new();
    let mut drawn = vec![0u64; n + 1];
    let mut before: Vec<u64> = Vec::new();
    for (index, step) in trace.steps.iter().enumerate() {
        let levels = &step.levels;
        assert!(levels.len() <= n + 1, "{}: {levels:?}", at(index));
        for (k, &count) in levels.iter().enumerate() {
            assert!(
                count >= before.get(k).copied().unwrap_or(0),
                "{}: level {k} went back",
                at(index)
            );
        }
        assert!(levels.len() >= before.len(), "{}", at(index));
        before.clone_from(levels);
        let Some(profile) = profile else {
            assert!(levels.is_empty(), "{}: levels without a tree", at(index));
            continue;
        };
        for (k, &count) in levels.iter().enumerate() {
            assert!(
                count <= profile[k],
                "{}: level {k} past the profile",
                at(index)
            );
        }
        // A step before the search reaches its first board (a note on
        // what is about to happen) draws no board of the tree yet.
        if drawn_one_by_one && !levels.is_empty() {
            let mut board = step.queens.clone();
            board.sort_unstable();
            if safe(&board) && seen.insert(board) {
                drawn[step.queens.len()] += 1;
            }
            let mut counted = levels.clone();
            counted.resize(n + 1, 0);
            assert_eq!(
                counted,
                drawn,
                "{}: the tree so far is not the boards drawn so far",
                at(index)
            );
        }
        // Where a node is a safe board (threat-mask alone leaves the empty
        // root out: offset -1), the counter is the tree so far.
        if let Some(offset @ -1..=0) = offset
            && !levels.is_empty()
        {
            let tree = levels.iter().sum::<u64>() as i64;
            assert_eq!(step.nodes as i64, tree + offset, "{}: nodes", at(index));
        }
    }
    if trace.cut {
        return;
    }
    let last = trace.steps.last().expect("a whole search has steps");
    let end = at(trace.steps.len() - 1);
    assert_eq!(
        last.event, "note",
        "{end}: the last step says the search is over"
    );
    assert!(last.text.contains("search over"), "{end}: {}", last.text);
    assert!(last.queens.is_empty(), "{end}: the board is cleared");
    assert!(
        last.attacked.as_deref().unwrap_or_default().is_empty(),
        "{end}"
    );
    assert_eq!(
        (last.nodes, last.solutions),
        (stats.nodes, stats.solutions),
        "{end}"
    );
    assert_eq!(trace.nodes, Some(stats.nodes), "{end}");
    if let Some(profile) = profile {
        assert_eq!(&last.levels, profile, "{end}: the whole tree");
    }
}

/// The solvers that support `n` and can count on this machine: a GPU
/// engine without its device is skipped, with a note (or fails where
/// QUEENS_REQUIRE_GPU says it must be tested).
fn counting_here(n: usize) -> impl Iterator<Item = &'static &'static dyn Solver> {
    SOLVERS
        .iter()
        .filter(move |s| s.info().supports(n))
        .filter(|s| !queens_conformance::without_its_device(**s))
}

fn count(solver: &dyn Solver, n: usize) -> SearchStats {
    solver.count(n, &CountOptions::default()).unwrap()
}

#[test]
fn every_page_trace_counts_its_tree_at_every_step_and_depth_first_ones_are_whole() {
    let traces = page_traces::gather().unwrap();
    for n in MIN_N..=MAX_N {
        let profiles = tree_profiles(n);
        for solver in counting_here(n) {
            let id = solver.info().id;
            let trace = traces
                .iter()
                .find(|t| t.solver == id && t.n == n)
                .unwrap_or_else(|| panic!("{id} n = {n}: not on the page"));
            let profile = profiles.get(id);
            // Every search over the tree of safe boards is played whole.
            assert!(profile.is_none() || !trace.cut, "{id} n = {n}: cut");
            check(trace, profile, &count(*solver, n));
        }
    }
}

#[test]
fn every_json_trace_counts_its_tree_at_every_step() {
    for n in MIN_N..=MAX_N {
        let profiles = tree_profiles(n);
        for solver in counting_here(n) {
            let id = solver.info().id;
            let output = queens(&["trace", &n.to_string(), "--solver", id, "--format", "json"]);
            assert!(output.status.success(), "{}", text(&output.stderr));
            let trace = Trace::from_json(&text(&output.stdout)).unwrap();
            check(&trace, profiles.get(id), &count(*solver, n));
        }
    }
}

/// What "keep the panes at the same node count" promises: two solvers that
/// walk one tree show the same board when their trees so far are equal.
#[test]
fn one_tree_at_two_costs_shows_the_same_board_at_the_same_count() {
    let traces = page_traces::gather().unwrap();
    let find = |id: &str, n: usize| traces.iter().find(|t| t.solver == id && t.n == n).unwrap();
    for n in MIN_N..=MAX_N {
        let (fast, slow) = (find("three-mask", n), find("textbook", n));
        let board_at = |trace: &Trace| -> BTreeMap<Vec<u64>, Vec<[usize; 2]>> {
            let mut first = BTreeMap::new();
            for step in &trace.steps {
                first.entry(step.levels.clone()).or_insert_with(|| {
                    let mut board = step.queens.clone();
                    board.sort_unstable();
                    board
                });
            }
            first
        };
        let (a, b) = (board_at(fast), board_at(slow));
        assert_eq!(a.len(), b.len(), "n = {n}");
        assert_eq!(a, b, "n = {n}: different boards at the same tree so far");
    }
}

/// The page plays whole searches and still downloads quickly.
#[test]
fn the_committed_page_is_under_4_mb() {
    let page = crate::common::workspace().join("bench-results/index.html");
    let bytes = std::fs::metadata(&page).unwrap().len();
    assert!(bytes < 4_000_000, "{}: {bytes} bytes", page.display());
}
