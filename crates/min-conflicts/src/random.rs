//! The random numbers: SplitMix64, written out here so that a seed gives
//! the same board on every machine and with every version of every
//! dependency (there is none).

/// Sebastiano Vigna's SplitMix64 (the generator Java's `SplittableRandom`
/// uses): a counter stepped by the golden ratio, mixed by two multiplies.
/// Fast, statistically sound for a search's choices, and reproducible.
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// The generator for `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..bound` (bound > 0): the high half of a 64×64-bit
    /// product (Lemire's reduction), without a division. Its bias is below
    /// bound / 2^64, nothing a search can notice.
    pub fn below(&mut self, bound: usize) -> usize {
        reduce(self.next_u64(), bound)
    }
}

/// `x` (64 random bits) brought into `0..bound`: what
/// [`SplitMix64::below`] returns for it.
#[inline]
pub(crate) fn reduce(x: u64, bound: usize) -> usize {
    ((u128::from(x) * bound as u128) >> 64) as usize
}

/// How many draws ahead [`Ahead`] sees: enough for a line to come from
/// memory while the search makes the draws in between.
pub(crate) const AHEAD: usize = 16;

/// A [`SplitMix64`] that holds its next [`AHEAD`] numbers, so that the
/// search can prefetch what a draw will probe before it makes the draw.
/// It draws exactly the plain generator's numbers, in the same order.
#[derive(Clone, Debug)]
pub(crate) struct Ahead {
    random: SplitMix64,
    /// The next `AHEAD` numbers, the next one at `queue[next]`.
    queue: [u64; AHEAD],
    next: usize,
}

impl Ahead {
    /// The generator for `seed`.
    pub(crate) fn new(seed: u64) -> Self {
        let mut random = SplitMix64::new(seed);
        let queue = std::array::from_fn(|_| random.next_u64());
        Ahead {
            random,
            queue,
            next: 0,
        }
    }

    /// The next number in `0..bound` (bound > 0), as
    /// [`SplitMix64::below`] gives it.
    #[inline]
    pub(crate) fn below(&mut self, bound: usize) -> usize {
        let x = self.queue[self.next];
        self.queue[self.next] = self.random.next_u64();
        self.next = (self.next + 1) % AHEAD;
        reduce(x, bound)
    }

    /// The 64 bits the last of the next `AHEAD` draws will reduce (the
    /// farthest one known).
    #[inline]
    pub(crate) fn farthest(&self) -> u64 {
        self.queue[(self.next + AHEAD - 1) % AHEAD]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seed_gives_one_sequence_and_stays_in_bounds() {
        let (mut a, mut b) = (SplitMix64::new(7), SplitMix64::new(7));
        let mut hits = [0usize; 5];
        for _ in 0..10_000 {
            let x = a.below(5);
            assert_eq!(x, b.below(5));
            hits[x] += 1;
        }
        assert!(hits.iter().all(|&h| h > 1_800), "{hits:?}");
        assert_ne!(SplitMix64::new(8).next_u64(), SplitMix64::new(7).next_u64());
    }

    #[test]
    fn looking_ahead_draws_the_same_numbers_and_sees_the_farthest() {
        let (mut plain, mut ahead) = (SplitMix64::new(5), Ahead::new(5));
        let mut seen = std::collections::VecDeque::new();
        for k in 0..1_000usize {
            let bound = 1 + k % 97 * 1_000_003;
            seen.push_back(ahead.farthest());
            let x = plain.next_u64();
            assert_eq!(ahead.below(bound), reduce(x, bound));
            if k + 1 >= AHEAD {
                // The number drawn now was the farthest one AHEAD - 1 draws ago.
                assert_eq!(seen.pop_front(), Some(x));
            }
        }
    }
}
