//! What is particular to threat-mask: the wide word's boards beyond the
//! suite's brute force, both words doing the same work, the document's move
//! masks as symmetry classes, limits set by the word, and traces of the
//! grids. The contract every solver keeps (counts, classes, listed sets,
//! limits, traces) is checked in tests/conformance.rs.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::ControlFlow;

use queens_core::trace::{StepKind, TraceRecorder};
use queens_core::{CountOptions, Solution, Solver, check, oeis, symmetry};
use queens_threat_mask::{MoveSink, Search, THREAT_MASK, THREAT_MASK_U128, Word};
use queens_three_mask::ThreeMask;

/// The suite compares listings with brute force up to n = 8, which the
/// u64 word covers too; the boards only the u128 word can hold are compared
/// with three-mask's here.
#[test]
fn the_wide_word_lists_three_masks_solutions_beyond_8() {
    for n in 9..=10 {
        assert_eq!(
            check::checked_listing(&THREAT_MASK_U128, n).unwrap(),
            check::checked_listing(&ThreeMask, n).unwrap(),
            "u128 n = {n}"
        );
    }
}

#[test]
fn both_words_do_the_same_work() {
    for n in 1..=8 {
        let narrow = THREAT_MASK.count(n, &CountOptions::default()).unwrap();
        let wide = THREAT_MASK_U128.count(n, &CountOptions::default()).unwrap();
        assert_eq!(narrow, wide, "n = {n}");
    }
}

/// Every solution with the move mask the search built for it.
struct Collect<W>(Vec<(W, Vec<u8>)>);

impl<W: Word> MoveSink<W> for Collect<W> {
    const WANTS_BOARD: bool = true;
    const WANTS_MOVES: bool = true;
    fn solution(&mut self, move_mask: W, rows: &[u8]) -> ControlFlow<()> {
        self.0.push((move_mask, rows.to_vec()));
        ControlFlow::Continue(())
    }
}

/// The document's canonical move masks split the solutions into exactly the
/// classes of core's canonical row vectors.
fn classes_agree_with_core<W: Word>(max_n: usize) {
    for n in 1..=max_n {
        let mut found = Collect::<W>(Vec::new());
        Search::<W>::new(n).run(&mut found, &mut queens_core::trace::Silent);
        let mut by_mask: BTreeMap<W, BTreeSet<Solution>> = BTreeMap::new();
        for (move_mask, rows) in &found.0 {
            assert_eq!(
                *move_mask,
                queens_threat_mask::symmetry::move_mask_of::<W>(rows)
            );
            let core_class = symmetry::canonical(&Solution::from_rows(rows.clone()));
            by_mask
                .entry(queens_threat_mask::symmetry::canonical(*move_mask, n))
                .or_default()
                .insert(core_class);
        }
        let core_classes: BTreeSet<&Solution> = by_mask.values().flatten().collect();
        assert!(
            by_mask.values().all(|c| c.len() == 1),
            "n = {n}: a mask class spans core classes"
        );
        assert_eq!(
            by_mask.len(),
            core_classes.len(),
            "n = {n}: core splits a mask class"
        );
        assert_eq!(Some(by_mask.len() as u64), oeis::unique(n), "n = {n}");
        let representatives = found
            .0
            .iter()
            .filter(|(m, _)| queens_threat_mask::symmetry::represents_its_class(*m, n))
            .count();
        assert_eq!(representatives, by_mask.len(), "n = {n}");
    }
}

#[test]
fn move_mask_classes_are_cores_classes_u64() {
    classes_agree_with_core::<u64>(8);
}

#[test]
fn move_mask_classes_are_cores_classes_u128() {
    classes_agree_with_core::<u128>(10);
}

#[test]
fn limits_name_the_word() {
    let err = THREAT_MASK.count(9, &CountOptions::default()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "threat-mask supports n <= 8 on a u64 board: one bit per square"
    );
    let err = THREAT_MASK_U128
        .enumerate(12, &mut |_| ControlFlow::Continue(()))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "threat-mask-u128 supports n <= 11 on a u128 board: one bit per square"
    );
}

#[test]
fn trace_shows_the_grids_and_stops_when_asked() {
    let mut recorder = TraceRecorder::new(6);
    THREAT_MASK.trace(4, &mut recorder).unwrap();
    assert!(recorder.stopped_early());
    let steps = recorder.texts();
    assert_eq!(steps.len(), 6);
    assert_eq!(steps[0].0, StepKind::Note);
    assert_eq!(steps[1].0, StepKind::Place);
    // The first queen goes on a1 and its threat mask clears rank 1.
    assert!(
        steps[1].1.starts_with("rank 1: open 1111 -> queen on a1"),
        "{}",
        steps[1].1
    );
    assert!(
        steps[1].1.contains("   1 1111   0000   0000"),
        "{}",
        steps[1].1
    );
}

#[test]
fn full_trace_reaches_every_solution() {
    let mut recorder = TraceRecorder::new(10_000);
    let stats = THREAT_MASK.trace(6, &mut recorder).unwrap();
    assert!(!recorder.stopped_early());
    let traced = recorder
        .texts()
        .iter()
        .filter(|(k, _)| *k == StepKind::Solution)
        .count();
    assert_eq!(traced as u64, stats.solutions);
    let placed = recorder
        .texts()
        .iter()
        .filter(|(k, _)| *k == StepKind::Place)
        .count();
    assert_eq!(placed as u64, stats.nodes);
}

/// `solve --unique --solver threat-mask` keeps the boards the document
/// prints: `nub . map canonical` over every solution, where a board's
/// canonical form is the smallest of its eight images as a move mask (bit
/// row * n + col, 0 = queen). Computed here from the board list and core's
/// eight symmetries, independently of the crate's own symmetry module; for
/// n = 8 that is a different set of representatives from core's.
#[test]
fn its_class_representatives_are_the_documents() {
    let move_mask = |rows: &[u8]| -> u64 {
        let n = rows.len();
        let queens = rows.iter().enumerate().fold(0u64, |word, (col, &row)| {
            word | 1 << (row as usize * n + col)
        });
        !queens
    };
    for n in 1..=8 {
        let boards = queens_core::list_boards(&THREAT_MASK, n).unwrap();
        let documents: BTreeSet<u64> = boards
            .iter()
            .map(|rows| {
                symmetry::Transform::ALL
                    .iter()
                    .map(|t| {
                        let mut image = vec![0u8; n];
                        t.apply_into(rows, &mut image);
                        move_mask(&image)
                    })
                    .min()
                    .unwrap()
            })
            .collect();
        let kept: BTreeSet<u64> = boards
            .iter()
            .filter(|rows| THREAT_MASK.represents_class(rows))
            .map(|rows| move_mask(rows))
            .collect();
        assert_eq!(kept, documents, "n = {n}");
        assert_eq!(kept.len() as u64, oeis::unique(n).unwrap(), "n = {n}");
        if n == 8 {
            let cores: BTreeSet<u64> = boards
                .iter()
                .filter(|rows| symmetry::is_canonical(rows))
                .map(|rows| move_mask(rows))
                .collect();
            assert_ne!(kept, cores, "the document chooses its own representatives");
        }
    }
}
