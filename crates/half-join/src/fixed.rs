//! Unique counts without canonicalising solutions: Burnside's lemma.
//!
//! The classes number (1/8) Σ_g Fix(g) over the eight symmetries g, where
//! Fix(g) counts the solutions g maps to themselves. Fix(identity) is the
//! count itself. The others are small: a solution fixed by g is a union of
//! g's orbits of squares, so a search that places a whole orbit at a time
//! (the lowest empty rank's queen and all its images) finds each exactly
//! once, in a tree far smaller than the full one.
//! Reflections die at once for n > 1 (the squares a reflection pairs up
//! attack each other), the quarter turns after a few ranks; the half turn
//! does the real work.

use queens_core::symmetry::Transform;

/// Σ Fix(g) over the seven symmetries other than the identity, and the
/// squares placed to find them.
pub(crate) fn fixed_by_symmetries(n: usize) -> (u64, u64) {
    let mut total = (0, 0);
    for &g in &Transform::ALL[1..] {
        let mut search = OrbitSearch { n, g, nodes: 0 };
        total.0 += search.count(Occupied::default());
        total.1 += search.nodes;
    }
    total
}

/// Ranks, files and both diagonals taken.
#[derive(Clone, Copy, Default)]
struct Occupied {
    ranks: u32,
    files: u32,
    rising: u64,
    falling: u64,
}

impl Occupied {
    /// With a queen on (file, rank) added, if it attacks no queen so far.
    fn with(self, n: usize, file: usize, rank: usize) -> Option<Occupied> {
        let (r, f) = (1u32 << rank, 1u32 << file);
        // file + rank is constant along a falling diagonal (like a8-h1),
        // file - rank along a rising one (like a1-h8).
        let falling = 1u64 << (rank + file);
        let rising = 1u64 << (rank + n - 1 - file);
        let clash = (self.ranks & r) | (self.files & f);
        if clash != 0 || (self.rising & rising) | (self.falling & falling) != 0 {
            return None;
        }
        Some(Occupied {
            ranks: self.ranks | r,
            files: self.files | f,
            rising: self.rising | rising,
            falling: self.falling | falling,
        })
    }
}

struct OrbitSearch {
    n: usize,
    g: Transform,
    nodes: u64,
}

impl OrbitSearch {
    fn count(&mut self, occupied: Occupied) -> u64 {
        let all = ((1u64 << self.n) - 1) as u32;
        let free_ranks = all & !occupied.ranks;
        if free_ranks == 0 {
            return 1;
        }
        let rank = free_ranks.trailing_zeros() as usize;
        let mut found = 0;
        for file in 0..self.n {
            if let Some(next) = self.place_orbit(occupied, file, rank) {
                found += self.count(next);
            }
        }
        found
    }

    /// Places (file, rank) and its images under g, or None on a clash.
    fn place_orbit(
        &mut self,
        mut occupied: Occupied,
        file: usize,
        rank: usize,
    ) -> Option<Occupied> {
        let (mut f, mut r) = (file, rank);
        loop {
            self.nodes += 1;
            occupied = occupied.with(self.n, f, r)?;
            (f, r) = self.g.map_square(self.n, f, r);
            if (f, r) == (file, rank) {
                return Some(occupied);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use queens_core::{Solution, check, oeis};

    #[test]
    fn fixed_points_equal_those_of_brute_force() {
        for n in 1..=9 {
            let solutions = check::brute_force_solutions(n);
            let fixed: u64 = Transform::ALL[1..]
                .iter()
                .map(|&g| {
                    solutions
                        .iter()
                        .map(|rows| Solution::from_rows(rows.clone()))
                        .filter(|s| g.apply(s) == *s)
                        .count() as u64
                })
                .sum();
            assert_eq!(fixed_by_symmetries(n).0, fixed, "n = {n}");
        }
    }

    #[test]
    fn burnside_gives_the_published_classes() {
        for n in 1..=14 {
            let total = oeis::total(n).unwrap();
            let (others, _) = fixed_by_symmetries(n);
            assert_eq!((total + others) % 8, 0, "n = {n}");
            assert_eq!(Some((total + others) / 8), oeis::unique(n), "n = {n}");
        }
    }
}
