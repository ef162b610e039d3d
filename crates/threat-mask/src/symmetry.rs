//! The document's deduplication, on its own representation: a set of moves is
//! a word with a 0 for each queen (`MoveMask`), and its canonical form is the
//! smallest of the eight words that the symmetries of the square make of it.
//!
//! Two solutions are the same up to symmetry exactly when their canonical
//! words are equal, so a solution represents its class when it *is* its
//! canonical word. Counting those counts the classes with nothing stored,
//! where the document collects every canonical word and removes repeats
//! (`nub . map canonical`); the classes are the same.

use crate::word::Word;

/// A square as the document's `BoardPosition`: (row, col).
type Position = (usize, usize);

/// The document's `squareSymmetries` on (row, col), with its 7 generalised to
/// `last` = n - 1: the identity, three rotations, four reflections.
pub const SQUARE_SYMMETRIES: [fn(Position, usize) -> Position; 8] = [
    |(a, b), _| (a, b),
    |(a, b), last| (last - b, a),
    |(a, b), last| (last - a, last - b),
    |(a, b), last| (b, last - a),
    |(a, b), last| (last - a, b),
    |(a, b), last| (a, last - b),
    |(a, b), _| (b, a),
    |(a, b), last| (last - b, last - a),
];

/// The squares holding a queen (the document's `moveMaskToMoves`), as
/// square indices row * n + col, in increasing order.
pub fn moves<W: Word>(move_mask: W, n: usize) -> impl Iterator<Item = usize> {
    let board = (0..n * n).fold(W::ZERO, |word, square| word | W::ONE << square as u32);
    let mut queens = !move_mask & board;
    std::iter::from_fn(move || {
        if queens == W::ZERO {
            return None;
        }
        let square = queens.trailing_zeros() as usize;
        queens = queens.without_lowest_bit();
        Some(square)
    })
}

/// The document's `applyOnMasks f`: moves every queen by `f`.
pub fn image<W: Word>(move_mask: W, n: usize, f: fn(Position, usize) -> Position) -> W {
    moves(move_mask, n).fold(W::ALL, |image, square| {
        let (row, col) = f((square / n, square % n), n - 1);
        image & !(W::ONE << (row * n + col) as u32)
    })
}

/// The document's `canonical`: the smallest of the eight images.
pub fn canonical<W: Word>(move_mask: W, n: usize) -> W {
    SQUARE_SYMMETRIES
        .iter()
        .map(|&f| image(move_mask, n, f))
        .min()
        .expect("eight symmetries")
}

/// Whether this solution is the one its class is counted by.
pub fn represents_its_class<W: Word>(move_mask: W, n: usize) -> bool {
    canonical(move_mask, n) == move_mask
}

/// The move mask of a solution in the shared row-per-column convention (the
/// document's `movesToMoveMask`).
pub fn move_mask_of<W: Word>(rows: &[u8]) -> W {
    let n = rows.len();
    rows.iter().enumerate().fold(W::ALL, |mask, (col, &row)| {
        mask & !(W::ONE << (row as usize * n + col) as u32)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use queens_core::Solution;
    use queens_core::symmetry::Transform;

    fn rows_of<W: Word>(move_mask: W, n: usize) -> Vec<u8> {
        let mut rows = vec![0u8; n];
        for square in moves(move_mask, n) {
            rows[square % n] = (square / n) as u8;
        }
        rows
    }

    /// The document's eight maps are the same group as core's eight
    /// transforms: on a board that no symmetry fixes they make the same eight
    /// images.
    #[test]
    fn the_documents_symmetries_are_cores_transforms() {
        let rows = vec![0u8, 4, 7, 5, 2, 6, 1, 3];
        let mask: u64 = move_mask_of(&rows);
        let mut ours: Vec<Vec<u8>> = SQUARE_SYMMETRIES
            .iter()
            .map(|&f| rows_of(image(mask, 8, f), 8))
            .collect();
        let mut cores: Vec<Vec<u8>> = Transform::ALL
            .iter()
            .map(|t| t.apply(&Solution::from_rows(rows.clone())).rows().to_vec())
            .collect();
        ours.sort();
        cores.sort();
        assert_eq!(ours, cores);
        ours.dedup();
        assert_eq!(ours.len(), 8);
    }

    #[test]
    fn canonical_is_shared_by_the_orbit_and_idempotent() {
        let mask: u128 = move_mask_of(&[1, 3, 0, 2, 4]);
        let c = canonical(mask, 5);
        assert_eq!(canonical(c, 5), c);
        for f in SQUARE_SYMMETRIES {
            assert_eq!(canonical(image(mask, 5, f), 5), c);
        }
    }
}
