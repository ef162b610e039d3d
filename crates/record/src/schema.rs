//! The record's types: what one run of `cargo bench` or `queens compare`
//! measured, field by field, as `bench-results/FORMAT.md` documents them.

use queens_core::{Accelerator, Metric};
use serde::{Deserialize, Serialize};

use super::provenance::Provenance;

/// The counting question (`Entry::question`): how many solutions has the
/// n×n board. Readers pick entries by it, so that another question never
/// gets mixed into the counting tables.
pub const COUNT: &str = "count";

/// The other question: the time to find ONE board of the n×n board (a
/// finder, `queens_core::Finder`). Its entries name a finder of
/// [`Record::finders`], not a solver; `nodes` holds the finder's steps and
/// `solutions` is null. Records made before finders were timed have none.
pub const FIND_ONE: &str = "find-one";

/// Every question an entry may answer; a reader refuses any other rather
/// than guess what its numbers mean.
pub const QUESTIONS: [&str; 2] = [COUNT, FIND_ONE];

/// The value of the `schema` field: tells a record apart from other JSON.
pub const SCHEMA: &str = "queens-bench-record";
/// The version this build writes. Version 2 added the cold timing
/// ([`Entry::cold`]) and the branch-miss evidence; version-1 records are
/// still read (see [`OLDEST_READABLE_VERSION`]) and have neither.
pub const SCHEMA_VERSION: u32 = 2;
/// The oldest version this build still reads: a version-1 record has only
/// the warm timing, and reports say so rather than take it for a cold one.
pub const OLDEST_READABLE_VERSION: u32 = 1;

/// One run of `cargo bench` or `queens compare`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// Always [`SCHEMA`]: tells a record apart from other JSON.
    pub schema: String,
    /// Always [`SCHEMA_VERSION`] when written by this build.
    pub schema_version: u32,
    /// Where the numbers come from.
    pub provenance: Provenance,
    /// How the run chose what to measure.
    pub settings: Settings,
    /// The solvers this run covered, as they described themselves then.
    pub solvers: Vec<SolverFacts>,
    /// One entry per (question, solver, n) that was attempted.
    pub entries: Vec<Entry>,
    /// The finders this run timed ([`FIND_ONE`] entries), as they described
    /// themselves then. Absent (empty) in records that timed no finder, and
    /// so in every record made before finders were timed: those read the
    /// same as ever, which is why this did not change the schema version.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub finders: Vec<FinderFacts>,
}

impl Record {
    /// A record of this schema version.
    pub fn new(
        provenance: Provenance,
        settings: Settings,
        solvers: Vec<SolverFacts>,
        entries: Vec<Entry>,
    ) -> Self {
        Record {
            schema: SCHEMA.to_string(),
            schema_version: SCHEMA_VERSION,
            provenance,
            settings,
            solvers,
            entries,
            finders: Vec::new(),
        }
    }

    /// This record with the finders its [`FIND_ONE`] entries name.
    pub fn with_finders(mut self, finders: Vec<FinderFacts>) -> Self {
        self.finders = finders;
        self
    }
}

/// How the run chose what to measure.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// "cargo bench" or "queens compare".
    pub tool: String,
    /// Worker threads passed to each solver (`CountOptions::threads`).
    pub threads: usize,
    /// The smallest n measured.
    pub min_n: usize,
    /// The largest n allowed, if the run had such a limit.
    pub max_n: Option<usize>,
    /// `cargo bench`: a solver stops climbing n once one run takes longer.
    pub max_run_seconds: Option<f64>,
    /// `queens compare`: each solver's total time allowance.
    pub budget_seconds: Option<f64>,
    /// Version 2: how many cold samples each timed (solver, n) got, one run
    /// each, taken in rounds through every timed (solver, n) of the run so
    /// that no search ran twice in a row. Absent in version-1 records.
    #[serde(default)]
    pub cold_rounds: Option<usize>,
    /// Version 2: why the branch-miss figures are absent (the processor's
    /// performance counters could not be read here), or null when they were
    /// recorded. Absent in version-1 records, which never measured them.
    #[serde(default)]
    pub branch_misses_unavailable: Option<String>,
    /// The seed every seeded (random) finder was run with, so that its
    /// boards and times can be reproduced; absent when no seeded finder was
    /// timed (and in every record made before finders were timed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub find_seed: Option<u64>,
}

/// A finder as the record saw it (the finders of [`FIND_ONE`] entries).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FinderFacts {
    /// The finder's id (a depth-first solver stopped at its first board
    /// keeps the solver's id: the two lists are apart, by question).
    pub id: String,
    /// What one of its steps is.
    pub step: String,
    /// The largest n it takes.
    pub max_n: usize,
    /// Whether its board depends on the seed (`settings.find_seed`).
    pub seeded: bool,
}

impl FinderFacts {
    /// The facts of a finder, as it describes itself.
    pub fn of(finder: &dyn queens_core::Finder) -> Self {
        let info = finder.info();
        FinderFacts {
            id: info.id.to_string(),
            step: info.step.to_string(),
            max_n: info.max_n,
            seeded: info.seeded,
        }
    }
}

/// A solver as the record saw it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SolverFacts {
    /// The solver's id.
    pub id: String,
    /// What one node is for this solver.
    pub node: String,
    /// The largest n it supports.
    pub max_n: usize,
    /// Whether it lists boards (or only counts).
    pub enumerates: bool,
    /// The device it counted on, for a solver that does not count on the
    /// host's CPU (a GPU engine); absent for the CPU solvers, and so in
    /// every record made before the field existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accelerator: Option<Accelerator>,
}

impl SolverFacts {
    /// The facts of a solver, as it describes itself and, for one that
    /// counts on a device, the device it found here.
    pub fn of(solver: &dyn queens_core::Solver) -> Self {
        let info = solver.info();
        SolverFacts {
            id: info.id.to_string(),
            node: info.node.to_string(),
            max_n: info.max_n,
            enumerates: info.enumerates,
            accelerator: solver.accelerator().ok().flatten(),
        }
    }
}

/// What happened to one (question, solver, n).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Counted correctly and timed.
    Timed,
    /// Not timed: its run took, or was predicted to take, longer than the
    /// budget allowed. The solver climbed no further.
    OverBudget,
    /// Not timed: the solver failed or its count was wrong (see `error`).
    Error,
}

/// One (question, solver, n).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// What was asked: [`COUNT`] or [`FIND_ONE`].
    pub question: String,
    /// The solver's id, or for [`FIND_ONE`] the finder's.
    pub solver: String,
    /// Board size.
    pub n: usize,
    /// Timed, over budget, or an error.
    pub status: Status,
    /// Why the entry is an error or over budget; `None` when timed.
    pub error: Option<String>,
    /// From the checking run (absent when the solver failed or never ran).
    pub solutions: Option<u64>,
    /// Classes up to symmetry, where the question computed them.
    pub unique: Option<u64>,
    /// The solver's unit of work, from the checking run.
    pub nodes: Option<u64>,
    /// The solver's own extra statistics (e.g. memory of a level).
    pub extra: Vec<Metric>,
    /// Peak heap bytes allocated during the checking run.
    pub peak_heap_bytes: Option<u64>,
    /// Wall time of the checking run (made with the allocator watching).
    pub check_run_ns: Option<u64>,
    /// Warm timing: the same search repeated back to back (criterion's
    /// samples, or `queens compare`'s loop), where the processor may have
    /// learned the search; present exactly when `status` is timed.
    pub timing: Option<Timing>,
    /// `timing.median_ns / nodes`: warm cost per unit of work.
    pub ns_per_node: Option<f64>,
    /// Version 2, timed entries: cold timing, each sample ONE run taken
    /// after runs of other searches (`settings.cold_rounds` samples). The
    /// figure tables rank by. Absent in version-1 records.
    #[serde(default)]
    pub cold: Option<Timing>,
    /// `cold.median_ns / nodes`: cold cost per unit of work.
    #[serde(default)]
    pub cold_ns_per_node: Option<f64>,
    /// Branch mispredictions per node in the cold runs (their median per
    /// run, divided by nodes), where the counters could be read.
    #[serde(default)]
    pub cold_branch_misses_per_node: Option<f64>,
    /// Branch mispredictions per node in repeated (warm) runs.
    #[serde(default)]
    pub warm_branch_misses_per_node: Option<f64>,
}

impl Entry {
    /// The median time tables rank by: the cold one. `None` for an entry
    /// without a cold timing (every version-1 record): a caller that falls
    /// back to the warm one must say so.
    pub fn cold_median_ns(&self) -> Option<f64> {
        self.cold.map(|t| t.median_ns)
    }

    /// The warm median time (repeated runs), if timed.
    pub fn warm_median_ns(&self) -> Option<f64> {
        self.timing.map(|t| t.median_ns)
    }
}

/// Statistics of the time of one run, over `samples` samples.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Timing {
    /// Number of samples.
    pub samples: usize,
    /// Median time of one run, in nanoseconds.
    pub median_ns: f64,
    /// Fastest sample.
    pub min_ns: f64,
    /// Slowest sample.
    pub max_ns: f64,
    /// Median absolute deviation from the median: spread that one noisy
    /// sample cannot inflate.
    pub mad_ns: f64,
}
