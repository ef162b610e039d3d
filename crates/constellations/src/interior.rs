//! The interior search: with the border queens of one constellation fixed,
//! fill the remaining rows, bottom to top, with a bitmask backtracker.
//!
//! The border queens' diagonal attacks on each free row are constants of the
//! unit, computed once (`Interior::border_attacks`); the moving masks carry
//! only the interior queens' attacks. Rows that already hold a border queen
//! are not visited: the masks jump over them (a diagonal moves one file per
//! row, so jumping g rows shifts by g). The search is one iterative loop over
//! an explicit stack, generic over what happens to a solution and whether
//! steps are traced, so counting, Burnside's boards and `queens trace` share
//! it and the counting instance compiles to the bare loop.

use std::ops::ControlFlow;

use queens_core::trace::{Detail, Observer, StepKind, bits};
use queens_core::{Solution, SolutionSink};

use crate::constellation::{Constellation, Squares};

/// One bit per file.
pub type Mask = u32;

/// Largest board: one bit per file of a [`Mask`]. Also the stack depth; a
/// power of two, so `depth & (MAX_N - 1)` is an index the compiler can see is
/// in bounds.
pub const MAX_N: usize = Mask::BITS as usize;
const SLOT: usize = MAX_N - 1;

/// What a search found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Completions of the constellation (or, for a search limited to the
    /// first rows, placements of those rows).
    pub solutions: u64,
    /// Interior queens placed, the last row's counted ones included.
    pub nodes: u64,
    /// The observer or the sink asked to stop before the end.
    pub stopped: bool,
}

/// One level of the explicit stack.
#[derive(Clone, Copy, Debug, Default)]
struct Frame {
    /// Files attacked along the diagonals that rise to the right.
    rising: Mask,
    /// Files attacked along the diagonals that fall to the right.
    falling: Mask,
    /// Files holding a queen.
    files: Mask,
    /// Files of this row still to try.
    open: Mask,
}

/// The subproblem of one constellation.
pub struct Interior {
    n: usize,
    border: Squares,
    full: Mask,
    /// Files held by border queens.
    border_files: Mask,
    /// The rows without a border queen, ascending.
    free_rows: [u8; MAX_N],
    depth: usize,
    /// Diagonal attacks of the border queens on each free row.
    border_attacks: [Mask; MAX_N],
    /// `gap[i]` = free_rows[i] - free_rows[i - 1]: how far the diagonals move
    /// from one visited row to the next.
    gap: [u32; MAX_N],
}

impl Interior {
    pub fn new(n: usize, constellation: Constellation) -> Self {
        assert!((1..=MAX_N).contains(&n), "n checked by the caller");
        let border = constellation.squares(n);
        let mut interior = Interior {
            n,
            border,
            full: Mask::MAX >> (MAX_N - n),
            border_files: 0,
            free_rows: [0; MAX_N],
            depth: 0,
            border_attacks: [0; MAX_N],
            gap: [0; MAX_N],
        };
        for &(col, _) in border.as_slice() {
            interior.border_files |= 1 << col;
        }
        for row in 0..n {
            if border.as_slice().iter().any(|&(_, r)| r as usize == row) {
                continue;
            }
            let i = interior.depth;
            interior.free_rows[i] = row as u8;
            interior.gap[i] = if i == 0 {
                0
            } else {
                (row - interior.free_rows[i - 1] as usize) as u32
            };
            for &(col, queen_row) in border.as_slice() {
                let distance = row.abs_diff(queen_row as usize);
                for file in [
                    col as usize + distance,
                    (col as usize).wrapping_sub(distance),
                ] {
                    if file < n {
                        interior.border_attacks[i] |= 1 << file;
                    }
                }
            }
            interior.depth += 1;
        }
        interior
    }

    /// Rows left to fill.
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// The files of the board, one bit each.
    pub fn full(&self) -> Mask {
        self.full
    }

    /// Files held by the border queens: the `files` mask of the first free
    /// row, whose rising and falling masks are empty.
    pub fn border_files(&self) -> Mask {
        self.border_files
    }

    /// For each free row, bottom to top: the border queens' diagonal
    /// attacks on it, and how many rows the interior queens' diagonals move
    /// to reach it from the free row below (0 for the first). These are the
    /// constants of the unit: with them, a port of this search to other
    /// hardware (the GPU engine's kernel) walks exactly the same tree.
    pub fn rows(&self) -> impl Iterator<Item = (Mask, u32)> + '_ {
        self.border_attacks[..self.depth]
            .iter()
            .copied()
            .zip(self.gap[..self.depth].iter().copied())
    }

    /// Searches the first `limit` free rows (all of them when `limit` is at
    /// least [`Interior::depth`]).
    pub fn search<S: SolutionSink, O: Observer>(
        &self,
        limit: usize,
        sink: &mut S,
        observer: &mut O,
    ) -> Tally {
        let mut tally = Tally::default();
        let levels = limit.min(self.depth);
        // The file bit placed on each free row, kept only for boards/traces.
        let mut placed = [0 as Mask; MAX_N];
        if levels == 0 {
            tally.solutions = 1;
            tally.stopped = self.complete(0, 0, &placed, sink, observer).is_break();
            return tally;
        }
        let last = levels - 1;
        // Counting alone can finish the last two rows in closed form (see
        // `last_two_rows`), so its loop stops one row earlier.
        let closed_form = !(S::WANTS_BOARD || O::ENABLED) && levels >= 2;
        let terminal = if closed_form { last - 1 } else { last };
        let mut frame = Frame {
            rising: 0,
            falling: 0,
            files: self.border_files,
            open: self.full & !(self.border_files | self.border_attacks[0]),
        };
        if O::ENABLED && self.note_row(0, &frame, observer).is_break() {
            tally.stopped = true;
            return tally;
        }
        if terminal == 0 {
            tally.stopped = self
                .finish(&frame, 0, closed_form, &placed, &mut tally, sink, observer)
                .is_break();
            return tally;
        }
        let mut stack = [Frame::default(); MAX_N];
        let mut level = 0usize;
        loop {
            if frame.open == 0 {
                if level == 0 {
                    break;
                }
                level -= 1;
                frame = stack[level & SLOT];
                if O::ENABLED && self.note_back(level, &placed, observer).is_break() {
                    tally.stopped = true;
                    break;
                }
                continue;
            }
            let queen = frame.open & frame.open.wrapping_neg();
            frame.open ^= queen;
            tally.nodes += 1;
            if S::WANTS_BOARD || O::ENABLED {
                placed[level & SLOT] = queen;
            }
            let below = level + 1;
            let child = self.child(&frame, queen, below);
            if O::ENABLED
                && self
                    .note_place(level, queen, &placed, &child, observer)
                    .is_break()
            {
                tally.stopped = true;
                break;
            }
            if below == terminal {
                if self
                    .finish(
                        &child,
                        below,
                        closed_form,
                        &placed,
                        &mut tally,
                        sink,
                        observer,
                    )
                    .is_break()
                {
                    tally.stopped = true;
                    break;
                }
                continue;
            }
            if child.open != 0 {
                stack[level & SLOT] = frame;
                level = below;
                frame = child;
            }
        }
        tally
    }

    /// The state of free row `level` after `queen` is placed on the row
    /// before it.
    #[inline(always)]
    fn child(&self, frame: &Frame, queen: Mask, level: usize) -> Frame {
        let gap = self.gap[level & SLOT];
        let rising = (frame.rising | queen) << gap;
        let falling = (frame.falling | queen) >> gap;
        let files = frame.files | queen;
        let open = self.full & !(rising | falling | files | self.border_attacks[level & SLOT]);
        Frame {
            rising,
            falling,
            files,
            open,
        }
    }

    /// Ends the search below `frame`: the last row by its open files, or the
    /// last two rows in closed form.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn finish<S: SolutionSink, O: Observer>(
        &self,
        frame: &Frame,
        level: usize,
        closed_form: bool,
        placed: &[Mask; MAX_N],
        tally: &mut Tally,
        sink: &mut S,
        observer: &mut O,
    ) -> ControlFlow<()> {
        if closed_form {
            self.last_two_rows(frame, level + 1, tally);
            return ControlFlow::Continue(());
        }
        self.leaves(frame.open, level, placed, tally, sink, observer)
    }

    /// Counts the ways to fill the last two rows without trying them.
    ///
    /// `frame` is the second-to-last row with its open files O; without a
    /// queen on it, the last row would have open files B. A queen on file q
    /// of the second-to-last row takes from B exactly the bits q, q << gap
    /// and q >> gap (three different bits, as gap >= 1). Summed over every
    /// q in O, the completions number
    ///   |O|·|B| - |B & O| - |B & (O << gap)| - |B & (O >> gap)|
    /// which is a handful of instructions instead of a loop over O.
    #[inline(always)]
    fn last_two_rows(&self, frame: &Frame, last: usize, tally: &mut Tally) {
        let open = frame.open;
        // Most second-to-last rows are already dead: skip the arithmetic.
        if open == 0 {
            return;
        }
        let gap = self.gap[last & SLOT];
        let base = self.full
            & !((frame.rising << gap)
                | (frame.falling >> gap)
                | frame.files
                | self.border_attacks[last & SLOT]);
        let both = u64::from(open.count_ones()) * u64::from(base.count_ones());
        let taken = (base & open).count_ones()
            + (base & (open << gap)).count_ones()
            + (base & (open >> gap)).count_ones();
        let found = both - u64::from(taken);
        tally.solutions += found;
        tally.nodes += u64::from(open.count_ones()) + found;
    }

    /// The last searched row: every open file completes the placement, so
    /// counting needs only the number of open files.
    #[inline(always)]
    fn leaves<S: SolutionSink, O: Observer>(
        &self,
        open: Mask,
        level: usize,
        placed: &[Mask; MAX_N],
        tally: &mut Tally,
        sink: &mut S,
        observer: &mut O,
    ) -> ControlFlow<()> {
        let found = u64::from(open.count_ones());
        tally.solutions += found;
        tally.nodes += found;
        if S::WANTS_BOARD || O::ENABLED {
            let mut rest = open;
            while rest != 0 {
                let queen = rest & rest.wrapping_neg();
                rest ^= queen;
                self.complete(level + 1, queen, placed, sink, observer)?;
            }
        }
        ControlFlow::Continue(())
    }

    /// Hands one completed placement (the queens of the first `levels` free
    /// rows, the last of them `last_queen`) to the sink and the observer.
    fn complete<S: SolutionSink, O: Observer>(
        &self,
        levels: usize,
        last_queen: Mask,
        placed: &[Mask; MAX_N],
        sink: &mut S,
        observer: &mut O,
    ) -> ControlFlow<()> {
        if !S::WANTS_BOARD && !O::ENABLED {
            return ControlFlow::Continue(());
        }
        let mut rows = [0u8; MAX_N];
        for &(col, row) in self.border.as_slice() {
            rows[col as usize] = row;
        }
        let queens = placed[..levels.saturating_sub(1)]
            .iter()
            .chain((levels > 0).then_some(&last_queen));
        for (queen, &row) in queens.zip(&self.free_rows) {
            rows[queen.trailing_zeros() as usize] = row;
        }
        if O::ENABLED {
            let what = if levels == self.depth {
                "solution"
            } else {
                "partial placement"
            };
            // Core's notation: algebraic squares, or the row list on boards
            // wider than the alphabet (n > 26).
            let squares = Solution::from_rows(&rows[..self.n]);
            let board = self.board(
                placed,
                levels.saturating_sub(1),
                (levels > 0).then_some(last_queen),
            );
            observer.step(StepKind::Solution, || Detail {
                text: format!("{what}: {squares}"),
                ..board
            })?;
        }
        if S::WANTS_BOARD && levels == self.depth {
            sink.solution(&rows[..self.n])?;
        }
        ControlFlow::Continue(())
    }

    /// The board of a traced step: the border queens, and the interior
    /// queens of the first `levels` free rows (plus `last` on the next one).
    fn board(&self, placed: &[Mask], levels: usize, last: Option<Mask>) -> Detail {
        let interior = placed[..levels].iter().chain(last.as_ref());
        Detail::default().queens(
            self.border
                .as_slice()
                .iter()
                .map(|&(col, row)| (col as usize, row as usize))
                .chain(
                    interior
                        .zip(&self.free_rows)
                        .map(|(queen, &row)| (queen.trailing_zeros() as usize, row as usize)),
                ),
        )
    }

    /// A free row's masks in the shared convention (1 = free: each mask
    /// here marks attacks, so it is printed complemented), as words
    /// `files 1011 & rising 1110 & falling 1101 & border 0111 = free 0000`
    /// and as the step's state, with the row's taken squares marked.
    fn describe_row(&self, level: usize, frame: &Frame, board: Detail) -> (String, Detail) {
        let width = self.n;
        let free = |taken: Mask| bits((self.full & !taken).into(), width);
        let masks = [
            ("files", free(frame.files)),
            ("rising", free(frame.rising)),
            ("falling", free(frame.falling)),
            ("border", free(self.border_attacks[level])),
        ];
        let open = bits(frame.open.into(), width);
        let rank = self.free_rows[level] as usize;
        let mut detail = board.attacked_on_rank(frame.open.into(), width, rank);
        let mut words = Vec::new();
        for (name, mask) in masks {
            words.push(format!("{name} {mask}"));
            detail = detail.state(name, mask);
        }
        let text = format!("rank {}: {} = free {open}", rank + 1, words.join(" & "));
        (text, detail.state("free", open))
    }

    fn note_row<O: Observer>(
        &self,
        level: usize,
        frame: &Frame,
        observer: &mut O,
    ) -> ControlFlow<()> {
        observer.step(StepKind::Note, || {
            let board = self.board(&[], 0, None);
            let (text, detail) = self.describe_row(level, frame, board);
            Detail { text, ..detail }
        })
    }

    fn note_place<O: Observer>(
        &self,
        level: usize,
        queen: Mask,
        placed: &[Mask],
        child: &Frame,
        observer: &mut O,
    ) -> ControlFlow<()> {
        let square = format!(
            "{}{}",
            queens_core::file_letter(queen.trailing_zeros() as usize),
            self.free_rows[level] + 1
        );
        let next = level + 1;
        let kind = if child.open == 0 {
            StepKind::Reject
        } else {
            StepKind::Place
        };
        observer.step(kind, || {
            let board = self.board(placed, level + 1, None);
            let (masks, detail) = self.describe_row(next, child, board);
            let end = if child.open == 0 { ": dead end" } else { "" };
            Detail {
                text: format!("queen {square}; {masks}{end}"),
                ..detail
            }
        })
    }

    fn note_back<O: Observer>(
        &self,
        level: usize,
        placed: &[Mask],
        observer: &mut O,
    ) -> ControlFlow<()> {
        observer.step(StepKind::Backtrack, || Detail {
            text: format!(
                "rank {}: every free file tried: back to rank {}",
                self.free_rows[level + 1] + 1,
                self.free_rows[level] + 1
            ),
            ..self.board(placed, level, None)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use queens_core::trace::Silent;
    use queens_core::{Boards, CountOnly, check};

    /// Every completion of every legal constellation, by brute force, is
    /// what the interior search counts and lists.
    #[test]
    fn completions_are_valid_and_match_brute_force() {
        for n in 1..=8 {
            let all = check::brute_force_solutions(n);
            let n8 = n as u8;
            for key in 0..(n * n * n * n) {
                let c = Constellation {
                    west: (key % n) as u8,
                    east: (key / n % n) as u8,
                    south: (key / n / n % n) as u8,
                    north: (key / n / n / n) as u8,
                };
                assert!(c.west < n8);
                if !c.is_legal(n) {
                    continue;
                }
                let last = n - 1;
                let expected: Vec<&Vec<u8>> = all
                    .iter()
                    .filter(|rows| {
                        rows[0] == c.west
                            && rows[last] == c.east
                            && rows[c.south as usize] == 0
                            && rows[c.north as usize] == last as u8
                    })
                    .collect();
                let interior = Interior::new(n, c);
                let counted = interior.search(MAX_N, &mut CountOnly, &mut Silent);
                assert_eq!(counted.solutions, expected.len() as u64, "n = {n} {c:?}");
                let mut listed = Vec::new();
                let mut visit = |rows: &[u8]| {
                    listed.push(rows.to_vec());
                    ControlFlow::Continue(())
                };
                interior.search(MAX_N, &mut Boards(&mut visit), &mut Silent);
                listed.sort();
                let expected: Vec<Vec<u8>> = expected.into_iter().cloned().collect();
                assert_eq!(listed, expected, "n = {n} {c:?}");
            }
        }
    }
}
