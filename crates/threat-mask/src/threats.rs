//! The document's `getThreatMask`, evaluated by the compiler: a table of
//! every square's threat mask for every board size, so that the search never
//! computes one.
//!
//! `const fn` cannot be generic over a trait with operators on stable Rust,
//! so the table is built once in the widest word and narrowed for `u64`:
//! for n <= 8 every square index is below 64, so dropping the high half
//! loses nothing.

/// Largest n of any word (u128: 11² = 121 <= 128).
const WIDEST_N: usize = 11;
const WIDEST_SQUARES: usize = WIDEST_N * WIDEST_N;
const NARROW_N: usize = 8;
const NARROW_SQUARES: usize = NARROW_N * NARROW_N;

/// The document's `isThreatened` on the n×n board: same column, same row or
/// a shared diagonal (a square threatens itself).
const fn is_threatened(n: usize, a: usize, b: usize) -> bool {
    let (row_a, col_a) = (a / n, a % n);
    let (row_b, col_b) = (b / n, b % n);
    col_a == col_b
        || row_a == row_b
        || col_a + row_a == col_b + row_b
        || col_a + row_b == col_b + row_a
}

/// Every square's mask on every board: all ones with the threatened squares
/// cleared (bits beyond n² stay set, like the document's `emptyMask`).
const fn widest_table() -> [[u128; WIDEST_SQUARES]; WIDEST_N + 1] {
    let mut table = [[u128::MAX; WIDEST_SQUARES]; WIDEST_N + 1];
    let mut n = 1;
    while n <= WIDEST_N {
        let mut square = 0;
        while square < n * n {
            let mut other = 0;
            while other < n * n {
                if is_threatened(n, square, other) {
                    table[n][square] &= !(1u128 << other);
                }
                other += 1;
            }
            square += 1;
        }
        n += 1;
    }
    table
}

const fn narrow_table(
    wide: &[[u128; WIDEST_SQUARES]; WIDEST_N + 1],
) -> [[u64; NARROW_SQUARES]; NARROW_N + 1] {
    let mut table = [[u64::MAX; NARROW_SQUARES]; NARROW_N + 1];
    let mut n = 1;
    while n <= NARROW_N {
        let mut square = 0;
        while square < n * n {
            table[n][square] = wide[n][square] as u64;
            square += 1;
        }
        n += 1;
    }
    table
}

pub(crate) static U128_TABLE: [[u128; WIDEST_SQUARES]; WIDEST_N + 1] = widest_table();
pub(crate) static U64_TABLE: [[u64; NARROW_SQUARES]; NARROW_N + 1] = narrow_table(&U128_TABLE);

#[cfg(test)]
mod tests {
    use super::*;

    /// A queen on b2 of a 4×4 board (square 5) attacks its row, column and
    /// both diagonals: everything except a4, c4, d1 and d3 (and itself).
    #[test]
    fn mask_of_b2_on_four_by_four() {
        let mask = U128_TABLE[4][5] & 0xffff;
        let open: Vec<usize> = (0..16).filter(|&s| mask >> s & 1 == 1).collect();
        // Squares as row * 4 + col: d1 = 3, d3 = 11, a4 = 12, c4 = 14.
        assert_eq!(open, vec![3, 11, 12, 14]);
    }

    #[test]
    fn narrow_table_is_the_low_half_of_the_wide_one() {
        for n in 1..=NARROW_N {
            for square in 0..n * n {
                assert_eq!(
                    U64_TABLE[n][square] as u128,
                    U128_TABLE[n][square] as u64 as u128
                );
            }
        }
    }

    #[test]
    fn threat_is_symmetric_and_counts_match_a_queen_move() {
        for (n, masks) in U128_TABLE.iter().enumerate().skip(1) {
            for (a, &mask) in masks[..n * n].iter().enumerate() {
                for b in 0..n * n {
                    assert_eq!(is_threatened(n, a, b), is_threatened(n, b, a));
                }
                let (row, col) = (a / n, a % n);
                let reach = (0..n * n)
                    .filter(|&b| {
                        let (r, c) = (b / n, b % n);
                        r == row || c == col || r.abs_diff(row) == c.abs_diff(col)
                    })
                    .count();
                assert_eq!((!mask).count_ones() as usize, reach);
            }
        }
    }
}
