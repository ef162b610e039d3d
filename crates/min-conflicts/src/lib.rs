#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

mod diagonals;
mod prefetch;
mod random;
mod search;

pub use random::SplitMix64;
pub use search::{Observe, Outcome, Search, Swap};

use queens_core::QueensError;
use queens_core::find::{Finder, FinderInfo, Found, MAX_FIND_N, no_board_exists};

/// Min-conflicts local search as a finder.
#[derive(Clone, Copy, Debug, Default)]
pub struct MinConflicts;

/// The registry's instance.
pub static MIN_CONFLICTS: MinConflicts = MinConflicts;

/// What min-conflicts is.
pub static INFO: FinderInfo = FinderInfo {
    id: "min-conflicts",
    seed: "R. Sosič and J. Gu, Efficient Local Search with Conflict Minimization: A Case Study of the n-Queens Problem, IEEE Transactions on Knowledge and Data Engineering 6(5), 1994, https://doi.org/10.1109/69.317698; after S. Minton, M. D. Johnston, A. B. Philips and P. Laird, Minimizing conflicts, Artificial Intelligence 58, 1992, https://doi.org/10.1016/0004-3702(92)90007-K",
    idea: "a permutation placed greedily, then swaps of attacked queens that lower the conflicts",
    step: "one swap tried: a queen placed during the greedy start, or a swap weighed during the repair",
    max_n: MAX_FIND_N,
    limit_reason: "held as one u32 per file (400 MB at the limit)",
    seeded: true,
    teaching: include_str!("../README.md"),
};

impl Finder for MinConflicts {
    fn info(&self) -> &FinderInfo {
        &INFO
    }

    /// The search's working set (see `search::Search`): its permutation
    /// (one `u32` per file), the queens on each of the 2n - 1 diagonals
    /// of each direction (a `u32` each), and the repair's list of attacked
    /// files (at most n `usize`s, a vector grown by doubling: up to twice
    /// that): 36 bytes per file at most, about 20 held in practice. The
    /// board returned is the permutation itself; its metrics are a few
    /// bytes.
    fn peak_bytes(&self, n: usize) -> u64 {
        const ANSWER_BYTES: u64 = 4 << 10;
        let n = n as u64;
        4 * n + 2 * 4 * (2 * n) + 2 * 8 * n + ANSWER_BYTES
    }

    fn find(&self, n: usize, seed: u64) -> Result<Found, QueensError> {
        INFO.check_n(n)?;
        if no_board_exists(n) {
            // Local search cannot prove that nothing exists; the two sizes
            // are settled once, in core (and its tests try every board).
            return Ok(Found::none(0));
        }
        let outcome = Search::new(n, seed).run();
        Ok(Found::board(outcome.rows, outcome.steps)
            .with_metric("swaps", outcome.swaps)
            .with_metric("conflicts_after_start", outcome.conflicts_after_start)
            .with_metric("restarts", outcome.restarts))
    }
}
