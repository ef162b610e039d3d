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

use queens_core::trace::{Detail, Observer, StepKind};
use queens_core::{SearchStats, SolutionSink, counted, file_letter};

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
    /// `falling_free[r + f]`: no queen on the diagonal through (file f, rank
    /// r) that falls to the right, like a8-h1: r + f is constant along it.
    /// Wirth's `b`.
    falling_free: [bool; DIAGONALS],
    /// `rising_free[r - f + n - 1]`: the same for the diagonal that rises to
    /// the right, like a1-h8, along which r - f is constant. Wirth's `c`.
    rising_free: [bool; DIAGONALS],
    /// `file_of_rank[r]`: the file of the queen on rank r. Wirth's `x`.
    file_of_rank: [u8; MAX_N],
    /// Scratch for the row-per-column convention of a [`SolutionSink`].
    rows: [u8; MAX_N],
    /// Calls of `Try` on a board that is not full: the root, and every safe
    /// partial board (three-mask's `positions`).
    positions: u64,
    /// Full boards reached.
    solutions: u64,
    /// Squares tested for safety, as Wirth counts them (his `safe(i, j)`
    /// calls): every file of a rank a call of `Try` tried. Added as `n`
    /// when a call starts, since a finished call tries them all, and made
    /// exact again when a search stops inside a call (see
    /// [`Search::stopped_after`]).
    square_tests: u64,
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
            square_tests: 0,
        }
    }

    /// Runs the whole search from the empty board.
    pub fn run<S: SolutionSink, O: Observer>(mut self, sink: &mut S, observer: &mut O) -> Self {
        // The root: an empty board is never full (n >= 1). Every node is
        // counted before the step that shows it.
        self.positions += 1;
        if O::PROFILES {
            observer.safe_boards(0, 1);
        }
        if O::ENABLED {
            let n = self.n;
            let board = self.detail(0, 0);
            let _ = observer.step(StepKind::Note, || Detail {
                text: format!(
                    "empty {n}x{n} board: all {} and {} of each direction free",
                    counted(n, "file", "files"),
                    counted(2 * n - 1, "diagonal", "diagonals")
                ),
                ..board
            });
        }
        let _ = self.try_rank(0, sink, observer);
        self
    }

    /// The statistics, counted as three-mask counts its identical tree,
    /// and the squares tested, which three-mask never does (its masks hand
    /// it only the safe files).
    pub fn stats(&self) -> SearchStats {
        SearchStats::of_backtracking(self.positions, self.solutions)
            .with_metric("square_tests", self.square_tests)
    }

    /// The search stops (a sink took the board it wanted, or an observer
    /// has seen enough) right after `file` of the current rank was tested:
    /// the files after it were never tested, so they come off the count.
    /// Kept out of the loop, so that a count pays one addition per call of
    /// `Try` for the figure and nothing per square.
    #[cold]
    fn stopped_after(&mut self, file: usize) -> ControlFlow<()> {
        self.square_tests -= (self.n - 1 - file) as u64;
        ControlFlow::Break(())
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
        self.square_tests += n as u64;
        for file in 0..n {
            let (falling, rising) = (rank + file, rank + n - 1 - file);
            // `&`, not `&&`: one branch per file on the combined answer
            // instead of up to three hard-to-predict ones.
            let free = self.file_free[file] & self.rising_free[rising] & self.falling_free[falling];
            if !free {
                if O::ENABLED {
                    let why = self.attacker(rank, file);
                    let board = self.detail(rank, rank).refused(file, rank);
                    let seen = observer.step(StepKind::Reject, || Detail {
                        text: format!("rank {}: {}{} {why}", rank + 1, file_letter(file), rank + 1),
                        ..board
                    });
                    if seen.is_break() {
                        return self.stopped_after(file);
                    }
                }
                continue;
            }
            placed_any = true;
            // Place: the three entries are taken while she stands.
            self.file_of_rank[rank] = file as u8;
            self.file_free[file] = false;
            self.rising_free[rising] = false;
            self.falling_free[falling] = false;
            // The new board is a node: a solution if it fills the last
            // rank, else a position to search from.
            if rank + 1 == n {
                self.solutions += 1;
            } else {
                self.positions += 1;
            }
            if O::PROFILES {
                observer.safe_boards(rank + 1, 1);
            }
            if O::ENABLED {
                let board = self.detail(rank + 1, rank + 1);
                let seen = observer.step(StepKind::Place, || Detail {
                    text: format!(
                        "rank {}: {}{} is free on its file and both diagonals -> queen",
                        rank + 1,
                        file_letter(file),
                        rank + 1
                    ),
                    ..board
                });
                if seen.is_break() {
                    return self.stopped_after(file);
                }
            }
            let flow = if rank + 1 == n {
                self.solution(sink, observer)
            } else {
                self.try_rank(rank + 1, sink, observer)
            };
            // Remove: free the entries again, so the invariant holds for
            // the next file of this rank.
            self.file_free[file] = true;
            self.rising_free[rising] = true;
            self.falling_free[falling] = true;
            if flow.is_break() {
                return self.stopped_after(file);
            }
        }
        if O::ENABLED && rank > 0 {
            // The board once rank's queen is taken back: her file and
            // diagonals are freed here for the drawing (the caller frees
            // them again, a no-op), so the board shows no trace of her.
            let file = self.file_of_rank[rank - 1] as usize;
            self.file_free[file] = true;
            self.rising_free[rank - 1 + n - 1 - file] = true;
            self.falling_free[rank - 1 + file] = true;
            let board = self.detail(rank - 1, rank - 1);
            let why = if placed_any {
                "every file tried"
            } else {
                "no free square"
            };
            observer.step(StepKind::Backtrack, || Detail {
                text: format!("rank {}: {why}: take back rank {}'s queen", rank + 1, rank),
                ..board
            })?;
        }
        ControlFlow::Continue(())
    }

    /// A full board (counted by the caller): show it, and hand it to the
    /// sink if it wants boards.
    fn solution<S: SolutionSink, O: Observer>(
        &mut self,
        sink: &mut S,
        observer: &mut O,
    ) -> ControlFlow<()> {
        let n = self.n;
        if O::ENABLED {
            let squares: Vec<String> = self.file_of_rank[..n]
                .iter()
                .enumerate()
                .map(|(rank, &file)| format!("{}{}", file_letter(file as usize), rank + 1))
                .collect();
            let board = self.detail(n, n);
            observer.step(StepKind::Solution, || Detail {
                text: format!(
                    "all {} filled: {}",
                    counted(n, "rank", "ranks"),
                    squares.join(" ")
                ),
                ..board
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
                let direction = if file > other_file {
                    "rising"
                } else {
                    "falling"
                };
                return format!("is on the {direction} diagonal of the queen on {square}");
            }
        }
        unreachable!("an entry is taken only while a queen holds it")
    }

    /// The state as data (traced runs only): the queens of the ranks below
    /// `queens`, the three arrays as masks in the shared convention (1 =
    /// free; diagonals in index order), and the squares of rank `rank`
    /// whose entries are taken.
    fn detail(&self, queens: usize, rank: usize) -> Detail {
        let n = self.n;
        let mask =
            |free: &[bool]| -> String { free.iter().map(|&f| if f { '1' } else { '0' }).collect() };
        let mut detail = Detail::default()
            .files_by_rank(&self.file_of_rank[..queens])
            .state("files", mask(&self.file_free[..n]))
            .state("rising", mask(&self.rising_free[..2 * n - 1]))
            .state("falling", mask(&self.falling_free[..2 * n - 1]))
            .nodes(self.positions + self.solutions);
        if rank < n {
            detail = detail.attacked(
                (0..n)
                    .filter(|&file| {
                        !(self.file_free[file]
                            & self.falling_free[rank + file]
                            & self.rising_free[rank + n - 1 - file])
                    })
                    .map(|file| (file, rank)),
            );
        }
        detail
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
