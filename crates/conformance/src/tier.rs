//! The two tiers of the test suite, chosen by the environment, read by
//! test code only.
//!
//! `cargo test --workspace` runs the **fast** tier: every property of
//! every engine, each test at the smallest boards on which that property
//! is real (a cut that cuts, a layout that is used, a level that is
//! reached). `QUEENS_TESTS=full cargo test --workspace` runs the **full**
//! tier as well: the same tests over every board, every level, every cut
//! they were written for, minutes more on two cores. CI runs both
//! (`.ci/run`). A test written for the full range names both ranges, so
//! the fast one is visibly a subset of it:
//!
//! ```text
//! for n in queens_conformance::tier::boards(14..=14, 14..=16) { ... }
//! ```

use std::ops::RangeInclusive;

/// The variable that chooses the tier.
pub const VARIABLE: &str = "QUEENS_TESTS";

/// Which tier this run is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tier {
    /// Every property at small boards: `cargo test`'s default.
    Fast,
    /// Every board, level and cut the tests were written for.
    Full,
}

/// This run's tier: [`Tier::Full`] when `QUEENS_TESTS=full`, else
/// [`Tier::Fast`]. Any other value is a mistake that would silently run
/// the fast tier where the full one was meant, so it panics, naming it.
pub fn current() -> Tier {
    match std::env::var(VARIABLE) {
        Err(_) => Tier::Fast,
        Ok(value) => match value.as_str() {
            "" | "fast" => Tier::Fast,
            "full" => Tier::Full,
            other => panic!("{VARIABLE}={other:?}: the tiers are \"fast\" and \"full\""),
        },
    }
}

/// `fast` in the fast tier, `full` in the full one.
pub fn pick<T>(fast: T, full: T) -> T {
    match current() {
        Tier::Fast => fast,
        Tier::Full => full,
    }
}

/// The boards a test walks: `fast` in the fast tier, `full` in the full
/// one. `fast` must lie within `full` (checked), so that the fast tier
/// is a subset of what the full tier runs.
pub fn boards(fast: RangeInclusive<usize>, full: RangeInclusive<usize>) -> RangeInclusive<usize> {
    assert!(
        full.contains(fast.start()) && full.contains(fast.end()),
        "the fast tier's boards {fast:?} lie outside the full tier's {full:?}"
    );
    pick(fast, full)
}

/// The cases a test walks: the first `fast` of `cases` in the fast tier,
/// all of them in the full one.
pub fn cases<T: Clone>(cases: &[T], fast: usize) -> Vec<T> {
    match current() {
        Tier::Fast => cases[..fast.min(cases.len())].to_vec(),
        Tier::Full => cases.to_vec(),
    }
}
