#![doc = include_str!("../README.md")]

mod burnside;
pub mod constellation;
pub mod interior;
pub mod plan;
mod walkthrough;

use queens_core::split::{Plan, SplitEngine, SplitSolver, UnitCount, WorkUnit};
use queens_core::trace::{Silent, TraceSink};
use queens_core::{CountOnly, QueensError, SearchStats, SolverInfo};

use burnside::FixedPairs;
use constellation::Constellation;
use interior::Interior;

/// The constellations engine.
#[derive(Clone, Copy, Debug, Default)]
pub struct Constellations;

/// The engine as the harness runs it: a [`queens_core::Solver`] that
/// splits its count into units.
pub static CONSTELLATIONS: SplitSolver<Constellations> = SplitSolver(Constellations);

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

/// Names the partition into units (see [`queens_core::split::WorkSplit::version`]).
pub const SPLIT_VERSION: &str = "constellations/1";

impl SplitEngine for Constellations {
    const INFO: &'static SolverInfo = &INFO;
    const SPLIT_VERSION: &'static str = SPLIT_VERSION;

    fn plan(&self, n: usize) -> Plan {
        plan::plan(n)
    }

    fn count_unit(&self, n: usize, unit: WorkUnit, unique: bool) -> Result<UnitCount, QueensError> {
        Ok(count_constellation(
            n,
            Constellation::from_key(unit.key),
            unique,
        ))
    }

    fn trace(&self, n: usize, sink: &mut dyn TraceSink) -> SearchStats {
        walkthrough::trace(n, sink)
    }

    /// The plan and one constellation's search, whatever the question
    /// (see [`plan::peak_bytes`]).
    fn peak_bytes(&self, n: usize, _question: queens_core::memory::Question) -> u64 {
        plan::peak_bytes(n)
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
        pair_tests: 0,
    }
}
