//! What is particular to fail-first: its limit is the size up to which
//! every n is known to end, so a test runs them all (ignored by default,
//! being several seconds; `cargo test -p queens-fail-first -- --ignored`).

use queens_core::find::Finder;
use queens_fail_first::{FAIL_FIRST, MAX_N};

#[test]
#[ignore = "every n up to the limit: seconds of backtracking"]
fn every_n_up_to_the_limit_ends_with_a_board() {
    for n in 1..=MAX_N {
        queens_conformance::finders::exact(&FAIL_FIRST, n, 0);
    }
}

#[test]
fn it_barely_steps_back() {
    // The heuristic's point: choosing the most constrained file first
    // barely steps back, fewer than four queens placed per file here
    // (the harness's tests set this beside rank-by-rank backtracking).
    let found = FAIL_FIRST.find(30, 0).unwrap();
    assert!(found.steps < 30 * 4, "{} steps", found.steps);
}
