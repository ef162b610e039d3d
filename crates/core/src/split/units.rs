//! The vocabulary of a split count: units, a plan of them, what counting
//! one finds, and the [`WorkSplit`] capability a solver offers.

use std::ops::AddAssign;

use serde::{Deserialize, Serialize};

use crate::QueensError;

/// The eight symmetries of the square (see [`crate::symmetry`]).
pub const SYMMETRIES: u64 = 8;

/// One independent piece of a count: an engine's unit, or one piece of it
/// when the plan cuts a long unit into pieces of about equal cost (see
/// [`Plan::cut`]), so that what threads, shards and checkpoints hand out
/// takes about the same time whatever n is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorkUnit {
    /// What the engine's unit is, in the solver's own terms (for example a
    /// packed pre-placement). Opaque to everyone but the solver; every
    /// piece of one unit has its key.
    pub key: u64,
    /// Estimated cost, in the solver's own arbitrary units: used to balance
    /// shards and threads and to estimate the time left. A piece weighs its
    /// share of its unit's cost.
    pub weight: u64,
    /// Which piece of the engine's unit this is: [`Part::WHOLE`] for the
    /// whole unit, else piece `index` of the `of` it was cut into.
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

    /// Whether this piece goes on the whole unit of key `key` that the
    /// plan's units before it began: the pieces of one unit follow each
    /// other, its first (index 0) starting it. What groups a plan's
    /// pieces back into the engine's units.
    pub const fn continues(self, key: u64) -> bool {
        self.piece.index > 0 && self.key == key
    }

    /// The engine's whole unit this is a piece of (weighing what this
    /// piece weighs: the caller knows the whole unit's cost).
    pub const fn unit(self) -> WorkUnit {
        WorkUnit {
            piece: Part::WHOLE,
            ..self
        }
    }
}

/// The units of one board, in their fixed order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The units, in their fixed order: a unit is known by its index here.
    /// The pieces of one engine unit follow each other, in piece order.
    pub units: Vec<WorkUnit>,
    /// Work done to make the plan (in the solver's node units), so that the
    /// total node count of a run includes it.
    pub nodes: u64,
}

/// The most pieces a plan is cut into: 2^25 units of 24 bytes make a plan
/// of 768 MiB, about what a frontier count's plan may hold on a login
/// node. Past it, pieces grow beyond the target cost instead.
pub const MAX_PIECES: u64 = 1 << 25;

impl Plan {
    /// The plan of `units` (whole units, weighed in the engine's cost),
    /// each cut into pieces of about `target` weight: a unit of weight w
    /// into ceil(w / target) pieces (at most `max_pieces(unit)`, at least
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
        let pieces_at = |target: u64| -> Vec<u64> {
            units
                .iter()
                .zip(&most)
                .map(|(unit, &most)| unit.weight.div_ceil(target.max(1)).clamp(1, most))
                .collect()
        };
        let mut target = target.max(1);
        let mut pieces = pieces_at(target);
        // Doubling the target at most halves the pieces beyond one per
        // unit: a few rounds at most, each linear.
        while pieces.iter().sum::<u64>() > MAX_PIECES.max(units.len() as u64) {
            target = target.saturating_mul(2);
            pieces = pieces_at(target);
        }
        let units = units
            .into_iter()
            .zip(pieces)
            .flat_map(|(unit, of)| {
                let of = u32::try_from(of).expect("at most max_pieces, a u32");
                let share =
                    move |i: u32| (u128::from(unit.weight) * u128::from(i) / u128::from(of)) as u64;
                (0..of).map(move |index| WorkUnit {
                    key: unit.key,
                    weight: share(index + 1) - share(index),
                    piece: if of == 1 {
                        Part::WHOLE
                    } else {
                        Part { index, of }
                    },
                })
            })
            .collect();
        Plan { units, nodes }
    }

    /// The engine's whole units, each once, in plan order, weighing what
    /// their pieces weigh together: what sampling by unit needs (an
    /// estimate draws units, then their parts).
    pub fn whole_units(&self) -> Vec<WorkUnit> {
        let mut whole: Vec<WorkUnit> = Vec::new();
        for unit in &self.units {
            match whole.last_mut() {
                Some(last) if unit.continues(last.key) => {
                    last.weight = last.weight.saturating_add(unit.weight);
                }
                _ => whole.push(unit.unit()),
            }
        }
        whole
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
        })
    }

    /// Classes by Burnside's lemma, from the fixed pairs of *all* units of a
    /// board (a partial sum has no meaning on its own).
    pub fn classes(&self) -> u64 {
        debug_assert_eq!(self.fixed_pairs % SYMMETRIES, 0, "partial sum of pairs");
        self.fixed_pairs / SYMMETRIES
    }
}

/// A slice of one unit's work: slice `index` of `of` slices, in the
/// engine's own order (for half-join, ranges of the unit's top file sets).
///
/// A unit's work is its *shared* work (what every slice needs, e.g. the
/// pieces a unit's halves are built from; see [`WorkSplit::prepare_unit`])
/// plus its slices. Slices let a caller time part of a unit (an estimate
/// needs minutes, not a heavy unit's hours) and, later, run a long unit in
/// pieces. Counting every slice of a unit gives exactly the unit's count.
///
/// Cuts nest: with M = [`WorkSplit::parts`], slice `index` of `of` is
/// exactly the finest slices `index · M / of` up to (not including)
/// `(index + 1) · M / of` (rounded down), slices `j` of `M`. So a piece
/// of a unit cut by its plan ([`Plan::cut`], at most M pieces) can be
/// timed, rechecked or sampled by the finest slices it holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Part {
    /// Which slice, `0..of`.
    pub index: u32,
    /// How many slices the unit is cut into (at least 1, at most
    /// [`WorkSplit::parts`]).
    pub of: u32,
}

impl Part {
    /// The whole unit as one slice.
    pub const WHOLE: Part = Part { index: 0, of: 1 };

    /// Whether this names a slice that exists for a unit cut into at most
    /// `max` slices.
    pub fn is_valid(self, max: u32) -> bool {
        self.of >= 1 && self.of <= max && self.index < self.of
    }

    /// [`Part::is_valid`] as a result: the refusal names the slice and
    /// the most slices allowed.
    pub fn check(self, max: u32) -> Result<(), QueensError> {
        if self.is_valid(max) {
            Ok(())
        } else {
            Err(QueensError::NoSuchPart {
                index: self.index,
                of: self.of,
                max,
            })
        }
    }
}

/// A count that splits into independent units.
pub trait WorkSplit: Sync {
    /// Names the partition, e.g. `constellations/1`. Change it whenever the
    /// units, their order or their counts change meaning.
    fn version(&self) -> &'static str;

    /// The units of the n×n board, in a fixed order. Errors are the solver's
    /// limit errors.
    fn plan(&self, n: usize) -> Result<Plan, QueensError>;

    /// The same units as [`WorkSplit::plan`], made without the engine's
    /// device: what reading a record needs (which units a shard holds), as
    /// opposed to counting them. A merge or a recheck of a GPU engine's
    /// records then works on a machine without the GPU, as far as it can.
    /// The default is the plan itself (a CPU engine needs no device).
    fn plan_without_device(&self, n: usize) -> Result<Plan, QueensError> {
        self.plan(n)
    }

    /// Counts one unit of the n×n board's plan (a whole unit, or the one
    /// piece of it that [`WorkUnit::piece`] names). With `unique`, also its
    /// fixed pairs. Over all pieces of a unit, solutions, fixed pairs and
    /// nodes add up to the whole unit's. An error is the device's (a GPU lost or timed out):
    /// a CPU engine never fails once its plan is made.
    fn count_unit(&self, n: usize, unit: WorkUnit, unique: bool) -> Result<UnitCount, QueensError>;

    /// Into how many slices ([`Part`]) `unit` can be cut (at least 1). The
    /// default, 1, means the engine counts only whole units.
    fn parts(&self, n: usize, unit: WorkUnit) -> u32 {
        let _ = (n, unit);
        1
    }

    /// Does `unit`'s shared work (what all its slices need) and keeps it on
    /// this thread for the slices that follow; returns the nodes it took.
    /// A caller that times slices times this apart, so that scaling a
    /// slice's time by the number of slices does not multiply the shared
    /// work. The default has no shared work.
    fn prepare_unit(&self, n: usize, unit: WorkUnit) -> Result<u64, QueensError> {
        let _ = (n, unit);
        Ok(0)
    }

    /// Counts one slice of `unit` (preparing the unit first if this thread
    /// has not). Its nodes leave out the shared work, so that over all
    /// slices of a cut, solutions and fixed pairs add up to
    /// [`WorkSplit::count_unit`]'s and nodes add up to them less
    /// [`WorkSplit::prepare_unit`]'s. The default counts [`Part::WHOLE`] as
    /// the unit and refuses any other slice, as does every engine for a
    /// part that is not [`Part::is_valid`] for [`WorkSplit::parts`].
    fn count_part(
        &self,
        n: usize,
        unit: WorkUnit,
        part: Part,
        unique: bool,
    ) -> Result<UnitCount, QueensError> {
        part.check(1)?;
        self.count_unit(n, unit, unique)
    }

    /// Does what the sub-parts of `part` share (kept on this thread, after
    /// the unit's own shared work) and says into how many sub-parts it is
    /// cut (at least 1): a third level of the split, for a slice that can
    /// itself take minutes (one file set of a large board). A caller that
    /// times sub-parts times this apart, as for
    /// [`WorkSplit::prepare_unit`]. The default cuts no slice further. An
    /// invalid part is refused as by [`WorkSplit::count_part`].
    fn prepare_part(&self, n: usize, unit: WorkUnit, part: Part) -> Result<u32, QueensError> {
        part.check(self.parts(n, unit))?;
        Ok(1)
    }

    /// Counts sub-part `sub` (of [`WorkSplit::prepare_part`]'s number) of
    /// `part`, preparing both first if this thread has not. Over all
    /// sub-parts of a part, solutions and fixed pairs add up to
    /// [`WorkSplit::count_part`]'s. The default counts [`Part::WHOLE`] as
    /// the part and refuses any other sub-part.
    fn count_sub_part(
        &self,
        n: usize,
        unit: WorkUnit,
        part: Part,
        sub: Part,
        unique: bool,
    ) -> Result<UnitCount, QueensError> {
        sub.check(1)?;
        self.count_part(n, unit, part, unique)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::split::{SplitEngine, SplitSolver};
    use crate::trace::TraceSink;
    use crate::{SearchStats, SolverInfo};

    #[test]
    fn a_cut_weighs_its_pieces_by_share_and_keeps_them_together() {
        let units = vec![
            WorkUnit::whole(5, 10),
            WorkUnit::whole(6, 1),
            WorkUnit::whole(7, 25),
        ];
        let plan = Plan::cut(units.clone(), 3, 10, |_| 100);
        let pieces: Vec<(u64, u64, Part)> = plan
            .units
            .iter()
            .map(|u| (u.key, u.weight, u.piece))
            .collect();
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
        assert_eq!(plan.nodes, 3);
        assert_eq!(plan.whole_units(), units);
        // The engine's most pieces win over the target.
        let plan = Plan::cut(
            units.clone(),
            0,
            1,
            |unit| if unit.key == 7 { 1 } else { 100 },
        );
        assert_eq!(plan.units.len(), 10 + 1 + 1);
        assert_eq!(plan.whole_units(), units);
    }

    #[test]
    fn a_cut_past_the_most_pieces_grows_its_pieces() {
        let units = vec![WorkUnit::whole(1, 3 * MAX_PIECES)];
        let plan = Plan::cut(units, 0, 1, |_| u32::MAX);
        let pieces = plan.units.len() as u64;
        assert!(pieces <= MAX_PIECES && pieces > MAX_PIECES / 4, "{pieces}");
        let weights: u64 = plan.units.iter().map(|u| u.weight).sum();
        assert_eq!(weights, 3 * MAX_PIECES);
    }

    static INFO: SolverInfo = SolverInfo {
        id: "slices",
        seed: "none",
        idea: "a unit of key k is k slices of one solution each",
        node: "a slice",
        max_n: 8,
        limit_reason: "a test",
        enumerates: false,
        teaching: "",
        analysis: "",
    };

    /// Unit k has k parts, each one solution and one node, and shared
    /// work of 100 nodes.
    struct Slices;

    impl SplitEngine for Slices {
        const INFO: &'static SolverInfo = &INFO;
        const SPLIT_VERSION: &'static str = "slices/1";

        fn plan(&self, _: usize) -> Plan {
            let units = (1..=4).map(|k| WorkUnit::whole(k, 4 * k)).collect();
            Plan::cut(units, 0, 4, |unit| self.parts(8, unit))
        }
        fn count_unit(&self, _: usize, unit: WorkUnit, _: bool) -> Result<UnitCount, QueensError> {
            Ok(UnitCount {
                solutions: unit.key,
                fixed_pairs: 0,
                nodes: unit.key + 100,
            })
        }
        fn parts(&self, _: usize, unit: WorkUnit) -> u32 {
            unit.key as u32
        }
        fn prepare_unit(&self, _: usize, _: WorkUnit) -> Result<u64, QueensError> {
            Ok(100)
        }
        fn count_part(
            &self,
            _: usize,
            unit: WorkUnit,
            part: Part,
            _: bool,
        ) -> Result<UnitCount, QueensError> {
            let slices = u64::from(part.of.min(unit.key as u32));
            let at = |i: u32| unit.key * u64::from(i) / u64::from(part.of);
            let mine = at(part.index + 1) - at(part.index);
            assert!(mine <= slices);
            Ok(UnitCount {
                solutions: mine,
                fixed_pairs: 0,
                nodes: mine,
            })
        }
        fn trace(&self, _: usize, _: &mut dyn TraceSink) -> SearchStats {
            unreachable!("not traced")
        }
    }

    #[test]
    fn the_pieces_of_a_unit_add_up_to_it_through_the_solver() {
        let solver = SplitSolver(Slices);
        let plan = WorkSplit::plan(&solver, 8).unwrap();
        assert_eq!(plan.units.len(), 1 + 2 + 3 + 4);
        let mut by_key = std::collections::BTreeMap::<u64, UnitCount>::new();
        for &unit in &plan.units {
            *by_key.entry(unit.key).or_default() +=
                WorkSplit::count_unit(&solver, 8, unit, false).unwrap();
        }
        for unit in plan.whole_units() {
            assert_eq!(
                by_key[&unit.key],
                WorkSplit::count_unit(&solver, 8, unit, false).unwrap(),
                "unit {}",
                unit.key
            );
        }
        // A piece past the engine's parts is refused, in one error.
        let beyond = WorkUnit {
            piece: Part { index: 0, of: 3 },
            ..WorkUnit::whole(2, 1)
        };
        assert_eq!(
            WorkSplit::count_unit(&solver, 8, beyond, false),
            Err(QueensError::NoSuchPart {
                index: 0,
                of: 3,
                max: 2
            })
        );
    }
}
