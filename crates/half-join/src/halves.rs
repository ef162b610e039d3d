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

/// Ranks per half, at most (n ≤ 28).
pub(crate) const MAX_HALF: usize = crate::layout::MAX_N / 2;

/// One half's search.
pub(crate) struct HalfSearch<'a> {
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

/// Where a search stands between two chunks of halves: its stack of ranks.
/// A unit's halves can outgrow any memory on large boards, so they are
/// enumerated in chunks of bounded size, each search paused when its chunk
/// is full and resumed from here.
#[derive(Clone, Debug)]
pub(crate) struct Walk {
    open: [u32; MAX_HALF],
    used: [u32; MAX_HALF],
    /// Files attacked on each rank along the diagonals that move towards
    /// file h as the search goes one rank further from its edge (rising
    /// ones for the top half, falling ones for the bottom half, which is
    /// searched upside down), and towards file a.
    toward_h: [u32; MAX_HALF],
    toward_a: [u32; MAX_HALF],
    key: [u64; MAX_HALF],
    rank: usize,
    started: bool,
    done: bool,
}

impl Default for Walk {
    fn default() -> Self {
        Walk {
            open: [0; MAX_HALF],
            used: [0; MAX_HALF],
            toward_h: [0; MAX_HALF],
            toward_a: [0; MAX_HALF],
            key: [0; MAX_HALF],
            rank: 0,
            started: false,
            done: false,
        }
    }
}

impl Walk {
    /// Whether the search has reported every half.
    pub(crate) fn is_done(&self) -> bool {
        self.done
    }
}

impl HalfSearch<'_> {
    /// Goes on with `walk` (a fresh one starts the search), calling
    /// `found(files, key)` for each half, until at least `limit` halves were
    /// reported since this call or the search ends ([`Walk::is_done`]). It
    /// pauses only right after a batch of last-rank queens, so a call
    /// reports at most `limit` + n - 1 halves. Returns the nodes.
    #[inline]
    pub(crate) fn resume(
        &self,
        walk: &mut Walk,
        limit: u64,
        mut found: impl FnMut(u32, u64),
    ) -> u64 {
        if walk.done {
            return 0;
        }
        let ranks = self.contributions.len();
        if ranks == 0 {
            walk.done = true;
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
        let mut nodes = 0u64;
        let last = ranks - 1;
        if last == 0 {
            // One rank: at most n halves, never paused.
            walk.done = true;
            let mut open = open_files(0) & !self.attacked[0];
            while open != 0 {
                let bit = open & open.wrapping_neg();
                open ^= bit;
                nodes += 1;
                found(bit, self.contributions[0][bit.trailing_zeros() as usize]);
            }
            return nodes;
        }
        // The frame of each rank: files still to try and what to return to,
        // copied out of the walk and back so that the loop works on locals.
        let Walk {
            mut open,
            mut used,
            mut toward_h,
            mut toward_a,
            mut key,
            mut rank,
            ..
        } = *walk;
        if !walk.started {
            walk.started = true;
            rank = 0;
            open[0] = open_files(0) & !self.attacked[0];
        }
        let mut reported = 0u64;
        loop {
            if open[rank] == 0 {
                if rank == 0 {
                    walk.done = true;
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
            let next_toward_h = (toward_h[rank] | bit) << 1;
            let next_toward_a = (toward_a[rank] | bit) >> 1;
            let next = rank + 1;
            let next_open =
                open_files(next_used) & !(next_toward_h | next_toward_a | self.attacked[next]);
            if next == last {
                // The last rank's queens are reported, not stacked.
                let mut rest = next_open;
                reported += u64::from(rest.count_ones());
                while rest != 0 {
                    let bit = rest & rest.wrapping_neg();
                    rest ^= bit;
                    nodes += 1;
                    let file = bit.trailing_zeros() as usize;
                    found(next_used | bit, next_key | self.contributions[last][file]);
                }
                if reported >= limit {
                    // Paused after a batch, where the frame is whole: the
                    // check costs a compare per batch, not per node.
                    *walk = Walk {
                        open,
                        used,
                        toward_h,
                        toward_a,
                        key,
                        rank,
                        started: true,
                        done: false,
                    };
                    return nodes;
                }
                continue;
            }
            open[next] = next_open;
            used[next] = next_used;
            toward_h[next] = next_toward_h;
            toward_a[next] = next_toward_a;
            key[next] = next_key;
            rank = next;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    impl HalfSearch<'_> {
        /// Calls `found(files, key)` for every half; returns the nodes.
        pub(crate) fn run(&self, found: impl FnMut(u32, u64)) -> u64 {
            self.resume(&mut Walk::default(), u64::MAX, found)
        }
    }

    #[test]
    fn a_search_in_chunks_reports_every_half_once_in_order() {
        // Paused every few halves and resumed, the search reports exactly
        // what one uninterrupted search reports, in the same order, with
        // the same nodes; and no chunk overshoots its limit by more than
        // one batch of last-rank queens.
        for n in [1, 2, 3, 6, 9, 12] {
            let board = Board::new(n);
            for unit in board.units() {
                let search = HalfSearch {
                    contributions: &board.layout.top,
                    attacked: board.middle_attacks(unit.middle),
                    files: board.full & !Board::middle_bit(unit.middle),
                    block: board.block,
                    pattern: unit.pattern,
                };
                let mut whole = Vec::new();
                let whole_nodes = search.run(|files, key| whole.push((files, key)));
                for limit in [1, 2, 7, 100] {
                    let mut walk = Walk::default();
                    let mut chunked = Vec::new();
                    let mut nodes = 0;
                    while !walk.is_done() {
                        let before = chunked.len();
                        nodes += search.resume(&mut walk, limit, |f, k| chunked.push((f, k)));
                        assert!(chunked.len() - before < limit as usize + n.max(1));
                    }
                    assert_eq!(chunked, whole, "n = {n}, {unit:?}, limit {limit}");
                    assert_eq!(nodes, whole_nodes);
                }
            }
        }
    }
}
