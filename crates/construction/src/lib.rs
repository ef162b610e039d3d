#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

mod case;

pub use case::{Case, write_ranks};

use queens_core::QueensError;
use queens_core::find::{Finder, FinderInfo, Found, MAX_FIND_N};

/// The construction as a finder.
#[derive(Clone, Copy, Debug, Default)]
pub struct Construction;

/// The registry's instance.
pub static CONSTRUCTION: Construction = Construction;

/// What the construction is.
pub static INFO: FinderInfo = FinderInfo {
    id: "construction",
    seed: "E. J. Hoffman, J. C. Loessi and R. C. Moore, Constructions for the Solution of the m Queens Problem, Mathematics Magazine 42(2), 1969, https://doi.org/10.2307/2689192; B. Bernhardsson, Explicit solutions to the N-queens problem for all N, ACM SIGART Bulletin 2(2), 1991, https://doi.org/10.1145/122319.122322",
    idea: "no search: even ranks, then odd ones, with a fix-up by n mod 6",
    step: "one queen written (n per board)",
    max_n: MAX_FIND_N,
    limit_reason: "held as one u32 per file (400 MB at the limit)",
    seeded: false,
    teaching: include_str!("../README.md"),
};

/// What a found board's answer holds beside the board: a few named metrics.
const ANSWER_BYTES: u64 = 4 << 10;

impl Finder for Construction {
    fn info(&self) -> &FinderInfo {
        &INFO
    }

    fn find(&self, n: usize, _seed: u64) -> Result<Found, QueensError> {
        INFO.check_n(n)?;
        let case = Case::of(n);
        if case == Case::NoBoard {
            return Ok(Found::none(0));
        }
        let mut rows = Vec::with_capacity(n);
        write_ranks(n, |rank| rows.push(rank - 1));
        Ok(Found::board(rows, n as u64))
    }

    fn about(&self, n: usize) -> Option<String> {
        Some(Case::of(n).explain(n))
    }

    /// The board it writes (one `u32` per file, allocated once at its
    /// size), and room for the few bytes of its answer's other fields.
    fn peak_bytes(&self, n: usize) -> u64 {
        4 * n as u64 + ANSWER_BYTES
    }
}
