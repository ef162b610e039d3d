#![doc = include_str!("../README.md")]

mod grid;
mod search;
pub mod symmetry;
mod threats;
mod word;

use std::marker::PhantomData;

use queens_core::trace::{Profile, Silent, TraceSink, Tracing};
use queens_core::{
    Boards, CountOnly, CountOptions, QueensError, SearchStats, Solver, SolverInfo, Visit,
};

pub use search::{ClassCounter, MoveSink, Search};
pub use word::Word;

/// The threat-mask solver on a board held in one `W`.
pub struct ThreatMask<W>(PhantomData<fn() -> W>);

/// The document's board: one `u64`, so n <= 8.
pub static THREAT_MASK: ThreatMask<u64> = ThreatMask(PhantomData);
/// The same search on a `u128`, so n <= 11: where the representation stops.
pub static THREAT_MASK_U128: ThreatMask<u128> = ThreatMask(PhantomData);

/// A word the solver is registered with: its harness facts.
pub trait BoardWord: Word {
    const INFO: &'static SolverInfo;
}

/// The facts both registrations share; only the id and the limit differ.
const fn info_for(id: &'static str, max_n: usize, limit_reason: &'static str) -> SolverInfo {
    SolverInfo {
        id,
        seed: "Haskell Solution to the Eight Queens Problem, Brian Shourd's blog, 2014: http://brianshourd.com/posts/2014-10-12-8-queens.html",
        idea: "the board as one machine word; AND in each queen's precomputed threat mask, read a row's open squares from the word",
        node: "a queen placed on an open square (one `doMove`: a threat mask ANDed into the board)",
        max_n,
        limit_reason,
        enumerates: true,
        teaching: include_str!("../README.md"),
        analysis: include_str!("../ANALYSIS.md"),
    }
}

impl BoardWord for u64 {
    const INFO: &'static SolverInfo = &info_for(
        "threat-mask",
        <u64 as Word>::MAX_N,
        "on a u64 board: one bit per square",
    );
}

impl BoardWord for u128 {
    const INFO: &'static SolverInfo = &info_for(
        "threat-mask-u128",
        <u128 as Word>::MAX_N,
        "on a u128 board: one bit per square",
    );
}

impl<W: BoardWord> Solver for ThreatMask<W> {
    fn info(&self) -> &'static SolverInfo {
        W::INFO
    }

    fn enumerate(&self, n: usize, visit: &mut Visit<'_>) -> Result<SearchStats, QueensError> {
        W::INFO.check_n(n)?;
        Ok(Search::<W>::new(n)
            .run(&mut Boards(visit), &mut Silent)
            .stats())
    }

    fn count(&self, n: usize, options: &CountOptions) -> Result<SearchStats, QueensError> {
        W::INFO.check_n(n)?;
        if options.unique {
            // The document's deduplication: canonical move masks.
            let mut classes = ClassCounter::new(n);
            let mut stats = Search::<W>::new(n).run(&mut classes, &mut Silent).stats();
            stats.unique = Some(classes.classes);
            return Ok(stats);
        }
        Ok(Search::<W>::new(n).run(&mut CountOnly, &mut Silent).stats())
    }

    fn trace(&self, n: usize, sink: &mut dyn TraceSink) -> Result<SearchStats, QueensError> {
        W::INFO.check_n(n)?;
        Ok(Search::<W>::new(n)
            .run(&mut CountOnly, &mut Tracing::new(sink))
            .stats())
    }

    /// The document's representatives: the board whose move mask is the
    /// smallest of its eight images (`canonical`), not core's form.
    fn represents_class(&self, rows: &[u8]) -> bool {
        let n = rows.len();
        symmetry::represents_its_class(symmetry::move_mask_of::<W>(rows), n)
    }

    fn tree_profile(&self, n: usize) -> Result<Option<Vec<u64>>, QueensError> {
        W::INFO.check_n(n)?;
        let mut profile = Profile::default();
        Search::<W>::new(n).run(&mut CountOnly, &mut profile);
        Ok(profile.into_levels(n))
    }
}
