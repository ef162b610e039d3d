//! The machine word that holds a whole board, one bit per square.
//!
//! The search is written once against [`Word`]; `u64` (the document's
//! `Word64`) and `u128` implement it, so the same code shows where the
//! representation stops: an n×n board needs n² bits.

use std::fmt::Debug;
use std::ops::{BitAnd, BitAndAssign, BitOr, Not, Shl, Shr};

use crate::threats;

/// An unsigned integer wide enough for n² bits, with the bit tricks the
/// search needs.
pub trait Word:
    Copy
    + Eq
    + Ord
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitAndAssign
    + BitOr<Output = Self>
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
{
    const ZERO: Self;
    const ONE: Self;
    /// The document's `emptyMask`: every bit set (nothing threatened, no move).
    const ALL: Self;
    /// The type's name as users know it, e.g. `u64`.
    const NAME: &'static str;
    /// Largest n with n² <= bits in the word.
    const MAX_N: usize;

    /// The compile-time threat masks of every square of the n×n board
    /// (index = row * n + col); 0 = threatened by a queen on that square.
    fn threat_masks(n: usize) -> &'static [Self];

    /// The word with only the lowest set bit of `self` kept.
    fn lowest_bit(self) -> Self;
    /// `self` with its lowest set bit cleared.
    fn without_lowest_bit(self) -> Self;
    fn trailing_zeros(self) -> u32;
    /// Widening, for printing and for tests that compare words of both types.
    fn to_u128(self) -> u128;
}

/// Largest n whose n² squares fit in `bits` bits.
const fn max_n_for(bits: u32) -> usize {
    let mut n = 0;
    while (n + 1) * (n + 1) <= bits as usize {
        n += 1;
    }
    n
}

macro_rules! impl_word {
    ($word:ty, $table:path) => {
        impl Word for $word {
            const ZERO: Self = 0;
            const ONE: Self = 1;
            const ALL: Self = <$word>::MAX;
            const NAME: &'static str = stringify!($word);
            const MAX_N: usize = max_n_for(<$word>::BITS);

            #[inline(always)]
            fn threat_masks(n: usize) -> &'static [Self] {
                &$table[n][..n * n]
            }

            #[inline(always)]
            fn lowest_bit(self) -> Self {
                // In two's complement -x = !x + 1: the +1 carries through
                // the trailing zeros of !x and stops at x's lowest 1.
                self & self.wrapping_neg()
            }

            #[inline(always)]
            fn without_lowest_bit(self) -> Self {
                self & self.wrapping_sub(1)
            }

            #[inline(always)]
            fn trailing_zeros(self) -> u32 {
                <$word>::trailing_zeros(self)
            }

            #[inline(always)]
            fn to_u128(self) -> u128 {
                self as u128
            }
        }
    };
}

impl_word!(u64, threats::U64_TABLE);
impl_word!(u128, threats::U128_TABLE);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_follow_from_the_word_width() {
        assert_eq!(<u64 as Word>::MAX_N, 8);
        assert_eq!(<u128 as Word>::MAX_N, 11);
    }

    #[test]
    fn lowest_bit_tricks() {
        assert_eq!(0b1011_0100u64.lowest_bit(), 0b100);
        assert_eq!(0b1011_0100u64.without_lowest_bit(), 0b1011_0000);
        assert_eq!((1u128 << 100 | 1 << 120).lowest_bit(), 1u128 << 100);
    }
}
