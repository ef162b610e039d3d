//! The second question: "give me one board". Counting all boards is
//! exponential work, but one board of any size n >= 4 can be written down
//! (a construction) or reached by repairing a random one (local search),
//! so a finder answers for boards far beyond any counter: up to
//! [`MAX_FIND_N`] queens.
//!
//! - [`Finder`], [`FinderInfo`], [`Found`]: the protocol, beside
//!   [`crate::Solver`]'s.
//! - [`Placement`]: a board of any size as one `u32` per file (never an
//!   n×n grid: a board of 10^8 queens is 400 MB, its grid 10^16 squares).
//! - [`no_board_exists`]: the two sizes with no board at all.
//! - [`FirstBoard`]: any listing solver as a finder, stopped at its first
//!   board.
//! - [`check_found`]: what a caller runs on every answer before using it.

use std::ops::ControlFlow;

use crate::check::{self, Violation};
use crate::{Metric, QueensError, Solver, SolverInfo};

/// The largest board any finder here takes: a board is held as one `u32`
/// per file, 4 bytes a queen, so 10^8 queens are 400 MB.
pub const MAX_FIND_N: usize = 100_000_000;

/// Whether the n×n board has no solution at all: n = 2 and n = 3, and no
/// other n (n = 1 is one queen; every n >= 4 has a board, as the
/// construction crate writes down). On 2×2 every two squares share a row,
/// a file or a diagonal. On 3×3 the centre attacks every square, so it
/// stays empty; a queen on a corner attacks the rest of the rim but two
/// squares, which attack each other, so no three queens fit. The core's
/// tests check both by trying every board.
pub fn no_board_exists(n: usize) -> bool {
    n == 2 || n == 3
}

/// One board: `rows()[c]` is the row (0-based, bottom to top) of the queen
/// on file `c` (0-based, left to right), the convention of
/// [`crate::Solution`], in 4 bytes a file so that n may reach
/// [`MAX_FIND_N`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    rows: Vec<u32>,
}

impl Placement {
    /// Wraps a row-per-file vector. No check: [`check::check_linear`]
    /// decides whether it is a solution.
    pub fn from_rows(rows: Vec<u32>) -> Self {
        Placement { rows }
    }

    /// The board size.
    pub fn n(&self) -> usize {
        self.rows.len()
    }

    /// The row of the queen on each file.
    pub fn rows(&self) -> &[u32] {
        &self.rows
    }

    /// The rows, given back.
    pub fn into_rows(self) -> Vec<u32> {
        self.rows
    }

    /// The same board as bytes, for the helpers written for small boards
    /// (the pairwise checker, rendering, algebraic notation); `None` when a
    /// row does not fit in a byte.
    pub fn to_bytes(&self) -> Option<Vec<u8>> {
        self.rows.iter().map(|&r| u8::try_from(r).ok()).collect()
    }
}

/// A finder's answer for one n, with the work it took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// The board, or `None`: there is none ([`no_board_exists`]).
    pub board: Option<Placement>,
    /// Units of work, as the finder's [`FinderInfo::step`] defines them.
    pub steps: u64,
    /// Finder-specific figures (swaps made, restarts, ...).
    pub extra: Vec<Metric>,
}

impl Found {
    /// A board found after `steps` units of work.
    pub fn board(rows: Vec<u32>, steps: u64) -> Self {
        Found {
            board: Some(Placement::from_rows(rows)),
            ..Found::none(steps)
        }
    }

    /// The answer for n = 2 and 3, after `steps` units of work.
    pub fn none(steps: u64) -> Self {
        Found {
            board: None,
            steps,
            extra: Vec::new(),
        }
    }

    /// This answer with one more of the finder's own figures.
    pub fn with_metric(mut self, name: &str, value: u64) -> Self {
        self.extra.push(Metric {
            name: name.to_string(),
            value,
        });
        self
    }
}

/// What a finder is: the facts the harness lists and reports.
#[derive(Clone, Copy, Debug)]
pub struct FinderInfo {
    /// Stable id for the command line and records, e.g. `construction`.
    pub id: &'static str,
    /// The published document the approach comes from.
    pub seed: &'static str,
    /// The idea in one line, for `queens list`.
    pub idea: &'static str,
    /// What one unit of [`Found::steps`] is for this finder.
    pub step: &'static str,
    /// The largest board it takes.
    pub max_n: usize,
    /// Why `max_n` is the limit, phrased to follow "supports n <= N".
    pub limit_reason: &'static str,
    /// Whether the seed changes the board (a random search); a
    /// deterministic finder ignores it.
    pub seeded: bool,
    /// The teaching text: the crate's README, which is also its crate doc.
    pub teaching: &'static str,
}

impl FinderInfo {
    /// `Ok` when this finder takes an n×n board.
    pub fn check_n(&self, n: usize) -> Result<(), QueensError> {
        QueensError::check_size(self.id, self.max_n, self.limit_reason, n)
    }

    /// Whether n is a board this finder takes.
    pub fn supports(&self, n: usize) -> bool {
        self.check_n(n).is_ok()
    }
}

/// The protocol between one way of finding a board and the harness.
/// Object-safe: the harness keeps every finder in one registry of
/// `&'static dyn Finder`.
pub trait Finder: Send + Sync {
    /// What the finder is: id, seed, idea, limits, teaching text.
    fn info(&self) -> &FinderInfo;

    /// One board of the n×n board, or the answer that there is none. The
    /// same `seed` gives the same board and the same work on every run; a
    /// deterministic finder ignores it.
    fn find(&self, n: usize, seed: u64) -> Result<Found, QueensError>;

    /// A line about how this finder goes about this n (the construction:
    /// which case of n mod 6 and why it holds), or `None`.
    fn about(&self, n: usize) -> Option<String> {
        let _ = n;
        None
    }

    /// An upper bound on the heap bytes one [`Finder::find`] of the n×n
    /// board holds at once, the board it returns included: what `queens
    /// find` checks against the memory budget before it starts (see
    /// [`crate::Solver::peak_bytes`], the same declaration for counts).
    /// A finder holds a few words per file, so every finder declares its
    /// own; the harness's tests check it against the measured peak heap.
    fn peak_bytes(&self, n: usize) -> u64;
}

/// A listing solver used as a finder: its search stopped at the first
/// board it lists, which is what `queens solve N --limit 1` prints. An
/// adapter, not a copy: the search is the solver's own, through
/// [`Solver::enumerate`], and its steps are the solver's nodes up to that
/// board.
pub struct FirstBoard {
    solver: &'static dyn Solver,
    info: FinderInfo,
}

impl FirstBoard {
    /// The solver `solver`, described by `info` (its own
    /// [`SolverInfo`], passed as well because a trait method cannot be
    /// called in a `static`; the harness's tests check they are the same).
    pub const fn new(solver: &'static dyn Solver, info: &'static SolverInfo) -> Self {
        FirstBoard {
            solver,
            info: FinderInfo {
                id: info.id,
                seed: info.seed,
                idea: info.idea,
                step: info.node,
                max_n: info.max_n,
                limit_reason: info.limit_reason,
                seeded: false,
                teaching: info.teaching,
            },
        }
    }
}

impl Finder for FirstBoard {
    fn info(&self) -> &FinderInfo {
        &self.info
    }

    /// The solver's listing search, and the first board copied out of it
    /// (one `u32` per file).
    fn peak_bytes(&self, n: usize) -> u64 {
        self.solver
            .peak_bytes(n, crate::memory::Question::Enumerate)
            .saturating_add(4 * n as u64)
    }

    fn find(&self, n: usize, _seed: u64) -> Result<Found, QueensError> {
        self.info.check_n(n)?;
        let mut first = None;
        let stats = self.solver.enumerate(n, &mut |rows| {
            first = Some(rows.iter().map(|&r| u32::from(r)).collect::<Vec<u32>>());
            ControlFlow::Break(())
        })?;
        // A search that ran to its end without a board has tried them all.
        Ok(match first {
            Some(rows) => Found::board(rows, stats.nodes),
            None => Found::none(stats.nodes),
        })
    }
}

/// Why an answer cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WrongAnswer {
    /// A board of another size than the one asked for.
    #[error("asked for n = {n}, returned a board of {}", crate::counted(*got, "file", "files"))]
    WrongSize {
        /// The size asked for.
        n: usize,
        /// The size returned.
        got: usize,
    },
    /// A board on which two queens attack each other.
    #[error("not a solution: {0}")]
    Attack(Violation),
    /// "No board" for an n that has one.
    #[error("said no board exists for n = {n}, which has one")]
    MissedBoard {
        /// The size asked for.
        n: usize,
    },
    /// A board for n = 2 or 3, which have none.
    #[error("returned a board for n = {n}, which has none")]
    ImpossibleBoard {
        /// The size asked for.
        n: usize,
    },
}

/// Checks a finder's answer for n with the linear checker
/// ([`check::check_linear`]): a board of n files with no two queens
/// attacking, or "none" exactly when [`no_board_exists`]. Every board a
/// finder returns goes through this before it is printed or timed.
pub fn check_found(n: usize, found: &Found) -> Result<(), WrongAnswer> {
    match &found.board {
        None if no_board_exists(n) => Ok(()),
        None => Err(WrongAnswer::MissedBoard { n }),
        Some(_) if no_board_exists(n) => Err(WrongAnswer::ImpossibleBoard { n }),
        Some(board) if board.n() != n => Err(WrongAnswer::WrongSize { n, got: board.n() }),
        Some(board) => check::check_linear(board.rows()).map_err(WrongAnswer::Attack),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_two_and_three_have_no_board() {
        // Brute force over every permutation agrees for the small sizes.
        for n in 1..=8 {
            let none = check::brute_force_solutions(n).is_empty();
            assert_eq!(no_board_exists(n), none, "n = {n}");
        }
    }

    #[test]
    fn the_answer_check_refuses_each_wrong_kind() {
        let good = Found::board(vec![1, 3, 0, 2], 1);
        assert_eq!(check_found(4, &good), Ok(()));
        assert_eq!(check_found(2, &Found::none(0)), Ok(()));
        assert_eq!(
            check_found(5, &good),
            Err(WrongAnswer::WrongSize { n: 5, got: 4 })
        );
        assert_eq!(
            check_found(4, &Found::none(0)),
            Err(WrongAnswer::MissedBoard { n: 4 })
        );
        assert_eq!(
            check_found(3, &Found::board(vec![0, 2, 1], 0)),
            Err(WrongAnswer::ImpossibleBoard { n: 3 })
        );
        let attacked = check_found(4, &Found::board(vec![0, 1, 2, 3], 0));
        assert!(matches!(attacked, Err(WrongAnswer::Attack(_))));
    }

    #[test]
    fn placements_narrow_to_bytes_only_when_they_fit() {
        assert_eq!(
            Placement::from_rows(vec![1, 3, 0, 2]).to_bytes(),
            Some(vec![1, 3, 0, 2])
        );
        assert_eq!(Placement::from_rows(vec![256, 0]).to_bytes(), None);
    }
}
