//! One level of the fold: every safe partial board of k queens, packed.
//!
//! The Haskell program's level is a list of lists; here it is one flat byte
//! buffer with k bytes per partial, so a level of a million partials is one
//! allocation instead of a million, and its size in memory is plain to read:
//! partials × k bytes.

/// Every safe partial board of `queens` queens, in the fold's order.
///
/// Each partial is `queens` bytes, newest queen first, exactly as the Haskell
/// list `row : rows`: byte i is the row (0-based) of the queen i + 1 columns
/// to the right of the newest one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Level {
    queens: usize,
    partials: usize,
    rows: Vec<u8>,
}

impl Level {
    /// Level 0: the fold's seed `[]`, one partial with no queen.
    pub fn seed() -> Self {
        Level {
            queens: 0,
            partials: 1,
            rows: Vec::new(),
        }
    }

    /// Queens per partial (k), which is also bytes per partial.
    pub fn queens(&self) -> usize {
        self.queens
    }

    /// How many partials the level holds.
    pub fn len(&self) -> usize {
        self.partials
    }

    pub fn is_empty(&self) -> bool {
        self.partials == 0
    }

    /// Bytes of board data the level holds: partials × k.
    pub fn bytes(&self) -> usize {
        self.rows.len()
    }

    /// The i-th partial, newest queen first.
    pub fn partial(&self, i: usize) -> &[u8] {
        &self.rows[i * self.queens..(i + 1) * self.queens]
    }

    /// The partials in order.
    pub fn iter(&self) -> impl Iterator<Item = &[u8]> + '_ {
        (0..self.partials).map(|i| self.partial(i))
    }

    /// Empties the level for reuse as a level of `queens` queens, keeping its
    /// buffer's capacity (the fold alternates between two buffers).
    pub fn reset(&mut self, queens: usize) {
        self.queens = queens;
        self.partials = 0;
        self.rows.clear();
    }

    /// Appends the partial `row : rows` (a new queen in front of `rows`).
    #[inline(always)]
    pub fn push_in_front(&mut self, row: u8, rows: &[u8]) {
        debug_assert_eq!(rows.len() + 1, self.queens);
        self.rows.push(row);
        self.rows.extend_from_slice(rows);
        self.partials += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seed_is_one_empty_partial() {
        let seed = Level::seed();
        assert_eq!(seed.len(), 1);
        assert_eq!(seed.iter().collect::<Vec<_>>(), vec![&[] as &[u8]]);
        assert_eq!(seed.bytes(), 0);
    }

    #[test]
    fn partials_are_packed_newest_first() {
        let mut level = Level::default();
        level.reset(3);
        level.push_in_front(2, &[0, 3]);
        level.push_in_front(1, &[3, 0]);
        assert_eq!(level.len(), 2);
        assert_eq!(level.bytes(), 6);
        assert_eq!(level.partial(1), &[1, 3, 0]);
        level.reset(4);
        assert!(level.is_empty());
        assert_eq!(level.bytes(), 0);
    }
}
