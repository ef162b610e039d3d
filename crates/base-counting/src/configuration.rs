//! The document's `Configuration`: an n-digit base-(n+1) number, one digit
//! per file, file a the most significant. A digit is the rank (1..=n) of the
//! file's queen, 0 an empty file. The files are filled from file a, so the
//! empty files are always the trailing zeros and the number is stored as its
//! leading non-zero digits and their count.

use std::fmt;

/// A digit: the rank of a file's queen, 0 for none.
pub type Digit = u8;

/// The largest n: the configuration is a base-(n+1) number of n digits, and
/// it is kept small enough to fit a `u64` as a whole (16^15 = 2^60, while
/// 17^16 > 2^64), so that the count of numbers a skip jumps over, and the
/// size of the whole range, are exact machine integers. The digits
/// themselves are `u8` ranks.
pub const MAX_N: usize = 15;

/// Why the newest queen is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clash {
    Rank,
    Diagonal,
}

/// How a counting rule changed the number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// A queen was added on rank 1 of the next empty file.
    Added,
    /// Files at the top were emptied (`dropped` of them) and the rightmost
    /// remaining queen moved up one rank.
    Raised { dropped: usize },
}

/// A board of n files, filled from file a.
#[derive(Clone)]
pub struct Configuration {
    n: usize,
    /// Number of non-zero digits (queens); `digits[..len]` are their ranks.
    len: usize,
    digits: [Digit; MAX_N],
}

impl Configuration {
    /// The empty board: the number 0.
    pub fn empty(n: usize) -> Self {
        assert!((1..=MAX_N).contains(&n), "n checked by the caller");
        Configuration {
            n,
            len: 0,
            digits: [0; MAX_N],
        }
    }

    /// The ranks of the queens, file a first.
    pub fn queens(&self) -> &[Digit] {
        &self.digits[..self.len]
    }

    pub fn n(&self) -> usize {
        self.n
    }

    pub fn is_full(&self) -> bool {
        self.len == self.n
    }

    /// The document's `advance`: the next number worth considering, ignoring
    /// validity. A queen is added while there is an empty file (a number
    /// with a zero digit before a non-zero one can never become a solution,
    /// so plain +1 would waste time); a full board moves its rightmost queen
    /// up. `None` when every queen is on the top rank.
    #[inline]
    pub fn advance(&mut self) -> Option<Change> {
        let top = self.n as Digit;
        if self.len < self.n {
            self.digits[self.len] = 1;
            self.len += 1;
            return Some(Change::Added);
        }
        // `allAtTop`: only reached on a full board, i.e. after a solution.
        if self.queens().iter().all(|&rank| rank == top) {
            return None;
        }
        if self.digits[self.len - 1] < top {
            self.digits[self.len - 1] += 1;
            return Some(Change::Raised { dropped: 0 });
        }
        self.len -= 1;
        self.advance_without_adding().map(|change| match change {
            Change::Raised { dropped } => Change::Raised {
                dropped: dropped + 1,
            },
            Change::Added => change,
        })
    }

    /// The document's `advanceWithoutAdding`: the least increase that does
    /// not add a queen, i.e. the first number that does not start with this
    /// one's digits: move the rightmost queen up, emptying files whose queen
    /// is already on the top rank (a carry). `None` when file a's queen is
    /// on the top rank: counting is over.
    #[inline]
    pub fn advance_without_adding(&mut self) -> Option<Change> {
        let top = self.n as Digit;
        let mut dropped = 0;
        while self.len > 0 {
            let rightmost = &mut self.digits[self.len - 1];
            if *rightmost < top {
                *rightmost += 1;
                return Some(Change::Raised { dropped });
            }
            if self.len == 1 {
                return None;
            }
            self.len -= 1;
            dropped += 1;
        }
        // The document's `advanceWithoutAdding [] = Just []`.
        Some(Change::Raised { dropped })
    }

    /// The document's `valid`, reduced to its first test: does the newest
    /// (rightmost) queen threaten any other? The rest of `valid` re-checks
    /// the configuration without her, which the odometer has already found
    /// valid (see the crate doc), so it is not repeated. Returns the file of
    /// the first queen she threatens, scanning from file a as `map` does.
    #[inline]
    pub fn newest_clash(&self) -> Option<(usize, Clash)> {
        let (&newest, others) = self.queens().split_last()?;
        let newest_file = others.len();
        others.iter().enumerate().find_map(|(file, &rank)| {
            if rank == newest {
                Some((file, Clash::Rank))
            } else if rank.abs_diff(newest) as usize == newest_file - file {
                Some((file, Clash::Diagonal))
            } else {
                None
            }
        })
    }

    /// The board in the shared convention: `rows[c]` = row (0-based) of the
    /// queen in column c (file c).
    pub fn write_rows(&self, rows: &mut [u8]) {
        for (row, &rank) in rows.iter_mut().zip(self.queens()) {
            *row = rank - 1;
        }
    }

    /// How many n-digit numbers start with the first `prefix` digits:
    /// (n+1)^(n - prefix). With `prefix` = 0, the whole range.
    pub fn numbers_with_prefix(&self, prefix: usize) -> u64 {
        (self.n as u64 + 1).pow((self.n - prefix) as u32)
    }

    /// The digits with the trailing zeros, and `_` in place of digits from
    /// `wildcards_from` on (to show a skipped prefix). Single characters up
    /// to base 10, dot-separated beyond.
    pub fn number(&self, wildcards_from: usize) -> String {
        let digit = |file: usize| {
            if file >= wildcards_from {
                "_".to_string()
            } else {
                self.digits
                    .get(file)
                    .filter(|_| file < self.len)
                    .copied()
                    .unwrap_or(0)
                    .to_string()
            }
        };
        let separator = if self.n <= 9 { "" } else { "." };
        (0..self.n).map(digit).collect::<Vec<_>>().join(separator)
    }
}

impl fmt::Debug for Configuration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number(self.n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_digits(n: usize, digits: &[Digit]) -> Configuration {
        let mut c = Configuration::empty(n);
        c.digits[..digits.len()].copy_from_slice(digits);
        c.len = digits.len();
        c
    }

    #[test]
    fn advance_adds_then_raises_then_carries() {
        let mut c = Configuration::empty(4);
        assert_eq!(c.advance(), Some(Change::Added));
        assert_eq!(c.number(4), "1000");
        let mut full = with_digits(4, &[2, 4, 1, 3]);
        assert_eq!(full.advance(), Some(Change::Raised { dropped: 0 }));
        assert_eq!(full.number(4), "2414");
        let mut carry = with_digits(4, &[2, 4, 4, 4]);
        assert_eq!(carry.advance(), Some(Change::Raised { dropped: 3 }));
        assert_eq!(carry.number(4), "3000");
        assert_eq!(with_digits(4, &[4, 4, 4, 4]).advance(), None);
    }

    #[test]
    fn advance_without_adding_never_adds() {
        let mut c = with_digits(5, &[1, 3]);
        assert_eq!(
            c.advance_without_adding(),
            Some(Change::Raised { dropped: 0 })
        );
        assert_eq!(c.number(5), "14000");
        let mut c = with_digits(5, &[1, 5]);
        assert_eq!(
            c.advance_without_adding(),
            Some(Change::Raised { dropped: 1 })
        );
        assert_eq!(c.number(5), "20000");
        assert_eq!(with_digits(5, &[5, 5]).advance_without_adding(), None);
    }

    #[test]
    fn the_one_by_one_board_ends_after_its_solution() {
        let mut c = Configuration::empty(1);
        assert_eq!(c.advance(), Some(Change::Added));
        assert!(c.is_full());
        assert_eq!(c.advance(), None);
    }

    #[test]
    fn newest_queen_is_tested_against_the_others() {
        assert_eq!(with_digits(4, &[1, 3]).newest_clash(), None);
        assert_eq!(
            with_digits(4, &[1, 1]).newest_clash(),
            Some((0, Clash::Rank))
        );
        assert_eq!(
            with_digits(4, &[3, 1, 1]).newest_clash(),
            Some((0, Clash::Diagonal))
        );
        assert_eq!(with_digits(4, &[1]).newest_clash(), None);
    }

    #[test]
    fn numbers_show_trailing_zeros_and_wildcards() {
        let c = with_digits(4, &[1, 3]);
        assert_eq!(c.number(4), "1300");
        assert_eq!(c.number(2), "13__");
        assert_eq!(with_digits(10, &[10]).number(1), "10._._._._._._._._._");
        assert_eq!(c.numbers_with_prefix(2), 25);
        assert_eq!(Configuration::empty(MAX_N).numbers_with_prefix(0), 1 << 60);
    }
}
