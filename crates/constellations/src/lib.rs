#![doc = include_str!("../README.md")]

mod burnside;
pub mod constellation;
pub mod interior;
pub mod plan;
mod walkthrough;

use queens_core::split::{self, Plan, UnitCount, WorkSplit, WorkUnit};
use queens_core::trace::{Silent, TraceSink};
use queens_core::{CountOnly, CountOptions, QueensError, SearchStats, Solver, SolverInfo, Visit};

use burnside::FixedPairs;
use constellation::Constellation;
use interior::Interior;

/// The constellations engine.
#[derive(Clone, Copy, Debug, Default)]
pub struct Constellations;

pub static INFO: SolverInfo = SolverInfo {
    id: "constellations",
    seed: "none (our own): symmetry classes of border pre-placements, weighted 2/4/8",
    idea: "one border pre-placement per D4 orbit, weighted by orbit size; bitmask search of the interior; Burnside for classes",
    node: "a queen placed on an interior row (the last row's are counted, not placed), plus each border pre-placement looked at while planning",
    max_n: interior::MAX_N,
    limit_reason: "on a u32 mask: one bit per file",
    enumerates: false,
    teaching: include_str!("../README.md"),
    analysis: include_str!("../ANALYSIS.md"),
};

/// Names the partition into units (see [`WorkSplit::version`]).
pub const SPLIT_VERSION: &str = "constellations/1";

impl Solver for Constellations {
    fn info(&self) -> &'static SolverInfo {
        &INFO
    }

    fn enumerate(&self, n: usize, _visit: &mut Visit<'_>) -> Result<SearchStats, QueensError> {
        INFO.check_n(n)?;
        Err(QueensError::CannotEnumerate { solver: INFO.id })
    }

    fn count(&self, n: usize, options: &CountOptions) -> Result<SearchStats, QueensError> {
        split::count_all(self, n, options)
    }

    fn trace(&self, n: usize, sink: &mut dyn TraceSink) -> Result<SearchStats, QueensError> {
        INFO.check_n(n)?;
        Ok(walkthrough::trace(n, sink))
    }

    fn work_split(&self) -> Option<&dyn WorkSplit> {
        Some(self)
    }
}

impl WorkSplit for Constellations {
    fn version(&self) -> &'static str {
        SPLIT_VERSION
    }

    fn plan(&self, n: usize) -> Result<Plan, QueensError> {
        INFO.check_n(n)?;
        Ok(plan::plan(n))
    }

    fn count_unit(&self, n: usize, unit: WorkUnit, unique: bool) -> UnitCount {
        count_constellation(n, Constellation::from_key(unit.key), unique)
    }
}

/// The solutions a canonical constellation stands for: its completions, each
/// counted once per member of its orbit. With `unique`, its share of
/// Burnside's fixed pairs too.
pub fn count_constellation(n: usize, constellation: Constellation, unique: bool) -> UnitCount {
    let interior = Interior::new(n, constellation);
    let orbit = constellation.orbit_size(n);
    let symmetric = constellation.stabilizer(n).nth(1).is_some();
    let (tally, pairs) = if unique && symmetric {
        let mut fixed = FixedPairs::new(constellation.stabilizer(n));
        let tally = interior.search(interior::MAX_N, &mut fixed, &mut Silent);
        (tally, fixed.pairs)
    } else {
        // No symmetry fixes the constellation, so none fixes a solution:
        // each solution pairs with the identity only.
        let tally = interior.search(interior::MAX_N, &mut CountOnly, &mut Silent);
        (tally, if unique { tally.solutions } else { 0 })
    };
    UnitCount {
        solutions: orbit * tally.solutions,
        fixed_pairs: orbit * pairs,
        nodes: tally.nodes,
    }
}
