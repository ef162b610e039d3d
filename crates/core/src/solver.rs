//! The one protocol every approach implements, and the types it speaks.
//!
//! The trait is object-safe so the harness can keep every solver in one
//! registry of `&'static dyn Solver`. The cost of dynamic dispatch is paid
//! once per call (and once per *solution* when enumerating), never per node:
//! each solver's search is generic and monomorphised behind these methods.

use std::ops::ControlFlow;

use serde::{Deserialize, Serialize};

use crate::memory::{Question, SMALL_PEAK_BYTES};
use crate::split::WorkSplit;
use crate::trace::{Observer, Profile, Silent, TraceSink, Tracing};
use crate::{Accelerator, QueensError, symmetry};

/// What a solver is: the facts the harness lists, checks and reports.
#[derive(Clone, Copy, Debug)]
pub struct SolverInfo {
    /// Stable id used on the command line, in JSON records and in tables,
    /// e.g. `three-mask`.
    pub id: &'static str,
    /// The published document the approach comes from (its title, author
    /// or site, year and address), or "none (our own)" and what it builds on.
    pub seed: &'static str,
    /// The idea in one line, for `queens list`.
    pub idea: &'static str,
    /// What one unit of the `nodes` statistic is for this solver.
    pub node: &'static str,
    /// The largest board the representation can hold.
    pub max_n: usize,
    /// Why `max_n` is the limit, phrased to follow "supports n <= N", e.g.
    /// "on a u64 board: one bit per square".
    pub limit_reason: &'static str,
    /// Whether `enumerate` lists boards. Count-only engines set this to
    /// `false` and `queens solve` refuses them with a clear message.
    pub enumerates: bool,
    /// The teaching text: the crate's README, which is also its crate doc.
    pub teaching: &'static str,
    /// A short paragraph explaining this solver's measured numbers, rendered
    /// into the comparison report beside the data. Empty until written.
    pub analysis: &'static str,
}

impl SolverInfo {
    /// `Ok` when an n×n board is within this solver's representation.
    pub fn check_n(&self, n: usize) -> Result<(), QueensError> {
        QueensError::check_size(self.id, self.max_n, self.limit_reason, n)
    }

    /// Whether n is a board this solver takes (1 <= n <= max_n).
    pub fn supports(&self, n: usize) -> bool {
        self.check_n(n).is_ok()
    }
}

/// A named statistic beyond solutions and nodes, e.g. row-fold's largest
/// level in bytes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Metric {
    /// What is measured, in snake_case (`peak_level_bytes`).
    pub name: String,
    /// Its value.
    pub value: u64,
}

/// What one search found and how much work it did.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchStats {
    /// Solutions found (all of them, not classes).
    pub solutions: u64,
    /// Symmetry classes, when they were asked for.
    pub unique: Option<u64>,
    /// Units of work, as the solver's `SolverInfo::node` defines them.
    pub nodes: u64,
    /// Solver-specific figures (memory high-water marks, secondary counters).
    pub extra: Vec<Metric>,
}

impl SearchStats {
    /// A rank-by-rank backtracker's statistics, counted as the Forth
    /// program counts them: `positions` calls on boards not yet full (the
    /// root included) plus the `solutions` (full boards) are its nodes, and
    /// `positions_tried` is kept as the program prints it. Every search of
    /// that tree (three-mask, textbook) reports the same figures.
    pub fn of_backtracking(positions: u64, solutions: u64) -> Self {
        SearchStats {
            solutions,
            unique: None,
            nodes: positions + solutions,
            extra: Vec::new(),
        }
        .with_metric("positions_tried", positions)
    }

    /// The solver's own statistic `name`, if it reported one.
    pub fn metric(&self, name: &str) -> Option<u64> {
        self.extra.iter().find(|m| m.name == name).map(|m| m.value)
    }

    /// These statistics with one more of the solver's own.
    pub fn with_metric(mut self, name: &str, value: u64) -> Self {
        self.extra.push(Metric {
            name: name.to_string(),
            value,
        });
        self
    }
}

/// How to count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CountOptions {
    /// Also count classes up to rotation and reflection.
    pub unique: bool,
    /// Worker threads for solvers that can split their work; 0 means one per
    /// core. Single-threaded solvers ignore it.
    pub threads: usize,
}

impl Default for CountOptions {
    fn default() -> Self {
        CountOptions {
            unique: false,
            threads: 1,
        }
    }
}

/// Receives each solution (row of the queen in each column) and says whether
/// to go on.
pub type Visit<'a> = dyn FnMut(&[u8]) -> ControlFlow<()> + 'a;

/// The protocol between one approach and the harness.
pub trait Solver: Send + Sync {
    /// What the solver is: id, seed, idea, limits, teaching text.
    fn info(&self) -> &'static SolverInfo;

    /// Calls `visit` with every solution of the n×n board, in the solver's own
    /// order, until `visit` returns `Break`. The statistics cover the work
    /// done up to that point. Count-only solvers return
    /// [`QueensError::CannotEnumerate`].
    fn enumerate(&self, n: usize, visit: &mut Visit<'_>) -> Result<SearchStats, QueensError>;

    /// Counts the solutions (and classes, if asked) of the n×n board. The
    /// default enumerates; a solver whose algorithm counts faster than it lists
    /// overrides this.
    fn count(&self, n: usize, options: &CountOptions) -> Result<SearchStats, QueensError> {
        count_by_enumerating(self, n, options)
    }

    /// Runs the search with tracing on, sending each step, in the solver's own
    /// representation, to `sink` until the search ends or the sink says stop.
    fn trace(&self, n: usize, sink: &mut dyn TraceSink) -> Result<SearchStats, QueensError>;

    /// The solver's count as independent work units, if it has them: the
    /// harness then runs them on threads, in shards and with checkpoints.
    fn work_split(&self) -> Option<&dyn WorkSplit> {
        None
    }

    /// The device the solver counts on: `Ok(None)` for the host's CPU
    /// cores (every solver but a GPU engine), `Ok(Some(device))` for the
    /// accelerator it found, or [`QueensError::Unavailable`] with the reason
    /// when it needs one this machine does not offer. The harness lists an
    /// unavailable solver as such and leaves it out of `verify` and
    /// `compare`; records name the device of every timing made on one.
    fn accelerator(&self) -> Result<Option<Accelerator>, QueensError> {
        Ok(None)
    }

    /// Whether a board (a solution, rows by file) is the one its symmetry
    /// class is shown by: what `solve --unique` keeps. The default is core's
    /// canonical form ([`crate::symmetry::is_canonical`]); a solver whose
    /// source chooses its representatives its own way says so here, so that
    /// a learner sees the boards its document prints.
    fn represents_class(&self, rows: &[u8]) -> bool {
        crate::symmetry::is_canonical(rows)
    }

    /// An upper bound on the heap bytes one search of the n×n board holds
    /// at once to answer `question` (on one thread: a split count on T
    /// threads holds T of them), known before the search starts so that a
    /// command can refuse what the machine cannot hold. The default,
    /// [`SMALL_PEAK_BYTES`], is for a search that lives on the stack; a
    /// solver whose memory grows with n declares its own.
    fn peak_bytes(&self, n: usize, question: Question) -> u64 {
        let _ = (n, question);
        SMALL_PEAK_BYTES
    }

    /// What a search holds once whatever its threads, beside
    /// [`Solver::peak_bytes`] per thread: a split count's plan and the
    /// lists a run keeps of its units. So T threads hold at most this plus
    /// T times `peak_bytes`. The default, 0, is for a solver whose threads
    /// share nothing large.
    fn shared_bytes(&self, n: usize, question: Question) -> u64 {
        let _ = (n, question);
        0
    }

    /// The safe boards its search reaches with 0, 1, ..., n queens, for a
    /// solver that walks the tree of safe partial boards (see
    /// [`crate::trace::Profile`]); `None` for one whose search is something
    /// else (permutations, units, halves).
    fn tree_profile(&self, n: usize) -> Result<Option<Vec<u64>>, QueensError> {
        self.info().check_n(n)?;
        Ok(None)
    }
}

/// A solver whose whole search is one routine, generic over what happens to a
/// solution and whether steps are traced. Implementing it gives the [`Solver`]
/// protocol: `enumerate` runs the search with [`Boards`] and [`Silent`],
/// `count` with [`CountOnly`] and [`Silent`] (classes by canonical form of
/// each listed board), `trace` with [`CountOnly`] and [`Tracing`]. Solvers
/// that count classes their own way, split their work or cannot list boards
/// implement [`Solver`] directly instead.
pub trait GenericSearch: Send + Sync {
    /// The solver's description (see [`Solver::info`]).
    const INFO: &'static SolverInfo;

    /// The whole search of the n×n board (n already checked).
    fn search<S: SolutionSink, O: Observer>(
        &self,
        n: usize,
        sink: &mut S,
        observer: &mut O,
    ) -> SearchStats;

    /// See [`Solver::peak_bytes`].
    fn peak_bytes(&self, n: usize, question: Question) -> u64 {
        let _ = (n, question);
        SMALL_PEAK_BYTES
    }
}

impl<T: GenericSearch> Solver for T {
    fn info(&self) -> &'static SolverInfo {
        T::INFO
    }

    fn enumerate(&self, n: usize, visit: &mut Visit<'_>) -> Result<SearchStats, QueensError> {
        T::INFO.check_n(n)?;
        Ok(self.search(n, &mut Boards(visit), &mut Silent))
    }

    fn count(&self, n: usize, options: &CountOptions) -> Result<SearchStats, QueensError> {
        T::INFO.check_n(n)?;
        if options.unique {
            // Classes need the boards: canonicalise each solution.
            return count_by_enumerating(self, n, options);
        }
        Ok(self.search(n, &mut CountOnly, &mut Silent))
    }

    fn trace(&self, n: usize, sink: &mut dyn TraceSink) -> Result<SearchStats, QueensError> {
        T::INFO.check_n(n)?;
        Ok(self.search(n, &mut CountOnly, &mut Tracing::new(sink)))
    }

    fn peak_bytes(&self, n: usize, question: Question) -> u64 {
        GenericSearch::peak_bytes(self, n, question)
    }

    fn tree_profile(&self, n: usize) -> Result<Option<Vec<u64>>, QueensError> {
        T::INFO.check_n(n)?;
        let mut profile = Profile::default();
        self.search(n, &mut CountOnly, &mut profile);
        Ok(profile.into_levels(n))
    }
}

/// Counting through `enumerate`: solutions as they come, classes by counting
/// the canonical members (see [`symmetry::is_canonical`]).
pub fn count_by_enumerating<S: Solver + ?Sized>(
    solver: &S,
    n: usize,
    options: &CountOptions,
) -> Result<SearchStats, QueensError> {
    let mut canonical = 0u64;
    let mut stats = solver.enumerate(n, &mut |rows| {
        if options.unique && symmetry::is_canonical(rows) {
            canonical += 1;
        }
        ControlFlow::Continue(())
    })?;
    if options.unique {
        stats.unique = Some(canonical);
    }
    Ok(stats)
}

/// Every board the solver lists for n, in the solver's order. Holds them all
/// in memory: meant for tests and cross-checks on small boards.
pub fn list_boards<S: Solver + ?Sized>(solver: &S, n: usize) -> Result<Vec<Vec<u8>>, QueensError> {
    let mut boards = Vec::new();
    solver.enumerate(n, &mut |rows| {
        boards.push(rows.to_vec());
        ControlFlow::Continue(())
    })?;
    Ok(boards)
}

/// The [`GenericSearch`] glue, in one line, for a solver whose search is a
/// value made for one board, run once and then read:
/// `SEARCH::new(n).run(sink, observer).stats()` (three-mask, textbook,
/// base-counting, row-fold). Write the impl by hand for any other shape.
///
/// ```ignore
/// queens_core::generic_search!(ThreeMask, &INFO, search::Search);
/// ```
#[macro_export]
macro_rules! generic_search {
    // A search whose memory grows with n names the function that declares
    // it (see `Solver::peak_bytes`): `fn(usize, Question) -> u64`.
    ($solver:ty, $info:expr, $search:ty $(, peak = $peak:path)?) => {
        impl $crate::GenericSearch for $solver {
            const INFO: &'static $crate::SolverInfo = $info;

            fn search<S: $crate::SolutionSink, O: $crate::trace::Observer>(
                &self,
                n: usize,
                sink: &mut S,
                observer: &mut O,
            ) -> $crate::SearchStats {
                <$search>::new(n).run(sink, observer).stats()
            }

            $(
                fn peak_bytes(&self, n: usize, question: $crate::memory::Question) -> u64 {
                    $peak(n, question)
                }
            )?
        }
    };
}

/// Adapts a solver's generic search to "visit boards" or "only count", so
/// that one search routine serves `enumerate` and `count` without paying for
/// board bookkeeping it does not need.
pub trait SolutionSink {
    /// `false` lets the search skip recording where each queen went.
    const WANTS_BOARD: bool;
    /// One solution found (`rows` is empty when `WANTS_BOARD` is false);
    /// `Break` ends the search.
    fn solution(&mut self, rows: &[u8]) -> ControlFlow<()>;
}

/// Counts nothing itself (the search keeps its own tally) and never stops.
#[derive(Clone, Copy, Debug, Default)]
pub struct CountOnly;

impl SolutionSink for CountOnly {
    const WANTS_BOARD: bool = false;
    #[inline(always)]
    fn solution(&mut self, _: &[u8]) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
}

/// Hands each board to a `Visit` callback.
pub struct Boards<'v, 'a>(pub &'v mut Visit<'a>);

impl SolutionSink for Boards<'_, '_> {
    const WANTS_BOARD: bool = true;
    #[inline]
    fn solution(&mut self, rows: &[u8]) -> ControlFlow<()> {
        (self.0)(rows)
    }
}
