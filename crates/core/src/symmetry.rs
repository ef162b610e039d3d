//! The eight symmetries of the square (the dihedral group D4) acting on
//! solutions, and counting "unique" solutions by canonical form.
//!
//! A symmetry maps every square (column, row) of the n×n board to another
//! square. Because it maps files to files or files to ranks, it maps a
//! solution (one queen per column and per row, no shared diagonal) to a
//! solution. Two solutions are "the same up to symmetry" when one is an image
//! of the other; the set of images is the solution's *orbit*, and the orbits
//! partition the solutions into the classes that OEIS A002562 counts.
//!
//! The *canonical form* of a solution is its smallest image in lexicographic
//! order of the row vector. Every member of an orbit has the same canonical
//! form, so counting the solutions that are their own canonical form counts
//! the orbits, with no set of seen solutions to keep.

use std::collections::BTreeSet;

use crate::Solution;

/// One of the eight symmetries of the square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Transform {
    /// Leaves every square where it is.
    Identity,
    /// Quarter turn clockwise.
    Rotate90,
    /// Half turn.
    Rotate180,
    /// Quarter turn counter-clockwise.
    Rotate270,
    /// Reflect in the vertical axis: file a swaps with the last file.
    MirrorFiles,
    /// Reflect in the horizontal axis: rank 1 swaps with the last rank.
    MirrorRanks,
    /// Reflect in the a1 diagonal: (column, row) becomes (row, column).
    Diagonal,
    /// Reflect in the other long diagonal.
    AntiDiagonal,
}

impl Transform {
    /// All eight, identity first.
    pub const ALL: [Transform; 8] = [
        Transform::Identity,
        Transform::Rotate90,
        Transform::Rotate180,
        Transform::Rotate270,
        Transform::MirrorFiles,
        Transform::MirrorRanks,
        Transform::Diagonal,
        Transform::AntiDiagonal,
    ];

    /// Where square (col, row) of an n×n board goes.
    #[inline]
    pub fn map_square(self, n: usize, col: usize, row: usize) -> (usize, usize) {
        let last = n - 1;
        match self {
            Transform::Identity => (col, row),
            Transform::Rotate90 => (row, last - col),
            Transform::Rotate180 => (last - col, last - row),
            Transform::Rotate270 => (last - row, col),
            Transform::MirrorFiles => (last - col, row),
            Transform::MirrorRanks => (col, last - row),
            Transform::Diagonal => (row, col),
            Transform::AntiDiagonal => (last - row, last - col),
        }
    }

    /// The image of a solution, written into `out` (same length as `rows`).
    /// Allocation-free so that canonicalisation can run per solution.
    #[inline]
    pub fn apply_into(self, rows: &[u8], out: &mut [u8]) {
        let n = rows.len();
        debug_assert_eq!(out.len(), n);
        for (col, &row) in rows.iter().enumerate() {
            let (c, r) = self.map_square(n, col, row as usize);
            out[c] = r as u8;
        }
    }

    /// The image of a solution.
    pub fn apply(self, solution: &Solution) -> Solution {
        let mut out = vec![0u8; solution.n()];
        self.apply_into(solution.rows(), &mut out);
        Solution::from_rows(out)
    }
}

/// The smallest of the eight images of a solution (lexicographic on rows).
pub fn canonical(solution: &Solution) -> Solution {
    Transform::ALL
        .iter()
        .map(|t| t.apply(solution))
        .min()
        .expect("eight images")
}

/// Whether a solution is the canonical member of its orbit, i.e. no image is
/// smaller. Allocation-free for n <= 64, so it can be called per solution
/// while enumerating.
pub fn is_canonical(rows: &[u8]) -> bool {
    let mut buffer = [0u8; 64];
    let mut heap;
    let image: &mut [u8] = if rows.len() <= buffer.len() {
        &mut buffer[..rows.len()]
    } else {
        heap = vec![0u8; rows.len()];
        &mut heap
    };
    Transform::ALL[1..].iter().all(|t| {
        t.apply_into(rows, image);
        *image >= *rows
    })
}

/// How many distinct boards the eight symmetries make of this solution:
/// 8 for most, 4 for those that a half turn fixes, 2 for those that a quarter
/// turn fixes, 1 only for n = 1.
pub fn orbit_size(solution: &Solution) -> usize {
    let images: BTreeSet<Solution> = Transform::ALL.iter().map(|t| t.apply(solution)).collect();
    images.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A board with no symmetry, so that every transform moves it.
    fn asymmetric() -> Solution {
        Solution::from_rows(vec![0, 4, 7, 5, 2, 6, 1, 3])
    }

    /// The transform equal to "first `a`, then `b`", identified by its
    /// action on a 3×3 board, on which the eight symmetries act
    /// differently (the corner (0,0) and the edge (1,0) together pin each
    /// one down).
    fn then(a: Transform, b: Transform) -> Transform {
        let probe = |t: Transform| [(0, 0), (1, 0)].map(|(c, r)| t.map_square(3, c, r));
        let composite = [(0, 0), (1, 0)].map(|(c, r)| {
            let (c, r) = a.map_square(3, c, r);
            b.map_square(3, c, r)
        });
        Transform::ALL
            .into_iter()
            .find(|&t| probe(t) == composite)
            .expect("D4 is closed under composition")
    }

    #[test]
    fn the_eight_transforms_are_distinct() {
        let s = asymmetric();
        let mut images: Vec<_> = Transform::ALL.iter().map(|t| t.apply(&s)).collect();
        images.sort();
        images.dedup();
        assert_eq!(images.len(), 8);
    }

    #[test]
    fn composition_is_closed_and_agrees_with_applying_twice() {
        let s = asymmetric();
        for a in Transform::ALL {
            for b in Transform::ALL {
                let composite = then(a, b);
                assert!(Transform::ALL.contains(&composite));
                assert_eq!(
                    composite.apply(&s),
                    b.apply(&a.apply(&s)),
                    "{a:?} then {b:?}"
                );
            }
        }
    }

    #[test]
    fn every_transform_has_an_inverse() {
        for a in Transform::ALL {
            assert!(
                Transform::ALL
                    .iter()
                    .any(|&b| then(a, b) == Transform::Identity)
            );
        }
    }

    #[test]
    fn quarter_turn_generates_the_rotations() {
        let r = Transform::Rotate90;
        assert_eq!(then(r, r), Transform::Rotate180);
        assert_eq!(then(then(r, r), r), Transform::Rotate270);
        assert_eq!(then(then(then(r, r), r), r), Transform::Identity);
    }

    #[test]
    fn canonical_form_is_idempotent_and_shared_by_the_orbit() {
        let s = asymmetric();
        let c = canonical(&s);
        assert_eq!(canonical(&c), c);
        assert!(is_canonical(c.rows()));
        for t in Transform::ALL {
            assert_eq!(canonical(&t.apply(&s)), c);
        }
    }

    #[test]
    fn orbit_sizes_of_special_boards() {
        assert_eq!(orbit_size(&Solution::from_rows(vec![0])), 1);
        // The 4×4 solution is fixed by the quarter turn.
        assert_eq!(orbit_size(&Solution::from_rows(vec![1, 3, 0, 2])), 2);
        assert_eq!(orbit_size(&asymmetric()), 8);
    }
}
