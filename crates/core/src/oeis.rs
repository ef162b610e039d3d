//! Published solution counts, used as the ground truth of every test and of
//! `queens verify`.
//!
//! Sources (The On-Line Encyclopedia of Integer Sequences):
//! - A000170, "Number of ways of placing n nonattacking queens on an n X n
//!   board": <https://oeis.org/A000170>, terms n = 1..27 (n = 27 computed by
//!   the Q27 project, 2016).
//! - A002562, "Number of ways of placing n nonattacking queens on an n X n
//!   board, up to rotations and reflections": <https://oeis.org/A002562>,
//!   terms n = 1..27.

/// A000170: all solutions, indexed by n - 1, for n = 1..=27.
pub const A000170: [u64; 27] = [
    1,
    0,
    0,
    2,
    10,
    4,
    40,
    92,
    352,
    724,
    2_680,
    14_200,
    73_712,
    365_596,
    2_279_184,
    14_772_512,
    95_815_104,
    666_090_624,
    4_968_057_848,
    39_029_188_884,
    314_666_222_712,
    2_691_008_701_644,
    24_233_937_684_440,
    227_514_171_973_736,
    2_207_893_435_808_352,
    22_317_699_616_364_044,
    234_907_967_154_122_528,
];

/// A002562: solutions up to the 8 symmetries of the square, indexed by n - 1,
/// for n = 1..=27.
pub const A002562: [u64; 27] = [
    1,
    0,
    0,
    1,
    2,
    1,
    6,
    12,
    46,
    92,
    341,
    1_787,
    9_233,
    45_752,
    285_053,
    1_846_955,
    11_977_939,
    83_263_591,
    621_012_754,
    4_878_666_808,
    39_333_324_973,
    336_376_244_042,
    3_029_242_658_210,
    28_439_272_956_934,
    275_986_683_743_434,
    2_789_712_466_510_289,
    29_363_495_934_315_694,
];

/// The largest n with a published count.
pub const MAX_KNOWN_N: usize = A000170.len();

/// The number of solutions of the n×n board, if published.
pub fn total(n: usize) -> Option<u64> {
    n.checked_sub(1).and_then(|i| A000170.get(i).copied())
}

/// The number of solutions up to rotation and reflection, if published.
pub fn unique(n: usize) -> Option<u64> {
    n.checked_sub(1).and_then(|i| A002562.get(i).copied())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookups_are_one_based_and_bounded() {
        assert_eq!(total(0), None);
        assert_eq!(total(1), Some(1));
        assert_eq!(total(8), Some(92));
        assert_eq!(unique(8), Some(12));
        assert_eq!(total(27), Some(234_907_967_154_122_528));
        assert_eq!(total(28), None);
    }

    #[test]
    fn every_class_has_at_most_eight_members() {
        // A cheap consistency check of the two transcribed tables: a class has
        // 1, 2, 4 or 8 members, so unique <= total <= 8 * unique.
        for n in 1..=MAX_KNOWN_N {
            let (t, u) = (total(n).unwrap(), unique(n).unwrap());
            assert!(u <= t && t <= 8 * u, "n = {n}: {u} classes, {t} solutions");
        }
    }
}
