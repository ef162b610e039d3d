//! A solution as the harness and the tests see it, independent of how a solver
//! represents boards internally.
//!
//! Convention, shared by every crate: `rows[c]` is the row of the queen in
//! column `c`; columns are numbered 0.. from left to right (files a, b, ...),
//! rows 0.. from bottom to top (ranks 1, 2, ...). Solvers that place queens
//! rank by rank instead of file by file report their boards in this
//! convention too, so that solution sets can be compared as plain sets.

use std::fmt;
use std::str::FromStr;

use crate::QueensError;

/// Largest n for which algebraic notation (one letter per file) exists.
pub const MAX_ALGEBRAIC_N: usize = 26;

/// One queen per column: `rows[c]` is the row (0-based, bottom to top) of the
/// queen in column `c` (0-based, left to right).
///
/// Ordering is lexicographic on `rows`, which is what "the smallest image"
/// means in [`crate::symmetry::canonical`].
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Solution {
    rows: Vec<u8>,
}

impl Solution {
    /// Wraps a row-per-column vector. No validity check: a `Solution` is only a
    /// representation; [`crate::check::is_valid`] decides whether it is one.
    pub fn from_rows(rows: impl Into<Vec<u8>>) -> Self {
        Solution { rows: rows.into() }
    }

    /// The board size.
    pub fn n(&self) -> usize {
        self.rows.len()
    }

    /// `rows()[c]` is the row of the queen in column `c`.
    pub fn rows(&self) -> &[u8] {
        &self.rows
    }

    /// The squares in algebraic chess notation, file `a` first: `a1 c5 ...`.
    pub fn to_algebraic(&self) -> Result<String, QueensError> {
        if self.n() > MAX_ALGEBRAIC_N {
            return Err(QueensError::AlgebraicTooWide { n: self.n() });
        }
        let squares: Vec<String> = self
            .rows
            .iter()
            .enumerate()
            .map(|(col, &row)| square_name(col, row as usize))
            .collect();
        Ok(squares.join(" "))
    }

    /// Reads squares such as `a1 c5 b3` (any order, separated by spaces or
    /// commas). There must be exactly one queen on each of the n files, and
    /// every rank must be on the board; n is the number of squares.
    pub fn from_algebraic(text: &str) -> Result<Self, QueensError> {
        let squares: Vec<(usize, usize)> = text
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|s| !s.is_empty())
            .map(parse_square)
            .collect::<Result<_, _>>()?;
        let n = squares.len();
        if n == 0 {
            return Err(QueensError::BadSquare {
                text: text.to_string(),
                why: "no squares given",
            });
        }
        if n > MAX_ALGEBRAIC_N {
            return Err(QueensError::AlgebraicTooWide { n });
        }
        let mut rows = vec![None; n];
        for (col, row) in squares {
            let why = if col >= n || row >= n {
                format!("{} is off the board", square_name(col, row))
            } else if rows[col].replace(row as u8).is_some() {
                format!("file {} has two queens", file_letter(col))
            } else {
                continue;
            };
            return Err(QueensError::NotOneQueenPerFile { n, why });
        }
        // n squares on n files, none twice: every file has its queen.
        Ok(Solution::from_rows(
            rows.into_iter().flatten().collect::<Vec<u8>>(),
        ))
    }
}

impl fmt::Display for Solution {
    /// Algebraic where possible, else the row list.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.to_algebraic() {
            Ok(text) => f.write_str(&text),
            Err(_) => write!(f, "{:?}", self.rows),
        }
    }
}

impl FromStr for Solution {
    type Err = QueensError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Solution::from_algebraic(s)
    }
}

/// `a`, `b`, ... for columns 0, 1, ... (columns 0..26 only).
pub fn file_letter(col: usize) -> char {
    debug_assert!(col < MAX_ALGEBRAIC_N);
    (b'a' + col as u8) as char
}

/// A file's name in a trace's words: its letter up to z, and past z (the
/// boards of n = 27 and up that some solvers trace) its number in
/// brackets, `[27]`, so that no file goes without a name and a square's
/// rank is not read as more digits of its file (`[27]5`).
pub fn file_name(col: usize) -> String {
    if col < MAX_ALGEBRAIC_N {
        file_label(col)
    } else {
        format!("[{}]", file_label(col))
    }
}

/// A file's name where nothing follows it (under a drawn board): its
/// letter up to z, and past z its number, 1-based as ranks are: `a`, ...,
/// `z`, `27`, `28`. The same names as [`file_name`], without the brackets.
pub fn file_label(col: usize) -> String {
    if col < MAX_ALGEBRAIC_N {
        file_letter(col).to_string()
    } else {
        (col + 1).to_string()
    }
}

fn square_name(col: usize, row: usize) -> String {
    format!("{}{}", file_letter(col), row + 1)
}

fn parse_square(text: &str) -> Result<(usize, usize), QueensError> {
    let bad = |why| QueensError::BadSquare {
        text: text.to_string(),
        why,
    };
    let mut chars = text.chars();
    let file = chars.next().ok_or_else(|| bad("empty"))?;
    if !file.is_ascii_lowercase() {
        return Err(bad("a square starts with a file letter a..z"));
    }
    let rank: usize = chars
        .as_str()
        .parse()
        .map_err(|_| bad("the file letter must be followed by a rank number"))?;
    if rank == 0 {
        return Err(bad("ranks start at 1"));
    }
    Ok(((file as u8 - b'a') as usize, rank - 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn algebraic_names_columns_by_file_and_rows_by_rank() {
        let s = Solution::from_rows(vec![1, 3, 0, 2]);
        assert_eq!(s.to_algebraic().unwrap(), "a2 b4 c1 d3");
    }

    #[test]
    fn algebraic_reading_accepts_any_order_and_commas() {
        let s = Solution::from_algebraic("c1, a2 d3,b4").unwrap();
        assert_eq!(s.rows(), &[1, 3, 0, 2]);
    }

    #[test]
    fn algebraic_reading_rejects_malformed_boards() {
        for bad in ["", "a", "1a", "a0", "A1", "a1 a2", "a1 b9", "a1 c1"] {
            assert!(Solution::from_algebraic(bad).is_err(), "{bad:?} accepted");
        }
    }

    #[test]
    fn algebraic_stops_at_26_files() {
        let s = Solution::from_rows(vec![0; 27]);
        assert_eq!(
            s.to_algebraic(),
            Err(QueensError::AlgebraicTooWide { n: 27 })
        );
    }

    proptest! {
        #[test]
        fn algebraic_round_trips(perm in (1usize..=26).prop_flat_map(|n| Just((0..n as u8).collect::<Vec<_>>()).prop_shuffle())) {
            let s = Solution::from_rows(perm);
            let text = s.to_algebraic().unwrap();
            prop_assert_eq!(Solution::from_algebraic(&text).unwrap(), s);
        }
    }
}
