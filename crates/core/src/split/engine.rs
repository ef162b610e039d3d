//! [`SplitEngine`]: a count-only engine that is only a plan and a way to
//! count one unit, and [`SplitSolver`], which makes it a whole [`Solver`].

use super::plan::Plan;
use super::schedule::count_all;
use super::units::{Part, UnitCount, WorkUnit};
use super::work_split::WorkSplit;
use crate::memory::{Question, SMALL_PEAK_BYTES};
use crate::trace::TraceSink;
use crate::{Accelerator, CountOptions, QueensError, SearchStats, Solver, SolverInfo, Visit};

/// A count-only engine whose whole count is a plan of independent units:
/// the engine says what its units are and how to count one; wrapped in
/// [`SplitSolver`] it gets the rest of the [`Solver`] protocol (threads,
/// refusing to list boards, limit checks) and offers [`WorkSplit`] to the
/// harness for shards and checkpoints.
pub trait SplitEngine: Send + Sync {
    /// The engine's description (see [`Solver::info`]).
    const INFO: &'static SolverInfo;

    /// See [`WorkSplit::version`].
    const SPLIT_VERSION: &'static str;

    /// The units of the n×n board (n already checked against the limits).
    fn plan(&self, n: usize) -> Plan;

    /// See [`WorkSplit::count_unit`], for a whole unit ([`SplitSolver`]
    /// counts a part of one through [`SplitEngine::count_part`]).
    fn count_unit(&self, n: usize, unit: WorkUnit, unique: bool) -> Result<UnitCount, QueensError>;

    /// See [`WorkSplit::parts`]; the default counts whole units only.
    fn parts(&self, n: usize, unit: WorkUnit) -> u32 {
        let _ = (n, unit);
        1
    }

    /// See [`WorkSplit::prepare_unit`]; the default has no shared work.
    fn prepare_unit(&self, n: usize, unit: WorkUnit) -> Result<u64, QueensError> {
        let _ = (n, unit);
        Ok(0)
    }

    /// See [`WorkSplit::count_part`] (the part already checked against
    /// [`SplitEngine::parts`]); the default is called with [`Part::WHOLE`]
    /// only, as the default [`SplitEngine::parts`] allows no other.
    fn count_part(
        &self,
        n: usize,
        unit: WorkUnit,
        part: Part,
        unique: bool,
    ) -> Result<UnitCount, QueensError> {
        debug_assert_eq!(part, Part::WHOLE);
        self.count_unit(n, unit, unique)
    }

    /// See [`WorkSplit::prepare_part`] (the part already checked); the
    /// default cuts no part further.
    fn prepare_part(&self, n: usize, unit: WorkUnit, part: Part) -> Result<u32, QueensError> {
        let _ = (n, unit, part);
        Ok(1)
    }

    /// See [`WorkSplit::count_sub_part`] (both already checked, the
    /// part of a part against [`SplitEngine::prepare_part`]); the default is
    /// called with [`Part::WHOLE`] only.
    fn count_sub_part(
        &self,
        n: usize,
        unit: WorkUnit,
        part: Part,
        sub: Part,
        unique: bool,
    ) -> Result<UnitCount, QueensError> {
        debug_assert_eq!(sub, Part::WHOLE);
        self.count_part(n, unit, part, unique)
    }

    /// See [`Solver::accelerator`]: the host's CPU unless the engine says
    /// otherwise. A plan is refused while this is an error, so a count
    /// without its device fails before any unit is dealt.
    fn accelerator(&self) -> Result<Option<Accelerator>, QueensError> {
        Ok(None)
    }

    /// The engine's walkthrough of the n×n board, in its own terms (n
    /// already checked).
    fn trace(&self, n: usize, sink: &mut dyn TraceSink) -> SearchStats;

    /// See [`Solver::peak_bytes`]: for a count, one unit's work (one
    /// thread's share).
    fn peak_bytes(&self, n: usize, question: Question) -> u64 {
        let _ = (n, question);
        SMALL_PEAK_BYTES
    }

    /// See [`Solver::shared_bytes`]: the plan and a run's lists of units.
    fn shared_bytes(&self, n: usize, question: Question) -> u64 {
        let _ = (n, question);
        0
    }
}

/// A [`SplitEngine`] as a [`Solver`]: register `&SplitSolver(Engine)`.
#[derive(Clone, Copy, Debug, Default)]
pub struct SplitSolver<E>(pub E);

impl<E: SplitEngine> Solver for SplitSolver<E> {
    fn info(&self) -> &'static SolverInfo {
        E::INFO
    }

    fn enumerate(&self, n: usize, _visit: &mut Visit<'_>) -> Result<SearchStats, QueensError> {
        E::INFO.check_n(n)?;
        Err(QueensError::CannotEnumerate { solver: E::INFO.id })
    }

    fn count(&self, n: usize, options: &CountOptions) -> Result<SearchStats, QueensError> {
        count_all(self, n, options)
    }

    fn trace(&self, n: usize, sink: &mut dyn TraceSink) -> Result<SearchStats, QueensError> {
        E::INFO.check_n(n)?;
        Ok(self.0.trace(n, sink))
    }

    fn work_split(&self) -> Option<&dyn WorkSplit> {
        Some(self)
    }

    fn peak_bytes(&self, n: usize, question: Question) -> u64 {
        self.0.peak_bytes(n, question)
    }

    fn shared_bytes(&self, n: usize, question: Question) -> u64 {
        self.0.shared_bytes(n, question)
    }

    fn accelerator(&self) -> Result<Option<Accelerator>, QueensError> {
        self.0.accelerator()
    }
}

impl<E: SplitEngine> WorkSplit for SplitSolver<E> {
    fn version(&self) -> &'static str {
        E::SPLIT_VERSION
    }

    fn plan(&self, n: usize) -> Result<Plan, QueensError> {
        // The limit first: it is the answer whatever the machine.
        E::INFO.check_n(n)?;
        self.0.accelerator()?;
        self.plan_without_device(n)
    }

    fn plan_without_device(&self, n: usize) -> Result<Plan, QueensError> {
        E::INFO.check_n(n)?;
        Ok(self.0.plan(n))
    }

    /// A part that the plan cut ([`Plan::cut`]) is counted as the unit's
    /// part of the same place ([`SplitEngine::count_part`]), the unit's
    /// shared nodes in its first part: so over all parts of one cut,
    /// solutions, fixed pairs and nodes add up to the whole unit's, and a
    /// plan may cut a unit into at most [`SplitEngine::parts`] parts.
    fn count_unit(&self, n: usize, unit: WorkUnit, unique: bool) -> Result<UnitCount, QueensError> {
        let (piece, unit) = (unit.piece, unit.unit());
        if piece == Part::WHOLE {
            return self.0.count_unit(n, unit, unique);
        }
        piece.check(WorkSplit::parts(self, n, unit))?;
        let shared = match piece.index {
            0 => self.0.prepare_unit(n, unit)?,
            _ => 0,
        };
        let mut count = self.0.count_part(n, unit, piece, unique)?;
        count += UnitCount {
            nodes: shared,
            ..UnitCount::default()
        };
        Ok(count)
    }

    fn parts(&self, n: usize, unit: WorkUnit) -> u32 {
        self.0.parts(n, unit).max(1)
    }

    fn prepare_unit(&self, n: usize, unit: WorkUnit) -> Result<u64, QueensError> {
        self.0.prepare_unit(n, unit)
    }

    fn count_part(
        &self,
        n: usize,
        unit: WorkUnit,
        part: Part,
        unique: bool,
    ) -> Result<UnitCount, QueensError> {
        part.check(WorkSplit::parts(self, n, unit))?;
        self.0.count_part(n, unit, part, unique)
    }

    fn prepare_part(&self, n: usize, unit: WorkUnit, part: Part) -> Result<u32, QueensError> {
        part.check(WorkSplit::parts(self, n, unit))?;
        Ok(self.0.prepare_part(n, unit, part)?.max(1))
    }

    fn count_sub_part(
        &self,
        n: usize,
        unit: WorkUnit,
        part: Part,
        sub: Part,
        unique: bool,
    ) -> Result<UnitCount, QueensError> {
        sub.check(self.prepare_part(n, unit, part)?)?;
        self.0.count_sub_part(n, unit, part, sub, unique)
    }
}
