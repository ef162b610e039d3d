//! Parts of a unit (`WorkSplit::parts`, `prepare_unit`, `count_part`)
//! through the engine's public interface: every cut of a unit adds up to
//! the unit.

use queens_conformance::tier;
use queens_core::QueensError;
use queens_core::split::{Part, UnitCount, WorkSplit, WorkUnit};
use queens_half_join::HALF_JOIN;

/// Every part of one cut of `unit`, summed.
fn sum_of_parts(n: usize, unit: WorkUnit, of: u32, unique: bool) -> UnitCount {
    let mut sum = UnitCount::default();
    for index in 0..of {
        sum += HALF_JOIN
            .count_part(n, unit, Part { index, of }, unique)
            .expect("a valid part");
    }
    sum
}

#[test]
fn the_parts_of_every_cut_add_up_to_the_unit() {
    // Units by a fixed stride through each plan (the fixed-points unit,
    // last, among them), cut whole, in two, in three, in seven and into
    // as many parts as the unit allows (one set each). Up to n = 17 in
    // the full tier (each board past it costs the rest together again),
    // n = 14 and 15 in the fast one.
    for n in tier::boards(14..=15, 14..=17) {
        let plan = HALF_JOIN.plan(n).expect("a supported board");
        let units: Vec<_> = plan.iter().collect();
        let sampled = [0, units.len() / 3, 2 * units.len() / 3, units.len() - 1];
        for &at in &sampled {
            let unit = units[at];
            let max = HALF_JOIN.parts(n, unit);
            assert!(max >= 1);
            for unique in [false, true] {
                let whole = HALF_JOIN.count_unit(n, unit, unique).expect("counted");
                let prepared = HALF_JOIN.prepare_unit(n, unit).expect("prepared");
                let mut cuts = vec![1, 2, 3, 7, max];
                cuts.retain(|&of| of <= max);
                for of in cuts {
                    let sum = sum_of_parts(n, unit, of, unique);
                    let context = format!("n = {n}, unit {at} of {}, {of} parts", units.len());
                    assert_eq!(sum.solutions, whole.solutions, "{context}");
                    assert_eq!(sum.fixed_pairs, whole.fixed_pairs, "{context}");
                    assert_eq!(sum.nodes + prepared, whole.nodes, "{context}");
                }
            }
        }
    }
}

#[test]
fn units_made_from_quarters_are_cut_into_their_top_sets_and_no_further() {
    // From n = 14 a unit is made from quarters and has a part per top set
    // (the plan cuts it into at most that many pieces); a part beyond the
    // unit's is refused, as is the fixed-points unit cut at all.
    for n in [14, 15, 17] {
        let plan = HALF_JOIN.plan(n).expect("a supported board");
        let units: Vec<_> = plan.iter().collect();
        let (fixed, units) = units.split_last().expect("units");
        for &unit in units.iter().step_by(5) {
            let pieces = plan.iter().filter(|u| u.key == unit.key).count();
            let parts = HALF_JOIN.parts(n, unit);
            assert!(parts >= 1 && pieces <= parts as usize, "n = {n}");
        }
        assert_eq!(HALF_JOIN.parts(n, *fixed), 1);
        let unit = units[0];
        let max = HALF_JOIN.parts(n, unit);
        for part in [
            Part {
                index: 0,
                of: max + 1,
            },
            Part { index: 2, of: 2 },
            Part { index: 0, of: 0 },
        ] {
            assert_eq!(
                HALF_JOIN.count_part(n, unit, part, false),
                Err(QueensError::NoSuchPart {
                    index: part.index,
                    of: part.of,
                    max
                })
            );
        }
    }
}

#[test]
fn small_boards_count_whole_units_only() {
    // Below n = 14 the halves are searched, not made from quarters: one
    // part, the whole unit.
    let n = 12;
    let plan = HALF_JOIN.plan(n).expect("a supported board");
    for unit in plan.iter() {
        assert_eq!(HALF_JOIN.parts(n, unit), 1);
        assert_eq!(
            HALF_JOIN.count_part(n, unit, Part::WHOLE, true),
            HALF_JOIN.count_unit(n, unit, true)
        );
    }
}

#[test]
fn a_large_set_is_cut_into_sub_parts_that_add_up_to_it() {
    // On the even boards from n = 26 the large sets are cut into sub-parts
    // (chunks of tops joined with chunks of bottoms); through the public
    // interface, on the heaviest unit of n = 26: some one-set part is cut,
    // its sub-parts add up to it (and a coarser cut of them does too), a
    // part of several sets is not cut, and a sub-part past the cut is
    // refused. About a minute on two cores: the full tier's; the fast tier
    // checks the same adding up on small boards with the cut's limits
    // lowered (the crate's unit tests).
    if tier::current() == tier::Tier::Fast {
        eprintln!(
            "the full tier's ({}=full): n = 26's sub-parts",
            tier::VARIABLE
        );
        return;
    }
    let n = 26;
    let plan = HALF_JOIN.plan(n).expect("a supported board");
    let whole = plan.whole_units();
    let unit = *whole.iter().max_by_key(|u| u.weight).expect("units");
    let of = HALF_JOIN.parts(n, unit);
    let several = Part { index: 0, of: 2 };
    assert_eq!(HALF_JOIN.prepare_part(n, unit, several), Ok(1));
    let (part, subs) = (0..of)
        .step_by(7)
        .map(|index| Part { index, of })
        .map(|part| {
            (
                part,
                HALF_JOIN.prepare_part(n, unit, part).expect("prepared"),
            )
        })
        .find(|&(_, subs)| subs > 1)
        .expect("a set of n = 26 cut into sub-parts");
    // With the fixed pairs (the unique count) they add up too.
    let whole = HALF_JOIN.count_part(n, unit, part, true).expect("counted");
    for cut in [subs, 2] {
        let mut sum = UnitCount::default();
        for index in 0..cut {
            let sub = Part { index, of: cut };
            sum += HALF_JOIN
                .count_sub_part(n, unit, part, sub, true)
                .expect("a valid sub-part");
        }
        assert_eq!(sum.solutions, whole.solutions, "{cut} of {subs} sub-parts");
        assert_eq!(sum.fixed_pairs, whole.fixed_pairs, "{cut} of {subs}");
    }
    let past = Part {
        index: 0,
        of: subs + 1,
    };
    assert_eq!(
        HALF_JOIN.count_sub_part(n, unit, part, past, false),
        Err(QueensError::NoSuchPart {
            index: 0,
            of: subs + 1,
            max: subs
        })
    );
}
