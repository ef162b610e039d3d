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
        ((u128::from(self.next_u64()) * bound as u128) >> 64) as usize
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
}
