//! The queens on one family of diagonals (falling or rising), held so that
//! the search's random probes stay in cache.
//!
//! The search asks three things of a diagonal: is it empty (the greedy
//! start's test), does it hold two queens or more (is a queen on it
//! attacked), and, when a queen leaves or arrives, did the number of
//! conflicts change. A counter per diagonal answers all three, but a `u32`
//! per diagonal is 8n bytes a family, and every probe lands on a random
//! one: at a million queens the counters no longer fit in cache and almost
//! every probe waits for memory. Yet after the greedy start almost every
//! diagonal holds 0 or 1 queen: two bits per diagonal (occupied, crowded)
//! answer the questions, n/2 bytes a family, and the exact count is kept
//! only for the few crowded diagonals, in a small map. The counts stay
//! exact however many queens share a diagonal (nothing saturates).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

const WORD: usize = u64::BITS as usize;

/// One family of diagonals.
#[derive(Clone, Debug)]
pub(crate) struct Diagonals {
    /// Bit d: diagonal d holds at least one queen.
    occupied: Vec<u64>,
    /// Bit d: diagonal d holds at least two (its queens are attacked).
    crowded: Vec<u64>,
    /// Bit w: word w of `crowded` is not 0. The repair asks every queen
    /// whether it is attacked, and almost none is: this summary, 64 times
    /// smaller, answers almost every question from the nearest cache.
    summary: Vec<u64>,
    /// For each crowded diagonal, its queens beyond the first (at least 1);
    /// no entry for the others. It holds at most as many entries as the
    /// board has conflicts, which the greedy start leaves few and the
    /// repair only lowers.
    extra: HashMap<u32, u32, BuildHasherDefault<Spread>>,
}

impl Diagonals {
    /// `count` empty diagonals.
    pub(crate) fn new(count: usize) -> Self {
        let words = count.div_ceil(WORD);
        Diagonals {
            occupied: vec![0; words],
            crowded: vec![0; words],
            summary: vec![0; words.div_ceil(WORD)],
            extra: HashMap::default(),
        }
    }

    /// Empties every diagonal.
    pub(crate) fn clear(&mut self) {
        self.occupied.fill(0);
        self.crowded.fill(0);
        self.summary.fill(0);
        self.extra.clear();
    }

    /// Whether diagonal `d` holds a queen.
    #[inline]
    pub(crate) fn occupied(&self, d: usize) -> bool {
        bit(&self.occupied, d)
    }

    /// Whether diagonal `d` holds two queens or more.
    #[inline]
    pub(crate) fn crowded(&self, d: usize) -> bool {
        bit(&self.summary, d / WORD) && bit(&self.crowded, d)
    }

    /// A queen arrives on diagonal `d`: whether it adds a conflict (the
    /// diagonal already held one).
    #[inline]
    pub(crate) fn add(&mut self, d: usize) -> bool {
        if !self.occupied(d) {
            flip(&mut self.occupied, d);
            return false;
        }
        let extra = self.extra.entry(d as u32).or_insert(0);
        if *extra == 0 {
            if self.crowded[d / WORD] == 0 {
                flip(&mut self.summary, d / WORD);
            }
            flip(&mut self.crowded, d);
        }
        *extra += 1;
        true
    }

    /// A queen leaves diagonal `d` (which holds one): whether it takes a
    /// conflict away (others remain on it).
    #[inline]
    pub(crate) fn remove(&mut self, d: usize) -> bool {
        if !self.crowded(d) {
            flip(&mut self.occupied, d);
            return false;
        }
        let extra = self
            .extra
            .get_mut(&(d as u32))
            .expect("a crowded diagonal has its count");
        *extra -= 1;
        if *extra == 0 {
            self.extra.remove(&(d as u32));
            flip(&mut self.crowded, d);
            if self.crowded[d / WORD] == 0 {
                flip(&mut self.summary, d / WORD);
            }
        }
        true
    }

    /// How the conflicts on this family would change if one queen left each
    /// diagonal of `gone` and one arrived on each of `come` (a swap: the
    /// two of a pair may be one diagonal, and no diagonal is in both
    /// pairs), without moving anything. Almost always the bits answer
    /// alone: a tried swap that is not made writes nothing.
    #[inline]
    pub(crate) fn change(&self, gone: [usize; 2], come: [usize; 2]) -> i64 {
        // A diagonal with k queens holds max(k - 1, 0) conflicts.
        let left = if gone[0] == gone[1] {
            // Two leave a diagonal of k >= 2: one conflict fewer if k = 2.
            if self.extra.get(&(gone[0] as u32)) == Some(&1) {
                -1
            } else {
                -2
            }
        } else {
            -i64::from(self.crowded(gone[0])) - i64::from(self.crowded(gone[1]))
        };
        let arrived = if come[0] == come[1] {
            // Two arrive: two conflicts more, or one if it was empty.
            1 + i64::from(self.occupied(come[0]))
        } else {
            i64::from(self.occupied(come[0])) + i64::from(self.occupied(come[1]))
        };
        left + arrived
    }
}

#[inline]
fn bit(words: &[u64], d: usize) -> bool {
    words[d / WORD] >> (d % WORD) & 1 == 1
}

#[inline]
fn flip(words: &mut [u64], d: usize) {
    words[d / WORD] ^= 1 << (d % WORD);
}

/// The map's hash: a multiply that spreads diagonal numbers (small,
/// often close together) over all 64 bits. The keys are not chosen by
/// anyone who could attack it, so a keyed hash would be wasted work.
#[derive(Default)]
struct Spread(u64);

impl Hasher for Spread {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u64(u64::from(byte));
        }
    }

    fn write_u32(&mut self, key: u32) {
        self.write_u64(u64::from(key));
    }

    fn write_u64(&mut self, key: u64) {
        let product = (self.0 ^ key).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = product ^ (product >> 32);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_stay_exact_however_many_queens_share_a_diagonal() {
        let mut diagonals = Diagonals::new(300);
        let mut counts = vec![0u32; 300];
        // Pile up to 1,000 queens on a few diagonals, far past any narrow
        // counter, then take them away in another order.
        let piles: Vec<usize> = (0..1_000).map(|k| (k * k) % 7 + 64 * (k % 3)).collect();
        for &d in &piles {
            assert_eq!(diagonals.add(d), counts[d] > 0);
            counts[d] += 1;
            assert!(diagonals.occupied(d));
            assert_eq!(diagonals.crowded(d), counts[d] > 1);
        }
        // 64 * 3 + 6 < 300: the piles span four words of the bit sets.
        for &d in piles.iter().rev().step_by(2).chain(piles.iter().step_by(2)) {
            counts[d] -= 1;
            assert_eq!(diagonals.remove(d), counts[d] > 0);
            assert_eq!(diagonals.occupied(d), counts[d] > 0);
            assert_eq!(diagonals.crowded(d), counts[d] > 1);
        }
        assert!(counts.iter().all(|&k| k == 0));
        assert!(diagonals.extra.is_empty());
        let words = [&diagonals.occupied, &diagonals.crowded, &diagonals.summary];
        assert!(words.into_iter().flatten().all(|&w| w == 0));
    }
}
