//! [`WorkSplit`]: the capability a solver offers when its count splits
//! into independent units: a plan of them, and counting one (whole, or a
//! part of it).

use super::plan::Plan;
use super::units::{Part, UnitCount, WorkUnit};
use crate::QueensError;

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
    /// part of it that [`WorkUnit::piece`] names). With `unique`, also its
    /// fixed pairs. Over all parts of a unit, solutions, fixed pairs and
    /// nodes add up to the whole unit's. An error is the device's (a GPU lost or timed out):
    /// a CPU engine never fails once its plan is made.
    fn count_unit(&self, n: usize, unit: WorkUnit, unique: bool) -> Result<UnitCount, QueensError>;

    /// Into how many parts ([`Part`]) `unit` can be cut (at least 1). The
    /// default, 1, means the engine counts only whole units.
    fn parts(&self, n: usize, unit: WorkUnit) -> u32 {
        let _ = (n, unit);
        1
    }

    /// Does `unit`'s shared work (what all its parts need) and keeps it on
    /// this thread for the parts that follow; returns the nodes it took.
    /// A caller that times parts times this apart, so that scaling a
    /// part's time by the number of parts does not multiply the shared
    /// work. The default has no shared work.
    fn prepare_unit(&self, n: usize, unit: WorkUnit) -> Result<u64, QueensError> {
        let _ = (n, unit);
        Ok(0)
    }

    /// Counts one part of `unit` (preparing the unit first if this thread
    /// has not). Its nodes leave out the shared work, so that over all
    /// parts of a cut, solutions and fixed pairs add up to
    /// [`WorkSplit::count_unit`]'s and nodes add up to them less
    /// [`WorkSplit::prepare_unit`]'s. The default counts [`Part::WHOLE`] as
    /// the unit and refuses any other part, as does every engine for a
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

    /// Does what the parts of `part` share (kept on this thread, after the
    /// unit's own shared work) and says into how many parts it is cut (at
    /// least 1): a third level of the split, for a part that can itself
    /// take minutes (one file set of a large board). A caller that times
    /// a part's parts times this apart, as for
    /// [`WorkSplit::prepare_unit`]. The default cuts no part further. An
    /// invalid part is refused as by [`WorkSplit::count_part`].
    fn prepare_part(&self, n: usize, unit: WorkUnit, part: Part) -> Result<u32, QueensError> {
        part.check(self.parts(n, unit))?;
        Ok(1)
    }

    /// Counts part `sub` (of [`WorkSplit::prepare_part`]'s number) of
    /// `part`, preparing both first if this thread has not. Over all parts
    /// of a part, solutions and fixed pairs add up to
    /// [`WorkSplit::count_part`]'s. The default counts [`Part::WHOLE`] as
    /// the part and refuses any other.
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
    use crate::split::units::Part;
    use crate::split::{SplitEngine, SplitSolver};
    use crate::trace::TraceSink;
    use crate::{SearchStats, SolverInfo};

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
                pair_tests: 0,
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
                pair_tests: 0,
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
        assert_eq!(plan.len(), 1 + 2 + 3 + 4);
        let mut by_key = std::collections::BTreeMap::<u64, UnitCount>::new();
        for unit in plan.iter() {
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
        // A part past the engine's parts is refused, in one error.
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
