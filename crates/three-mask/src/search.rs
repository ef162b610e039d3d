//! The recursion of the Forth word `try`, generic over what happens to a
//! solution ([`SolutionSink`]) and whether steps are traced ([`Observer`]),
//! so that counting, listing and tracing share this one loop.

use std::ops::ControlFlow;

use queens_core::trace::{Observer, StepKind, bits};
use queens_core::{SearchStats, SolutionSink};

/// The mask type: one bit per file. A `u32` keeps the three masks and the
/// candidate set in registers; a wider type would only raise a limit that no
/// search of this kind reaches in practice (n = 20 already takes hours).
pub type Mask = u32;

/// Largest board: one bit per file of a [`Mask`].
pub const MAX_N: usize = Mask::BITS as usize;

/// One board's search: the counters of the Forth program and, when a sink
/// wants boards, the file of the queen on each rank so far.
pub struct Search {
    n: usize,
    /// The Forth program's `positions`: calls of `try` on a board that is not
    /// yet full (the root and every internal or dead-end node).
    positions: u64,
    /// The Forth program's `solutions`: calls of `try` on a full board.
    solutions: u64,
    /// `file_of_rank[r]` = file (column) of the queen on rank r, for the
    /// ranks placed so far.
    file_of_rank: [u8; MAX_N],
    /// Scratch for converting to the row-per-column convention.
    rows: [u8; MAX_N],
}

impl Search {
    pub fn new(n: usize) -> Self {
        assert!((1..=MAX_N).contains(&n), "n checked by the caller");
        Search {
            n,
            positions: 0,
            solutions: 0,
            file_of_rank: [0; MAX_N],
            rows: [0; MAX_N],
        }
    }

    /// `n board try`: runs the whole search from the empty board.
    pub fn run<S: SolutionSink, O: Observer>(mut self, sink: &mut S, observer: &mut O) -> Self {
        // The Forth `board`: both diagonal masks all ones ("every diagonal
        // clear", which also makes the bits shifted in from outside the board
        // ones), and n clear vertical files.
        let left = Mask::MAX;
        let right = Mask::MAX;
        let vertical = Mask::MAX >> (MAX_N - self.n);
        if O::ENABLED {
            let width = self.n;
            let _ = observer.step(StepKind::Note, || {
                format!(
                    "empty {width}x{width} board; bits are files, file a on the right; 1 = safe\n  left  {}\n  right {}\n  vert  {}",
                    bits(left.into(), width),
                    bits(right.into(), width),
                    bits(vertical.into(), width)
                )
            });
        }
        let _ = self.try_rank(left, right, vertical, 0, sink, observer);
        self
    }

    pub fn stats(&self) -> SearchStats {
        SearchStats {
            solutions: self.solutions,
            unique: None,
            nodes: self.positions + self.solutions,
            extra: Vec::new(),
        }
        .with_metric("positions_tried", self.positions)
    }

    /// `try ( l r v -- )` on rank `rank`. Masks hold a 1 for each safe file.
    #[inline]
    fn try_rank<S: SolutionSink, O: Observer>(
        &mut self,
        left: Mask,
        right: Mask,
        vertical: Mask,
        rank: usize,
        sink: &mut S,
        observer: &mut O,
    ) -> ControlFlow<()> {
        if vertical == 0 {
            // Every file holds a queen: a solution.
            self.solutions += 1;
            if O::ENABLED {
                let board = self.describe_board(rank);
                observer.step(StepKind::Solution, || board)?;
            }
            if S::WANTS_BOARD {
                for (rank, &file) in self.file_of_rank[..self.n].iter().enumerate() {
                    self.rows[file as usize] = rank as u8;
                }
                sink.solution(&self.rows[..self.n])?;
            }
            return ControlFlow::Continue(());
        }
        self.positions += 1;
        // `safe-files`: a file is safe if no mask marks it attacked.
        let mut safe = left & right & vertical;
        if O::ENABLED && safe == 0 {
            let width = self.n;
            observer.step(StepKind::Backtrack, || {
                format!(
                    "rank {}: no safe file (left {} & right {} & vert {} = 0): back",
                    rank + 1,
                    bits(left.into(), width),
                    bits(right.into(), width),
                    bits(vertical.into(), width)
                )
            })?;
        }
        while safe != 0 {
            // `first`: in two's complement -x = !x + 1, so the +1 carries
            // through the trailing zeros of !x and stops at x's lowest 1:
            // x & -x keeps exactly that bit.
            let file = safe & safe.wrapping_neg();
            if S::WANTS_BOARD || O::ENABLED {
                self.file_of_rank[rank] = file.trailing_zeros() as u8;
            }
            if O::ENABLED {
                let width = self.n;
                observer.step(StepKind::Place, || {
                    format!(
                        "rank {}: safe {} (left {} right {} vert {}) -> queen on file {}",
                        rank + 1,
                        bits(safe.into(), width),
                        bits(left.into(), width),
                        bits(right.into(), width),
                        bits(vertical.into(), width),
                        queens_core::file_letter(file.trailing_zeros() as usize)
                    )
                })?;
            }
            // `place-queen`: clear the file in all three masks, then move to
            // the next rank. A diagonal attack moves one file per rank, so the
            // left-diagonal mask shifts left (shifting in a 1: nothing enters
            // from beyond file a) and the right-diagonal mask shifts right
            // arithmetically, like Forth's `2/`, which copies the top 1 down.
            let cleared = !file;
            let next_left = ((left & cleared) << 1) | 1;
            let next_right = (((right & cleared) as i32) >> 1) as Mask;
            self.try_rank(
                next_left,
                next_right,
                vertical & cleared,
                rank + 1,
                sink,
                observer,
            )?;
            // `rest`: x - 1 turns the lowest 1 into 0 and the zeros below it
            // into ones; & x then clears exactly that lowest 1.
            safe &= safe - 1;
        }
        ControlFlow::Continue(())
    }

    /// The placed queens as algebraic squares (traced runs only).
    fn describe_board(&self, ranks: usize) -> String {
        let squares: Vec<String> = self.file_of_rank[..ranks]
            .iter()
            .enumerate()
            .map(|(rank, &file)| format!("{}{}", queens_core::file_letter(file as usize), rank + 1))
            .collect();
        format!("all {} files filled: {}", ranks, squares.join(" "))
    }
}
