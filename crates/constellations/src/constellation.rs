//! A constellation: the queens on the four border lines of the board, and how
//! the eight symmetries of the square move it.
//!
//! Every solution has exactly one queen on the west file (column 0), one on
//! the east file (column n-1), one on the south rank (row 0) and one on the
//! north rank (row n-1): four numbers describe them. A corner queen sits on
//! two border lines at once, so a constellation holds two to four distinct
//! queens (one when n = 1). A symmetry of the board maps border lines to
//! border lines, so it maps the constellation of a solution to the
//! constellation of the image: this is what lets the engine search one
//! constellation per orbit and multiply.

use queens_core::symmetry::Transform;

/// The border queens of a board: rows of the west and east queens, files of
/// the south and north queens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Constellation {
    /// Row of the queen on column 0.
    pub west: u8,
    /// Row of the queen on column n-1.
    pub east: u8,
    /// Column of the queen on row 0.
    pub south: u8,
    /// Column of the queen on row n-1.
    pub north: u8,
}

/// Up to four distinct squares, (column, row).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Squares {
    squares: [(u8, u8); 4],
    len: usize,
}

impl Squares {
    fn push_distinct(&mut self, square: (u8, u8)) {
        if !self.as_slice().contains(&square) {
            self.squares[self.len] = square;
            self.len += 1;
        }
    }

    pub fn as_slice(&self) -> &[(u8, u8)] {
        &self.squares[..self.len]
    }
}

impl Constellation {
    /// The four numbers packed into a work unit key.
    pub fn key(self) -> u64 {
        u64::from_le_bytes([self.west, self.east, self.south, self.north, 0, 0, 0, 0])
    }

    pub fn from_key(key: u64) -> Self {
        let [west, east, south, north, ..] = key.to_le_bytes();
        Constellation {
            west,
            east,
            south,
            north,
        }
    }

    /// The distinct queens of the constellation, (column, row).
    pub fn squares(self, n: usize) -> Squares {
        let last = (n - 1) as u8;
        let mut squares = Squares {
            squares: [(0, 0); 4],
            len: 0,
        };
        for square in [
            (0, self.west),
            (last, self.east),
            (self.south, 0),
            (self.north, last),
        ] {
            squares.push_distinct(square);
        }
        squares
    }

    /// Whether these four numbers are the border queens of some placement:
    /// every border line holds exactly the queen the numbers say (so a corner
    /// queen is named consistently by both of its lines) and no two queens
    /// attack each other.
    pub fn is_legal(self, n: usize) -> bool {
        let squares = self.squares(n);
        let queens = squares.as_slice();
        let last = (n - 1) as u8;
        let only = |on_line: &dyn Fn(&(u8, u8)) -> bool| {
            let mut hits = queens.iter().filter(|q| on_line(q));
            let first = hits.next().copied();
            if hits.next().is_some() { None } else { first }
        };
        let lines_agree = only(&|q| q.0 == 0) == Some((0, self.west))
            && only(&|q| q.0 == last) == Some((last, self.east))
            && only(&|q| q.1 == 0) == Some((self.south, 0))
            && only(&|q| q.1 == last) == Some((self.north, last));
        let peaceful = queens.iter().enumerate().all(|(i, a)| {
            queens[i + 1..]
                .iter()
                .all(|b| a.0 != b.0 && a.1 != b.1 && a.0.abs_diff(b.0) != a.1.abs_diff(b.1))
        });
        lines_agree && peaceful
    }

    /// The constellation of the image of a board with this constellation.
    pub fn image(self, transform: Transform, n: usize) -> Constellation {
        let last = (n - 1) as u8;
        let mut image = self;
        for &(col, row) in self.squares(n).as_slice() {
            let (col, row) = transform.map_square(n, col as usize, row as usize);
            let (col, row) = (col as u8, row as u8);
            if col == 0 {
                image.west = row;
            }
            if col == last {
                image.east = row;
            }
            if row == 0 {
                image.south = col;
            }
            if row == last {
                image.north = col;
            }
        }
        image
    }

    /// The eight images, in the order of [`Transform::ALL`].
    pub fn images(self, n: usize) -> [Constellation; 8] {
        Transform::ALL.map(|t| self.image(t, n))
    }

    /// The symmetries that leave the constellation where it is (always
    /// including the identity).
    pub fn stabilizer(self, n: usize) -> impl Iterator<Item = Transform> {
        let images = self.images(n);
        Transform::ALL
            .into_iter()
            .zip(images)
            .filter(move |&(_, image)| image == self)
            .map(|(t, _)| t)
    }

    /// How many distinct constellations the eight symmetries make of this
    /// one: the number of solutions each solution found under it stands for.
    pub fn orbit_size(self, n: usize) -> u64 {
        8 / self.stabilizer(n).count() as u64
    }

    /// Whether this is the smallest of its images: exactly one member of
    /// each orbit is.
    pub fn is_canonical(self, n: usize) -> bool {
        self.images(n).iter().all(|&image| image >= self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn legal(n: usize) -> Vec<Constellation> {
        crate::plan::legal_constellations(n).0
    }

    #[test]
    fn keys_round_trip() {
        let c = Constellation {
            west: 3,
            east: 31,
            south: 0,
            north: 17,
        };
        assert_eq!(Constellation::from_key(c.key()), c);
    }

    #[test]
    fn corners_must_be_named_by_both_lines() {
        let corner = Constellation {
            west: 0,
            east: 2,
            south: 0,
            north: 3,
        };
        assert!(corner.is_legal(5));
        assert!(!Constellation { south: 1, ..corner }.is_legal(5));
    }

    #[test]
    fn images_of_legal_constellations_are_legal_and_orbits_divide_eight() {
        for n in 1..=9 {
            for c in legal(n) {
                for image in c.images(n) {
                    assert!(image.is_legal(n), "n = {n}: {c:?} -> {image:?}");
                }
                assert!([1, 2, 4, 8].contains(&c.orbit_size(n)));
            }
        }
    }

    #[test]
    fn only_the_one_square_board_has_a_constellation_fixed_by_a_reflection() {
        for n in 1..=10 {
            for c in legal(n) {
                let reflections = c
                    .stabilizer(n)
                    .filter(|t| {
                        !matches!(
                            t,
                            Transform::Identity
                                | Transform::Rotate90
                                | Transform::Rotate180
                                | Transform::Rotate270
                        )
                    })
                    .count();
                assert_eq!(reflections > 0, n == 1, "n = {n}: {c:?}");
            }
        }
    }

    #[test]
    fn each_orbit_has_one_canonical_member() {
        for n in 1..=8 {
            let all = legal(n);
            let canonical: Vec<_> = all.iter().filter(|c| c.is_canonical(n)).collect();
            let covered: u64 = canonical.iter().map(|c| c.orbit_size(n)).sum();
            assert_eq!(covered, all.len() as u64, "n = {n}");
        }
    }
}
