//! What is particular to the textbook backtracker: it walks three-mask's
//! tree, node for node and board for board, its trace names the queen
//! behind every refusal, and it counts the squares it tests as Wirth does.

use std::ops::ControlFlow;

use queens_core::trace::{Detail, Observer, StepKind, TraceRecorder};
use queens_core::{CountOnly, CountOptions, Solver};
use queens_textbook::{Search, Textbook};
use queens_three_mask::ThreeMask;

#[test]
fn the_same_tree_as_three_mask_node_for_node() {
    for n in 1..=12 {
        let ours = Textbook.count(n, &CountOptions::default()).unwrap();
        let theirs = ThreeMask.count(n, &CountOptions::default()).unwrap();
        assert_eq!(ours.nodes, theirs.nodes, "n = {n}");
        assert_eq!(
            ours.metric("positions_tried"),
            theirs.metric("positions_tried"),
            "n = {n}"
        );
    }
    // The Forth program's figure: 1965 positions tried at n = 8.
    let eight = Textbook.count(8, &CountOptions::default()).unwrap();
    assert_eq!(eight.metric("positions_tried"), Some(1965));
    assert_eq!(eight.nodes, 2057);
}

#[test]
fn boards_come_in_three_masks_order() {
    for n in [6, 8, 9] {
        let list = |solver: &dyn Solver| {
            let mut boards = Vec::new();
            solver
                .enumerate(n, &mut |rows| {
                    boards.push(rows.to_vec());
                    ControlFlow::Continue(())
                })
                .unwrap();
            boards
        };
        assert_eq!(list(&Textbook), list(&ThreeMask), "n = {n}");
    }
}

#[test]
fn the_trace_names_the_attacker_of_every_refused_square() {
    let mut recorder = TraceRecorder::new(200);
    Textbook.trace(4, &mut recorder).unwrap();
    let steps = recorder.texts();
    let rejects: Vec<&String> = steps
        .iter()
        .filter(|(kind, _)| *kind == StepKind::Reject)
        .map(|(_, text)| text)
        .collect();
    assert!(!rejects.is_empty());
    for text in &rejects {
        assert!(text.contains("of the queen on "), "{text}");
    }
    // The first refusal: a2, on the file of the first queen.
    assert_eq!(rejects[0], "rank 2: a2 is on the file of the queen on a1");
    assert!(steps.iter().any(|(kind, _)| *kind == StepKind::Solution));
}

/// Wirth's count, written out independently of the solver: `Try(i)` tests
/// every file of rank i in order (one `safe(i, j)` each, here by comparing
/// with every queen below), recursing on each safe one. Returns the squares
/// tested, and whether it stopped at a board (`first_only`).
fn wirths_square_tests(n: usize, first_only: bool) -> (u64, bool) {
    fn try_rank(rank: usize, files: &mut Vec<usize>, first_only: bool, tests: &mut u64) -> bool {
        let n = files.capacity();
        for file in 0..n {
            *tests += 1;
            let safe = files
                .iter()
                .enumerate()
                .all(|(r, &f)| f != file && rank - r != file.abs_diff(f));
            if !safe {
                continue;
            }
            files.push(file);
            let stop = if rank + 1 == n {
                first_only
            } else {
                try_rank(rank + 1, files, first_only, tests)
            };
            files.pop();
            if stop {
                return true;
            }
        }
        false
    }
    let mut tests = 0;
    let found = try_rank(0, &mut Vec::with_capacity(n), first_only, &mut tests);
    (tests, found)
}

/// The textbook's statistics for a search stopped at its first board (the
/// whole search where there is none), as `FirstBoard` runs it.
fn first_board_stats(n: usize) -> queens_core::SearchStats {
    Textbook
        .enumerate(n, &mut |_| ControlFlow::Break(()))
        .unwrap()
}

#[test]
fn squares_tested_are_wirths_count() {
    for n in 1..=11 {
        let all = Textbook.count(n, &CountOptions::default()).unwrap();
        let (expected, _) = wirths_square_tests(n, false);
        assert_eq!(all.metric("square_tests"), Some(expected), "n = {n}");
        // A finished call of Try tests every file of its rank, and a call
        // is made for the root and every position tried.
        let positions = all.metric("positions_tried").unwrap();
        assert_eq!(expected, n as u64 * positions, "n = {n}");
        let (before_first, found) = wirths_square_tests(n, true);
        assert_eq!(found, n != 2 && n != 3, "n = {n}");
        assert_eq!(
            first_board_stats(n).metric("square_tests"),
            Some(before_first),
            "n = {n}"
        );
    }
    // Wirth (CACM, 1971): 15,720 squares tested for all 92 boards of the
    // 8x8 board, 876 up to the first.
    let eight = Textbook.count(8, &CountOptions::default()).unwrap();
    assert_eq!(eight.metric("square_tests"), Some(15_720));
    assert_eq!(first_board_stats(8).metric("square_tests"), Some(876));
}

#[test]
fn squares_tested_up_to_the_first_board_are_oeis_a140450() {
    // A140450, n = 1..12: the squares a queen is tried on, file by file and
    // rank by rank, until the first board (the whole search for n = 2, 3).
    const A140450: [u64; 12] = [1, 6, 18, 26, 15, 171, 42, 876, 333, 975, 517, 3066];
    for (n, &expected) in (1..).zip(&A140450) {
        assert_eq!(
            first_board_stats(n).metric("square_tests"),
            Some(expected),
            "n = {n}"
        );
    }
}

/// Stops a traced search at its `stop_at`-th step, of whatever kind, and
/// counts the squares the steps up to it show tested: each test is one
/// refusal or one queen placed.
struct StopAtStep {
    steps: u64,
    tests: u64,
    stop_at: u64,
}

impl Observer for StopAtStep {
    const ENABLED: bool = true;

    fn step<D: Into<Detail>>(&mut self, kind: StepKind, _: impl FnOnce() -> D) -> ControlFlow<()> {
        self.steps += 1;
        if matches!(kind, StepKind::Reject | StepKind::Place) {
            self.tests += 1;
        }
        if self.steps == self.stop_at {
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    }
}

#[test]
fn a_search_stopped_anywhere_counts_only_the_squares_it_tested() {
    // The traced steps are an independent tally of the tests; stopping on
    // each step in turn covers a stop on a refusal, a placement, a solution
    // and a step back, at every depth, and the whole search.
    let n = 6;
    let (whole, _) = wirths_square_tests(n, false);
    let mut stop_at = 1;
    loop {
        let mut observer = StopAtStep {
            steps: 0,
            tests: 0,
            stop_at,
        };
        let stats = Search::new(n).run(&mut CountOnly, &mut observer).stats();
        assert_eq!(
            stats.metric("square_tests"),
            Some(observer.tests),
            "stop at step {stop_at}"
        );
        if observer.steps < stop_at {
            // The search ended before this step: every square was tested.
            assert_eq!(observer.tests, whole);
            break;
        }
        stop_at += 1;
    }
}
