//! What a search holds in memory, declared before it runs: the question
//! asked of a solver ([`Question`]), the default a solver that keeps its
//! search on the stack declares ([`SMALL_PEAK_BYTES`]), and the tree counts
//! a breadth-first solver's declaration is made from
//! ([`safe_boards_by_queens`]).
//!
//! A command asks [`crate::Solver::peak_bytes`] before it starts, so that a
//! search too big for the machine is refused in one line instead of dying
//! of an allocation an hour in. A declaration is an upper bound on the heap
//! the search allocates (the harness adds nothing for the program itself);
//! the harness's tests check it against the measured peak heap.

/// What is asked of a solver: its memory can differ by question (a count
/// may keep nothing a listing keeps, a trace may stop after a few steps).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Question {
    /// `count`: the number of solutions.
    Count,
    /// `solve`: every solution, handed out one at a time.
    Enumerate,
    /// `trace`: the search step by step (the steps are streamed, not kept).
    Trace,
}

impl Question {
    /// The verb for a refusal: "to count n = 16".
    pub fn verb(self) -> &'static str {
        match self {
            Question::Count => "count",
            Question::Enumerate => "list the solutions of",
            Question::Trace => "trace",
        }
    }
}

/// What a solver whose search lives on the stack (masks, a few counters)
/// declares: room for its statistics and a board or two, far above what
/// such a search allocates (0 to a few hundred bytes, measured) and far
/// below any machine's memory.
pub const SMALL_PEAK_BYTES: u64 = 1 << 20;

/// How many safe partial boards the row-by-row tree of the n×n board has
/// with 0, 1, ..., n queens (queens on the first k ranks, none attacking
/// another): the sizes of a breadth-first search's levels, and the tree
/// `queens tree` draws. A plain bitmask depth-first walk, halved by the
/// mirror (a board and its mirror image are both counted, so only first
/// queens in the left half are walked); at n = 16 it walks about 10^9
/// boards, seconds, which is small beside the breadth-first search it
/// sizes. Only n up to 32 (one bit per file in a `u32`).
pub fn safe_boards_by_queens(n: usize) -> Vec<u64> {
    assert!((1..=32).contains(&n), "n = {n} outside 1..=32");
    let mut levels = vec![0u64; n + 1];
    levels[0] = 1;
    let all = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
    // The first queen in the left half counts twice (its mirror image), the
    // middle file of an odd board once.
    for file in 0..n.div_ceil(2) {
        let weight = if n % 2 == 1 && file == n / 2 { 1 } else { 2 };
        let bit = 1u32 << file;
        let mut walked = vec![0u64; n + 1];
        walk(all, bit, bit << 1, bit >> 1, 1, &mut walked);
        for (level, count) in levels.iter_mut().zip(&walked).skip(1) {
            *level += weight * count;
        }
    }
    levels
}

/// Counts the safe boards below one with `depth` queens (`files`, and the
/// diagonals attacked on the next rank) into `levels`.
fn walk(all: u32, files: u32, rising: u32, falling: u32, depth: usize, levels: &mut [u64]) {
    levels[depth] += 1;
    if files == all {
        return;
    }
    let mut free = all & !(files | rising | falling);
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        walk(
            all,
            files | bit,
            (rising | bit) << 1,
            (falling | bit) >> 1,
            depth + 1,
            levels,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_level_is_the_published_count_and_the_first_is_every_file() {
        for n in 1..=10 {
            let levels = safe_boards_by_queens(n);
            assert_eq!(levels.len(), n + 1);
            assert_eq!((levels[0], levels[1]), (1, n as u64));
            assert_eq!(levels[n], crate::oeis::total(n).unwrap(), "n = {n}");
        }
    }

    #[test]
    fn the_mirror_halving_counts_what_a_plain_walk_counts() {
        for n in 1..=9 {
            let all = (1u32 << n) - 1;
            let mut plain = vec![0u64; n + 1];
            walk(all, 0, 0, 0, 0, &mut plain);
            assert_eq!(plain, safe_boards_by_queens(n), "n = {n}");
        }
    }
}
