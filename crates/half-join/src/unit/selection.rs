//! Which of a unit's sets, and which parts of a set's join, a count
//! takes: ranges of set places, a unit's finest parts, a set's sub-parts.

use super::*;

/// A range of places: of a unit's top sets (in [`for_each_top_set`]'s
/// order), of its finest parts (see [`parts`]), or of a set's sub-parts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SetRange {
    /// The first set's place.
    pub start: u64,
    /// The place after the last set.
    pub end: u64,
}

impl SetRange {
    /// Every set of a unit.
    pub(crate) const ALL: SetRange = SetRange {
        start: 0,
        end: u64::MAX,
    };

    /// Part `index` of `of` of `sets` places ([`Part::share`]), so that
    /// the parts of one cut cover every place exactly once, in order.
    pub(crate) fn part(sets: u64, index: u32, of: u32) -> SetRange {
        let share = Part { index, of }.share(sets);
        SetRange {
            start: share.start,
            end: share.end,
        }
    }
}

/// Which of a unit's finest parts, and which of their sub-parts, a join
/// takes. Each top set is cut into `per_set` parts (part j of the set at
/// place p is the unit's part p · `per_set` + j), and part j of a set
/// whose join is cut into c sub-parts ([`SetCut`], known only once the
/// set's quarters are built) holds its sub-parts j · c / `per_set` up to
/// (j + 1) · c / `per_set`: none when c < `per_set` and the range rounds
/// to nothing, so that parts add up to their set whatever c is, though
/// one part may then take two parts' time and the next none. Of the
/// sub-parts the parts hold in each set, the join takes part `sub` (in
/// the same nested way): what a part within one set is cut into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Selection {
    /// The finest parts taken, by place.
    pub parts: SetRange,
    /// Parts per set (at least 1).
    pub per_set: u32,
    /// Which part of the sub-parts held in a set is taken ([`Part::WHOLE`]:
    /// all of them).
    pub sub: Part,
}

impl Selection {
    /// Every sub-part of the sets `sets` (one part per set).
    pub(crate) const fn sets(sets: SetRange) -> Selection {
        Selection {
            parts: sets,
            per_set: 1,
            sub: Part::WHOLE,
        }
    }

    /// Part `part` of a unit cut into `per_set` parts per set of its
    /// `sets` sets (see [`parts`]), every sub-part of it.
    pub(crate) fn part(sets: u64, per_set: u32, part: Part) -> Selection {
        let parts = sets.saturating_mul(per_set.into());
        Selection {
            parts: SetRange::part(parts, part.index, part.of),
            per_set,
            sub: Part::WHOLE,
        }
    }

    /// The place of the one set this takes parts of, if it takes parts
    /// of exactly one.
    pub(crate) fn one_set(self) -> Option<u64> {
        let per_set = u64::from(self.per_set.max(1));
        let SetRange { start, end } = self.parts;
        (start < end && start / per_set == (end - 1) / per_set).then_some(start / per_set)
    }

    /// The set's own parts (of `0..per_set`) this takes of the set at
    /// `place`, if any: what decides, before its quarters are built,
    /// whether a set is joined at all.
    pub(super) fn parts_of(self, place: u64) -> Option<SetRange> {
        let per_set = u64::from(self.per_set.max(1));
        let first = place.saturating_mul(per_set);
        let [start, end] =
            [self.parts.start, self.parts.end].map(|part| part.saturating_sub(first).min(per_set));
        (start < end).then_some(SetRange { start, end })
    }

    /// The sub-parts this set's parts hold when its join is cut into
    /// `subs` (before `sub` cuts them), or `None` for a set it does not
    /// take.
    pub(crate) fn held(self, place: u64, subs: u32) -> Option<SetRange> {
        let parts = self.parts_of(place)?;
        // The sub-parts of the first part held to those of the last.
        let of = self.per_set;
        let share = |index: u64| {
            Part {
                index: index as u32,
                of,
            }
            .share(subs.into())
        };
        Some(SetRange {
            start: share(parts.start).start,
            end: share(parts.end - 1).end,
        })
    }

    /// The sub-parts this takes of the set at `place` when its join is cut
    /// into `subs`, or `None` for a set it does not take.
    pub(super) fn subs_of(self, place: u64, subs: u32) -> Option<std::ops::Range<u32>> {
        let held = self.held(place, subs)?;
        let cut = SetRange::part(held.end - held.start, self.sub.index, self.sub.of);
        let at = |offset: u64| u32::try_from(held.start + offset).expect("within the set's cut");
        Some(at(cut.start)..at(cut.end))
    }

    /// Whether this counts the queens placed building the set at `place`'s
    /// quarters: only the selection that starts the set (its first part,
    /// the first part of its sub-parts), so that over any cut of a unit
    /// into parts and of a part into sub-parts, the nodes add up to the
    /// unit's, though every part and sub-part builds them again.
    pub(super) fn counts_quarters(self, place: u64) -> bool {
        self.parts_of(place)
            .is_some_and(|parts| parts.start == 0 && self.sub.index == 0)
    }
}

/// The most chunks one side of a set is cut into.
pub(super) const MAX_CHUNKS: u32 = 1 << 10;

/// How one set's join is cut into sub-parts: its tops into `tops` chunks
/// and its bottoms into `bottoms` (parts of their quarters' pairs);
/// sub-part `i · bottoms + j` joins top chunk i with bottom chunk j, so
/// that the sub-parts of a set add up to its join.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SetCut {
    pub(super) tops: u32,
    pub(super) bottoms: u32,
}

impl SetCut {
    /// A set joined whole: one chunk a side.
    pub(crate) const WHOLE: SetCut = SetCut {
        tops: 1,
        bottoms: 1,
    };

    /// The cut of a set whose sides try `top_pairs` and `bottom_pairs`
    /// pairs of pieces: each side's chunk within the tuning's
    /// [`Tuning::chunk_pairs`], then, on boards cut for time, the side with
    /// the larger chunks cut again (doubling) until the product is within
    /// [`Tuning::sub_part_pairs`].
    pub(crate) fn of(top_pairs: u64, bottom_pairs: u64, tuning: &Tuning) -> SetCut {
        let chunk_pairs = tuning.chunk_pairs;
        let sub_part_pairs = tuning.sub_part_pairs.unwrap_or(u64::MAX);
        let chunks = |pairs: u64| pairs.div_ceil(chunk_pairs).clamp(1, MAX_CHUNKS.into()) as u32;
        let mut cut = SetCut {
            tops: chunks(top_pairs),
            bottoms: chunks(bottom_pairs),
        };
        loop {
            let per_top = top_pairs.div_ceil(cut.tops.into());
            let per_bottom = bottom_pairs.div_ceil(cut.bottoms.into());
            if u128::from(per_top) * u128::from(per_bottom) <= u128::from(sub_part_pairs) {
                return cut;
            }
            if per_top >= per_bottom && cut.tops < MAX_CHUNKS {
                cut.tops = (2 * cut.tops).min(MAX_CHUNKS);
            } else if cut.bottoms < MAX_CHUNKS {
                cut.bottoms = (2 * cut.bottoms).min(MAX_CHUNKS);
            } else if cut.tops < MAX_CHUNKS {
                cut.tops = (2 * cut.tops).min(MAX_CHUNKS);
            } else {
                return cut;
            }
        }
    }

    /// Sub-parts of the set.
    pub(crate) fn count(self) -> u32 {
        self.tops * self.bottoms
    }

    /// Sub-part `sub`'s chunk of tops and chunk of bottoms.
    pub(crate) fn chunks(self, sub: u32) -> (Part, Part) {
        (
            Part {
                index: sub / self.bottoms,
                of: self.tops,
            },
            Part {
                index: sub % self.bottoms,
                of: self.bottoms,
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arch::Portable;
    use crate::unit::tests::*;
    use queens_conformance::tier;
    use queens_core::split::{WorkSplit, WorkUnit};
    use queens_core::{QueensError, oeis};

    /// Every part of one cut of `unit` through the engine's interface,
    /// each checked to be the sum of the finest parts it holds (cuts
    /// nest), summed.
    fn nested_cut(
        engine: &impl WorkSplit,
        n: usize,
        unit: WorkUnit,
        of: u32,
        finest: &[UnitCount],
    ) -> UnitCount {
        let parts = finest.len() as u64;
        let mut sum = UnitCount::default();
        for index in 0..of {
            let part = Part { index, of };
            let count = engine.count_part(n, unit, part, true).unwrap();
            let held = SetRange::part(parts, index, of);
            let mut held_sum = UnitCount::default();
            for finest_part in &finest[held.start as usize..held.end as usize] {
                held_sum += *finest_part;
            }
            assert_eq!(count.solutions, held_sum.solutions, "n = {n}, {part:?}");
            assert_eq!(count.fixed_pairs, held_sum.fixed_pairs, "n = {n}, {part:?}");
            sum += count;
        }
        sum
    }

    /// The sub-parts of `part` (a part within one set), counted one by one
    /// and in a cut of two, each sum checked against the part; returns how
    /// many sub-parts `prepare_part` cut it into.
    fn sub_parts_add_up(engine: &impl WorkSplit, n: usize, unit: WorkUnit, part: Part) -> u32 {
        let whole = WorkSplit::count_part(engine, n, unit, part, true).unwrap();
        let subs = WorkSplit::prepare_part(engine, n, unit, part).unwrap();
        assert!(subs >= 1);
        for of in [subs, 2.min(subs)] {
            let mut sum = UnitCount::default();
            for index in 0..of {
                let sub = Part { index, of };
                sum += WorkSplit::count_sub_part(engine, n, unit, part, sub, true).unwrap();
            }
            let context = format!("n = {n}, {part:?}, {of} of {subs} sub-parts");
            assert_eq!(sum.solutions, whole.solutions, "{context}");
            assert_eq!(sum.fixed_pairs, whole.fixed_pairs, "{context}");
        }
        // One sub-part more than the cut is refused, naming the cut.
        let past = Part {
            of: subs + 1,
            ..Part::WHOLE
        };
        let refused = WorkSplit::count_sub_part(engine, n, unit, part, past, false);
        assert!(
            matches!(refused, Err(QueensError::NoSuchPart { max, .. }) if max == subs),
            "n = {n}, {part:?}: {refused:?}"
        );
        subs
    }

    #[test]
    fn parts_of_sets_add_up_to_every_unit_and_nest_quarters_built_exactly() {
        parts_of_sets_add_up_to_every_unit_and_nest(&[(14, 4, true), (15, 8, true)]);
    }

    #[test]
    fn parts_of_sets_add_up_to_every_unit_and_nest_quarters_built_by_sets() {
        parts_of_sets_add_up_to_every_unit_and_nest(&[(14, 8, false), (15, 4, false)]);
    }

    /// Two tests, one per way of building quarters, so that the full
    /// tier's largest boards run on two test threads at once.
    fn parts_of_sets_add_up_to_every_unit_and_nest(cases: &[(usize, u32, bool)]) {
        // n = 28 cuts each top set into parts (ranges of the sub-parts
        // its join is cut into); here boards whose totals are known do,
        // with a few parts per set and the cut's limits lowered so that
        // sets have several sub-parts (and some fewer than their parts),
        // both ways of building quarters, through the engine's interface:
        // every unit's finest parts counted one by one add up to the
        // unit (solutions, fixed pairs and nodes, the unit's shared work
        // apart) and the board to A000170; coarser cuts hold exactly their
        // finest parts; a part within one set is cut into sub-parts that
        // add up to it; parts past the cut are refused.
        for (n, per_set, exact) in tier::cases(cases, 1) {
            let board = retuned(&Board::new(n), |tuning| {
                cut(tuning, 1 << 8, 1 << 15);
                tuning.parts_per_set = per_set;
                tuning.exact = exact;
            });
            let engine = &engine(&board);
            let plan = WorkSplit::plan(engine, n).unwrap();
            let whole = plan.whole_units();
            let (fixed, units) = whole.split_last().expect("units");
            assert_eq!(WorkSplit::parts(engine, n, *fixed), 1);
            let context = format!("n = {n}, {per_set} parts a set, exact {exact}");
            let (mut total, mut most_subs, mut empty) = (0, 0, 0);
            for (at, &unit) in units.iter().enumerate() {
                let parts = WorkSplit::parts(engine, n, unit);
                let sets = top_sets(&board, Unit::from_key(unit.key));
                assert_eq!(u64::from(parts), sets * u64::from(per_set), "{context}");
                let count = WorkSplit::count_unit(engine, n, unit, true).unwrap();
                let prepared = WorkSplit::prepare_unit(engine, n, unit).unwrap();
                let finest: Vec<UnitCount> = (0..parts)
                    .map(|index| {
                        let part = Part { index, of: parts };
                        WorkSplit::count_part(engine, n, unit, part, true).unwrap()
                    })
                    .collect();
                let mut sum = UnitCount::default();
                for finest_part in &finest {
                    sum += *finest_part;
                }
                assert_eq!(sum.solutions, count.solutions, "{context}, unit {at}");
                assert_eq!(sum.fixed_pairs, count.fixed_pairs, "{context}, unit {at}");
                assert_eq!(sum.nodes + prepared, count.nodes, "{context}, unit {at}");
                total += count.solutions;
                if at % 5 != 0 {
                    continue;
                }
                // Nested cuts, and the sub-parts of parts within one set:
                // one part, two, a whole set.
                for of in [2, 3, 7, parts / 2, parts - 1] {
                    if (1..=parts).contains(&of) {
                        let cut = nested_cut(engine, n, unit, of, &finest);
                        assert_eq!(cut.solutions, count.solutions, "{context}, {of} parts");
                    }
                }
                for of in [parts, parts / 2, parts / per_set] {
                    for index in (0..of).step_by(3) {
                        let subs = sub_parts_add_up(engine, n, unit, Part { index, of });
                        most_subs = most_subs.max(subs);
                    }
                }
                // A part that holds none of its set's sub-parts.
                empty += (0..parts)
                    .filter(|&index| {
                        let part = Part { index, of: parts };
                        let count = WorkSplit::count_part(engine, n, unit, part, false).unwrap();
                        count.nodes == 0
                    })
                    .count();
                for part in [
                    Part {
                        index: 0,
                        of: parts + 1,
                    },
                    Part { index: 1, of: 1 },
                ] {
                    assert_eq!(
                        WorkSplit::count_part(engine, n, unit, part, false),
                        Err(QueensError::NoSuchPart {
                            index: part.index,
                            of: part.of,
                            max: parts
                        })
                    );
                }
            }
            assert_eq!(Some(total), oeis::total(n), "{context}");
            assert!(most_subs >= 2, "{context}: some parts were cut further");
            assert!(
                empty > 0,
                "{context}: some set had fewer sub-parts than parts"
            );
        }
    }

    #[test]
    fn sets_cut_into_sub_parts_count_every_board_and_add_up() {
        // Below n = 23 no set is cut; here the cut's limits are lowered so
        // that boards whose totals are known cut their sets into many
        // sub-parts (chunks of tops against chunks of bottoms), in both
        // layouts and with either way of building quarters: whole counts
        // still match A000170, and a set's sub-parts, counted one by one,
        // add up to the set.
        for exact in [false, true] {
            for n in tier::boards(14..=14, 14..=15) {
                for width in [Width::Narrow, Width::Wide] {
                    let board = retuned(&Board::with_width(n, width), |tuning| {
                        cut(tuning, 1 << 8, 1 << 15);
                        tuning.exact = exact;
                    });
                    let units: Vec<Unit> = (board.units().into_iter())
                        .filter(|&unit| board.is_canonical(unit))
                        .collect();
                    let total: u64 = (units.iter())
                        .map(|&u| count_unit(&board, u).count.solutions)
                        .sum();
                    let context = format!("n = {n}, {width:?}, exact {exact}");
                    assert_eq!(Some(total), oeis::total(n), "{context}");
                    let unit = *units
                        .iter()
                        .max_by_key(|&&u| top_sets(&board, u))
                        .expect("units");
                    let mut most = 1;
                    for place in 0..top_sets(&board, unit) {
                        let set = count_sets(
                            &board,
                            unit,
                            SetRange {
                                start: place,
                                end: place + 1,
                            },
                        );
                        let subs = prepare_set(&board, unit, place);
                        most = most.max(subs);
                        let mut sum = UnitCount::default();
                        for sub in 0..subs {
                            sum += count_sub_parts(&board, unit, place, sub, subs).count;
                        }
                        assert_eq!(sum.solutions, set.solutions, "{context}, set {place}");
                    }
                    assert!(most >= 4, "{context}: the limits cut some set");
                }
            }
        }
    }

    #[test]
    fn a_chunk_makes_at_most_its_share_of_the_pairs_and_one_left_pieces() {
        // The memory bound of a sub-part: a chunk of K of a set whose sides
        // try P pairs makes at most P / K (rounded up) halves plus one left
        // piece's pairs, and the chunks of a cut make the set's halves.
        let board = Board::new(17);
        let unit = (board.units().into_iter())
            .find(|&u| board.is_canonical(u) && top_sets(&board, u) > 4)
            .expect("a unit of several sets");
        let mut buffers = Buffers::<u32>::default();
        build_quarters(Portable, &board, unit, &mut buffers);
        let quarters = &buffers.top_quarters;
        let (_, fixing) = board.orbit(unit);
        let mut keys = Vec::new();
        let mut checked = 0;
        for_each_top_set(&board, unit, &fixing, |set, _| {
            let pairs = quarters.pairs(set);
            let (whole, _) = quarters.halves(Portable, set, Part::WHOLE, &mut keys);
            let mut all: Vec<u64> = keys[..whole].to_vec();
            all.sort_unstable();
            for of in [2, 3, 7] {
                let mut made = Vec::new();
                for index in 0..of {
                    let chunk = Part { index, of };
                    let (found, tried) = quarters.halves(Portable, set, chunk, &mut keys);
                    let bound = pairs.div_ceil(of.into()) + quarters.largest_right_cell(set);
                    assert!(tried <= bound, "set {set:#b}, chunk {index} of {of}");
                    made.extend_from_slice(&keys[..found]);
                }
                made.sort_unstable();
                assert_eq!(made, all, "set {set:#b}, {of} chunks");
            }
            checked += 1;
        });
        assert!(checked > 4);
    }
}
