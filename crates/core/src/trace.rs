//! Step-by-step tracing for teaching, at zero cost when it is off.
//!
//! Every solver writes its search once, generic over an [`Observer`]. The
//! harness runs it with [`Silent`] to count and time, and with [`Tracing`] to
//! show a learner the first steps. `Silent::ENABLED` is a `false` constant,
//! so a guard `if O::ENABLED { ... }` and the closure that would format the
//! step vanish from the silent instance at compile time: the traced and the
//! timed code are the same source, and the timed code pays nothing for it.
//!
//! A step's text is written in the solver's own representation (three masks
//! in binary, a base-(n+1) odometer, a level of partial boards, ...): that is
//! the point of tracing: seeing how *this* idea thinks.

use std::fmt;
use std::ops::ControlFlow;

/// What happened in one step of a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StepKind {
    /// A queen was put on the board.
    Place,
    /// A candidate was looked at and refused (the text says why).
    Reject,
    /// The search returned from a dead end or a finished subtree.
    Backtrack,
    /// Work was skipped without being looked at (a pruned range, a symmetry).
    Skip,
    /// A complete solution was found.
    Solution,
    /// A whole level/batch was produced (breadth-first solvers).
    Level,
    /// Anything else worth saying: the starting state, a summary.
    Note,
}

impl StepKind {
    /// A fixed-width lower-case tag for printing.
    pub fn tag(self) -> &'static str {
        match self {
            StepKind::Place => "place",
            StepKind::Reject => "reject",
            StepKind::Backtrack => "back",
            StepKind::Skip => "skip",
            StepKind::Solution => "SOLUTION",
            StepKind::Level => "level",
            StepKind::Note => "note",
        }
    }
}

impl fmt::Display for StepKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.tag())
    }
}

/// Where traced steps go. Returning `Break` asks the search to stop (the
/// sink has seen enough), which the solver must honour promptly.
pub trait TraceSink {
    /// One step of the search, in the solver's own words.
    fn step(&mut self, kind: StepKind, text: &str) -> ControlFlow<()>;
}

/// The compile-time switch between a silent and a traced search.
pub trait Observer {
    /// `false` means every call is dead code: guard with `if O::ENABLED`.
    const ENABLED: bool;
    /// `true` only when the safe boards of the tree are being counted by
    /// depth ([`Profile`]): guard `safe_boards` calls with `if O::PROFILES`,
    /// so that counting and timing runs pay nothing for them.
    const PROFILES: bool = false;
    /// Reports one step. `describe` runs only when tracing is on.
    fn step(&mut self, kind: StepKind, describe: impl FnOnce() -> String) -> ControlFlow<()>;
    /// `count` safe boards with `queens` queens were reached: the empty
    /// board (0 queens), every safe partial board, every solution (n).
    #[inline(always)]
    fn safe_boards(&mut self, queens: usize, count: u64) {
        let _ = (queens, count);
    }
}

/// The observer that measures a search's tree: how many safe boards it
/// reaches with 0, 1, ..., n queens. Solvers that walk the same tree give
/// the same profile, whatever a node costs them (`queens tree`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Profile {
    /// `by_queens[k]`: safe boards reached with k queens.
    pub by_queens: Vec<u64>,
}

impl Profile {
    /// The counts for 0..=n queens (depths no board reached are 0), or
    /// `None` if the search reported no safe board at all: it walks some
    /// other tree.
    pub fn into_levels(mut self, n: usize) -> Option<Vec<u64>> {
        if self.by_queens.is_empty() {
            return None;
        }
        self.by_queens.resize(n + 1, 0);
        Some(self.by_queens)
    }
}

impl Observer for Profile {
    const ENABLED: bool = false;
    const PROFILES: bool = true;
    #[inline(always)]
    fn step(&mut self, _: StepKind, _: impl FnOnce() -> String) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
    fn safe_boards(&mut self, queens: usize, count: u64) {
        if self.by_queens.len() <= queens {
            self.by_queens.resize(queens + 1, 0);
        }
        self.by_queens[queens] += count;
    }
}

/// The observer of timed and counted runs: does nothing, costs nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct Silent;

impl Observer for Silent {
    const ENABLED: bool = false;
    #[inline(always)]
    fn step(&mut self, _: StepKind, _: impl FnOnce() -> String) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
}

/// The observer of `queens trace`: formats each step and hands it to a sink.
pub struct Tracing<'a> {
    sink: &'a mut dyn TraceSink,
}

impl<'a> Tracing<'a> {
    /// An observer that forwards every step to `sink`.
    pub fn new(sink: &'a mut dyn TraceSink) -> Self {
        Tracing { sink }
    }
}

impl Observer for Tracing<'_> {
    const ENABLED: bool = true;
    fn step(&mut self, kind: StepKind, describe: impl FnOnce() -> String) -> ControlFlow<()> {
        self.sink.step(kind, &describe())
    }
}

/// A sink that keeps the first `limit` steps and then stops the search.
#[derive(Clone, Debug)]
pub struct TraceRecorder {
    limit: usize,
    steps: Vec<(StepKind, String)>,
    stopped_early: bool,
}

impl TraceRecorder {
    /// Keeps at most `limit` steps, then asks the search to stop.
    pub fn new(limit: usize) -> Self {
        TraceRecorder {
            limit,
            steps: Vec::new(),
            stopped_early: false,
        }
    }

    /// The steps kept, in order.
    pub fn steps(&self) -> &[(StepKind, String)] {
        &self.steps
    }

    /// True when the search was cut off at the limit (more steps existed).
    pub fn stopped_early(&self) -> bool {
        self.stopped_early
    }
}

impl TraceSink for TraceRecorder {
    fn step(&mut self, kind: StepKind, text: &str) -> ControlFlow<()> {
        if self.steps.len() >= self.limit {
            self.stopped_early = true;
            return ControlFlow::Break(());
        }
        self.steps.push((kind, text.to_string()));
        ControlFlow::Continue(())
    }
}

/// Formats a mask of the low `width` bits in binary, most significant bit
/// first, so that bit i (file i) appears i places from the right.
pub fn bits(mask: u128, width: usize) -> String {
    (0..width)
        .rev()
        .map(|bit| if mask >> bit & 1 == 1 { '1' } else { '0' })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recorder_stops_the_search_after_its_limit() {
        let mut recorder = TraceRecorder::new(2);
        let mut observer = Tracing::new(&mut recorder);
        assert!(observer.step(StepKind::Place, || "a".into()).is_continue());
        assert!(observer.step(StepKind::Place, || "b".into()).is_continue());
        assert!(observer.step(StepKind::Place, || "c".into()).is_break());
        assert_eq!(recorder.steps().len(), 2);
        assert!(recorder.stopped_early());
    }

    #[test]
    fn silent_never_formats() {
        let mut observer = Silent;
        let flow = observer.step(StepKind::Note, || unreachable!("formatted while silent"));
        assert!(flow.is_continue());
    }

    #[test]
    fn bits_prints_high_files_on_the_left() {
        assert_eq!(bits(0b0010_0011, 8), "00100011");
        assert_eq!(bits(1, 3), "001");
    }
}
