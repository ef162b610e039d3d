//! # queens-conformance
//!
//! What it means to be a solver in this workspace, written once. Every
//! solver crate runs this suite against its own solvers, and the harness
//! runs it against every registered one, so a contract is stated in one
//! place and a new solver is held to all of it by one line:
//!
//! ```text
//! // crates/<solver>/tests/conformance.rs
//! queens_conformance::suite!(queens_three_mask::ThreeMask);
//! ```
//!
//! The macro expands to one `#[test]` per check below, so a failure names
//! the broken contract (`counts_match_a000170`, not "conformance failed").
//! A crate exporting several solvers names a module for each:
//! `suite!(u128: queens_threat_mask::THREAT_MASK_U128);`. A solver whose
//! idea is too slow for the suite's board sizes says so, with the reason,
//! in a [`Config`]: `suite!(SOLVER, Config::count_up_to(10, "why"))`.
//!
//! ## What is checked
//!
//! | check | the contract |
//! |---|---|
//! | [`documents_itself`] | non-empty seed, idea, node, limit reason and teaching text; a limit reason that goes on from "supports n <= N"; `max_n >= 8`; an id fit for command lines and file names |
//! | [`counts_match_a000170`] | the count of every n up to the limit is the published one, and some work was reported |
//! | [`unique_counts_match_a002562`] | so are the classes under rotation and reflection |
//! | [`listed_sets_equal_brute_force`] | for n <= 8, a listing solver lists valid, distinct boards: exactly brute force's set; a count-only solver refuses every n with [`QueensError::CannotEnumerate`] |
//! | [`enumeration_stops_on_break`] | the visitor's `Break` ends the listing at once (a count-only solver never calls the visitor) |
//! | [`limits_are_errors_that_name_the_reason`] | n = max_n + 1 is an error that says the limit and why, for counting and tracing; n = 0 is [`QueensError::EmptyBoard`] |
//! | [`traces_are_deterministic_bounded_and_cut`] | a trace is the same twice, never empty, never longer than the sink allows, and stops when the sink is full |
//! | [`thread_count_does_not_change_the_result`] | any `--threads` gives the same statistics (a solver that does not split its work ignores the option) |
//! | [`a_tree_profile_is_a_tree_of_safe_boards`] | a solver that reports the profile of its tree (safe boards by number of queens) reports one empty board and exactly the solutions as full boards |
//! | [`shards_sum_to_the_whole`] | a split count dealt into shards adds up to the whole count, classes included, and every board's dealing is [`deal_by_scan`]'s, the definition old shard records were dealt by; a solver without a split counts deterministically in one piece |
//!
//! Finders, which answer the other question ("give me one board"), have
//! their own suite in [`finders`]: `finder_suite!(FINDER)`.
//!
//! The references are independent of every solver: core's [`oeis`] tables,
//! its pairwise checker and its brute force over all permutations
//! ([`check::checked_listing`], [`check::brute_force_solutions`]), and
//! [`no_two_attack`] below for partial boards.

#![deny(missing_docs)]

pub mod finders;
pub mod tier;

use std::ops::ControlFlow;
use std::sync::Mutex;

use queens_core::split::{UnitCount, WorkUnit, count_units, deal, shard_units, whole_board};
use queens_core::trace::TraceRecorder;
use queens_core::{CountOptions, QueensError, Solver, check, oeis};

/// Counts are checked for n = 1..=this (or the solver's own `max_n`) unless
/// a [`Config`] says otherwise: n = 11 is 2,680 solutions, enough to pass
/// every corner case of the small boards, and quick for every idea but one.
pub const DEFAULT_COUNT_UP_TO: usize = 11;

/// Solvers that split their work are the fast engines: they are counted two
/// sizes further, where one unit per thread is no longer the whole board.
pub const SPLIT_COUNT_UP_TO: usize = 13;

/// Listed sets are compared with brute force for n = 1..=this: 8! = 40,320
/// permutations is instant, 9! already costs brute force a noticeable moment
/// per solver.
pub const LISTED_UP_TO: usize = 8;

/// How far the suite counts one solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    count_up_to: Option<usize>,
    reason: &'static str,
}

impl Config {
    /// The suite's own sizes: [`DEFAULT_COUNT_UP_TO`], or
    /// [`SPLIT_COUNT_UP_TO`] for a solver that splits its work.
    pub const DEFAULT: Config = Config {
        count_up_to: None,
        reason: "",
    };

    /// Counts up to `n` instead of the default, for the stated reason: an
    /// idea too slow for the default (the reason says what it would cost),
    /// or a fast one its own crate wants checked further. A change of the
    /// suite's sizes without a reason is refused at compile time.
    pub const fn count_up_to(n: usize, reason: &'static str) -> Config {
        assert!(!reason.is_empty(), "say why this solver counts elsewhere");
        Config {
            count_up_to: Some(n),
            reason,
        }
    }

    /// The largest n counted for `solver`.
    pub fn count_limit(&self, solver: &dyn Solver) -> usize {
        let default = if solver.work_split().is_some() {
            SPLIT_COUNT_UP_TO
        } else {
            DEFAULT_COUNT_UP_TO
        };
        self.count_up_to.unwrap_or(default).min(solver.info().max_n)
    }

    /// Why this configuration differs from the default (empty if it does not).
    pub fn reason(&self) -> &'static str {
        self.reason
    }
}

impl Default for Config {
    fn default() -> Self {
        Config::DEFAULT
    }
}

/// Expands to one `#[test]` per check of the suite for the given solver.
///
/// - `suite!(SOLVER)`: the tests at the call site.
/// - `suite!(SOLVER, CONFIG)`: with a [`Config`] (an expression).
/// - `suite!(name: SOLVER)` and `suite!(name: SOLVER, CONFIG)`: the tests in
///   a module `name`, so that one file can hold the suites of several
///   solvers without their test names colliding.
///
/// `SOLVER` is any expression of a type implementing `Solver` (a unit struct
/// or a static), taken by reference.
#[macro_export]
macro_rules! suite {
    ($name:ident : $solver:expr $(, $config:expr)? $(,)?) => {
        mod $name {
            // The caller's imports (a solver named by a `use`) stay visible.
            #[allow(unused_imports)]
            use super::*;
            $crate::suite!($solver $(, $config)?);
        }
    };
    ($solver:expr $(,)?) => {
        $crate::suite!($solver, $crate::Config::DEFAULT);
    };
    ($solver:expr, $config:expr $(,)?) => {
        $crate::__each_check!(one $solver, $config);
    };
}

/// The suite over a whole list of solvers (the harness's registry): one
/// `#[test]` per check, each running it for every solver in turn; the
/// assertion messages name the solver. `CONFIG_FOR` is a function from
/// `&dyn Solver` to its [`Config`].
#[macro_export]
macro_rules! registry_suite {
    ($solvers:expr, $config_for:expr $(,)?) => {
        $crate::__each_check!(every $solvers, $config_for);
    };
}

/// The one list of checks, handed to [`__apply_checks!`]: the macros and
/// [`ALL_CHECKS`] cannot drift apart. Not for direct use.
#[doc(hidden)]
#[macro_export]
macro_rules! __each_check {
    ($($how:tt)*) => {
        $crate::__apply_checks! {
            ($($how)*);
            documents_itself,
            counts_match_a000170,
            unique_counts_match_a002562,
            listed_sets_equal_brute_force,
            enumeration_stops_on_break,
            limits_are_errors_that_name_the_reason,
            traces_are_deterministic_bounded_and_cut,
            thread_count_does_not_change_the_result,
            shards_sum_to_the_whole,
            a_tree_profile_is_a_tree_of_safe_boards,
        }
    };
}

/// Turns the list of checks into tests or a table. Not for direct use.
#[doc(hidden)]
#[macro_export]
macro_rules! __apply_checks {
    ((one $solver:expr, $config:expr); $($check:ident),* $(,)?) => {
        $(
            #[test]
            fn $check() {
                if $crate::without_its_device(&$solver) {
                    return;
                }
                $crate::$check(&$solver, &$config);
            }
        )*
    };
    ((every $solvers:expr, $config_for:expr); $($check:ident),* $(,)?) => {
        $(
            #[test]
            fn $check() {
                for solver in $solvers {
                    let solver: &dyn $crate::__Solver = *solver;
                    if $crate::without_its_device(solver) {
                        continue;
                    }
                    $crate::$check(solver, &$config_for(solver));
                }
            }
        )*
    };
    ((table); $($check:ident),* $(,)?) => {
        &[$((stringify!($check), $crate::$check as $crate::Check)),*]
    };
}

/// The trait, under a name the macros can reach from any crate.
#[doc(hidden)]
pub use queens_core::Solver as __Solver;
#[doc(hidden)]
pub use queens_core::find::Finder as __Finder;

/// One check of the suite.
pub type Check = fn(&dyn Solver, &Config);

/// Every check by name, in the macros' order, for a caller that wants to
/// run them some other way.
pub const ALL_CHECKS: &[(&str, Check)] = __each_check!(table);

/// Set (to anything but `0` or empty) where a GPU solver must be tested:
/// CI sets it after installing a software Vulkan driver, so that a solver
/// that finds no adapter there fails the suite instead of skipping it.
pub const REQUIRE_GPU: &str = "QUEENS_REQUIRE_GPU";

/// Whether the suite skips `solver` here: it needs a device this machine
/// does not offer (see [`Solver::accelerator`]) and [`REQUIRE_GPU`] is not
/// set. The skip is said on stderr (`cargo test -- --nocapture` shows it).
///
/// # Panics
///
/// When the device is missing and [`REQUIRE_GPU`] is set: the test fails,
/// naming the reason.
pub fn without_its_device(solver: &dyn Solver) -> bool {
    let Err(missing) = solver.accelerator() else {
        return false;
    };
    let required = std::env::var(REQUIRE_GPU).is_ok_and(|v| !v.is_empty() && v != "0");
    assert!(!required, "{REQUIRE_GPU} is set: {missing}");
    eprintln!("skipped (set {REQUIRE_GPU}=1 to require it): {missing}");
    true
}

/// The facts `queens list` and `queens explain` print are there (the
/// limit's reason reading on from the limit), and the id can go on a
/// command line and into a file name unquoted.
pub fn documents_itself(solver: &dyn Solver, _: &Config) {
    let info = solver.info();
    assert!(!info.id.is_empty(), "an empty id");
    assert!(
        info.id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
        "{}: ids are used on command lines and in file names",
        info.id
    );
    for (field, text) in [
        ("seed", info.seed),
        ("idea", info.idea),
        ("node", info.node),
        ("limit_reason", info.limit_reason),
        ("teaching", info.teaching),
    ] {
        assert!(!text.trim().is_empty(), "{}: empty {field}", info.id);
    }
    assert!(
        info.max_n >= 8,
        "{}: every approach handles the 8×8 board",
        info.id
    );
    limit_reason_follows_its_limit(info.id, info.limit_reason);
}

/// `limit_reason` is printed after "ID supports n <= N " (a refusal) and
/// after "limit: n <= N " (`queens list`), so it must go on that sentence:
/// "because ...", "on a u32 mask ...", never a sentence of its own that
/// would run into the number ("n <= 28 Q(29) would overflow").
pub(crate) fn limit_reason_follows_its_limit(id: &str, reason: &str) {
    assert!(
        reason.starts_with(|c: char| c.is_ascii_lowercase()),
        "{id}: limit_reason {reason:?} must go on from \"supports n <= N\" (start it in lower case: \"because ...\", \"on ...\")"
    );
}

/// A000170 for n = 1..=limit, on one thread, with some work reported.
pub fn counts_match_a000170(solver: &dyn Solver, config: &Config) {
    let id = solver.info().id;
    for n in 1..=config.count_limit(solver) {
        let stats = solver.count(n, &CountOptions::default()).unwrap();
        assert_eq!(Some(stats.solutions), oeis::total(n), "{id}: n = {n}");
        assert!(stats.nodes > 0, "{id}: n = {n}: no work reported");
    }
}

/// A002562 (and A000170 again, from the same run) for n = 1..=limit. Asked
/// with one thread per core: a solver that splits its work then takes its
/// threaded path, which [`counts_match_a000170`] leaves out; the others
/// ignore the option.
pub fn unique_counts_match_a002562(solver: &dyn Solver, config: &Config) {
    let id = solver.info().id;
    let options = CountOptions {
        unique: true,
        threads: 0,
    };
    for n in 1..=config.count_limit(solver) {
        let stats = solver.count(n, &options).unwrap();
        assert_eq!(stats.unique, oeis::unique(n), "{id}: n = {n}");
        assert_eq!(Some(stats.solutions), oeis::total(n), "{id}: n = {n}");
    }
}

/// For n = 1..=8: a listing solver lists only valid boards, none twice, and
/// all of brute force's (checked board by board by core's checker); a
/// count-only solver lists nothing, refusing with an error that names it.
pub fn listed_sets_equal_brute_force(solver: &dyn Solver, _: &Config) {
    let id = solver.info().id;
    for n in 1..=LISTED_UP_TO {
        if solver.info().enumerates {
            let listed: Vec<Vec<u8>> = check::checked_listing(solver, n)
                .unwrap_or_else(|problem| panic!("{problem}"))
                .into_iter()
                .collect();
            assert_eq!(listed, check::brute_force_solutions(n), "{id}: n = {n}");
        } else {
            let mut visited = 0;
            let refused = solver.enumerate(n, &mut |_| {
                visited += 1;
                ControlFlow::Continue(())
            });
            assert_eq!(
                refused.unwrap_err(),
                QueensError::CannotEnumerate { solver: id },
                "{id}: n = {n}"
            );
            assert_eq!(visited, 0, "{id}: a count-only solver listed boards");
        }
    }
}

/// `Break` from the visitor ends a listing after that board: `queens solve
/// --limit` and the cross-checks rely on it to stay cheap on big boards.
pub fn enumeration_stops_on_break(solver: &dyn Solver, _: &Config) {
    let id = solver.info().id;
    let mut seen = 0;
    let result = solver.enumerate(8, &mut |_| {
        seen += 1;
        ControlFlow::Break(())
    });
    if solver.info().enumerates {
        // Only the visits are checked: a breadth-first solver (row-fold) has
        // found every board before it lists the first, and says so.
        result.unwrap();
        assert_eq!(seen, 1, "{id} kept going after Break");
    } else {
        assert!(result.is_err(), "{id} is count-only but listed");
        assert_eq!(seen, 0, "{id} is count-only but called the visitor");
    }
}

/// Beyond its board a solver answers with an error that states the limit
/// and the reason (what a user reads), when counting and when tracing; an
/// empty board is its own error.
pub fn limits_are_errors_that_name_the_reason(solver: &dyn Solver, _: &Config) {
    let info = solver.info();
    let too_large = info.max_n + 1;
    let message = solver
        .count(too_large, &CountOptions::default())
        .unwrap_err()
        .to_string();
    assert!(
        message.starts_with(&format!("{} supports n <= {}", info.id, info.max_n)),
        "{message}"
    );
    assert!(message.contains(info.limit_reason), "{message}");
    assert_eq!(
        solver.count(0, &CountOptions::default()).unwrap_err(),
        QueensError::EmptyBoard,
        "{}",
        info.id
    );
    let mut sink = TraceRecorder::new(5);
    assert!(
        solver.trace(too_large, &mut sink).is_err(),
        "{}: traced n = {too_large}",
        info.id
    );
}

/// Steps a trace may record here: more than n = 1 and n = 4 need for most
/// solvers, far fewer than n = 8 takes for any.
const TRACE_STEPS: usize = 25;

/// Traces for n = 1, 4, 8 are the same on every run (they are committed as
/// teaching material), say something, respect the sink's size, and stop
/// when the sink is full (n = 8 has far more steps than it takes).
pub fn traces_are_deterministic_bounded_and_cut(solver: &dyn Solver, _: &Config) {
    let id = solver.info().id;
    for n in [1, 4, 8] {
        let run = || {
            let mut recorder = TraceRecorder::new(TRACE_STEPS);
            solver.trace(n, &mut recorder).unwrap();
            recorder
        };
        let (first, second) = (run(), run());
        assert_eq!(first.steps(), second.steps(), "{id}: n = {n}");
        assert!(!first.steps().is_empty(), "{id}: n = {n}: empty trace");
        assert!(first.steps().len() <= TRACE_STEPS, "{id}: n = {n}");
        if n == 8 {
            assert!(first.stopped_early(), "{id}: trace ignored its limit");
        }
    }
}

/// The statistics, classes and nodes included, do not depend on
/// `--threads`. A split count is compared at n = 9 and 12 on 1, 2, 3 and 5
/// threads (more threads than units at small n, uneven shares at large);
/// any other solver ignores the option, checked at one size it counts
/// quickly.
pub fn thread_count_does_not_change_the_result(solver: &dyn Solver, config: &Config) {
    let id = solver.info().id;
    let limit = config.count_limit(solver);
    let sizes: &[usize] = if solver.work_split().is_some() {
        &[9, 12]
    } else {
        &[9]
    };
    for &n in sizes {
        let n = n.min(limit);
        let run = |threads| {
            let options = CountOptions {
                unique: true,
                threads,
            };
            solver.count(n, &options).unwrap()
        };
        let one = run(1);
        for threads in [0, 2, 3, 5] {
            assert_eq!(run(threads), one, "{id}: n = {n}, {threads} threads");
        }
    }
}

/// A solver that reports its tree's profile (the safe boards it reaches
/// with 0..=n queens) reports a tree of safe boards: one empty board, at
/// most n boards with one queen, and with n queens solutions only (all of
/// them, or the share a symmetry leaves it, as the mirror's half: some
/// whenever there are any), for every n it is counted to; and the profile
/// is the same run after run. Which tree exactly is pinned across solvers
/// by the harness's `the_depth_first_solvers_walk_one_tree`.
pub fn a_tree_profile_is_a_tree_of_safe_boards(solver: &dyn Solver, config: &Config) {
    let id = solver.info().id;
    for n in 1..=config.count_limit(solver).min(10) {
        let Some(profile) = solver.tree_profile(n).unwrap() else {
            return;
        };
        assert_eq!(profile.len(), n + 1, "{id} n = {n}: {profile:?}");
        assert_eq!(profile[0], 1, "{id} n = {n}: one empty board");
        assert!(profile[1] <= n as u64, "{id} n = {n}: {profile:?}");
        let total = oeis::total(n).unwrap();
        assert!(
            profile[n] <= total && (profile[n] == 0) == (total == 0),
            "{id} n = {n}: the full boards are solutions: {profile:?}"
        );
        assert_eq!(
            solver.tree_profile(n).unwrap(),
            Some(profile),
            "{id} n = {n}"
        );
    }
}

/// Shards, as `queens count --shard I/K` deals them through
/// [`queens_core::split`], add up to the one-thread count of the whole
/// board, classes included (Burnside's fixed pairs add across shards), for
/// K = 1, 2, 3 and 7 at n = 11. A solver without a split cannot be sharded
/// (the harness refuses); what a run of it can rely on instead is that
/// counting twice gives the same statistics, nodes included.
pub fn shards_sum_to_the_whole(solver: &dyn Solver, config: &Config) {
    let id = solver.info().id;
    let n = 11.min(config.count_limit(solver));
    let options = CountOptions {
        unique: true,
        threads: 1,
    };
    let whole = solver.count(n, &options).unwrap();
    let Some(split) = solver.work_split() else {
        assert_eq!(solver.count(n, &options).unwrap(), whole, "{id}: n = {n}");
        return;
    };
    let plan = split.plan(n).unwrap();
    for shards in [1, 2, 3, 7] {
        let total = Mutex::new(UnitCount::default());
        for index in 1..=shards {
            let mine = shard_units(&plan, index, shards);
            count_units(split, n, &plan, &mine, true, 2, &|_, count| {
                *total.lock().unwrap() += count
            })
            .unwrap();
        }
        let total = total.into_inner().unwrap();
        assert_eq!(
            whole_board(total, plan.nodes, true),
            whole,
            "{id}: n = {n}, {shards} shards"
        );
    }
    // Shard records already written name their units: a faster dealing
    // must deal every board exactly as the definition did, or those records
    // would no longer merge. K beyond the units leaves shards empty.
    for n in 4..=n {
        let plan = split.plan(n).unwrap();
        let units: Vec<WorkUnit> = plan.iter().collect();
        for shards in [1, 2, 3, 5, 7, 8, 16, 64, 1000, units.len(), units.len() + 3] {
            let shards = shards.max(1);
            assert_eq!(
                deal(&plan, shards),
                deal_by_scan(&units, shards),
                "{id}: n = {n}, {shards} shards"
            );
        }
    }
}

/// The dealing of units to shards as it was defined (and as every shard
/// record so far was dealt): each unit, heaviest first, goes to the shard
/// with the least weight so far, the lowest-numbered on ties, found by
/// looking at every shard. O(units × K), on the units listed: only for
/// checking [`queens_core::split::deal`], which makes the same choices
/// faster and without listing a plan's units.
pub fn deal_by_scan(units: &[WorkUnit], shards: usize) -> Vec<usize> {
    let mut load = vec![0u64; shards];
    let mut owner = vec![0; units.len()];
    let mut order: Vec<usize> = (0..units.len()).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(units[i].weight), i));
    for unit in order {
        let lightest = (0..shards)
            .min_by_key(|&s| (load[s], s))
            .expect("shards >= 1");
        load[lightest] += units[unit].weight.max(1);
        owner[unit] = lightest;
    }
    owner
}

/// Whether no two queens of a partial placement attack each other: `rows[c]`
/// is the row of the queen in column c, for the first `rows.len()` columns
/// of a board of any size (rows may be counted from 0 or from 1, only
/// differences matter). Core's [`check::check`] wants a whole n×n board;
/// tests that recount a solver's partial boards (row-fold's levels,
/// base-counting's odometer readings) use this plain pairwise test, which
/// shares nothing with any solver.
pub fn no_two_attack(rows: &[u8]) -> bool {
    (0..rows.len()).all(|a| {
        (a + 1..rows.len())
            .all(|b| rows[a] != rows[b] && rows[a].abs_diff(rows[b]) as usize != b - a)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_two_attack_tells_safe_partials_from_attacks() {
        assert!(no_two_attack(&[]));
        assert!(no_two_attack(&[5]));
        assert!(no_two_attack(&[1, 3, 0, 2]));
        assert!(no_two_attack(&[2, 4, 1, 3]), "rows counted from 1");
        assert!(!no_two_attack(&[1, 3, 1]), "a shared row");
        assert!(!no_two_attack(&[0, 2, 4, 1, 3, 5]), "a diagonal far apart");
        assert!(!no_two_attack(&[3, 2]), "a falling diagonal");
    }

    #[test]
    fn no_two_attack_agrees_with_core_on_whole_boards() {
        for n in 1..=6u8 {
            let total = (0..(n as u32).pow(n as u32))
                .map(|mut code| {
                    (0..n)
                        .map(|_| {
                            let row = (code % n as u32) as u8;
                            code /= n as u32;
                            row
                        })
                        .collect::<Vec<u8>>()
                })
                .filter(|rows| {
                    assert_eq!(no_two_attack(rows), check::is_valid(rows), "{rows:?}");
                    no_two_attack(rows)
                })
                .count();
            assert_eq!(Some(total as u64), oeis::total(n as usize), "n = {n}");
        }
    }

    /// A solver that only has a limit, to see where the suite counts it.
    struct UpToNine;

    static UP_TO_NINE: queens_core::SolverInfo = queens_core::SolverInfo {
        id: "up-to-nine",
        seed: "none",
        idea: "none",
        node: "none",
        max_n: 9,
        limit_reason: "for this test",
        enumerates: false,
        teaching: "none",
        analysis: "",
    };

    impl Solver for UpToNine {
        fn info(&self) -> &'static queens_core::SolverInfo {
            &UP_TO_NINE
        }
        fn enumerate(
            &self,
            _: usize,
            _: &mut queens_core::Visit<'_>,
        ) -> Result<queens_core::SearchStats, QueensError> {
            Err(QueensError::CannotEnumerate {
                solver: "up-to-nine",
            })
        }
        fn trace(
            &self,
            _: usize,
            _: &mut dyn queens_core::trace::TraceSink,
        ) -> Result<queens_core::SearchStats, QueensError> {
            Err(QueensError::EmptyBoard)
        }
    }

    #[test]
    fn a_config_counts_where_it_says_within_the_solvers_limit() {
        assert_eq!(Config::DEFAULT.count_limit(&UpToNine), 9, "capped by max_n");
        let slow = Config::count_up_to(5, "n! permutations");
        assert_eq!(slow.count_limit(&UpToNine), 5);
        assert_eq!(slow.reason(), "n! permutations");
        let far = Config::count_up_to(14, "fast");
        assert_eq!(far.count_limit(&UpToNine), 9, "never past max_n");
        assert_eq!(Config::DEFAULT.reason(), "");
        assert_eq!(Config::default(), Config::DEFAULT);
    }

    /// A solver by brute force over all permutations, correct by
    /// construction up to its limit of 8; with `drop_last` it loses the last
    /// board of every listing, the kind of bug the suite exists to catch.
    struct Brute {
        drop_last: bool,
    }

    static BRUTE: queens_core::SolverInfo = queens_core::SolverInfo {
        id: "brute",
        seed: "none (this test)",
        idea: "every permutation of the rows, kept when core's checker accepts it",
        node: "one solution listed, plus the root",
        max_n: 8,
        limit_reason: "because n! grows too fast",
        enumerates: true,
        teaching: "A suite that passes this solver can pass a real one.",
        analysis: "",
    };

    impl Brute {
        fn boards(&self, n: usize) -> Vec<Vec<u8>> {
            let mut boards = check::brute_force_solutions(n);
            if self.drop_last {
                boards.pop();
            }
            boards
        }
    }

    impl Solver for Brute {
        fn info(&self) -> &'static queens_core::SolverInfo {
            &BRUTE
        }
        fn enumerate(
            &self,
            n: usize,
            visit: &mut queens_core::Visit<'_>,
        ) -> Result<queens_core::SearchStats, QueensError> {
            BRUTE.check_n(n)?;
            let mut stats = queens_core::SearchStats {
                nodes: 1,
                ..Default::default()
            };
            for board in self.boards(n) {
                stats.solutions += 1;
                stats.nodes += 1;
                if visit(&board).is_break() {
                    break;
                }
            }
            Ok(stats)
        }
        fn trace(
            &self,
            n: usize,
            sink: &mut dyn queens_core::trace::TraceSink,
        ) -> Result<queens_core::SearchStats, QueensError> {
            use queens_core::trace::StepKind;
            BRUTE.check_n(n)?;
            let mut stats = queens_core::SearchStats::default();
            if sink
                .step(StepKind::Note, "all permutations".into())
                .is_continue()
            {
                for board in self.boards(n) {
                    stats.solutions += 1;
                    if sink
                        .step(StepKind::Solution, format!("{board:?}").into())
                        .is_break()
                    {
                        break;
                    }
                }
            }
            Ok(stats)
        }
    }

    #[test]
    fn a_correct_solver_passes_every_check() {
        for (name, check) in ALL_CHECKS {
            let outcome =
                std::panic::catch_unwind(|| check(&Brute { drop_last: false }, &Config::DEFAULT));
            assert!(outcome.is_ok(), "{name} failed a correct solver");
        }
    }

    #[test]
    fn a_solver_that_loses_a_board_fails_the_counting_and_listing_checks() {
        let caught = |check: Check| {
            std::panic::catch_unwind(|| check(&Brute { drop_last: true }, &Config::DEFAULT))
                .is_err()
        };
        assert!(caught(counts_match_a000170));
        assert!(caught(unique_counts_match_a002562));
        assert!(caught(listed_sets_equal_brute_force));
        assert!(!caught(documents_itself), "its documents are fine");
    }

    #[test]
    fn a_limit_reason_must_go_on_from_its_limit() {
        limit_reason_follows_its_limit("x", "because n! grows too fast");
        limit_reason_follows_its_limit("x", "on a u32 mask: one bit per file");
        // "supports n <= 28 Q(29) would overflow ..." runs two sentences
        // into one.
        let run_on = std::panic::catch_unwind(|| {
            limit_reason_follows_its_limit("x", "Q(29) would overflow the u64");
        });
        assert!(run_on.is_err());
    }

    #[test]
    fn every_check_is_in_the_table_once() {
        let mut names: Vec<&str> = ALL_CHECKS.iter().map(|(name, _)| *name).collect();
        assert_eq!(names.len(), 10);
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), ALL_CHECKS.len());
    }
}
