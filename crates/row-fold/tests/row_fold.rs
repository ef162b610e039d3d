//! What is particular to row-fold: the document's own output order, an
//! independent recount of its level sizes, the same tree as three-mask's,
//! and its level-by-level trace. The contract every solver keeps (counts,
//! classes, listed sets, limits, traces) is checked in tests/conformance.rs.

use std::ops::ControlFlow;

use queens_conformance::no_two_attack;
use queens_core::trace::StepKind;
use queens_core::trace::TraceRecorder;
use queens_core::{CountOnly, CountOptions, Solver, list_boards};
use queens_row_fold::{Fold, RowFold};
use queens_three_mask::ThreeMask;

#[test]
fn lists_solutions_in_the_documents_order() {
    // The document's session prints `queens 8` as
    // [[4,2,7,3,6,8,5,1],[5,2,4,7,3,8,6,1],[3,5,2,8,6,4,7,1],[3,6,4,2,8,5,7,1],[5,7,1,3,8,6,4,2],...]
    // (1-based rows, column 1 first). The same fold must list the same
    // boards first, in our 0-based rows.
    let printed: [[u8; 8]; 5] = [
        [4, 2, 7, 3, 6, 8, 5, 1],
        [5, 2, 4, 7, 3, 8, 6, 1],
        [3, 5, 2, 8, 6, 4, 7, 1],
        [3, 6, 4, 2, 8, 5, 7, 1],
        [5, 7, 1, 3, 8, 6, 4, 2],
    ];
    let listed = list_boards(&RowFold, 8).unwrap();
    for (ours, theirs) in listed.iter().zip(printed) {
        let theirs: Vec<u8> = theirs.iter().map(|r| r - 1).collect();
        assert_eq!(*ours, theirs);
    }
}

/// The number of safe placements of k queens in k adjacent columns of an
/// n-row board, for k = 0..=n, by plain depth-first recursion with a
/// pairwise test (nothing shared with the fold).
fn level_sizes_by_recursion(n: usize) -> Vec<usize> {
    fn grow(n: usize, rows: &mut Vec<u8>, sizes: &mut [usize]) {
        sizes[rows.len()] += 1;
        if rows.len() == n {
            return;
        }
        for row in 0..n as u8 {
            rows.push(row);
            // core's checker wants a full n x n board, so partials get the
            // suite's plain pairwise test.
            if no_two_attack(rows) {
                grow(n, rows, sizes);
            }
            rows.pop();
        }
    }
    let mut sizes = vec![0; n + 1];
    grow(n, &mut Vec::new(), &mut sizes);
    sizes
}

#[test]
fn level_statistics_match_an_independent_recount() {
    for n in 1..=10 {
        let fold = Fold::new(n).run(&mut CountOnly, &mut queens_core::trace::Silent);
        let sizes = level_sizes_by_recursion(n);
        assert_eq!(fold.level_sizes(), sizes.as_slice(), "n = {n}");

        let stats = fold.stats();
        let metric = |name: &str| stats.metric(name).unwrap();
        let peak_bytes = sizes
            .iter()
            .enumerate()
            .map(|(k, &size)| k * size)
            .max()
            .unwrap();
        let peak_queens = sizes
            .iter()
            .enumerate()
            .position(|(k, &size)| k * size == peak_bytes)
            .unwrap();
        assert_eq!(metric("peak_level_bytes"), peak_bytes as u64, "n = {n}");
        if peak_bytes > 0 {
            assert_eq!(metric("peak_level_queens"), peak_queens as u64, "n = {n}");
            assert_eq!(
                metric("peak_level_partials"),
                sizes[peak_queens] as u64,
                "n = {n}"
            );
        }
        assert_eq!(
            metric("peak_level_bytes"),
            metric("peak_level_partials") * metric("peak_level_queens"),
            "n = {n}: one byte per queen"
        );
        let live = (1..=n)
            .map(|k| (k - 1) * sizes[k - 1] + k * sizes[k])
            .max()
            .unwrap();
        assert_eq!(metric("peak_live_bytes"), live as u64, "n = {n}");
        // Nodes: each partial of levels 0..n-1 tries each of the n rows.
        assert_eq!(
            stats.nodes,
            (n * sizes[..n].iter().sum::<usize>()) as u64,
            "n = {n}"
        );
        assert_eq!(
            metric("partials_produced"),
            sizes[1..].iter().sum::<usize>() as u64
        );
    }
}

#[test]
fn builds_the_same_tree_as_three_mask() {
    // Both visit every safe partial board once; three-mask also counts the
    // empty board.
    for n in 1..=11 {
        let fold = RowFold.count(n, &CountOptions::default()).unwrap();
        let backtrack = ThreeMask.count(n, &CountOptions::default()).unwrap();
        assert_eq!(
            fold.metric("partials_produced").unwrap() + 1,
            backtrack.nodes,
            "n = {n}"
        );
    }
}

#[test]
fn counting_and_listing_report_the_same_statistics() {
    for n in [1, 4, 6, 9] {
        let counted = RowFold.count(n, &CountOptions::default()).unwrap();
        let listed = RowFold
            .enumerate(n, &mut |_| ControlFlow::Continue(()))
            .unwrap();
        assert_eq!(counted, listed, "n = {n}");
    }
}

#[test]
fn trace_shows_every_level_of_4_and_how_its_first_partials_grow() {
    let mut recorder = TraceRecorder::new(100);
    let stats = RowFold.trace(4, &mut recorder).unwrap();
    let steps = recorder.texts();
    let of_kind = |kind| steps.iter().filter(|(k, _)| *k == kind).count();
    assert_eq!(steps[0].0, StepKind::Note);
    assert_eq!(of_kind(StepKind::Level), 3, "levels 1..3");
    // Level 0 has one partial to extend, levels 1..3 show their first three.
    assert_eq!(
        of_kind(StepKind::Place) + of_kind(StepKind::Reject),
        1 + 3 * 3
    );
    assert_eq!(steps[1].1, "row : []  safe: 1 2 3 4");
    assert_eq!(steps[3].1, "row : [1]  safe: 3 4; same row: 1; diagonal: 2");
    let (kind, last) = steps.last().unwrap();
    assert_eq!(*kind, StepKind::Solution);
    assert!(
        last.starts_with("level 4: 2 partials x 4 B = 8 B"),
        "{last}"
    );
    assert!(last.ends_with("[3,1,4,2] [2,4,1,3]"), "{last}");
    assert_eq!(stats.solutions, 2);
}

#[test]
fn trace_stops_when_the_sink_says_so() {
    let mut recorder = TraceRecorder::new(2);
    RowFold.trace(8, &mut recorder).unwrap();
    assert_eq!(recorder.texts().len(), 2);
    assert!(recorder.stopped_early());
}
