//! Wirth's `Try(i)`, generic over what happens to a solution
//! ([`SolutionSink`]) and whether steps are traced ([`Observer`]), so that
//! counting, listing and tracing share this one recursion.
//!
//! The invariant, which every call keeps: the queens on the ranks below
//! `rank` attack each other nowhere, and `file_free`, `rising_free` and
//! `falling_free` say exactly which files and diagonals none of them holds.
//! A queen is placed only on a square whose three entries are free, so the
//! board stays safe; she is taken off, and her three entries freed again,
//! before the next square of her rank is tried.

use std::ops::ControlFlow;

use queens_core::trace::{Observer, StepKind};
use queens_core::{SearchStats, SolutionSink, file_letter};

/// The largest board: the arrays are sized for it at compile time, so a
/// search allocates nothing.
pub const MAX_N: usize = 32;

/// Diagonals of one direction on the largest board.
const DIAGONALS: usize = 2 * MAX_N - 1;

/// One board's search.
pub struct Search {
    n: usize,
    /// `file_free[f]`: no queen on file f. Wirth's `a[j]`.
    file_free: [bool; MAX_N],
    /// `rising_free[r + f]`: no queen on the diagonal through (file f, rank
    /// r) going up to the right; r + f is constant along it. Wirth's `b`.
    rising_free: [bool; DIAGONALS],
    /// `falling_free[r - f + n - 1]`: the same for the diagonal going up to
    /// the left, along which r - f is constant. Wirth's `c`.
    falling_free: [bool; DIAGONALS],
    /// `file_of_rank[r]`: the file of the queen on rank r. Wirth's `x`.
    file_of_rank: [u8; MAX_N],
    /// Scratch for the row-per-column convention of a [`SolutionSink`].
    rows: [u8; MAX_N],
    /// Calls of `Try` on a board that is not full: the root, and every safe
    /// partial board (three-mask's `positions`).
    positions: u64,
    /// Full boards reached.
    solutions: u64,
}

impl Search {
    /// An empty n×n board: every file and diagonal free.
    pub fn new(n: usize) -> Self {
        assert!((1..=MAX_N).contains(&n), "n checked by the caller");
        Search {
            n,
            file_free: [true; MAX_N],
            rising_free: [true; DIAGONALS],
            falling_free: [true; DIAGONALS],
            file_of_rank: [0; MAX_N],
            rows: [0; MAX_N],
            positions: 0,
            solutions: 0,
        }
    }

    /// Runs the whole search from the empty board.
    pub fn run<S: SolutionSink, O: Observer>(mut self, sink: &mut S, observer: &mut O) -> Self {
        if O::ENABLED {
            let n = self.n;
            let _ = observer.step(StepKind::Note, || {
                format!(
                    "empty {n}x{n} board: all {n} files and {} diagonals of each direction free",
                    2 * n - 1
                )
            });
        }
        // The root: an empty board is never full (n >= 1).
        self.positions += 1;
        if O::PROFILES {
            observer.safe_boards(0, 1);
        }
        let _ = self.try_rank(0, sink, observer);
        self
    }

    /// The statistics, counted as three-mask counts its identical tree.
    pub fn stats(&self) -> SearchStats {
        SearchStats::of_backtracking(self.positions, self.solutions)
    }

    /// `Try(i)`: every safe square of rank `rank`, in file order, with the
    /// search of the ranks above it.
    fn try_rank<S: SolutionSink, O: Observer>(
        &mut self,
        rank: usize,
        sink: &mut S,
        observer: &mut O,
    ) -> ControlFlow<()> {
        let n = self.n;
        let mut placed_any = false;
        // Indices stay below MAX_N and DIAGONALS (rank < n <= MAX_N): said
        // once here, so that the compiler drops the checks in the loop.
        assert!(rank < n && n <= MAX_N);
        for file in 0..n {
            let (rising, falling) = (rank + file, rank + n - 1 - file);
            // `&`, not `&&`: one branch per file on the combined answer
            // instead of up to three hard-to-predict ones.
            let free = self.file_free[file] & self.rising_free[rising] & self.falling_free[falling];
            if !free {
                if O::ENABLED {
                    let why = self.attacker(rank, file);
                    observer.step(StepKind::Reject, || {
                        format!("rank {}: {}{} {why}", rank + 1, file_letter(file), rank + 1)
                    })?;
                }
                continue;
            }
            placed_any = true;
            // Place: the three entries are taken while she stands.
            self.file_of_rank[rank] = file as u8;
            self.file_free[file] = false;
            self.rising_free[rising] = false;
            self.falling_free[falling] = false;
            if O::ENABLED {
                observer.step(StepKind::Place, || {
                    format!(
                        "rank {}: {}{} is free on its file and both diagonals -> queen",
                        rank + 1,
                        file_letter(file),
                        rank + 1
                    )
                })?;
            }
            let flow = if rank + 1 == n {
                self.solution(sink, observer)
            } else {
                self.positions += 1;
                if O::PROFILES {
                    observer.safe_boards(rank + 1, 1);
                }
                self.try_rank(rank + 1, sink, observer)
            };
            // Remove: free the entries again, so the invariant holds for
            // the next file of this rank.
            self.file_free[file] = true;
            self.rising_free[rising] = true;
            self.falling_free[falling] = true;
            flow?;
        }
        if O::ENABLED && rank > 0 {
            observer.step(StepKind::Backtrack, || {
                if placed_any {
                    format!(
                        "rank {}: every file tried: take back rank {}'s queen",
                        rank + 1,
                        rank
                    )
                } else {
                    format!(
                        "rank {}: no free square: take back rank {}'s queen",
                        rank + 1,
                        rank
                    )
                }
            })?;
        }
        ControlFlow::Continue(())
    }

    /// A full board: count it, and hand it to the sink if it wants boards.
    fn solution<S: SolutionSink, O: Observer>(
        &mut self,
        sink: &mut S,
        observer: &mut O,
    ) -> ControlFlow<()> {
        self.solutions += 1;
        let n = self.n;
        if O::PROFILES {
            observer.safe_boards(n, 1);
        }
        if O::ENABLED {
            let squares: Vec<String> = self.file_of_rank[..n]
                .iter()
                .enumerate()
                .map(|(rank, &file)| format!("{}{}", file_letter(file as usize), rank + 1))
                .collect();
            observer.step(StepKind::Solution, || {
                format!("all {n} ranks filled: {}", squares.join(" "))
            })?;
        }
        if S::WANTS_BOARD {
            for (rank, &file) in self.file_of_rank[..n].iter().enumerate() {
                self.rows[file as usize] = rank as u8;
            }
            return sink.solution(&self.rows[..n]);
        }
        ControlFlow::Continue(())
    }

    /// Why a square is attacked, naming the queen that holds its file or a
    /// diagonal (traced runs only).
    fn attacker(&self, rank: usize, file: usize) -> String {
        for (other_rank, &other_file) in self.file_of_rank[..rank].iter().enumerate() {
            let other_file = other_file as usize;
            let square = format!("{}{}", file_letter(other_file), other_rank + 1);
            if other_file == file {
                return format!("is on the file of the queen on {square}");
            }
            if rank - other_rank == file.abs_diff(other_file) {
                return format!("is on a diagonal of the queen on {square}");
            }
        }
        unreachable!("an entry is taken only while a queen holds it")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use queens_core::CountOnly;
    use queens_core::trace::Silent;

    #[test]
    fn the_arrays_are_all_free_again_after_a_search() {
        // Every placement is undone: the invariant's bookkeeping balances.
        for n in 1..=9 {
            let search = Search::new(n).run(&mut CountOnly, &mut Silent);
            assert!(search.file_free.iter().all(|&free| free), "n = {n}");
            assert!(search.rising_free.iter().all(|&free| free), "n = {n}");
            assert!(search.falling_free.iter().all(|&free| free), "n = {n}");
        }
    }
}
