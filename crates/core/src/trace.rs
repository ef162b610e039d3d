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
//! the point of tracing: seeing how *this* idea thinks. Beside the text a
//! step carries the same state as data ([`Detail`]): the queens on the board,
//! the squares the solver's state marks taken, the solver's own variables by
//! name, and its node counter, so that a program (`queens trace --format
//! json`, the report's page) can draw the board the words describe.
//!
//! One convention holds in every solver's trace ([`CONVENTION`]): files are
//! written a first, left to right, as on the board; in every mask a 1 is a
//! free file, square or diagonal and a 0 a taken or attacked one; a
//! *rising* diagonal runs like a1-h8 (file − rank constant), a *falling* one
//! like a8-h1 (file + rank constant).

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
    /// A complete solution was found.
    Solution,
    /// A whole level/batch was produced (breadth-first solvers).
    Level,
    /// Anything else worth saying: the starting state, a summary.
    Note,
}

impl StepKind {
    /// The event's name in a JSON trace: the tag, in lower case.
    pub fn event(self) -> &'static str {
        match self {
            StepKind::Solution => "solution",
            other => other.tag(),
        }
    }

    /// A fixed-width lower-case tag for printing.
    pub fn tag(self) -> &'static str {
        match self {
            StepKind::Place => "place",
            StepKind::Reject => "reject",
            StepKind::Backtrack => "back",
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

/// The one line every trace states under its header: how masks are written
/// and what their bits mean, the same for every solver.
pub const CONVENTION: &str = "masks: file a first, left to right as on the board; 1 = free, 0 = taken or attacked; rising diagonals run like a1-h8, falling like a8-h1";

/// The second line of every trace: what each tag means, the same for every
/// solver, so that a learner reads any trace the same way.
pub const LEGEND: &str = "tags: place = a queen put down | reject = refused, and why | back = a dead end or a finished branch, undone | SOLUTION = a full board | level = a whole level built | note = the state or a summary";

/// What one step says: its text in the solver's own words, and the same
/// state as data. Built only when tracing is on (inside the closure handed
/// to [`Observer::step`]), so it may allocate freely.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Detail {
    /// The step in the solver's own words (one line, or a small block).
    pub text: String,
    /// The queens on the board at this step, as (file, rank), 0-based
    /// (file 0 = a, rank 0 = rank 1).
    pub queens: Vec<(u8, u8)>,
    /// Squares the solver's own state marks taken or attacked at this step
    /// (its masks or threat word, drawn on the board), where it has them.
    pub attacked: Option<Vec<(u8, u8)>>,
    /// On a refusal, the square the solver tested and refused, as (file,
    /// rank): a player draws it refused, never as a placed queen, even where
    /// the solver's own state (an odometer's digits) holds it in `queens`.
    pub refused: Option<(u8, u8)>,
    /// The solver's own variables by name (masks in the shared convention,
    /// odometer digits, level sizes, keys), in the order it shows them.
    pub state: Vec<(&'static str, String)>,
    /// The solver's node counter after this step, where it keeps one; the
    /// recorder carries the last value forward.
    pub nodes: Option<u64>,
    /// Solutions found so far, where a step stands for more than one (an
    /// engine's weighted completions); otherwise each solution step adds 1.
    pub solutions: Option<u64>,
}

impl Detail {
    /// A step that is only text (a note about the whole search).
    pub fn text(text: impl Into<String>) -> Self {
        Detail {
            text: text.into(),
            ..Detail::default()
        }
    }

    /// The queens on the board, as (file, rank), 0-based.
    pub fn queens(mut self, queens: impl IntoIterator<Item = (usize, usize)>) -> Self {
        self.queens = squares(queens);
        self
    }

    /// The queens of a board given as the file of the queen on each rank,
    /// rank 1 first (the representation of the row-by-row backtrackers).
    pub fn files_by_rank(self, files: &[u8]) -> Self {
        self.queens(
            files
                .iter()
                .enumerate()
                .map(|(rank, &f)| (f as usize, rank)),
        )
    }

    /// The squares the solver's state marks taken or attacked.
    pub fn attacked(mut self, attacked: impl IntoIterator<Item = (usize, usize)>) -> Self {
        self.attacked = Some(squares(attacked));
        self
    }

    /// The square this refusal tested (see [`Detail::refused`]).
    pub fn refused(mut self, file: usize, rank: usize) -> Self {
        self.refused = Some((file as u8, rank as u8));
        self
    }

    /// The files a mask (1 = free, the shared convention) marks taken, on
    /// one rank: how a row-by-row solver draws its masks on the board.
    pub fn attacked_on_rank(self, free: u128, n: usize, rank: usize) -> Self {
        self.attacked(
            (0..n)
                .filter(|&file| free >> file & 1 == 0)
                .map(|file| (file, rank)),
        )
    }

    /// One of the solver's variables, shown under `name`.
    pub fn state(mut self, name: &'static str, value: impl Into<String>) -> Self {
        self.state.push((name, value.into()));
        self
    }

    /// The solver's node counter so far.
    pub fn nodes(mut self, nodes: u64) -> Self {
        self.nodes = Some(nodes);
        self
    }

    /// The solutions found so far (for steps that stand for many).
    pub fn solutions(mut self, solutions: u64) -> Self {
        self.solutions = Some(solutions);
        self
    }
}

/// Squares as a step keeps them: (file, rank), 0-based, in bytes.
fn squares(squares: impl IntoIterator<Item = (usize, usize)>) -> Vec<(u8, u8)> {
    (squares.into_iter())
        .map(|(file, rank)| (file as u8, rank as u8))
        .collect()
}

/// A step that is only text: what a solver's closure returns when its
/// step has no board to show (a `String` or a `&str`).
impl<T: Into<String>> From<T> for Detail {
    fn from(text: T) -> Self {
        Detail::text(text)
    }
}

/// Where traced steps go. Returning `Break` asks the search to stop (the
/// sink has seen enough), which the solver must honour promptly.
pub trait TraceSink {
    /// One step of the search: what kind of event, and what it says.
    fn step(&mut self, kind: StepKind, detail: Detail) -> ControlFlow<()>;

    /// `count` safe boards with `queens` queens were reached (the calls a
    /// [`Profile`] counts). A solver reports a board here *before* the step
    /// that shows it, so that a step's counters include the board it draws.
    fn safe_boards(&mut self, queens: usize, count: u64) {
        let _ = (queens, count);
    }
}

/// The compile-time switch between a silent and a traced search.
pub trait Observer {
    /// `false` (the default) means every call is dead code: guard with
    /// `if O::ENABLED`.
    const ENABLED: bool = false;
    /// `true` only when the safe boards of the tree are being counted by
    /// depth ([`Profile`]): guard `safe_boards` calls with `if O::PROFILES`,
    /// so that counting and timing runs pay nothing for them.
    const PROFILES: bool = false;
    /// Reports one step. `describe` runs only when tracing is on; an
    /// observer that does not trace leaves it unrun and goes on.
    #[inline(always)]
    fn step<D: Into<Detail>>(
        &mut self,
        kind: StepKind,
        describe: impl FnOnce() -> D,
    ) -> ControlFlow<()> {
        let _ = (kind, describe);
        ControlFlow::Continue(())
    }
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
    const PROFILES: bool = true;
    fn safe_boards(&mut self, queens: usize, count: u64) {
        add_at(&mut self.by_queens, queens, count);
    }
}

/// Adds `count` boards of `queens` queens to a tree's levels, growing them
/// to that depth.
fn add_at(levels: &mut Vec<u64>, queens: usize, count: u64) {
    if levels.len() <= queens {
        levels.resize(queens + 1, 0);
    }
    levels[queens] += count;
}

/// The observer of timed and counted runs: does nothing, costs nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct Silent;

impl Observer for Silent {}

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
    // A traced search counts its tree with the very calls `queens tree`
    // counts: one definition of a node for the profile and the trace.
    const PROFILES: bool = true;
    fn step<D: Into<Detail>>(
        &mut self,
        kind: StepKind,
        describe: impl FnOnce() -> D,
    ) -> ControlFlow<()> {
        self.sink.step(kind, describe().into())
    }
    fn safe_boards(&mut self, queens: usize, count: u64) {
        self.sink.safe_boards(queens, count);
    }
}

/// One recorded step: its kind, what it said, and the counters after it
/// (the solver's last reported node count, the solutions so far).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// What kind of event.
    pub kind: StepKind,
    /// What the solver said of it.
    pub detail: Detail,
    /// The solver's node counter after this step (the last one it
    /// reported; 0 before it reports any).
    pub nodes: u64,
    /// Solutions found up to and including this step.
    pub solutions: u64,
    /// Safe boards reached so far with 0, 1, ... queens (the search tree
    /// so far, level by level), counted by the calls that make `queens
    /// tree`'s profile; empty for a search that does not walk that tree.
    pub levels: Vec<u64>,
}

/// A sink that keeps the first `limit` steps, each with its counters,
/// and then stops the search.
#[derive(Clone, Debug, Default)]
pub struct TraceRecorder {
    limit: usize,
    stopped_early: bool,
    nodes: u64,
    solutions: u64,
    /// The tree so far, level by level (see [`Step::levels`]).
    levels: Vec<u64>,
    steps: Vec<Step>,
}

impl TraceRecorder {
    /// Keeps at most `limit` steps, then asks the search to stop.
    pub fn new(limit: usize) -> Self {
        TraceRecorder {
            limit,
            ..TraceRecorder::default()
        }
    }

    /// The steps kept, in order.
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// The steps as a text trace prints them: each kind with its words.
    pub fn texts(&self) -> Vec<(StepKind, String)> {
        self.steps
            .iter()
            .map(|step| (step.kind, step.detail.text.clone()))
            .collect()
    }

    /// True when the search was cut off at the limit (more steps existed).
    pub fn stopped_early(&self) -> bool {
        self.stopped_early
    }

    /// Keeps the step with its counters, whatever the limit.
    fn keep(&mut self, kind: StepKind, detail: Detail) {
        if let Some(nodes) = detail.nodes {
            self.nodes = nodes;
        }
        match detail.solutions {
            Some(solutions) => self.solutions = solutions,
            None if kind == StepKind::Solution => self.solutions += 1,
            None => {}
        }
        self.steps.push(Step {
            kind,
            detail,
            nodes: self.nodes,
            solutions: self.solutions,
            levels: self.levels.clone(),
        });
    }

    /// Ends a whole search with one more step: "search over", the board
    /// cleared, the counters set to the search's totals, so that a player
    /// stops on the figures the search reports (its `nodes` and `solutions`,
    /// taken by value: `SearchStats` lives in `solver`, which uses this
    /// module). Does nothing to a search cut at the limit (it is not over).
    pub fn finish(&mut self, nodes: u64, found: u64) {
        if self.stopped_early {
            return;
        }
        let text = format!(
            "search over: {}, {}; the board is cleared",
            crate::counted(nodes, "node", "nodes"),
            crate::counted(found, "solution", "solutions")
        );
        let detail = Detail::text(text).nodes(nodes).solutions(found);
        self.keep(StepKind::Note, detail);
    }
}

impl TraceSink for TraceRecorder {
    fn step(&mut self, kind: StepKind, detail: Detail) -> ControlFlow<()> {
        if self.steps.len() >= self.limit {
            self.stopped_early = true;
            return ControlFlow::Break(());
        }
        self.keep(kind, detail);
        ControlFlow::Continue(())
    }

    fn safe_boards(&mut self, queens: usize, count: u64) {
        // Past the limit the search is stopping: what it still reports
        // belongs to no step kept.
        if !self.stopped_early {
            add_at(&mut self.levels, queens, count);
        }
    }
}

/// Formats the low `width` bits of a mask in the shared convention: bit 0
/// (file a) first, so that the mask reads left to right like the files on
/// the board. The caller passes a mask whose 1s are free (complement a
/// mask of taken files first).
pub fn bits(mask: u128, width: usize) -> String {
    (0..width)
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
        assert!(observer.step(StepKind::Place, || "a").is_continue());
        assert!(observer.step(StepKind::Place, || "b").is_continue());
        assert!(observer.step(StepKind::Place, || "c").is_break());
        assert_eq!(recorder.steps().len(), 2);
        assert!(recorder.stopped_early());
    }

    #[test]
    fn silent_never_formats() {
        let mut observer = Silent;
        let flow = observer.step(StepKind::Note, || -> String {
            unreachable!("formatted while silent")
        });
        assert!(flow.is_continue());
    }

    #[test]
    fn bits_prints_file_a_first() {
        assert_eq!(bits(0b0010_0011, 8), "11000100");
        assert_eq!(bits(1, 3), "100");
    }

    #[test]
    fn a_whole_search_ends_on_a_cleared_board_with_its_totals_and_its_tree() {
        let mut recorder = TraceRecorder::new(10);
        let mut observer = Tracing::new(&mut recorder);
        observer.safe_boards(0, 1);
        let _ = observer.step(StepKind::Note, || "empty");
        observer.safe_boards(1, 1);
        let _ = observer.step(StepKind::Place, || Detail::text("a1").queens([(0, 0)]));
        assert_eq!(recorder.steps()[0].levels, [1]);
        assert_eq!(recorder.steps()[1].levels, [1, 1]);
        recorder.finish(2, 0);
        let last = recorder.steps().last().unwrap();
        assert_eq!(
            (last.kind, last.nodes, last.solutions),
            (StepKind::Note, 2, 0)
        );
        assert!(last.detail.queens.is_empty());
        assert_eq!(last.levels, [1, 1]);
        // A cut search is not over: no last step.
        let mut cut = TraceRecorder::new(1);
        let mut observer = Tracing::new(&mut cut);
        let _ = observer.step(StepKind::Note, || "a");
        let _ = observer.step(StepKind::Note, || "b");
        cut.finish(5, 0);
        assert_eq!(cut.steps().len(), 1);
    }

    #[test]
    fn recorder_carries_counters_forward() {
        let mut recorder = TraceRecorder::new(10);
        let mut observer = Tracing::new(&mut recorder);
        let _ = observer.step(StepKind::Place, || Detail::text("a").nodes(3));
        let _ = observer.step(StepKind::Solution, || "b");
        let _ = observer.step(StepKind::Note, || Detail::text("c").solutions(8));
        let counters: Vec<(u64, u64)> = recorder
            .steps()
            .iter()
            .map(|s| (s.nodes, s.solutions))
            .collect();
        assert_eq!(counters, [(3, 0), (3, 1), (3, 8)]);
    }
}
