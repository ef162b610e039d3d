//! What is particular to three-mask: the Forth program's own node figures,
//! one search behind counting and listing, and the full width of its u32
//! mask. The contract every solver keeps (counts, classes, listed sets,
//! limits, traces) is checked in tests/conformance.rs.

use std::ops::ControlFlow;

use queens_core::{CountOptions, Solver, check};
use queens_three_mask::ThreeMask;

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
