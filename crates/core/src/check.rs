//! The independent validity checker: a plain pairwise test of every two
//! queens, written for obviousness rather than speed. It shares no code or
//! representation with any solver, so a bug in a solver's bit tricks cannot
//! hide in here too.

use std::collections::BTreeSet;
use std::fmt;
use std::ops::ControlFlow;

use crate::Solver;

/// Why a board is not a solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Violation {
    /// A queen's row is outside 0..n.
    OffBoard {
        /// The queen's column (file).
        col: usize,
        /// Its row, which is not below n.
        row: usize,
    },
    /// Two queens on one row (rank).
    SameRow {
        /// The first queen's column.
        a: usize,
        /// The second queen's column.
        b: usize,
    },
    /// Two queens on one diagonal (|row difference| == |column difference|).
    SameDiagonal {
        /// The first queen's column.
        a: usize,
        /// The second queen's column.
        b: usize,
    },
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Violation::OffBoard { col, row } => {
                write!(
                    f,
                    "the queen in column {col} is on row {row}, off the board"
                )
            }
            Violation::SameRow { a, b } => {
                write!(f, "the queens in columns {a} and {b} share a row")
            }
            Violation::SameDiagonal { a, b } => {
                write!(f, "the queens in columns {a} and {b} share a diagonal")
            }
        }
    }
}

/// Checks that `rows` (row of the queen in each column) places n queens on an
/// n×n board with no two attacking each other. Columns cannot clash: the
/// representation has one queen per column by construction.
pub fn check(rows: &[u8]) -> Result<(), Violation> {
    let n = rows.len();
    for (col, &row) in rows.iter().enumerate() {
        if row as usize >= n {
            return Err(Violation::OffBoard {
                col,
                row: row as usize,
            });
        }
    }
    for a in 0..n {
        for b in a + 1..n {
            let (row_a, row_b) = (rows[a] as i64, rows[b] as i64);
            if row_a == row_b {
                return Err(Violation::SameRow { a, b });
            }
            if (row_a - row_b).abs() == (b - a) as i64 {
                return Err(Violation::SameDiagonal { a, b });
            }
        }
    }
    Ok(())
}

/// `check(rows).is_ok()`.
pub fn is_valid(rows: &[u8]) -> bool {
    check(rows).is_ok()
}

/// The boards a solver lists for n, as a sorted set, after checking each with
/// [`check`] and that none is listed twice. The error names the board and the
/// rule it broke. Holds every board in memory: for tests and cross-checks.
pub fn checked_listing(solver: &dyn Solver, n: usize) -> Result<BTreeSet<Vec<u8>>, String> {
    let id = solver.info().id;
    let mut boards = BTreeSet::new();
    let mut problem = None;
    solver
        .enumerate(n, &mut |rows| {
            let broken = if rows.len() != n {
                Some(format!("a board of size {}", rows.len()))
            } else if let Err(violation) = check(rows) {
                Some(format!("{rows:?}, which is not a solution: {violation}"))
            } else if !boards.insert(rows.to_vec()) {
                Some(format!("{rows:?} twice"))
            } else {
                None
            };
            match broken {
                Some(what) => {
                    problem = Some(format!("n = {n}: {id} listed {what}"));
                    ControlFlow::Break(())
                }
                None => ControlFlow::Continue(()),
            }
        })
        .map_err(|e| format!("n = {n}: {e}"))?;
    match problem {
        Some(message) => Err(message),
        None => Ok(boards),
    }
}

/// Every solution of the n×n board by brute force: all n! permutations of
/// the rows, kept when [`check`] accepts them, in lexicographic order. It
/// shares nothing with the solvers, so tests use it as the independent
/// reference set. O(n! · n²): meant for n <= 9.
pub fn brute_force_solutions(n: usize) -> Vec<Vec<u8>> {
    fn extend(rows: &mut Vec<u8>, n: usize, used: &mut Vec<bool>, out: &mut Vec<Vec<u8>>) {
        if rows.len() == n {
            if is_valid(rows) {
                out.push(rows.clone());
            }
            return;
        }
        for row in 0..n {
            if !used[row] {
                used[row] = true;
                rows.push(row as u8);
                extend(rows, n, used, out);
                rows.pop();
                used[row] = false;
            }
        }
    }
    let mut out = Vec::new();
    extend(&mut Vec::with_capacity(n), n, &mut vec![false; n], &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_a_known_solution() {
        assert_eq!(check(&[1, 3, 0, 2]), Ok(()));
        assert_eq!(check(&[0, 4, 7, 5, 2, 6, 1, 3]), Ok(()));
        assert_eq!(check(&[0]), Ok(()));
    }

    #[test]
    fn rejects_a_shared_row() {
        assert_eq!(check(&[1, 3, 1, 0]), Err(Violation::SameRow { a: 0, b: 2 }));
    }

    #[test]
    fn rejects_a_rising_diagonal() {
        assert_eq!(check(&[0, 2, 4, 1, 3]), Ok(()));
        assert_eq!(
            check(&[0, 3, 2, 4, 1]),
            Err(Violation::SameDiagonal { a: 0, b: 2 })
        );
    }

    #[test]
    fn rejects_a_falling_diagonal_far_apart() {
        // Columns 0 and 3, rows 3 and 0.
        assert_eq!(
            check(&[3, 1, 2, 0]).unwrap_err(),
            Violation::SameDiagonal { a: 0, b: 3 }
        );
    }

    #[test]
    fn rejects_off_board_rows() {
        assert_eq!(
            check(&[0, 4, 1, 3]),
            Err(Violation::OffBoard { col: 1, row: 4 })
        );
    }

    #[test]
    fn brute_force_finds_the_published_counts() {
        for n in 1..=8 {
            let all = brute_force_solutions(n);
            assert_eq!(all.len() as u64, crate::oeis::total(n).unwrap(), "n = {n}");
            assert!(all.windows(2).all(|w| w[0] < w[1]), "sorted and distinct");
        }
    }

    #[test]
    fn two_and_three_have_no_solution_among_all_boards() {
        for n in 2..=3u8 {
            let boards = (0..n.pow(n as u32)).map(|mut code| {
                (0..n)
                    .map(|_| {
                        let row = code % n;
                        code /= n;
                        row
                    })
                    .collect::<Vec<u8>>()
            });
            assert_eq!(boards.filter(|b| is_valid(b)).count(), 0);
        }
    }
}
