//! What it means to be a finder (the second question, "give me one
//! board"), written once like the solvers' suite: every finder crate runs
//! it, and the harness runs it over its whole list of finders.
//!
//! | check | the contract |
//! |---|---|
//! | [`finder_documents_itself`] | non-empty seed, idea, step, limit reason and teaching text; a limit reason that goes on from "supports n <= N"; an id fit for command lines |
//! | [`exact_for_every_small_n`] | for n = 1..=200 (or its `max_n`, or its [`FinderConfig`]'s), a board that both checkers accept, and "no board" exactly for n = 2 and 3 |
//! | [`exact_at_every_power_of_ten`] | the same at n = 10, 100, ... up to what its [`FinderConfig`] says, with the pairwise checker too up to 10^4 |
//! | [`seeds_reproduce`] | the same seed gives the same board and steps; a seeded finder's boards depend on the seed |
//! | [`finder_limits_are_errors`] | n = 0 and n = max_n + 1 are errors naming the limit |

use queens_core::find::{Finder, check_found, no_board_exists};
use queens_core::{QueensError, check};

/// Every finder is checked on every n up to this (or its `max_n`).
pub const SMALL_UP_TO: usize = 200;

/// The pairwise checker, O(n²), also looks at the boards up to this size.
pub const PAIRWISE_UP_TO: usize = 10_000;

/// How far the suite takes one finder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FinderConfig {
    small_up_to: usize,
    powers_up_to: usize,
    reason: &'static str,
}

impl FinderConfig {
    /// Powers of ten up to its `max_n`, and no further than 10^3: what
    /// any finder that takes them does in a moment.
    pub const DEFAULT: FinderConfig = FinderConfig {
        small_up_to: SMALL_UP_TO,
        powers_up_to: 1_000,
        reason: "",
    };

    /// Powers of ten up to `n` (capped by the finder's `max_n`), for the
    /// stated reason (what a larger one would cost, or why a fast finder is
    /// taken further).
    pub const fn powers_up_to(n: usize, reason: &'static str) -> FinderConfig {
        assert!(!reason.is_empty(), "say why this finder goes elsewhere");
        FinderConfig {
            small_up_to: SMALL_UP_TO,
            powers_up_to: n,
            reason,
        }
    }

    /// Every n only up to `n` instead of [`SMALL_UP_TO`], for the stated
    /// reason (a search whose time to its first board is too erratic for
    /// a test near its limit).
    pub const fn small_up_to(n: usize, reason: &'static str) -> FinderConfig {
        assert!(!reason.is_empty(), "say why this finder stops early");
        FinderConfig {
            small_up_to: n,
            powers_up_to: FinderConfig::DEFAULT.powers_up_to,
            reason,
        }
    }

    /// The powers of ten checked for `finder`.
    pub fn powers(&self, finder: &dyn Finder) -> Vec<usize> {
        let top = self.powers_up_to.min(finder.info().max_n);
        std::iter::successors(Some(10usize), |p| p.checked_mul(10))
            .take_while(|&p| p <= top)
            .collect()
    }

    /// Why this configuration differs from the default.
    pub fn reason(&self) -> &'static str {
        self.reason
    }
}

/// Finds n with `seed` and holds the answer to both checkers (the pairwise
/// one up to [`PAIRWISE_UP_TO`]).
pub fn exact(finder: &dyn Finder, n: usize, seed: u64) {
    let id = finder.info().id;
    let found = finder
        .find(n, seed)
        .unwrap_or_else(|e| panic!("{id} refused n = {n}: {e}"));
    if let Err(wrong) = check_found(n, &found) {
        panic!("{id}, n = {n}, seed {seed}: {wrong}");
    }
    match &found.board {
        Some(board) if n <= PAIRWISE_UP_TO => {
            let pairwise = check::check_wide(board.rows());
            assert_eq!(pairwise, Ok(()), "{id}, n = {n}: the pairwise checker");
        }
        Some(_) => {}
        None => assert!(no_board_exists(n), "{id} gave up on n = {n}"),
    }
}

/// Non-empty documentation, a limit reason that reads on from its limit,
/// and a command-line id.
pub fn finder_documents_itself(finder: &dyn Finder, _: &FinderConfig) {
    let info = finder.info();
    let fields = [
        ("seed", info.seed),
        ("idea", info.idea),
        ("step", info.step),
        ("limit_reason", info.limit_reason),
        ("teaching", info.teaching),
    ];
    for (name, text) in fields {
        assert!(!text.trim().is_empty(), "{}: empty {name}", info.id);
    }
    assert!(
        !info.id.is_empty()
            && info
                .id
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
        "{:?} is not an id for command lines and file names",
        info.id
    );
    assert!(info.max_n >= 8, "{}: max_n below 8", info.id);
    crate::limit_reason_follows_its_limit(info.id, info.limit_reason);
}

/// Every n from 1 to [`SMALL_UP_TO`] (or `max_n`, or what the
/// configuration says).
pub fn exact_for_every_small_n(finder: &dyn Finder, config: &FinderConfig) {
    for n in 1..=config.small_up_to.min(finder.info().max_n) {
        exact(finder, n, 0);
        if finder.info().seeded {
            exact(finder, n, n as u64);
        }
    }
}

/// Every power of ten the configuration reaches.
pub fn exact_at_every_power_of_ten(finder: &dyn Finder, config: &FinderConfig) {
    for n in config.powers(finder) {
        exact(finder, n, 0);
    }
}

/// One seed, one answer; for a seeded finder, other seeds, other boards.
pub fn seeds_reproduce(finder: &dyn Finder, _: &FinderConfig) {
    let info = finder.info();
    // Small enough for the first board of a backtracking solver to be
    // quick, large enough for a random search to have many boards to reach.
    let n = info.max_n.min(20);
    let first = finder.find(n, 7).expect("n within the limit");
    assert_eq!(finder.find(n, 7).expect("again"), first, "{}", info.id);
    let others: Vec<_> = (8..12)
        .map(|seed| finder.find(n, seed).expect("n"))
        .collect();
    let differs = others.iter().any(|other| other.board != first.board);
    assert_eq!(
        differs,
        info.seeded,
        "{}: seeded = {}, but other seeds gave {} boards",
        info.id,
        info.seeded,
        if differs { "other" } else { "the same" }
    );
}

/// n = 0 and n = max_n + 1 are refused, naming the limit.
pub fn finder_limits_are_errors(finder: &dyn Finder, _: &FinderConfig) {
    let info = finder.info();
    assert_eq!(
        finder.find(0, 0),
        Err(QueensError::EmptyBoard),
        "{}",
        info.id
    );
    let message = finder
        .find(info.max_n + 1, 0)
        .expect_err("past max_n")
        .to_string();
    assert!(
        message.starts_with(&format!("{} supports n <= {}", info.id, info.max_n)),
        "{message}"
    );
}

/// Expands to one `#[test]` per check above for one finder:
/// `finder_suite!(FINDER)`, `finder_suite!(FINDER, CONFIG)`, or with a
/// module name first (`finder_suite!(name: FINDER)`).
#[macro_export]
macro_rules! finder_suite {
    ($name:ident : $finder:expr $(, $config:expr)? $(,)?) => {
        mod $name {
            #[allow(unused_imports)]
            use super::*;
            $crate::finder_suite!($finder $(, $config)?);
        }
    };
    ($finder:expr $(,)?) => {
        $crate::finder_suite!($finder, $crate::finders::FinderConfig::DEFAULT);
    };
    ($finder:expr, $config:expr $(,)?) => {
        $crate::__each_finder_check!(one $finder, $config);
    };
}

/// The suite over a list of finders (the harness's registry):
/// `CONFIG_FOR` maps `&dyn Finder` to its [`FinderConfig`].
#[macro_export]
macro_rules! finder_registry_suite {
    ($finders:expr, $config_for:expr $(,)?) => {
        $crate::__each_finder_check!(every $finders, $config_for);
    };
}

/// The one list of finder checks. Not for direct use.
#[doc(hidden)]
#[macro_export]
macro_rules! __each_finder_check {
    ($($how:tt)*) => {
        $crate::__apply_finder_checks! {
            ($($how)*);
            finder_documents_itself,
            exact_for_every_small_n,
            exact_at_every_power_of_ten,
            seeds_reproduce,
            finder_limits_are_errors,
        }
    };
}

/// Turns the list of finder checks into tests. Not for direct use.
#[doc(hidden)]
#[macro_export]
macro_rules! __apply_finder_checks {
    ((one $finder:expr, $config:expr); $($check:ident),* $(,)?) => {
        $(
            #[test]
            fn $check() {
                $crate::finders::$check(&$finder, &$config);
            }
        )*
    };
    ((every $finders:expr, $config_for:expr); $($check:ident),* $(,)?) => {
        $(
            #[test]
            fn $check() {
                for finder in $finders {
                    let finder: &dyn $crate::__Finder = *finder;
                    $crate::finders::$check(finder, &$config_for(finder));
                }
            }
        )*
    };
}
