//! `queens n = foldM f [] [1..n]` as a strict fold over levels, generic over
//! what happens to a solution ([`SolutionSink`]) and whether steps are traced
//! ([`Observer`]), so that counting, listing and tracing share this one loop.
//! Traced runs call into `narrate` for their text; `narrate` never calls back.

use std::mem;
use std::ops::ControlFlow;

use queens_core::memory::{Question, safe_boards_by_queens};
use queens_core::trace::{Observer, StepKind};
use queens_core::{SearchStats, SolutionSink};

use crate::level::Level;
use crate::narrate;
use crate::safe::safe_addition;

/// What the fold holds at most, declared before it runs (see
/// `Solver::peak_bytes`): its two level buffers, which alternate (odd levels
/// in one, even in the other) and keep their capacity, so each ends as large
/// as the largest level it held, and a growing `Vec` may hold up to twice
/// what it was asked for. Level k is every safe partial of k queens, k
/// bytes each, and those partials are the tree core counts. Counting,
/// listing and tracing fold the same levels (a trace's steps reach the last
/// level within its step limit).
pub(crate) fn peak_bytes(n: usize, _question: Question) -> u64 {
    let levels = safe_boards_by_queens(n);
    let mut largest = [0u64; 2];
    for (queens, &partials) in levels.iter().enumerate() {
        let bytes = partials * queens as u64;
        largest[queens % 2] = largest[queens % 2].max(bytes);
    }
    // The tallies (`level_sizes`, the statistics) and the smallest
    // capacities a Vec starts with: a few KiB at most.
    const TALLIES: u64 = 4 << 10;
    2 * (largest[0] + largest[1]) + TALLIES
}

/// The largest level met so far, by bytes: the fold's memory high-water mark.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PeakLevel {
    pub queens: usize,
    pub partials: usize,
    pub bytes: usize,
}

/// One board's fold and its tallies.
#[derive(Clone, Debug)]
pub struct Fold {
    n: usize,
    /// Calls of `safeAddition`: the nodes.
    tests: u64,
    /// Partials produced over all levels 1..=n (solutions included).
    partials_produced: u64,
    solutions: u64,
    peak_level: PeakLevel,
    /// Largest parent + child level held at once while one is built from
    /// the other.
    peak_live_bytes: usize,
    /// Partials per level, level 0 (the seed) first.
    level_sizes: Vec<usize>,
}

impl Fold {
    pub fn new(n: usize) -> Self {
        assert!(n >= 1 && n <= u8::MAX as usize, "n checked by the caller");
        Fold {
            n,
            tests: 0,
            partials_produced: 0,
            solutions: 0,
            peak_level: PeakLevel::default(),
            peak_live_bytes: 0,
            level_sizes: vec![1],
        }
    }

    /// Folds level 0 up to level n, then hands each solution to the sink.
    pub fn run<S: SolutionSink, O: Observer>(mut self, sink: &mut S, observer: &mut O) -> Self {
        let _ = self.fold(sink, observer);
        self
    }

    fn fold<S: SolutionSink, O: Observer>(
        &mut self,
        sink: &mut S,
        observer: &mut O,
    ) -> ControlFlow<()> {
        let n = self.n;
        // Level 0, the empty board, is counted before the step that shows it.
        if O::PROFILES {
            observer.safe_boards(0, 1);
        }
        if O::ENABLED {
            observer.step(StepKind::Note, || {
                format!(
                    "level 0 = [[]]; level k+1 = [row : rows | rows <- level k, row <- [1..{n}], safeAddition rows row 1]; lists are newest queen (leftmost) first"
                )
            })?;
        }
        let mut level = Level::seed();
        let mut next = Level::default();
        for queens in 1..=n {
            self.extend(&level, &mut next, queens, observer)?;
            self.record(&level, &next);
            if O::PROFILES {
                // A level is exactly the safe boards with this many queens.
                observer.safe_boards(queens, next.len() as u64);
            }
            if O::ENABLED {
                // Level n holds the solutions; for n = 2 and 3 it is empty.
                let kind = if queens == n && !next.is_empty() {
                    StepKind::Solution
                } else {
                    StepKind::Level
                };
                let (tests, solutions) = (self.tests, self.solutions);
                observer.step(kind, || {
                    narrate::level(&next, n, level.len() * n, tests).solutions(solutions)
                })?;
            }
            mem::swap(&mut level, &mut next);
        }
        // Level n is the list of solutions, and a Haskell list [r1..rn] puts
        // r1 in column 1 (the leftmost): newest-first is already our
        // column order, so each partial is handed over as it is.
        if S::WANTS_BOARD {
            for solution in level.iter() {
                sink.solution(solution)?;
            }
        }
        ControlFlow::Continue(())
    }

    /// `f rows _` for every partial of `level`, concatenated into `next`.
    #[inline(always)]
    fn extend<O: Observer>(
        &mut self,
        level: &Level,
        next: &mut Level,
        queens: usize,
        observer: &mut O,
    ) -> ControlFlow<()> {
        let n = self.n;
        next.reset(queens);
        for (index, rows) in level.iter().enumerate() {
            for row in 0..n as u8 {
                if safe_addition(rows, row) {
                    next.push_in_front(row, rows);
                }
            }
            if O::ENABLED && index < narrate::TRACED_EXTENSIONS {
                let dead_end = (0..n as u8).all(|row| !safe_addition(rows, row));
                let kind = if dead_end {
                    StepKind::Reject
                } else {
                    StepKind::Place
                };
                let tests = self.tests + ((index + 1) * n) as u64;
                observer.step(kind, || narrate::extension(rows, n, tests))?;
            }
        }
        self.tests += (level.len() * n) as u64;
        ControlFlow::Continue(())
    }

    fn record(&mut self, parent: &Level, child: &Level) {
        self.partials_produced += child.len() as u64;
        self.level_sizes.push(child.len());
        if child.queens() == self.n {
            self.solutions = child.len() as u64;
        }
        if child.bytes() > self.peak_level.bytes {
            self.peak_level = PeakLevel {
                queens: child.queens(),
                partials: child.len(),
                bytes: child.bytes(),
            };
        }
        self.peak_live_bytes = self.peak_live_bytes.max(parent.bytes() + child.bytes());
    }

    /// The largest level by bytes (the first of equals).
    pub fn peak_level(&self) -> PeakLevel {
        self.peak_level
    }

    /// Partials per level for the levels built so far, level 0 first.
    pub fn level_sizes(&self) -> &[usize] {
        &self.level_sizes
    }

    pub fn stats(&self) -> SearchStats {
        SearchStats {
            solutions: self.solutions,
            unique: None,
            nodes: self.tests,
            extra: Vec::new(),
        }
        .with_metric("partials_produced", self.partials_produced)
        .with_metric("peak_level_queens", self.peak_level.queens as u64)
        .with_metric("peak_level_partials", self.peak_level.partials as u64)
        .with_metric("peak_level_bytes", self.peak_level.bytes as u64)
        .with_metric("peak_live_bytes", self.peak_live_bytes as u64)
    }
}
