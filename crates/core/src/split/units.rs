//! The vocabulary of a split count: units, a plan of them, what counting
//! one finds, and the [`WorkSplit`] capability a solver offers.

use std::ops::AddAssign;

use serde::{Deserialize, Serialize};

use crate::QueensError;

/// The eight symmetries of the square (see [`crate::symmetry`]).
pub const SYMMETRIES: u64 = 8;

/// One independent piece of a count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorkUnit {
    /// What the unit is, in the solver's own terms (for example a packed
    /// pre-placement). Opaque to everyone but the solver.
    pub key: u64,
    /// Estimated cost, in the solver's own arbitrary units: used to balance
    /// shards and threads and to estimate the time left.
    pub weight: u64,
}

/// The units of one board, in their fixed order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The units, in their fixed order: a unit is known by its index here.
    pub units: Vec<WorkUnit>,
    /// Work done to make the plan (in the solver's node units), so that the
    /// total node count of a run includes it.
    pub nodes: u64,
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

    /// Counts one unit of the n×n board's plan. With `unique`, also its
    /// fixed pairs. An error is the device's (a GPU lost or timed out):
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
