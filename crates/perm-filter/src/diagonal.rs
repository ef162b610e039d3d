//! The test half of generate-and-test: do two queens of a permutation share a
//! diagonal?
//!
//! The blog post's own observation does the work: on one rising diagonal the
//! difference column - row is the same, on one falling diagonal the sum
//! column + row is the same. So a permutation is safe exactly when its n sums
//! are distinct and its n differences are distinct, which one pass over the
//! columns with two bit sets decides, stopping at the first repeat.

use std::fmt;

/// Largest board whose 2n - 1 sums (and differences) fit in one [`u64`] bit set.
pub const MAX_DIAGONAL_N: usize = 32;

/// The order in which the test visits the columns. A generator that keeps
/// one end of the permutation fixed for long stretches wants the test to
/// start there: a clash inside the fixed part then rejects the permutation at
/// the same place, on the same predictable branch, until that part changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Walk {
    /// Column 0 first (suits lexicographic order, whose prefix changes least).
    FirstToLast,
    /// Column n - 1 first (suits Heap's algorithm, whose suffix changes least).
    LastToFirst,
}

/// The first column (in `walk` order) whose queen lands on a diagonal that an
/// already visited column's queen holds, or `None` when the permutation is a
/// solution. Rows must be a permutation of `0..n` with n <= [`MAX_DIAGONAL_N`].
#[inline(always)]
pub fn first_clash_column(rows: &[u8], walk: Walk) -> Option<usize> {
    match walk {
        Walk::FirstToLast => first_clash_in(rows, 0..rows.len()),
        Walk::LastToFirst => first_clash_in(rows, (0..rows.len()).rev()),
    }
}

#[inline(always)]
fn first_clash_in(rows: &[u8], columns: impl Iterator<Item = usize>) -> Option<usize> {
    let n = rows.len();
    debug_assert!(n <= MAX_DIAGONAL_N);
    let mut sums = 0u64;
    let mut differences = 0u64;
    for col in columns {
        let row = rows[col] as usize;
        let sum = 1u64 << (col + row);
        // Offset by n - 1 so that the difference is never negative.
        let difference = 1u64 << (col + n - 1 - row);
        if sums & sum != 0 || differences & difference != 0 {
            return Some(col);
        }
        sums |= sum;
        differences |= difference;
    }
    None
}

/// Which of the two diagonals two queens share.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Diagonal {
    /// Same column - row: a rising diagonal (the post's `X1 is Y1 + X2 - Y2`).
    Rising,
    /// Same column + row: a falling diagonal (the post's `X1 is (X2 + Y2) - Y1`).
    Falling,
}

/// The first clash of a rejected permutation, for the trace: the two columns
/// (left one first) and the diagonal they share.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clash {
    pub left: usize,
    pub right: usize,
    pub diagonal: Diagonal,
}

impl Clash {
    /// Explains why `first_clash_column(rows, walk)` returned `Some(stop)`:
    /// the first visited column whose queen shares a diagonal with `stop`'s.
    pub fn find(rows: &[u8], stop: usize, walk: Walk) -> Clash {
        let (col_b, row_b) = (stop as i64, rows[stop] as i64);
        let mut visited: Box<dyn Iterator<Item = usize>> = match walk {
            Walk::FirstToLast => Box::new(0..stop),
            Walk::LastToFirst => Box::new((stop + 1..rows.len()).rev()),
        };
        visited
            .find_map(|earlier| {
                let (col_a, row_a) = (earlier as i64, rows[earlier] as i64);
                let diagonal = if col_a - row_a == col_b - row_b {
                    Diagonal::Rising
                } else if col_a + row_a == col_b + row_b {
                    Diagonal::Falling
                } else {
                    return None;
                };
                Some(Clash {
                    left: earlier.min(stop),
                    right: earlier.max(stop),
                    diagonal,
                })
            })
            .expect("first_clash_column only stops at a repeated diagonal")
    }
}

/// In the post's terms: queens are `[X,Y]` pairs, both counted from 1.
pub(crate) struct InPostTerms<'a>(pub &'a [u8], pub Clash);

impl fmt::Display for InPostTerms<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let InPostTerms(rows, clash) = self;
        let queen = |col: usize| (col + 1, rows[col] as usize + 1);
        let (x1, y1) = queen(clash.left);
        let (x2, y2) = queen(clash.right);
        match clash.diagonal {
            Diagonal::Rising => write!(
                f,
                "[{x1},{y1}] and [{x2},{y2}] share X - Y = {}",
                x1 as i64 - y1 as i64
            ),
            Diagonal::Falling => write!(f, "[{x1},{y1}] and [{x2},{y2}] share X + Y = {}", x1 + y1),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use queens_core::check;

    /// Every permutation of 0..n, by plain recursion (independent of both
    /// generators).
    fn all_permutations(n: u8) -> Vec<Vec<u8>> {
        if n == 0 {
            return vec![Vec::new()];
        }
        all_permutations(n - 1)
            .into_iter()
            .flat_map(|shorter| {
                (0..n).map(move |row| {
                    let mut longer: Vec<u8> =
                        shorter.iter().map(|&r| r + u8::from(r >= row)).collect();
                    longer.push(row);
                    longer
                })
            })
            .collect()
    }

    const WALKS: [Walk; 2] = [Walk::FirstToLast, Walk::LastToFirst];

    #[test]
    fn agrees_with_the_independent_checker_on_every_permutation_up_to_7() {
        for n in 1..=7 {
            for rows in all_permutations(n) {
                for walk in WALKS {
                    assert_eq!(
                        first_clash_column(&rows, walk).is_none(),
                        check::is_valid(&rows),
                        "{rows:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_named_clash_is_a_real_shared_diagonal() {
        let shares_diagonal = |rows: &[u8], a: usize, b: usize| {
            (rows[a] as i64 - rows[b] as i64).abs() == (b as i64 - a as i64).abs()
        };
        for rows in all_permutations(6) {
            for walk in WALKS {
                let Some(stop) = first_clash_column(&rows, walk) else {
                    continue;
                };
                let clash = Clash::find(&rows, stop, walk);
                assert!(clash.left < clash.right);
                assert!(clash.left == stop || clash.right == stop);
                assert!(shares_diagonal(&rows, clash.left, clash.right), "{rows:?}");
                // It is the first: the columns visited before `stop` are clash-free.
                let visited: Vec<usize> = match walk {
                    Walk::FirstToLast => (0..stop).collect(),
                    Walk::LastToFirst => (stop + 1..rows.len()).collect(),
                };
                for (i, &x) in visited.iter().enumerate() {
                    for &y in &visited[i + 1..] {
                        assert!(!shares_diagonal(&rows, x, y), "{rows:?} {walk:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn clash_text_uses_the_posts_one_based_pairs() {
        let rows = [0, 1, 3, 2];
        let stop = first_clash_column(&rows, Walk::FirstToLast).unwrap();
        let text = InPostTerms(&rows, Clash::find(&rows, stop, Walk::FirstToLast)).to_string();
        assert_eq!(text, "[1,1] and [2,2] share X - Y = 0");
        let stop = first_clash_column(&rows, Walk::LastToFirst).unwrap();
        let text = InPostTerms(&rows, Clash::find(&rows, stop, Walk::LastToFirst)).to_string();
        assert_eq!(text, "[3,4] and [4,3] share X + Y = 7");
    }
}
