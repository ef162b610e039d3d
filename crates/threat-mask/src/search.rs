//! The document's `qMImpl`: row by row, try every open square of the row,
//! AND that square's threat mask into the board, recurse. Written once,
//! generic over the word, over what happens to a solution ([`MoveSink`]) and
//! over tracing ([`Observer`]), so counting, listing, class counting and
//! tracing share this loop.

use std::ops::ControlFlow;

use queens_core::trace::{Observer, StepKind};
use queens_core::{SearchStats, SolutionSink};

use crate::grid;
use crate::symmetry;
use crate::word::Word;

/// What the search hands over at a solution: the document's move mask (0 =
/// queen) and, when asked for, the board in the shared row-per-column form.
pub trait MoveSink<W: Word> {
    /// `false` lets the search skip recording the row of each column.
    const WANTS_BOARD: bool;
    /// `false` lets the search skip maintaining the move mask.
    const WANTS_MOVES: bool;
    fn solution(&mut self, move_mask: W, rows: &[u8]) -> ControlFlow<()>;
}

/// Every harness sink (count only, list boards) is a move sink that ignores
/// the move mask.
impl<W: Word, S: SolutionSink> MoveSink<W> for S {
    const WANTS_BOARD: bool = S::WANTS_BOARD;
    const WANTS_MOVES: bool = false;
    #[inline(always)]
    fn solution(&mut self, _: W, rows: &[u8]) -> ControlFlow<()> {
        SolutionSink::solution(self, rows)
    }
}

/// Counts symmetry classes the document's way: by canonical move masks.
#[derive(Clone, Copy, Debug)]
pub struct ClassCounter {
    n: usize,
    pub classes: u64,
}

impl ClassCounter {
    pub fn new(n: usize) -> Self {
        ClassCounter { n, classes: 0 }
    }
}

impl<W: Word> MoveSink<W> for ClassCounter {
    const WANTS_BOARD: bool = false;
    const WANTS_MOVES: bool = true;
    fn solution(&mut self, move_mask: W, _: &[u8]) -> ControlFlow<()> {
        if symmetry::represents_its_class(move_mask, self.n) {
            self.classes += 1;
        }
        ControlFlow::Continue(())
    }
}

/// Largest n of any word, for fixed-size scratch.
const MAX_N: usize = 11;

/// One board's search.
pub struct Search<W: Word> {
    n: usize,
    /// Every square's threat mask for this n (compile-time table).
    threats: &'static [W],
    /// `row_squares[r]`: the n bits of row r in the board word.
    row_squares: [W; MAX_N],
    /// Queens placed (each a `doMove` on an open square).
    placements: u64,
    solutions: u64,
    /// The document's `MoveMask` (0 = queen), kept only for sinks that want
    /// it: a field rather than an argument, so that searches without it do
    /// not pass a dead word down the recursion.
    move_mask: W,
    /// `rows[c]` = row of the queen in column c, for the rows placed so far.
    rows: [u8; MAX_N],
    /// `files[r]` = column of the queen in row r (traced runs only: what a
    /// trace step draws).
    files: [u8; MAX_N],
    /// `boards[r]` = the board word on entering row r (traced runs only:
    /// the board a step that takes row r's queen back returns to).
    boards: [u128; MAX_N + 1],
}

impl<W: Word> Search<W> {
    pub fn new(n: usize) -> Self {
        assert!((1..=W::MAX_N).contains(&n), "n checked by the caller");
        Search {
            n,
            threats: W::threat_masks(n),
            row_squares: std::array::from_fn(|row| {
                let low_n_bits = !(W::ALL << n as u32);
                if row < n {
                    low_n_bits << (row * n) as u32
                } else {
                    W::ZERO
                }
            }),
            placements: 0,
            move_mask: W::ALL,
            solutions: 0,
            rows: [0; MAX_N],
            files: [0; MAX_N],
            boards: [0; MAX_N + 1],
        }
    }

    /// `qMImpl emptyMask emptyMask 0`: the whole search.
    pub fn run<S: MoveSink<W>, O: Observer>(mut self, sink: &mut S, observer: &mut O) -> Self {
        // The empty board is counted before the step that shows it.
        if O::PROFILES {
            observer.safe_boards(0, 1);
        }
        if O::ENABLED {
            let n = self.n;
            let _ = observer.step(StepKind::Note, || grid::describe_start::<W>(n));
        }
        let _ = self.place_in_row(W::ALL, 0, sink, observer);
        self
    }

    pub fn stats(&self) -> SearchStats {
        SearchStats {
            solutions: self.solutions,
            unique: None,
            nodes: self.placements,
            extra: Vec::new(),
        }
    }

    /// `qMImpl tmask mmask row`: `board` has a 1 for each unthreatened
    /// square; the move mask is `self.move_mask`.
    fn place_in_row<S: MoveSink<W>, O: Observer>(
        &mut self,
        board: W,
        row: usize,
        sink: &mut S,
        observer: &mut O,
    ) -> ControlFlow<()> {
        let n = self.n;
        if row == n {
            self.solutions += 1;
            if O::ENABLED {
                let detail =
                    grid::describe_solution(board.to_u128(), n, &self.files[..n], self.placements);
                observer.step(StepKind::Solution, || detail)?;
            }
            return sink.solution(self.move_mask, &self.rows[..n]);
        }
        let first_square = row * n;
        // `openMovesInRow`: the row's n bits, read straight from the word (in
        // place: masking instead of shifting the row down saves a variable
        // shift per node, which a u128 pays for in several instructions).
        let mut open = board & self.row_squares[row];
        if O::ENABLED {
            self.boards[row] = board.to_u128();
            if open == W::ZERO {
                let before = self.boards[row - 1];
                let (files, placements) = (&self.files[..row], self.placements);
                observer.step(StepKind::Backtrack, || {
                    grid::describe_dead_row(before, n, files, placements)
                })?;
            }
        }
        let tried_any = open != W::ZERO;
        while open != W::ZERO {
            let square = open.trailing_zeros() as usize;
            let col = square - first_square;
            self.placements += 1;
            if O::PROFILES {
                // Only open squares are placed on: the board stays safe.
                observer.safe_boards(row + 1, 1);
            }
            // `doMove`: the queen's threat mask ANDed into the board.
            let threat = self.threats[square];
            if O::ENABLED {
                self.files[row] = col as u8;
                let (files, placements) = (&self.files[..=row], self.placements);
                observer.step(StepKind::Place, || {
                    grid::describe_placement(board, threat, n, files, placements)
                })?;
            }
            if S::WANTS_BOARD || O::ENABLED {
                self.rows[col] = row as u8;
            }
            let queen = W::ONE << square as u32;
            if S::WANTS_MOVES {
                self.move_mask &= !queen;
            }
            self.place_in_row(board & threat, row + 1, sink, observer)?;
            if S::WANTS_MOVES {
                self.move_mask = self.move_mask | queen;
            }
            open = open.without_lowest_bit();
        }
        if O::ENABLED && tried_any && row > 0 {
            let before = self.boards[row - 1];
            let (files, placements) = (&self.files[..row], self.placements);
            observer.step(StepKind::Backtrack, || {
                grid::describe_exhausted_row(before, n, files, placements)
            })?;
        }
        ControlFlow::Continue(())
    }
}
