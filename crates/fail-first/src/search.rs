//! The search: every file keeps the set of its squares no placed queen
//! attacks (its domain); placing a queen strikes the squares it attacks
//! from every other open file's set, and the next file is the open one
//! with the fewest left.

/// Marks a file whose queen is not placed yet.
const OPEN: u32 = u32::MAX;

/// An upper bound on the heap one search of the n×n board holds: each
/// file's set of free rows (`words` words each), the counts and rows (a
/// `u32` per file each), the copy of a file's set each level of the
/// recursion keeps while it tries its rows (n levels deep at most), and
/// the list of struck squares: a square is struck only while free, so it
/// holds at most n² of them at once, in a vector grown by doubling (up to
/// twice that). The last term is what grows; the search is measured to
/// fill a fraction of it.
pub(crate) fn peak_bytes(n: usize) -> u64 {
    let (n, words) = (n as u64, n.div_ceil(64) as u64);
    let square = n * n;
    8 * n * words + 2 * 4 * n + 8 * words * n + 2 * 8 * square
}

/// One search of the n×n board.
pub struct Search {
    n: usize,
    /// Words per file's set of free rows.
    words: usize,
    /// File f's free rows: bits `f * words ..` of this, one bit per row.
    free: Vec<u64>,
    /// How many rows each file has free.
    left: Vec<u32>,
    /// The row of each file's queen, or [`OPEN`].
    rows: Vec<u32>,
    /// Every square struck, in order, so that a step back restores them.
    struck: Vec<(u32, u32)>,
    /// Queens placed (the search's nodes).
    nodes: u64,
}

impl Search {
    /// A search of the n×n board.
    pub fn new(n: usize) -> Self {
        let words = n.div_ceil(64);
        let mut free = vec![0u64; n * words];
        for file in free.chunks_mut(words) {
            for (w, word) in file.iter_mut().enumerate() {
                let bits = (n - 64 * w).min(64);
                *word = if bits == 64 {
                    u64::MAX
                } else {
                    (1u64 << bits) - 1
                };
            }
        }
        Search {
            n,
            words,
            free,
            left: vec![n as u32; n],
            rows: vec![OPEN; n],
            struck: Vec::new(),
            nodes: 0,
        }
    }

    /// The first board the search reaches, or `None` when it has tried
    /// them all; and the nodes it took.
    pub fn run(mut self) -> (Option<Vec<u32>>, u64) {
        let found = self.place_next(0);
        (found.then_some(self.rows), self.nodes)
    }

    /// Places queens `placed..n`; whether that succeeded.
    fn place_next(&mut self, placed: usize) -> bool {
        if placed == self.n {
            return true;
        }
        let file = self.fewest_left();
        let choices: Vec<u64> = self.free[file * self.words..][..self.words].to_vec();
        for row in ordered(&choices, self.n) {
            self.nodes += 1;
            let mark = self.struck.len();
            self.rows[file] = row;
            if self.strike(file, row) && self.place_next(placed + 1) {
                return true;
            }
            self.restore(mark);
            self.rows[file] = OPEN;
        }
        false
    }

    /// The open file with the fewest free rows (fail first: if one file is
    /// doomed, find out now). Ties go to the file nearest the middle,
    /// whose queen attacks the most squares: it narrows the rest most.
    fn fewest_left(&self) -> usize {
        let mut best = (u32::MAX, 0usize);
        for (file, (&row, &left)) in self.rows.iter().zip(&self.left).enumerate() {
            if row == OPEN {
                let key = (left, file);
                best = best.min(key);
            }
        }
        best.1
    }

    /// Strikes the squares the queen on (file, row) attacks from the open
    /// files; `false` as soon as an open file has no free row left.
    fn strike(&mut self, file: usize, row: u32) -> bool {
        let mut alive = true;
        for other in 0..self.n {
            if self.rows[other] != OPEN {
                continue;
            }
            let distance = other.abs_diff(file) as i64;
            for target in [row as i64, row as i64 + distance, row as i64 - distance] {
                if (0..self.n as i64).contains(&target) {
                    alive &= self.strike_one(other, target as u32);
                }
            }
        }
        alive
    }

    /// Strikes one square if still free; `false` when its file is left
    /// with none.
    fn strike_one(&mut self, file: usize, row: u32) -> bool {
        let (word, bit) = (file * self.words + row as usize / 64, 1u64 << (row % 64));
        if self.free[word] & bit != 0 {
            self.free[word] &= !bit;
            self.left[file] -= 1;
            self.struck.push((file as u32, row));
        }
        self.left[file] > 0
    }

    /// Gives back every square struck since `mark`.
    fn restore(&mut self, mark: usize) {
        for (file, row) in self.struck.drain(mark..) {
            let (file, row) = (file as usize, row as usize);
            self.free[file * self.words + row / 64] |= 1u64 << (row % 64);
            self.left[file] += 1;
        }
    }
}

/// The free rows of a file, the middle ones first: a queen in the middle
/// of its file leaves the most room on its diagonals' far ends... and the
/// order is fixed, so the search is deterministic.
fn ordered(free: &[u64], n: usize) -> impl Iterator<Item = u32> + '_ {
    let middle = n / 2;
    (0..n)
        .map(move |k| {
            // middle, middle - 1, middle + 1, middle - 2, ...
            let offset = k.div_ceil(2);
            if k % 2 == 1 {
                middle.wrapping_sub(offset)
            } else {
                middle + offset
            }
        })
        .filter(move |&row| row < n && free[row / 64] & (1u64 << (row % 64)) != 0)
        .map(|row| row as u32)
}
