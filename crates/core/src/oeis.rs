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

/// Both sequences side by side, indexed by n - 1, for n = 1..=27: (A000170,
/// all solutions; A002562, classes up to rotation and reflection).
const PUBLISHED: [(u64, u64); 27] = [
    (1, 1),
    (0, 0),
    (0, 0),
    (2, 1),
    (10, 2),
    (4, 1),
    (40, 6),
    (92, 12),
    (352, 46),
    (724, 92),
    (2_680, 341),
    (14_200, 1_787),
    (73_712, 9_233),
    (365_596, 45_752),
    (2_279_184, 285_053),
    (14_772_512, 1_846_955),
    (95_815_104, 11_977_939),
    (666_090_624, 83_263_591),
    (4_968_057_848, 621_012_754),
    (39_029_188_884, 4_878_666_808),
    (314_666_222_712, 39_333_324_973),
    (2_691_008_701_644, 336_376_244_042),
    (24_233_937_684_440, 3_029_242_658_210),
    (227_514_171_973_736, 28_439_272_956_934),
    (2_207_893_435_808_352, 275_986_683_743_434),
    (22_317_699_616_364_044, 2_789_712_466_510_289),
    (234_907_967_154_122_528, 29_363_495_934_315_694),
];

/// The largest n with a published count.
pub const MAX_KNOWN_N: usize = PUBLISHED.len();

/// The number of solutions of the n×n board, if published.
pub fn total(n: usize) -> Option<u64> {
    n.checked_sub(1).and_then(|i| PUBLISHED.get(i)).map(|p| p.0)
}

/// The number of solutions up to rotation and reflection, if published.
pub fn unique(n: usize) -> Option<u64> {
    n.checked_sub(1).and_then(|i| PUBLISHED.get(i)).map(|p| p.1)
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
