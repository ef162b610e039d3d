//! The search: a permutation (one queen per row and per file, so only
//! diagonals can clash), the number of queens on every diagonal, a greedy
//! start and a repair by swaps.

use crate::diagonals::Diagonals;
use crate::prefetch;
use crate::random::{AHEAD, Ahead, reduce};

/// How many random partners the greedy start tries for a file before it
/// takes one that clashes. Sosič and Gu leave the last few files to chance;
/// a cap on the tries has the same effect without guessing how many.
const START_TRIES: usize = 32;

/// How many random partners an attacked queen tries per visit before the
/// repair moves on to the next one (it comes back next round).
const REPAIR_TRIES: usize = 64;

/// Rounds in a row without fewer conflicts before the search starts over
/// from a new greedy start: on small boards the swaps can reach a board
/// from which no single swap helps (a local minimum).
const STUCK_ROUNDS: u32 = 8;

/// What a search ends with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The board: the row of the queen on each file.
    pub rows: Vec<u32>,
    /// Swaps tried, in the start and in the repair.
    pub steps: u64,
    /// Swaps made by the repair.
    pub swaps: u64,
    /// Conflicts (queens beyond the first on each diagonal) the greedy start
    /// left, in the last start.
    pub conflicts_after_start: u64,
    /// Times the search started over from a new greedy start.
    pub restarts: u64,
}

/// One swap the repair made, as a traced search reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Swap {
    /// The attacked queen's file: the queen the repair set out to move.
    pub file: usize,
    /// The partner's file: its queen takes the moved queen's old row.
    pub partner: usize,
    /// The moved queen's row before the swap (the partner's after).
    pub from: u32,
    /// The moved queen's row after the swap (the partner's before).
    pub to: u32,
    /// The board's conflicts before the swap.
    pub before: u64,
    /// The board's conflicts after it (always fewer).
    pub after: u64,
}

/// What a traced search is told. The untraced search uses `()`, whose
/// methods are empty and inlined away: the timed code is the traced code
/// minus nothing but the calls.
pub trait Observe {
    /// A greedy start has placed every queen (again, after a restart):
    /// the board, its conflicts, the steps tried so far.
    fn started(&mut self, rows: &[u32], conflicts: u64, steps: u64) {
        let _ = (rows, conflicts, steps);
    }

    /// The repair made a swap: what moved, the board after it, the steps
    /// tried so far.
    fn swapped(&mut self, swap: Swap, rows: &[u32], steps: u64) {
        let _ = (swap, rows, steps);
    }
}

/// No observer: the search as `find` runs it.
impl Observe for () {}

impl<T: Observe + ?Sized> Observe for &mut T {
    fn started(&mut self, rows: &[u32], conflicts: u64, steps: u64) {
        (**self).started(rows, conflicts, steps);
    }

    fn swapped(&mut self, swap: Swap, rows: &[u32], steps: u64) {
        (**self).swapped(swap, rows, steps);
    }
}

/// One search of the n×n board (n = 1 or n >= 4), told to `O` as it goes
/// (nothing, by default).
#[derive(Clone, Debug)]
pub struct Search<O: Observe = ()> {
    n: usize,
    /// `rows[c]`: the row of the queen on file c; a permutation throughout.
    rows: Vec<u32>,
    /// The queens on each falling diagonal `c + r`.
    falling: Diagonals,
    /// The queens on each rising diagonal `c + n - 1 - r`.
    rising: Diagonals,
    /// Sum over diagonals of (queens on it - 1), for the occupied ones: 0
    /// exactly when no two queens attack.
    conflicts: u64,
    random: Ahead,
    steps: u64,
    swaps: u64,
    restarts: u64,
    observer: O,
}

impl Search {
    /// A search of the n×n board from `seed`; n = 2 and 3, which have no
    /// board, are refused (the search would never end).
    pub fn new(n: usize, seed: u64) -> Self {
        Search::observed(n, seed, ())
    }
}

impl<O: Observe> Search<O> {
    /// The same search as [`Search::new`]'s, telling `observer` of every
    /// start and every swap made (`queens trace N --solver min-conflicts`).
    pub fn observed(n: usize, seed: u64, observer: O) -> Self {
        assert!(
            n >= 1 && !queens_core::find::no_board_exists(n),
            "n = {n} has no board to search for"
        );
        Search {
            n,
            rows: (0..n as u32).collect(),
            falling: Diagonals::new(2 * n - 1),
            rising: Diagonals::new(2 * n - 1),
            conflicts: 0,
            random: Ahead::new(seed),
            steps: 0,
            swaps: 0,
            restarts: 0,
            observer,
        }
    }

    /// Runs to a board with no attack.
    pub fn run(mut self) -> Outcome {
        loop {
            self.start();
            let conflicts_after_start = self.conflicts;
            self.observer
                .started(&self.rows, conflicts_after_start, self.steps);
            if self.repair() {
                return Outcome {
                    rows: self.rows,
                    steps: self.steps,
                    swaps: self.swaps,
                    conflicts_after_start,
                    restarts: self.restarts,
                };
            }
            self.restarts += 1;
        }
    }

    /// The greedy start (Sosič and Gu's): file by file, swap into this file
    /// a random row not yet used, preferring one whose diagonals are empty,
    /// so that the board is a permutation from the first step and almost
    /// free of conflicts at the last.
    fn start(&mut self) {
        self.falling.clear();
        self.rising.clear();
        self.conflicts = 0;
        let n = self.n;
        for col in 0..n {
            let mut pick = col + self.random.below(n - col);
            self.prefetch_pick(col);
            for _ in 0..START_TRIES {
                self.steps += 1;
                if self.free(col, self.rows[pick]) {
                    break;
                }
                pick = col + self.random.below(n - col);
                self.prefetch_pick(col);
            }
            self.rows.swap(col, pick);
            self.add(col, self.rows[col]);
        }
    }

    /// The repair: visit the attacked queens; for each, try random partners
    /// and swap the two rows when that lowers the conflicts. Rounds repeat
    /// until none is left; `false` when the rounds stop helping.
    fn repair(&mut self) -> bool {
        let mut stuck = 0;
        let mut work = Vec::new();
        while self.conflicts > 0 {
            let before = self.conflicts;
            work.clear();
            work.extend((0..self.n).filter(|&c| self.attacked(c)));
            while let Some(col) = work.pop() {
                if !self.attacked(col) {
                    continue;
                }
                for _ in 0..REPAIR_TRIES {
                    let other = self.random.below(self.n);
                    // Every draw of the repair is below n: the partner
                    // `AHEAD` draws from now is known exactly.
                    prefetch::read(&self.rows, reduce(self.random.farthest(), self.n));
                    if other == col {
                        continue;
                    }
                    self.steps += 1;
                    if self.swap_if_better(col, other) {
                        // Both may still be attacked where they landed.
                        work.push(other);
                        work.push(col);
                        break;
                    }
                }
            }
            if self.conflicts < before {
                stuck = 0;
            } else {
                stuck += 1;
                if stuck == STUCK_ROUNDS {
                    return false;
                }
            }
        }
        true
    }

    /// Swaps the rows of files `a` and `b` if the board then has fewer
    /// conflicts; whether it did. Most tries do not help: the change is
    /// weighed on the diagonals first ([`Search::change`]), and only a swap
    /// that helps is made.
    fn swap_if_better(&mut self, a: usize, b: usize) -> bool {
        let (row_a, row_b) = (self.rows[a], self.rows[b]);
        let change = self.change(a, b);
        if change >= 0 {
            return false;
        }
        let before = self.conflicts;
        self.remove(a, row_a);
        self.remove(b, row_b);
        self.add(a, row_b);
        self.add(b, row_a);
        debug_assert_eq!(self.conflicts, before.wrapping_add_signed(change));
        self.rows.swap(a, b);
        self.swaps += 1;
        let swap = Swap {
            file: a,
            partner: b,
            from: row_a,
            to: row_b,
            before,
            after: self.conflicts,
        };
        self.observer.swapped(swap, &self.rows, self.steps);
        true
    }

    /// How the conflicts would change if files `a` and `b` swapped rows.
    /// Of the four squares' diagonals, the two a pair of queens leaves may
    /// be one, and so may the two they arrive on, but no diagonal is left
    /// and arrived on: `a + row_b` is neither `a + row_a` (other row) nor
    /// `b + row_b` (other file), and the same holds for every case and for
    /// the rising diagonals.
    fn change(&self, a: usize, b: usize) -> i64 {
        let (row_a, row_b) = (self.rows[a], self.rows[b]);
        let (down_a, up_a) = self.diagonals(a, row_a);
        let (down_b, up_b) = self.diagonals(b, row_b);
        let (down_ab, up_ab) = self.diagonals(a, row_b);
        let (down_ba, up_ba) = self.diagonals(b, row_a);
        self.falling.change([down_a, down_b], [down_ab, down_ba])
            + self.rising.change([up_a, up_b], [up_ab, up_ba])
    }

    /// Prefetches the row the start will probe `AHEAD` draws from now. That
    /// draw picks `col' + reduce(x, n - col')` for the file `col'` it is
    /// made at, which lies between `col` and `col + AHEAD`: the pick moves
    /// by less than one element per file, so the two ends bound it within
    /// one cache line's span.
    fn prefetch_pick(&self, col: usize) {
        let low = col + reduce(self.random.farthest(), self.n - col);
        prefetch::read(&self.rows, low);
        prefetch::read(&self.rows, low + AHEAD);
    }

    fn diagonals(&self, col: usize, row: u32) -> (usize, usize) {
        let row = row as usize;
        (col + row, col + self.n - 1 - row)
    }

    /// Whether (col, row) is on two empty diagonals.
    fn free(&self, col: usize, row: u32) -> bool {
        let (down, up) = self.diagonals(col, row);
        !self.falling.occupied(down) && !self.rising.occupied(up)
    }

    /// Whether the queen on `col` shares a diagonal with another.
    fn attacked(&self, col: usize) -> bool {
        let (down, up) = self.diagonals(col, self.rows[col]);
        self.falling.crowded(down) || self.rising.crowded(up)
    }

    fn add(&mut self, col: usize, row: u32) {
        let (down, up) = self.diagonals(col, row);
        self.conflicts += u64::from(self.falling.add(down)) + u64::from(self.rising.add(up));
    }

    fn remove(&mut self, col: usize, row: u32) {
        let (down, up) = self.diagonals(col, row);
        self.conflicts -= u64::from(self.falling.remove(down)) + u64::from(self.rising.remove(up));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::SplitMix64;

    /// The conflicts recounted from the rows alone.
    fn recount(rows: &[u32]) -> u64 {
        let n = rows.len();
        let (mut down, mut up) = (vec![0u64; 2 * n], vec![0u64; 2 * n]);
        for (c, &r) in rows.iter().enumerate() {
            down[c + r as usize] += 1;
            up[c + n - 1 - r as usize] += 1;
        }
        down.iter().chain(&up).map(|&k| k.saturating_sub(1)).sum()
    }

    #[test]
    fn the_counts_stay_true_through_starts_and_swaps() {
        for n in [4, 5, 9, 50] {
            let mut search = Search::new(n, 3);
            search.start();
            assert_eq!(search.conflicts, recount(&search.rows), "n = {n}");
            // And from every queen on one diagonal, which the swaps thin.
            for mut search in [search, holding((0..n as u32).collect())] {
                for k in 0..200 {
                    let (a, b) = (k % n, (k * 7 + 1) % n);
                    if a != b {
                        search.swap_if_better(a, b);
                        assert_eq!(search.conflicts, recount(&search.rows), "n = {n}");
                    }
                }
            }
        }
    }

    /// A search holding the board `rows`, its diagonals counted.
    fn holding(rows: Vec<u32>) -> Search {
        let mut search = Search::new(rows.len(), 0);
        search.rows = rows;
        for col in 0..search.n {
            search.add(col, search.rows[col]);
        }
        assert_eq!(search.conflicts, recount(&search.rows));
        search
    }

    #[test]
    fn a_weighed_swap_changes_the_conflicts_by_what_it_was_weighed() {
        for n in [4, 6, 9, 13] {
            let mut boards = Vec::new();
            for seed in 0..20 {
                let mut search = Search::new(n, seed);
                search.start();
                boards.push(search);
            }
            // All n queens on one rising diagonal; then two pairs moved,
            // which leaves n - 2 there and puts two on each of two falling
            // diagonals.
            let identity: Vec<u32> = (0..n as u32).collect();
            let mut piled = identity.clone();
            piled.swap(0, n - 1);
            piled.swap(1, 2);
            boards.push(holding(identity));
            boards.push(holding(piled));
            for mut search in boards {
                for a in 0..n {
                    for b in (0..n).filter(|&b| b != a) {
                        let before = recount(&search.rows);
                        let weighed = search.change(a, b);
                        search.rows.swap(a, b);
                        let after = recount(&search.rows);
                        search.rows.swap(a, b);
                        assert_eq!(after as i64 - before as i64, weighed, "n = {n}");
                    }
                }
            }
        }
    }

    #[test]
    fn the_greedy_start_leaves_far_fewer_conflicts_than_chance() {
        let n = 100_000;
        let mut search = Search::new(n, 1);
        search.start();
        // A random permutation of the same size, shuffled by the same
        // generator (Fisher-Yates).
        let mut random = SplitMix64::new(1);
        let mut shuffled: Vec<u32> = (0..n as u32).collect();
        for i in (1..n).rev() {
            shuffled.swap(i, random.below(i + 1));
        }
        let chance = recount(&shuffled);
        assert!(
            search.conflicts * 100 < chance,
            "{} after the greedy start, {chance} by chance",
            search.conflicts
        );
    }
}
