#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

mod search;

pub use search::Search;

use queens_core::QueensError;
use queens_core::find::{Finder, FinderInfo, Found};

/// The largest board fail-first takes: every n up to it is known to end
/// within seconds (the crate's ignored test runs them all), while the time
/// of a backtracking search has a heavy tail: an n that needs far more
/// steps than its neighbours can come at any size.
pub const MAX_N: usize = 1_000;

/// Fail-first backtracking as a finder.
#[derive(Clone, Copy, Debug, Default)]
pub struct FailFirst;

/// The registry's instance.
pub static FAIL_FIRST: FailFirst = FailFirst;

/// What fail-first is.
pub static INFO: FinderInfo = FinderInfo {
    id: "fail-first",
    seed: "J. R. Bitner and E. M. Reingold, Backtrack programming techniques, Communications of the ACM 18(11), 1975, https://doi.org/10.1145/361219.361224; H. S. Stone and J. M. Stone, Efficient search techniques: an empirical study of the N-Queens problem, IBM Journal of Research and Development 31(4), 1987, https://doi.org/10.1147/rd.314.0464",
    idea: "backtracking that fills next the file with the fewest free squares",
    step: "a queen placed (a node of the search tree, the root not counted)",
    max_n: MAX_N,
    limit_reason: "where every n is known to end in seconds (backtracking's time has a heavy tail)",
    seeded: false,
    teaching: include_str!("../README.md"),
};

impl Finder for FailFirst {
    fn info(&self) -> &FinderInfo {
        &INFO
    }

    fn peak_bytes(&self, n: usize) -> u64 {
        search::peak_bytes(n)
    }

    fn find(&self, n: usize, _seed: u64) -> Result<Found, QueensError> {
        INFO.check_n(n)?;
        let (rows, nodes) = Search::new(n).run();
        Ok(match rows {
            Some(rows) => Found::board(rows, nodes),
            None => Found::none(nodes),
        })
    }
}
