//! The independent validity checkers. [`check`] is a plain pairwise test
//! of every two queens, written for obviousness rather than speed;
//! [`check_linear`] marks rows and diagonals in arrays, for the boards of
//! millions of queens the finders return. They share no code or
//! representation with any solver (nor with each other), so a bug in a
//! solver's bit tricks cannot hide in here too.

use std::collections::BTreeSet;
use std::ops::ControlFlow;

use crate::Solver;

/// Why a board is not a solution.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Violation {
    /// A queen's row is outside 0..n.
    #[error("the queen in column {col} is on row {row}, off the board")]
    OffBoard {
        /// The queen's column (file).
        col: usize,
        /// Its row, which is not below n.
        row: usize,
    },
    /// Two queens on one row (rank).
    #[error("the queens in columns {a} and {b} share a row")]
    SameRow {
        /// The first queen's column.
        a: usize,
        /// The second queen's column.
        b: usize,
    },
    /// Two queens on one diagonal (|row difference| == |column difference|).
    #[error("the queens in columns {a} and {b} share a diagonal")]
    SameDiagonal {
        /// The first queen's column.
        a: usize,
        /// The second queen's column.
        b: usize,
    },
}

/// Checks that `rows` (row of the queen in each column) places n queens on an
/// n×n board with no two attacking each other. Columns cannot clash: the
/// representation has one queen per column by construction.
pub fn check(rows: &[u8]) -> Result<(), Violation> {
    check_wide(rows)
}

/// [`check`] for boards held one `u32` per file (a finder's
/// [`crate::find::Placement`]), or any other unsigned row: the same
/// pairwise test, O(n²), so meant for boards of some thousands of files;
/// [`check_linear`] takes any size.
pub fn check_wide<R: Copy + Into<u64>>(rows: &[R]) -> Result<(), Violation> {
    let n = rows.len();
    for (col, &row) in rows.iter().enumerate() {
        let row: u64 = row.into();
        if row >= n as u64 {
            return Err(Violation::OffBoard {
                col,
                row: row as usize,
            });
        }
    }
    for a in 0..n {
        for b in a + 1..n {
            let (row_a, row_b) = (rows[a].into() as i64, rows[b].into() as i64);
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

/// The independent checker for boards of any size, in O(n) time: one mark
/// per row and per diagonal (a rising diagonal is where `row - col` is
/// constant, a falling one where `row + col` is), each looked at once per
/// queen, so 10^8 queens take a fraction of a second and 5n bits. It shares
/// nothing with [`check`] but the [`Violation`] it reports; the tests hold
/// the two to the same verdict on every small board. The reported pair is
/// the first queen that meets an earlier one (scanning files left to
/// right) and that earlier one, found by a second scan, so no per-row
/// column table is kept.
pub fn check_linear(rows: &[u32]) -> Result<(), Violation> {
    let n = rows.len();
    // The three lines through the queen on file `col`, numbered apart in
    // one set of marks: its row (0..n), its rising diagonal (row - col,
    // shifted to n..3n) and its falling one (row + col, at 3n..5n).
    let lines = |col: usize, row: usize| [row, 2 * n + row - col, 3 * n + row + col];
    let mut marks = Marks::new(5 * n);
    for (col, &row) in rows.iter().enumerate() {
        let row = row as usize;
        if row >= n {
            return Err(Violation::OffBoard { col, row });
        }
        let mine = lines(col, row);
        if let Some(line) = mine.iter().position(|&at| marks.mark(at)) {
            // The earlier queen on that line, found by a second scan.
            let a = (rows[..col].iter().enumerate())
                .position(|(c, &r)| lines(c, r as usize)[line] == mine[line])
                .unwrap_or(0);
            return Err(match line {
                0 => Violation::SameRow { a, b: col },
                _ => Violation::SameDiagonal { a, b: col },
            });
        }
    }
    Ok(())
}

/// A set of small numbers as bits: what the linear checker marks.
struct Marks(Vec<u64>);

impl Marks {
    fn new(len: usize) -> Self {
        Marks(vec![0; len.div_ceil(64)])
    }

    /// Marks `i`; whether it was marked already.
    fn mark(&mut self, i: usize) -> bool {
        let (word, bit) = (i / 64, 1u64 << (i % 64));
        let was = self.0[word] & bit != 0;
        self.0[word] |= bit;
        was
    }
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
            problem = if rows.len() != n {
                Some(format!("a board of size {}", rows.len()))
            } else if let Err(violation) = check(rows) {
                Some(format!("{rows:?}, which is not a solution: {violation}"))
            } else if !boards.insert(rows.to_vec()) {
                Some(format!("{rows:?} twice"))
            } else {
                return ControlFlow::Continue(());
            };
            ControlFlow::Break(())
        })
        .map_err(|e| format!("n = {n}: {e}"))?;
    match problem {
        Some(what) => Err(format!("n = {n}: {id} listed {what}")),
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
    use proptest::strategy::Strategy;

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

    #[test]
    fn the_linear_checker_accepts_and_refuses_what_the_pairwise_one_does() {
        assert_eq!(check_linear(&[1, 3, 0, 2]), Ok(()));
        assert_eq!(check_linear(&[]), Ok(()));
        assert_eq!(
            check_linear(&[1, 3, 1, 0]),
            Err(Violation::SameRow { a: 0, b: 2 })
        );
        assert_eq!(
            check_linear(&[0, 4, 1, 3]),
            Err(Violation::OffBoard { col: 1, row: 4 })
        );
        // Columns 0 and 3 on the falling diagonal, 1 and 2 on a rising one:
        // the linear scan meets column 2 first.
        assert_eq!(
            check_linear(&[3, 1, 2, 0]),
            Err(Violation::SameDiagonal { a: 1, b: 2 })
        );
    }

    /// Whether the violation names two queens that really attack (or a
    /// queen really off the board).
    fn is_real(rows: &[u32], violation: &Violation) -> bool {
        let n = rows.len() as i64;
        match *violation {
            Violation::OffBoard { col, row } => rows[col] as usize == row && row as i64 >= n,
            Violation::SameRow { a, b } => a < b && rows[a] == rows[b],
            Violation::SameDiagonal { a, b } => {
                a < b && (rows[a] as i64 - rows[b] as i64).abs() == (b - a) as i64
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn linear_and_pairwise_checkers_agree_on_any_board(
            rows in (0usize..=40).prop_flat_map(|n| {
                proptest::collection::vec(0..(n as u32 + 1).max(1), n)
            })
        ) {
            let pairwise = check_wide(&rows);
            let linear = check_linear(&rows);
            proptest::prop_assert_eq!(pairwise.is_ok(), linear.is_ok(), "{:?}", rows);
            if let Err(v) = &linear {
                proptest::prop_assert!(is_real(&rows, v), "{:?}: {:?}", rows, v);
            }
            let bytes: Vec<u8> = rows.iter().map(|&r| r as u8).collect();
            proptest::prop_assert_eq!(check(&bytes), pairwise);
        }

        #[test]
        fn the_checkers_agree_on_permutations_where_solutions_are_common(
            rows in (1usize..=12).prop_flat_map(|n| {
                proptest::strategy::Just((0..n as u32).collect::<Vec<u32>>()).prop_shuffle()
            })
        ) {
            proptest::prop_assert_eq!(check_wide(&rows).is_ok(), check_linear(&rows).is_ok());
        }
    }

    #[test]
    fn the_checkers_agree_on_every_permutation_up_to_seven() {
        fn each(rows: &mut Vec<u32>, n: u32, seen: &mut usize) {
            if rows.len() == n as usize {
                assert_eq!(
                    check_wide(rows).is_ok(),
                    check_linear(rows).is_ok(),
                    "{rows:?}"
                );
                *seen += usize::from(check_linear(rows).is_ok());
                return;
            }
            for row in 0..n {
                if rows.contains(&row) {
                    continue;
                }
                rows.push(row);
                each(rows, n, seen);
                rows.pop();
            }
        }
        for n in 1..=7 {
            let mut solutions = 0;
            each(&mut Vec::new(), n, &mut solutions);
            assert_eq!(solutions as u64, crate::oeis::total(n as usize).unwrap());
        }
    }
}
