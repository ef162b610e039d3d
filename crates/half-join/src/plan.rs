//! The plan of a board: its units, one per orbit under the symmetries that
//! keep the split, weighed by their predicted time ([`crate::cost`]) and
//! cut into parts of about a minute.

use queens_core::split::{Plan, WorkUnit};

use crate::board::{Board, Unit};
use crate::{cost, unit};

/// The last unit of every plan: the solutions fixed by symmetries other
/// than the identity, for unique counts (Burnside); it counts no solutions.
pub(crate) const FIXED_POINTS: u64 = u64::MAX;

/// Nanoseconds per unit of plan weight: a weight is a predicted time in
/// microseconds. In nanoseconds the units of n = 28 would weigh more
/// together than a `u64` holds, and every consumer sums weights (shards'
/// loads, the progress bar's total).
pub(crate) const WEIGHT_NANOS: u64 = 1_000;

/// The predicted time a plan cuts its units into parts of (in
/// nanoseconds of one thread): a minute. Threads, shards, checkpoints and
/// rechecks all hand out parts, so a part of a minute makes each of them
/// a minute: a run's last thread finishes at most about a minute after the
/// others, an interrupted run loses at most about a minute per thread, and
/// the progress bar moves every minute or so. Longer parts would give
/// up those; much shorter ones would repeat each part's share of its
/// unit's shared work (its quarters, built again for every part: a small
/// share of a minute) and lengthen the lists a run keeps of its parts
/// (the plan itself holds no entry per part, see
/// `queens_core::split::Plan`).
pub(crate) const PART_NANOS: u64 = 60_000_000_000;

/// One unit per orbit of (middle file, block pattern), in key order, each
/// weighed by its predicted time and cut into parts of about
/// [`PART_NANOS`] (at most one per finest part, a top set or a part of one, see [`unit::parts`]), then
/// the fixed-points unit, whole.
pub(crate) fn plan(board: &Board) -> Plan {
    plan_cut(board, PART_NANOS)
}

/// [`plan`] with parts of about `part_nanos` (tests cut small boards).
pub(crate) fn plan_cut(board: &Board, part_nanos: u64) -> Plan {
    let units = weighed_units(board);
    let nodes = units.len() as u64;
    let mut plan = Plan::cut(units, nodes, target(part_nanos), |u| {
        unit::parts(board, Unit::from_key(u.key))
    });
    plan.push_whole(WorkUnit::whole(FIXED_POINTS, 1));
    plan
}

/// The board's units, whole, in key order, each weighing its predicted
/// time.
fn weighed_units(board: &Board) -> Vec<WorkUnit> {
    let mut units: Vec<WorkUnit> = (board.units().into_iter())
        .filter(|&u| board.is_canonical(u))
        .map(|u| WorkUnit::whole(u.key(), (cost::cost(board, u) / WEIGHT_NANOS).max(1)))
        .collect();
    units.sort_by_key(|u| u.key);
    units
}

/// A part's target weight.
fn target(part_nanos: u64) -> u64 {
    (part_nanos / WEIGHT_NANOS).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use queens_core::oeis;
    use queens_core::split::{Part, UnitCount, WorkSplit};
    use std::collections::BTreeMap;

    #[test]
    fn the_parts_of_every_unit_add_up_to_the_unit() {
        // With parts of a millisecond, small boards' units are cut into
        // several parts (at most one per finest part); through the public
        // solver, each unit's parts counted one by one add up to the
        // whole unit, solutions, fixed pairs and all, and the board to
        // A000170. The fixed-points unit stays whole.
        for n in [14, 15, 16] {
            let plan = plan_cut(&Board::new(n), 1_000_000);
            let units: Vec<WorkUnit> = plan.iter().collect();
            let (fixed, _) = units.split_last().expect("units");
            assert_eq!((fixed.key, fixed.piece), (FIXED_POINTS, Part::WHOLE));
            let mut by_key: BTreeMap<u64, UnitCount> = BTreeMap::new();
            for &part in &units {
                let count = WorkSplit::count_unit(&crate::HALF_JOIN, n, part, true).unwrap();
                *by_key.entry(part.key).or_default() += count;
            }
            let whole = plan.whole_units();
            assert!(plan.len() > 2 * whole.len(), "n = {n}: units were cut");
            let mut total = 0;
            for unit in whole {
                let count = WorkSplit::count_unit(&crate::HALF_JOIN, n, unit, true).unwrap();
                let parts = &by_key[&unit.key];
                assert_eq!(parts.solutions, count.solutions, "n = {n}: {unit:?}");
                assert_eq!(parts.fixed_pairs, count.fixed_pairs, "n = {n}: {unit:?}");
                total += count.solutions;
            }
            assert_eq!(Some(total), oeis::total(n), "n = {n}");
        }
    }

    #[test]
    fn a_unit_is_cut_into_parts_of_its_predicted_time_and_no_more_than_its_finest() {
        // Every unit's parts are as many as its predicted time needs
        // for parts of the target (rounded up), but no more than its
        // finest parts, and weigh its predicted time together.
        let n = 17;
        let target = 5_000_000;
        let board = Board::new(n);
        let plan = plan_cut(&Board::new(n), target);
        let whole = plan.whole_units();
        for unit in &whole[..whole.len() - 1] {
            let at = Unit::from_key(unit.key);
            assert_eq!(unit.weight, (cost::cost(&board, at) / WEIGHT_NANOS).max(1));
            let cut = plan.iter().filter(|u| u.key == unit.key).count() as u64;
            let wanted = unit.weight.div_ceil(target / WEIGHT_NANOS);
            let finest = u64::from(unit::parts(&board, at));
            assert_eq!(cut, wanted.min(finest).max(1), "{at:?}");
        }
    }

    #[test]
    fn the_longest_part_of_n_24_and_28_is_predicted_under_two_minutes() {
        // What a plan is for: its longest part, as the plan
        // predicts it, under 2 minutes at n = 24 and 28 (one thread); the
        // `parts` measurement below prints it, and the longest whole
        // unit, for every large n. A unit's heaviest part weighs its
        // share rounded up: found per unit, not by listing n = 28's
        // parts. Checked against the listed parts at n = 24.
        for n in [24, 28] {
            let plan = plan(&Board::new(n));
            let whole = plan.whole_units();
            let longest = (whole.iter().enumerate())
                .map(|(w, unit)| unit.weight.div_ceil(plan.pieces(w).len() as u64))
                .max()
                .unwrap();
            if n == 24 {
                assert_eq!(Some(longest), plan.iter().map(|u| u.weight).max());
            }
            let seconds = (longest * WEIGHT_NANOS) as f64 / 1e9;
            assert!(seconds < 120.0, "n = {n}: {seconds} s");
        }
    }

    /// For each n of `SIZES` (default 20..=28): the plan's time to make,
    /// its units and parts, the longest whole unit and the longest part
    /// as predicted, the predicted one-thread total, and how many units
    /// are held to their parts (run with --release -- --ignored
    /// --nocapture).
    #[test]
    #[ignore = "seconds to minutes: a measurement, not a check"]
    fn parts() {
        for n in cost::tests::sizes_from_env(20..=28) {
            let started = std::time::Instant::now();
            let plan = plan(&Board::new(n));
            let made = started.elapsed();
            let board = Board::new(n);
            let whole = plan.whole_units();
            let seconds = |weight: u64| weight as f64 * WEIGHT_NANOS as f64 / 1e9;
            let part = plan.iter().max_by_key(|u| u.weight).unwrap();
            let longest = part.weight;
            let of_longest = Unit::from_key(part.key);
            let longest_unit = whole.iter().map(|u| u.weight).max().unwrap();
            let total: u64 = whole.iter().map(|u| u.weight).sum();
            let held = (whole[..whole.len() - 1].iter())
                .filter(|u| {
                    let parts = u64::from(unit::parts(&board, Unit::from_key(u.key)));
                    u.weight.div_ceil(PART_NANOS / WEIGHT_NANOS) > parts
                })
                .count();
            eprintln!(
                "n = {n}: plan in {made:?}, {} units, {} parts, longest unit {:.0} s, longest part {:.1} s ({of_longest:?}, {} sets, part {:?}), total {:.3e} s, {held} units held to their parts",
                whole.len(),
                plan.len(),
                seconds(longest_unit),
                seconds(longest),
                unit::top_sets(&board, of_longest),
                part.piece,
                seconds(total),
            );
        }
    }
}
