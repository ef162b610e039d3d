//! What is particular to the textbook backtracker: it walks three-mask's
//! tree, node for node and board for board, and its trace names the queen
//! behind every refusal.

use std::ops::ControlFlow;

use queens_core::trace::{StepKind, TraceRecorder};
use queens_core::{CountOptions, Solver};
use queens_textbook::Textbook;
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
