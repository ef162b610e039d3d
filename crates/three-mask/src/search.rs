//! The recursion of the Forth word `try`, generic over what happens to a
//! solution ([`SolutionSink`]) and whether steps are traced ([`Observer`]),
//! so that counting, listing and tracing share this one loop.

use std::ops::ControlFlow;

use queens_core::trace::{Detail, Observer, StepKind, bits};
use queens_core::{SearchStats, SolutionSink};

/// The mask type: one bit per file. A `u32` keeps the three masks and the
/// candidate set in registers; a wider type would only raise a limit that no
/// search of this kind reaches in practice (n = 20 already takes hours).
pub type Mask = u32;

/// Largest board: one bit per file of a [`Mask`].
pub(crate) const MAX_N: usize = Mask::BITS as usize;

/// One rank's state in the search: the three masks on entry (1 = safe) and
/// the safe files not yet tried. The Forth program's `l` is the mask of the
/// rising diagonals (an attack moves one file up per rank, like a1-h8), its
/// `r` the falling ones (one file down per rank, like a8-h1).
#[derive(Clone, Copy, Default)]
struct Frame {
    left: Mask,
    right: Mask,
    vertical: Mask,
    untried: Mask,
}

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

impl Frame {
    /// The files this rank's three masks leave free.
    fn free(&self) -> Mask {
        self.left & self.right & self.vertical
    }

    /// `rising 1011 & falling 1111 & files 0111 = free 0011` (traced runs
    /// only), and the same masks as the step's state, drawn on `rank`.
    fn describe(&self, width: usize, rank: usize, detail: Detail) -> (String, Detail) {
        let masks = [
            ("rising", self.left),
            ("falling", self.right),
            ("files", self.vertical),
            ("free", self.free()),
        ];
        let mut detail = detail.attacked_on_rank(self.free().into(), width, rank);
        let mut words = Vec::new();
        for (name, mask) in masks {
            let mask = bits(mask.into(), width);
            words.push(format!("{name} {mask}"));
            detail = detail.state(name, mask);
        }
        let text = format!("{} = {}", words[..3].join(" & "), words[3]);
        (text, detail)
    }
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
    pub fn run<S: SolutionSink, O: Observer>(self, sink: &mut S, observer: &mut O) -> Self {
        self.run_from(&[], Mask::MAX, sink, observer).0
    }

    /// The search below a board whose first ranks hold queens on `placed`
    /// files (a safe placement), trying on the next rank only the files of
    /// `allowed`: how the mirror solver searches one half of the tree. The
    /// flow says whether the sink or the observer stopped it.
    pub fn run_from<S: SolutionSink, O: Observer>(
        mut self,
        placed: &[u8],
        allowed: Mask,
        sink: &mut S,
        observer: &mut O,
    ) -> (Self, ControlFlow<()>) {
        // The Forth `board`: both diagonal masks all ones ("every diagonal
        // clear", which also makes the bits shifted in from outside the board
        // ones), and n clear vertical files; then `place-queen` for each
        // queen already placed.
        let mut left = Mask::MAX;
        let mut right = Mask::MAX;
        let mut vertical = Mask::MAX >> (MAX_N - self.n);
        for (rank, &file) in placed.iter().enumerate() {
            let cleared = !(1 << file);
            left = ((left & cleared) << 1) | 1;
            right = (((right & cleared) as i32) >> 1) as Mask;
            vertical &= cleared;
            self.file_of_rank[rank] = file;
        }
        // The root call: the starting board is never full (n >= 1, and a
        // caller places fewer than n queens). Counted before the step that
        // shows it.
        self.positions += 1;
        if O::PROFILES {
            observer.safe_boards(placed.len(), 1);
        }
        if O::ENABLED {
            let start = Frame {
                left,
                right,
                vertical,
                untried: 0,
            };
            let (width, ranks) = (self.n, placed.len());
            let board = Detail::default().files_by_rank(placed).nodes(self.nodes());
            let _ = observer.step(StepKind::Note, || {
                let (masks, detail) = start.describe(width, ranks, board);
                let what = if ranks == 0 {
                    format!("empty {width}x{width} board")
                } else {
                    format!("{} placed", queens_core::counted(ranks, "queen", "queens"))
                };
                Detail {
                    text: format!("{what}, rank {}: {masks}", ranks + 1),
                    ..detail
                }
            });
        }
        let flow = self.try_rank(left, right, vertical, allowed, sink, observer);
        (self, flow)
    }

    /// The nodes so far, as [`Search::stats`] counts them: positions and
    /// solutions (traced runs only).
    fn nodes(&self) -> u64 {
        self.positions + self.solutions
    }

    pub fn stats(&self) -> SearchStats {
        SearchStats::of_backtracking(self.positions, self.solutions)
    }

    /// The Forth word `try`, unrolled into a loop over an explicit stack.
    ///
    /// The recursion `try ( l r v -- )` keeps, per rank, the three masks and
    /// the safe files not yet tried: a [`Frame`]. Here the frame being worked
    /// on lives in registers (`current`), and a frame is saved only when the
    /// search climbs above it with files still untried: after its last file
    /// there is nothing to come back to, so that climb is a tail call and
    /// saves nothing. Measured with callgrind and user time at n = 12..15,
    /// this beats the plain recursion (six registers saved and restored per
    /// call) and a loop that re-reads its frame from memory at every step
    /// (which waits on store forwarding). The tree walked and the counts kept
    /// are exactly the Forth program's.
    #[inline]
    fn try_rank<S: SolutionSink, O: Observer>(
        &mut self,
        left: Mask,
        right: Mask,
        vertical: Mask,
        allowed: Mask,
        sink: &mut S,
        observer: &mut O,
    ) -> ControlFlow<()> {
        let width = self.n;
        let mut saved = [Frame::default(); MAX_N];
        // `safe-files`: a file is safe if no mask marks it attacked; on the
        // first rank, only the allowed ones are tried.
        let mut current = Frame {
            left,
            right,
            vertical,
            untried: left & right & vertical & allowed,
        };
        // Frames in `saved`; the rank being filled is n - |vertical|.
        let mut depth = 0usize;
        loop {
            while current.untried != 0 {
                let rank = width - current.vertical.count_ones() as usize;
                // `first`: in two's complement -x = !x + 1, so the +1 carries
                // through the trailing zeros of !x and stops at x's lowest 1:
                // x & -x keeps exactly that bit.
                let file = current.untried & current.untried.wrapping_neg();
                if S::WANTS_BOARD || O::ENABLED {
                    self.file_of_rank[rank % MAX_N] = file.trailing_zeros() as u8;
                }
                // The new board is a node (a position, or a solution when
                // it fills the last file): counted before the step that
                // shows it, so that the step's counters include it.
                let cleared = !file;
                let next_vertical = current.vertical & cleared;
                if next_vertical == 0 {
                    self.solutions += 1;
                } else {
                    self.positions += 1;
                }
                if O::PROFILES {
                    observer.safe_boards(rank + 1, 1);
                }
                if O::ENABLED {
                    let frame = current;
                    let board = Detail::default()
                        .files_by_rank(&self.file_of_rank[..=rank % MAX_N])
                        .nodes(self.nodes());
                    observer.step(StepKind::Place, || {
                        let untried = bits(frame.untried.into(), width);
                        let (masks, detail) = frame.describe(width, rank, board);
                        Detail {
                            text: format!(
                                "rank {}: {masks}, untried {untried} -> queen on {}",
                                rank + 1,
                                queens_core::file_letter(file.trailing_zeros() as usize)
                            ),
                            ..detail.state("untried", untried)
                        }
                    })?;
                }
                // `rest`: x - 1 turns the lowest 1 into 0 and the zeros below
                // it into ones; & x then clears exactly that lowest 1.
                current.untried &= current.untried - 1;
                // `place-queen`: clear the file in all three masks and move
                // to the next rank. A diagonal attack moves one file per rank,
                // so the left-diagonal mask shifts left (shifting in a 1:
                // nothing enters from beyond file a) and the right-diagonal
                // mask shifts right arithmetically, like Forth's `2/`, which
                // copies the top 1 down.
                if next_vertical == 0 {
                    // `try` on a full board: every file holds a queen.
                    if O::ENABLED {
                        let board = self.describe_board(rank + 1).nodes(self.nodes());
                        observer.step(StepKind::Solution, || board)?;
                    }
                    if S::WANTS_BOARD {
                        for (rank, &file) in self.file_of_rank[..width].iter().enumerate() {
                            self.rows[file as usize] = rank as u8;
                        }
                        sink.solution(&self.rows[..width])?;
                    }
                    continue;
                }
                let next = Frame {
                    left: ((current.left & cleared) << 1) | 1,
                    right: (((current.right & cleared) as i32) >> 1) as Mask,
                    vertical: next_vertical,
                    untried: 0,
                };
                let untried = next.left & next.right & next.vertical;
                if untried == 0 {
                    // A dead end: `try` finds no safe file and returns at once.
                    if O::ENABLED {
                        let board = Detail::default()
                            .files_by_rank(&self.file_of_rank[..=rank % MAX_N])
                            .nodes(self.nodes());
                        observer.step(StepKind::Backtrack, || {
                            let (masks, detail) = next.describe(width, rank + 1, board);
                            Detail {
                                text: format!("rank {}: {masks}: dead end", rank + 2),
                                ..detail
                            }
                        })?;
                    }
                    continue;
                }
                if current.untried != 0 {
                    // At most one frame per rank below the next is saved, so
                    // depth < n - 1 < MAX_N: the `% MAX_N` is a no-op that
                    // lets the compiler drop the bounds check.
                    saved[depth % MAX_N] = current;
                    depth += 1;
                }
                current = Frame { untried, ..next };
            }
            // Every safe file of this rank has been tried: return to the
            // nearest rank below with files left, or finish.
            if depth == 0 {
                if O::ENABLED {
                    let nodes = self.nodes();
                    observer.step(StepKind::Note, || {
                        Detail::text("no rank has an untried safe file left: search over")
                            .nodes(nodes)
                    })?;
                }
                return ControlFlow::Continue(());
            }
            // Ranks above the one resumed were never saved: all tried out.
            let exhausted = width - current.vertical.count_ones() as usize;
            depth -= 1;
            current = saved[depth % MAX_N];
            if O::ENABLED {
                let resumed = width - current.vertical.count_ones() as usize;
                let untried = current.untried;
                let board = Detail::default()
                    .files_by_rank(&self.file_of_rank[..resumed % MAX_N])
                    .nodes(self.nodes());
                observer.step(StepKind::Backtrack, || {
                    let ranks = if exhausted == resumed + 1 {
                        format!("rank {}", exhausted + 1)
                    } else {
                        format!("ranks {}-{}", resumed + 2, exhausted + 1)
                    };
                    let untried = bits(untried.into(), width);
                    Detail {
                        text: format!(
                            "{ranks} tried every free file: back to rank {}, untried {untried}",
                            resumed + 1,
                        ),
                        ..board.state("untried", untried)
                    }
                })?;
            }
        }
    }

    /// The placed queens as algebraic squares (traced runs only).
    fn describe_board(&self, ranks: usize) -> Detail {
        let files = &self.file_of_rank[..ranks];
        let squares: Vec<String> = files
            .iter()
            .enumerate()
            .map(|(rank, &file)| format!("{}{}", queens_core::file_letter(file as usize), rank + 1))
            .collect();
        Detail::text(format!(
            "all {} filled: {}",
            queens_core::counted(ranks, "file", "files"),
            squares.join(" ")
        ))
        .files_by_rank(files)
    }
}
