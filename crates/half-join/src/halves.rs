//! Enumerating the halves of one unit: every way to put a queen on each of
//! the half's `h` ranks, none attacking another or the middle queen, whose
//! files inside the central block are exactly the unit's pattern. Each is
//! reported as its file set and its key.
//!
//! It is the three-mask search of the whole board cut off after `h` ranks.
//! A "node" is a queen placed. Each placement also ORs the queen's key bits
//! (from the [`crate::layout::Layout`]) into the key being built, so a
//! finished half costs nothing more than its last placement. The pattern is
//! enforced as the half fills up: once the ranks left are just enough for
//! the pattern's files not yet used, only those are open; once the pattern
//! is used up, only files outside the block are.

/// Ranks per half, at most (n ≤ 21).
pub const MAX_HALF: usize = 10;

/// One half's search.
pub struct HalfSearch<'a> {
    /// Key bits per rank (from the board's edge) and file.
    pub contributions: &'a [[u64; 32]],
    /// Files attacked by the middle queen, per rank.
    pub attacked: [u32; MAX_HALF],
    /// Every file the half may use (the board without the middle file).
    pub files: u32,
    /// The central block, and the unit's files in it.
    pub block: u32,
    pub pattern: u32,
}

impl HalfSearch<'_> {
    /// Calls `found(files, key)` for every half; returns the nodes.
    #[inline]
    pub fn run(&self, mut found: impl FnMut(u32, u64)) -> u64 {
        let ranks = self.contributions.len();
        if ranks == 0 {
            found(0, 0);
            return 0;
        }
        let outside_needed = (ranks - self.pattern.count_ones() as usize) as u32;
        let allowed = self.files & (!self.block | self.pattern);
        // Files a half may still take, given what it has taken so far.
        let open_files = |used: u32| {
            let mut open = allowed & !used;
            if (used & !self.block).count_ones() == outside_needed {
                open &= self.block;
            }
            if self.pattern & !used == 0 {
                open &= !self.block;
            }
            open
        };
        // The frame of each rank: files still to try and what to return to.
        let mut open = [0u32; MAX_HALF];
        let mut used = [0u32; MAX_HALF];
        let mut falling = [0u32; MAX_HALF];
        let mut rising = [0u32; MAX_HALF];
        let mut key = [0u64; MAX_HALF];
        let mut nodes = 0u64;
        let last = ranks - 1;
        if last == 0 {
            let mut open = open_files(0) & !self.attacked[0];
            while open != 0 {
                let bit = open & open.wrapping_neg();
                open ^= bit;
                nodes += 1;
                found(bit, self.contributions[0][bit.trailing_zeros() as usize]);
            }
            return nodes;
        }
        let mut rank = 0usize;
        open[0] = open_files(0) & !self.attacked[0];
        loop {
            if open[rank] == 0 {
                if rank == 0 {
                    return nodes;
                }
                rank -= 1;
                continue;
            }
            let bit = open[rank] & open[rank].wrapping_neg();
            open[rank] ^= bit;
            nodes += 1;
            let file = bit.trailing_zeros() as usize;
            let next_key = key[rank] | self.contributions[rank][file];
            let next_used = used[rank] | bit;
            let next_falling = (falling[rank] | bit) << 1;
            let next_rising = (rising[rank] | bit) >> 1;
            let next = rank + 1;
            let next_open =
                open_files(next_used) & !(next_falling | next_rising | self.attacked[next]);
            if next == last {
                // The last rank's queens are reported, not stacked.
                let mut rest = next_open;
                while rest != 0 {
                    let bit = rest & rest.wrapping_neg();
                    rest ^= bit;
                    nodes += 1;
                    let file = bit.trailing_zeros() as usize;
                    found(next_used | bit, next_key | self.contributions[last][file]);
                }
                continue;
            }
            open[next] = next_open;
            used[next] = next_used;
            falling[next] = next_falling;
            rising[next] = next_rising;
            key[next] = next_key;
            rank = next;
        }
    }
}
