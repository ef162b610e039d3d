//! [`Plan`]: a board's units in their fixed order, each cut into parts,
//! held compactly: the engine's whole units and how many parts each is
//! cut into, the parts themselves made on demand.
//!
//! Why compact: a part should take about a minute whatever n is, so the
//! number of parts grows with the board's work. At n = 28 that is
//! hundreds of millions of parts, where a list of them (24 bytes each)
//! would take gigabytes on every node that merely reads the plan, while
//! the engine's units are about a hundred thousand. Every part of one
//! unit weighs its share of the unit (the shares differ by at most one),
//! so a part is known from its unit, its index and the unit's count of
//! parts: nothing per part needs to be stored.

use std::ops::Range;

use super::units::{Part, WorkUnit};

/// The most parts a plan is cut into. The plan itself stays small
/// whatever its parts; what grows with them is what a *run* lists: the
/// parts it counts and their order (two `usize` per part, see the
/// engines' memory declarations). 2^30 parts of a minute are about
/// 2,000 core-years, beyond any count this project can reach; past the
/// cap, parts grow beyond the target cost instead.
pub const MAX_PIECES: u64 = 1 << 30;

/// The units of one board, in their fixed order: a unit (a part of one
/// of the engine's units, or a whole one) is known by its index, from 0
/// to [`Plan::len`]. The parts of one engine unit follow each other, in
/// part order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The engine's whole units, in plan order, each weighing its whole
    /// cost.
    whole: Vec<WorkUnit>,
    /// The index of each whole unit's first part, then the number of
    /// parts: `whole.len() + 1` entries, increasing (each unit has at
    /// least one part, and is cut into as many as lie between its entry
    /// and the next).
    first: Vec<usize>,
    /// Work done to make the plan (in the solver's node units), so that the
    /// total node count of a run includes it.
    pub nodes: u64,
}

impl Plan {
    /// The plan of `units`, each whole (one part).
    pub fn whole(units: Vec<WorkUnit>, nodes: u64) -> Plan {
        Plan::of_parts(units.into_iter().map(|unit| (unit, 1)), nodes)
    }

    /// The plan of `units` (whole units, weighed in the engine's cost),
    /// each cut into parts of about `target` weight: a unit of weight w
    /// into ceil(w / target) parts (at most `max_pieces(unit)`, at least
    /// 1), each weighing its share (the shares add up to w exactly). So a
    /// unit is what threads, shards and checkpoints hand out, whatever
    /// the engine's units cost. If the plan would pass [`MAX_PIECES`],
    /// the target grows until it does not.
    pub fn cut(
        units: Vec<WorkUnit>,
        nodes: u64,
        target: u64,
        max_pieces: impl Fn(WorkUnit) -> u32,
    ) -> Plan {
        let most: Vec<u64> = units.iter().map(|&u| max_pieces(u).max(1).into()).collect();
        let pieces_at = |target: u64| -> Vec<u32> {
            units
                .iter()
                .zip(&most)
                .map(|(unit, &most)| {
                    let of = unit.weight.div_ceil(target.max(1)).clamp(1, most);
                    u32::try_from(of).expect("at most max_pieces, a u32")
                })
                .collect()
        };
        let total = |of: &[u32]| of.iter().map(|&of| u64::from(of)).sum::<u64>();
        let mut target = target.max(1);
        let mut of = pieces_at(target);
        // Doubling the target at most halves the parts beyond one per
        // unit: a few rounds at most, each linear.
        while total(&of) > MAX_PIECES.max(units.len() as u64) {
            target = target.saturating_mul(2);
            of = pieces_at(target);
        }
        Plan::of_parts(units.into_iter().zip(of), nodes)
    }

    /// The plan of whole units, each with the number of parts it is cut
    /// into.
    fn of_parts(units: impl ExactSizeIterator<Item = (WorkUnit, u32)>, nodes: u64) -> Plan {
        let mut plan = Plan {
            whole: Vec::with_capacity(units.len()),
            first: vec![0],
            nodes,
        };
        for (unit, of) in units {
            plan.push(unit, of);
        }
        plan
    }

    /// Adds `unit` at the end of the plan, cut into `of` parts.
    fn push(&mut self, unit: WorkUnit, of: u32) {
        self.whole.push(unit.unit());
        let next = (self.len().checked_add(of as usize)).expect("at most MAX_PIECES pieces");
        self.first.push(next);
    }

    /// Adds `unit`, whole, at the end of the plan.
    pub fn push_whole(&mut self, unit: WorkUnit) {
        self.push(unit, 1);
    }

    /// How many units (parts) the plan holds.
    pub fn len(&self) -> usize {
        *self.first.last().expect("first holds the end")
    }

    /// Whether the plan holds no unit.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Unit `index` of the plan; the caller knows it exists (an index
    /// taken from this plan's own range).
    ///
    /// # Panics
    /// On an index past the plan's end, as a part's index would.
    pub fn unit(&self, index: usize) -> WorkUnit {
        assert!(
            index < self.len(),
            "unit {index} of a plan of {}: an index from another plan",
            crate::counted(self.len(), "unit", "units")
        );
        self.part_of(self.owner(index), index)
    }

    /// Every unit, in plan order ([`Plan::len`] of them).
    pub fn iter(&self) -> impl Iterator<Item = WorkUnit> + '_ {
        self.units_at(0..self.len()).map(|(_, unit)| unit)
    }

    /// The units at `indices` (increasing, each within the plan), with
    /// each one's whole unit (its place in [`Plan::whole_units`]): one
    /// walk beside the plan, without a search per index, for lists as
    /// long as the plan (a run's parts).
    ///
    /// # Panics
    /// On an index out of order or past the plan's end.
    pub fn units_at<'a, I>(&'a self, indices: I) -> impl Iterator<Item = (usize, WorkUnit)> + 'a
    where
        I: IntoIterator<Item = usize>,
        I::IntoIter: 'a,
    {
        let mut whole = 0;
        indices.into_iter().map(move |index| {
            assert!(index < self.len(), "unit {index} past the plan's end");
            assert!(index >= self.first[whole], "indices out of order");
            while self.first[whole + 1] <= index {
                whole += 1;
            }
            (whole, self.part_of(whole, index))
        })
    }

    /// The weight of unit `index`.
    pub fn weight(&self, index: usize) -> u64 {
        self.unit(index).weight
    }

    /// The engine's whole units, each once, in plan order, weighing what
    /// their parts weigh together: what sampling by unit needs (an
    /// estimate draws units, then their parts).
    pub fn whole_units(&self) -> Vec<WorkUnit> {
        self.whole.clone()
    }

    /// The plan's indices of whole unit `whole`'s parts.
    pub fn pieces(&self, whole: usize) -> Range<usize> {
        self.first[whole]..self.first[whole + 1]
    }

    /// The whole unit (its place in [`Plan::whole_units`]) that unit
    /// `index` is a part of.
    fn owner(&self, index: usize) -> usize {
        // The last whole unit whose first part is at or before `index`;
        // units of no part cannot occur (each has at least one).
        self.first.partition_point(|&first| first <= index) - 1
    }

    /// Part `index` (a plan index) of whole unit `whole`.
    fn part_of(&self, whole: usize, index: usize) -> WorkUnit {
        let unit = self.whole[whole];
        let piece = Part {
            index: (index - self.first[whole]) as u32,
            of: self.pieces(whole).len() as u32,
        };
        let share = piece.share(unit.weight);
        WorkUnit {
            key: unit.key,
            weight: share.end - share.start,
            piece,
        }
    }

    /// Every unit's index and weight, heaviest first, ties in plan order: made
    /// without listing the units, as a merge of at most two runs per
    /// whole unit (the shares of one unit take at most two values, one
    /// apart, and the parts of one value follow plan order).
    pub(crate) fn heaviest_first(&self) -> impl Iterator<Item = (usize, u64)> + '_ {
        // (weight, whole unit, which of its two values): sorted heaviest
        // first, then in plan order, so that parts of equal weight come
        // in plan order across units too (a unit's parts all precede
        // the next unit's).
        let mut runs: Vec<(u64, usize)> = Vec::with_capacity(2 * self.whole.len());
        for (w, unit) in self.whole.iter().enumerate() {
            let of = self.pieces(w).len() as u64;
            let low = unit.weight / of;
            runs.push((low, w));
            if !unit.weight.is_multiple_of(of) {
                runs.push((low + 1, w));
            }
        }
        runs.sort_unstable_by_key(|&(weight, w)| (std::cmp::Reverse(weight), w));
        runs.into_iter().flat_map(move |(weight, w)| {
            (self.pieces(w))
                .filter(move |&index| self.part_of(w, index).weight == weight)
                .map(move |index| (index, weight))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cut_weighs_its_pieces_by_share_and_keeps_them_together() {
        let units = vec![
            WorkUnit::whole(5, 10),
            WorkUnit::whole(6, 1),
            WorkUnit::whole(7, 25),
        ];
        let plan = Plan::cut(units.clone(), 3, 10, |_| 100);
        let pieces: Vec<(u64, u64, Part)> =
            plan.iter().map(|u| (u.key, u.weight, u.piece)).collect();
        let part = |index, of| Part { index, of };
        assert_eq!(
            pieces,
            vec![
                (5, 10, Part::WHOLE),
                (6, 1, Part::WHOLE),
                (7, 8, part(0, 3)),
                (7, 8, part(1, 3)),
                (7, 9, part(2, 3)),
            ]
        );
        assert_eq!(plan.len(), 5);
        assert_eq!(plan.iter().count(), 5);
        assert_eq!(plan.nodes, 3);
        assert_eq!(plan.whole_units(), units);
        assert_eq!(plan.iter().map(|unit| unit.weight).sum::<u64>(), 36);
        // Indexing agrees with iterating, and stops at the end.
        for (index, unit) in plan.iter().enumerate() {
            assert_eq!(plan.unit(index), unit);
        }
        assert!(std::panic::catch_unwind(|| plan.unit(5)).is_err());
        let at: Vec<(usize, WorkUnit)> = plan.units_at([0, 3, 4]).collect();
        assert_eq!(
            at,
            vec![(0, plan.unit(0)), (2, plan.unit(3)), (2, plan.unit(4))]
        );
        assert_eq!(plan.pieces(2), 2..5);
        // The engine's most parts win over the target.
        let plan = Plan::cut(
            units.clone(),
            0,
            1,
            |unit| if unit.key == 7 { 1 } else { 100 },
        );
        assert_eq!(plan.len(), 10 + 1 + 1);
        assert_eq!(plan.whole_units(), units);
    }

    #[test]
    fn a_whole_plan_is_its_units_and_grows_at_the_end() {
        let units = vec![WorkUnit::whole(3, 4), WorkUnit::whole(1, 9)];
        let mut plan = Plan::whole(units.clone(), 7);
        assert_eq!(plan.iter().collect::<Vec<_>>(), units);
        plan.push_whole(WorkUnit::whole(u64::MAX, 1));
        assert_eq!(plan.len(), 3);
        assert_eq!(plan.unit(2), WorkUnit::whole(u64::MAX, 1));
        assert!(!plan.is_empty());
        assert!(Plan::whole(Vec::new(), 0).is_empty());
    }

    #[test]
    fn a_cut_past_the_most_pieces_grows_its_pieces() {
        // Without listing them: the count and the weights come from the
        // compact plan (a list of 2^30 parts would not fit a test).
        let units = vec![WorkUnit::whole(1, 3 * MAX_PIECES)];
        let plan = Plan::cut(units, 0, 1, |_| u32::MAX);
        let pieces = plan.len() as u64;
        assert!(pieces <= MAX_PIECES && pieces > MAX_PIECES / 4, "{pieces}");
        let whole = plan.whole_units();
        assert_eq!(whole[0].weight, 3 * MAX_PIECES);
        let last = plan.unit(plan.len() - 1);
        assert_eq!(last.piece.index + 1, last.piece.of);
    }

    #[test]
    fn heaviest_first_is_the_sort_of_every_unit_by_weight_then_index() {
        // Units whose parts take two weights, and ties across units.
        let units = [7, 3, 10, 1, 8, 6]
            .iter()
            .enumerate()
            .map(|(key, &weight)| WorkUnit::whole(key as u64, weight))
            .collect();
        let plan = Plan::cut(units, 0, 3, |_| 100);
        let mut sorted: Vec<usize> = (0..plan.len()).collect();
        sorted.sort_by_key(|&i| (std::cmp::Reverse(plan.weight(i)), i));
        let order: Vec<usize> = plan.heaviest_first().map(|(i, _)| i).collect();
        assert_eq!(order, sorted);
        assert!(
            plan.heaviest_first()
                .all(|(i, weight)| plan.weight(i) == weight)
        );
    }
}
