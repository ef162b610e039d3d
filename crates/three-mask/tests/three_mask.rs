//! The three-mask solver against the published counts, an independent
//! brute-force reference, and the Forth program's own node figures.

use std::ops::ControlFlow;

use queens_core::{CountOptions, Solver, check, oeis};
use queens_three_mask::ThreeMask;

#[test]
fn counts_match_a000170_up_to_14() {
    for n in 1..=14 {
        let stats = ThreeMask.count(n, &CountOptions::default()).unwrap();
        assert_eq!(Some(stats.solutions), oeis::total(n), "n = {n}");
    }
}

#[test]
fn unique_counts_match_a002562_up_to_12() {
    let options = CountOptions {
        unique: true,
        threads: 1,
    };
    for n in 1..=12 {
        let stats = ThreeMask.count(n, &options).unwrap();
        assert_eq!(stats.unique, oeis::unique(n), "n = {n}");
    }
}

#[test]
fn solution_sets_equal_brute_force_up_to_8() {
    for n in 1..=8 {
        let mut listed = Vec::new();
        ThreeMask
            .enumerate(n, &mut |rows| {
                listed.push(rows.to_vec());
                ControlFlow::Continue(())
            })
            .unwrap();
        listed.sort();
        assert_eq!(listed, check::brute_force_solutions(n), "n = {n}");
    }
}

#[test]
fn search_tree_of_eight_has_2057_nodes() {
    // The Forth program prints "92 solutions (tried 1965 positions)": 1965
    // calls of `try` on unfinished boards plus 92 on full ones make the 2057
    // nodes of the search tree, root included.
    let stats = ThreeMask.count(8, &CountOptions::default()).unwrap();
    assert_eq!(stats.solutions, 92);
    assert_eq!(stats.metric("positions_tried"), Some(1965));
    assert_eq!(stats.nodes, 2057);
}

#[test]
fn counting_and_listing_do_the_same_work() {
    for n in [6, 9, 10] {
        let counted = ThreeMask.count(n, &CountOptions::default()).unwrap();
        let listed = ThreeMask
            .enumerate(n, &mut |_| ControlFlow::Continue(()))
            .unwrap();
        assert_eq!(counted, listed, "n = {n}");
    }
}

#[test]
fn the_widest_mask_is_usable() {
    // n = 32 fills the u32 mask: the arithmetic right shift must keep the
    // bits beyond the board "safe". Listing stops at the first solution,
    // which a correct search reaches quickly.
    let mut first = None;
    ThreeMask
        .enumerate(32, &mut |rows| {
            first = Some(rows.to_vec());
            ControlFlow::Break(())
        })
        .unwrap();
    let first = first.expect("the 32×32 board has solutions");
    assert_eq!(check::check(&first), Ok(()));
}
