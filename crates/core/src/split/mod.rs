//! Splitting one count into independent work units, so that generic machinery
//! (threads, shards on a cluster, checkpoints of long runs) can drive any
//! solver that can describe its work this way, without knowing the solver.
//!
//! A solver offers the capability through [`crate::Solver::work_split`]. Its
//! [`WorkSplit::plan`] lists the units of an n×n count in a fixed order, each
//! with an estimated weight; [`WorkSplit::count_unit`] counts one of them. The
//! plan must be deterministic: shards run on different machines and a resumed
//! run must see the same list, so units are identified by their position in
//! it. [`WorkSplit::version`] names the partition; records of another version
//! are refused rather than mixed.
//!
//! An engine's units can differ in cost by orders of magnitude, and the
//! largest grow with n; what the machinery hands out should not. So a plan
//! may cut a long unit into parts of about equal predicted cost
//! ([`Plan::cut`]), each a [`WorkUnit`] of its own whose
//! [`WorkUnit::piece`] names its share: to threads, shards, checkpoints,
//! merges and rechecks a part is simply a unit, and a killed run loses at
//! most the parts in flight. Only a sampler that works inside units (the
//! estimate) looks through parts to the engine's whole units
//! ([`Plan::whole_units`]). A plan holds the whole units and how many
//! parts each is cut into, and makes a part when asked ([`Plan::unit`],
//! [`Plan::iter`]): parts of a minute at n = 28 are far more than any
//! node should list, and a run lists only the parts it counts.
//!
//! Unique counts come out of units by Burnside's lemma: the number of classes
//! of solutions under the eight symmetries of the square equals the number of
//! pairs (symmetry g, solution s) with g(s) = s, divided by 8. Each unit
//! reports its share of those pairs ([`UnitCount::fixed_pairs`]), so shares
//! simply add up, across threads and shards alike.

mod engine;
mod plan;
mod schedule;
mod units;
mod work_split;

pub use engine::{SplitEngine, SplitSolver};
pub use plan::{MAX_PIECES, Plan};
pub use schedule::{
    count_all, count_units, deal, heaviest_first, metrics, shard_units, whole_board,
};
pub use units::{Part, SYMMETRIES, UnitCount, WorkUnit};
pub use work_split::WorkSplit;
