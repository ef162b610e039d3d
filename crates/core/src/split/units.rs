//! The vocabulary of a split count: units, their parts, and what
//! counting one finds (the plan of them is [`super::Plan`], the capability
//! [`super::WorkSplit`]).

use std::ops::AddAssign;

use serde::{Deserialize, Serialize};

use crate::QueensError;

/// The eight symmetries of the square (see [`crate::symmetry`]).
pub const SYMMETRIES: u64 = 8;

/// One independent part of a count: an engine's unit, or one part of it
/// when the plan cuts a long unit into parts of about equal cost (see
/// [`super::Plan::cut`]), so that what threads, shards and checkpoints hand out
/// takes about the same time whatever n is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorkUnit {
    /// What the engine's unit is, in the solver's own terms (for example a
    /// packed pre-placement). Opaque to everyone but the solver; every
    /// part of one unit has its key.
    pub key: u64,
    /// Estimated cost, in the solver's own arbitrary units: used to balance
    /// shards and threads and to estimate the time left. A part weighs its
    /// share of its unit's cost.
    pub weight: u64,
    /// Which part of the engine's unit this is: [`Part::WHOLE`] for the
    /// whole unit, else part `index` of the `of` it was cut into.
    pub piece: Part,
}

impl WorkUnit {
    /// A whole unit of the engine's.
    pub const fn whole(key: u64, weight: u64) -> WorkUnit {
        WorkUnit {
            key,
            weight,
            piece: Part::WHOLE,
        }
    }

    /// The engine's whole unit this is a part of (weighing what this
    /// part weighs: the caller knows the whole unit's cost).
    pub const fn unit(self) -> WorkUnit {
        WorkUnit {
            piece: Part::WHOLE,
            ..self
        }
    }
}

/// What counting one unit (or a sum of units) found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitCount {
    /// Solutions the unit stands for (its weight by symmetry included).
    pub solutions: u64,
    /// Pairs (symmetry g, solution s) with g(s) = s among those solutions;
    /// 0 when unique counts were not asked for.
    pub fixed_pairs: u64,
    /// Nodes searched.
    pub nodes: u64,
    /// Pairs of halves a meet-in-the-middle engine compared to find the
    /// pairs that fit: the join's work, which its nodes leave out (0 for
    /// an engine that joins nothing, and then not written). A measure of
    /// this run only: shards and checkpoints keep a unit's solutions, fixed
    /// pairs and nodes, so a count resumed or merged from them has none.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub pair_tests: u64,
}

fn is_zero(value: &u64) -> bool {
    *value == 0
}

/// Adds counts, refusing to wrap: Q(27) and its nodes fit a `u64` with
/// room to spare, so an overflow means a corrupted or forged count, and a
/// wrapped total would be a silently wrong answer.
impl AddAssign for UnitCount {
    fn add_assign(&mut self, other: UnitCount) {
        *self = self
            .checked_add(other)
            .expect("a sum of counts overflowed u64: the counts cannot be real");
    }
}

impl UnitCount {
    /// The sum, or `None` if any field would overflow: for counts read from
    /// files, where an overflow is the file's fault and must be refused.
    pub fn checked_add(self, other: UnitCount) -> Option<UnitCount> {
        Some(UnitCount {
            solutions: self.solutions.checked_add(other.solutions)?,
            fixed_pairs: self.fixed_pairs.checked_add(other.fixed_pairs)?,
            nodes: self.nodes.checked_add(other.nodes)?,
            pair_tests: self.pair_tests.checked_add(other.pair_tests)?,
        })
    }

    /// Classes by Burnside's lemma, from the fixed pairs of *all* units of a
    /// board (a partial sum has no meaning on its own).
    pub fn classes(&self) -> u64 {
        debug_assert_eq!(self.fixed_pairs % SYMMETRIES, 0, "partial sum of pairs");
        self.fixed_pairs / SYMMETRIES
    }
}

/// Part `index` of `of` of something: of a total ([`Part::share`]), of a
/// unit's work (in the engine's own order: for half-join, ranges of the
/// unit's top file sets), or of a part of it on the largest boards.
///
/// A unit's work is its *shared* work (what every part needs, e.g. what a
/// unit's halves are built from; see [`super::WorkSplit::prepare_unit`])
/// plus its parts. Parts let a caller time a share of a unit (an estimate
/// needs minutes, not a heavy unit's hours) and run a long unit as several
/// units. Counting every part of a unit gives exactly the unit's count.
///
/// Cuts nest: with M = [`super::WorkSplit::parts`], part `index` of `of` is
/// exactly the finest parts `index · M / of` up to (not including)
/// `(index + 1) · M / of` (rounded down), parts `j` of `M`. So a part
/// of a unit cut by its plan ([`super::Plan::cut`], at most M parts) can be
/// timed, rechecked or sampled by the finest parts it holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Part {
    /// Which part, `0..of`.
    pub index: u32,
    /// How many parts the unit is cut into (at least 1, at most
    /// [`super::WorkSplit::parts`]).
    pub of: u32,
}

impl Part {
    /// The whole unit as one part.
    pub const WHOLE: Part = Part { index: 0, of: 1 };

    /// This part's share of `total` things, `index · total / of` up to (not
    /// including) `(index + 1) · total / of`, rounded down: the parts of
    /// one total are disjoint, cover it, and differ in size by at most one.
    /// Every place that cuts a count into parts uses this, so that nested
    /// cuts line up. Exact for every u64 total (the product is taken in
    /// u128 only when it does not fit in u64, the rare and slower case).
    pub fn share(self, total: u64) -> std::ops::Range<u64> {
        let of = u64::from(self.of.max(1));
        let at = |i: u32| match total.checked_mul(u64::from(i)) {
            Some(product) => product / of,
            None => (u128::from(total) * u128::from(i) / u128::from(of)) as u64,
        };
        at(self.index)..at(self.index + 1)
    }

    /// Whether this names a part that exists for a unit cut into at most
    /// `max` parts.
    pub fn is_valid(self, max: u32) -> bool {
        self.of >= 1 && self.of <= max && self.index < self.of
    }

    /// [`Part::is_valid`] as a result: the refusal names the part and
    /// the most parts allowed.
    pub fn check(self, max: u32) -> Result<(), QueensError> {
        let (index, of) = (self.index, self.of);
        let refusal = QueensError::NoSuchPart { index, of, max };
        self.is_valid(max).then_some(()).ok_or(refusal)
    }
}

#[cfg(test)]
mod tests {
    use super::Part;

    #[test]
    fn the_shares_of_a_total_cover_it_disjointly_and_differ_by_at_most_one() {
        for total in [0u64, 1, 2, 7, 100, u64::MAX / 3, u64::MAX] {
            for of in [1u32, 2, 3, 7, 64, u32::MAX] {
                let small = total / u64::from(of);
                let large = total.div_ceil(u64::from(of));
                for index in [0, 1, of / 2, of - 1].into_iter().filter(|&i| i < of) {
                    let share = Part { index, of }.share(total);
                    assert!((small..=large).contains(&(share.end - share.start)));
                    if index + 1 < of {
                        assert_eq!(
                            share.end,
                            Part {
                                index: index + 1,
                                of
                            }
                            .share(total)
                            .start
                        );
                    }
                }
                assert_eq!(Part { index: 0, of }.share(total).start, 0);
                assert_eq!(Part { index: of - 1, of }.share(total).end, total);
            }
        }
    }

    #[test]
    fn a_share_in_u64_equals_the_share_in_u128() {
        for total in [3u64, 1 << 40, u64::MAX - 5] {
            for (index, of) in [(0, 3), (1, 3), (2, 3), (5, 1000), (999, 1000)] {
                let exact = |i: u32| (u128::from(total) * u128::from(i) / u128::from(of)) as u64;
                let share = Part { index, of }.share(total);
                assert_eq!(share, exact(index)..exact(index + 1));
            }
        }
    }
}
