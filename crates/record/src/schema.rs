//! The record's types: what one run of `cargo bench` or `queens compare`
//! measured, field by field, as `bench-results/FORMAT.md` documents them.

use queens_core::{Accelerator, Metric};
use serde::{Deserialize, Serialize};

use super::provenance::Provenance;
use crate::valid::*;

/// What an entry asks of its solver or finder. Readers pick entries by it,
/// so that another question never gets mixed into the counting tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Question {
    /// How many solutions has the n×n board.
    Count,
    /// The time to find ONE board of the n×n board (a finder,
    /// `queens_core::Finder`). Its entries name a finder of
    /// [`Record::finders`], not a solver; `nodes` holds the finder's steps
    /// and `solutions` is null.
    FindOne,
}

impl Question {
    /// The name the record writes, e.g. `find-one`.
    pub fn as_str(self) -> &'static str {
        match self {
            Question::Count => "count",
            Question::FindOne => "find-one",
        }
    }
}

/// [`Question::Count`], by the name readers filter on.
pub const COUNT: Question = Question::Count;
/// [`Question::FindOne`], by the name readers filter on.
pub const FIND_ONE: Question = Question::FindOne;

/// The value of the `format` field: tells a bench record apart from other
/// JSON.
pub const FORMAT: &str = "queens-bench";
/// The version this build writes. Version 3 nested what happened to an
/// entry in its `outcome` and stopped storing the costs per node (they are
/// computed); version 2 added the cold timing and the branch misses.
/// Versions 1 and 2 (`"schema": "queens-bench-record"`) are refused.
pub const FORMAT_VERSION: u32 = 3;
/// The `schema` of the records of versions 1 and 2.
pub(crate) const OLD_SCHEMA: &str = "queens-bench-record";

/// One run of `cargo bench` or `queens compare`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// Always [`FORMAT`].
    pub format: String,
    /// Always [`FORMAT_VERSION`]: older records are brought to it when read.
    pub format_version: u32,
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
    /// same as ever.
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
            format: FORMAT.to_string(),
            format_version: FORMAT_VERSION,
            provenance,
            settings,
            solvers,
            entries,
            finders: Vec::new(),
        }
    }

    /// Whether the record took cold samples (without them its figures are
    /// warm only, and reports say so).
    pub fn has_cold(&self) -> bool {
        self.settings.cold_rounds.is_some()
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
    #[serde(deserialize_with = "valid::<Line, _, _>")]
    pub tool: String,
    /// Worker threads passed to each solver (`CountOptions::threads`).
    #[serde(deserialize_with = "valid::<Within<0, CORES>, _, _>")]
    pub threads: usize,
    /// The smallest n measured.
    #[serde(deserialize_with = "valid::<Within<1, COUNT_N>, _, _>")]
    pub min_n: usize,
    /// The largest n allowed, if the run had such a limit.
    #[serde(default, deserialize_with = "valid::<Opt<Within<1, COUNT_N>>, _, _>")]
    pub max_n: Option<usize>,
    /// `cargo bench`: a solver stops climbing n once one run takes longer.
    #[serde(default, deserialize_with = "valid::<Opt<Seconds<YEAR>>, _, _>")]
    pub max_run_seconds: Option<f64>,
    /// `queens compare`: each solver's total time allowance.
    #[serde(default, deserialize_with = "valid::<Opt<Seconds<YEAR>>, _, _>")]
    pub budget_seconds: Option<f64>,
    /// How many cold samples each timed (solver, n) got, one run each,
    /// taken in rounds through every timed (solver, n) of the run so that
    /// no search ran twice in a row. Null in a version-1 record.
    #[serde(default, deserialize_with = "valid::<Opt<Within<1, SAMPLES>>, _, _>")]
    pub cold_rounds: Option<usize>,
    /// Why the branch-miss figures are absent (the processor's performance
    /// counters could not be read here), or null when they were recorded
    /// (and in a version-1 record, which never measured them).
    #[serde(default, deserialize_with = "valid::<Opt<Line>, _, _>")]
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
    #[serde(deserialize_with = "valid::<Id, _, _>")]
    pub id: String,
    /// What one of its steps is.
    #[serde(deserialize_with = "valid::<Line, _, _>")]
    pub step: String,
    /// The largest n it takes.
    #[serde(deserialize_with = "valid::<Within<1, FIND_N>, _, _>")]
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
    #[serde(deserialize_with = "valid::<Id, _, _>")]
    pub id: String,
    /// What one node is for this solver.
    #[serde(deserialize_with = "valid::<Line, _, _>")]
    pub node: String,
    /// The largest n it supports.
    #[serde(deserialize_with = "valid::<Within<1, COUNT_N>, _, _>")]
    pub max_n: usize,
    /// Whether it lists boards (or only counts).
    pub enumerates: bool,
    /// The device it counted on, for a solver that does not count on the
    /// host's CPU (a GPU engine); absent for the CPU solvers, and so in
    /// every record made before the field existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[serde(deserialize_with = "valid::<Opt<Device>, _, _>")]
    pub accelerator: Option<Accelerator>,
    /// For a program outside the workspace (`queens compare --external`),
    /// what ran and where it came from; absent for the built-in solvers,
    /// and so in every record made before externals were measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub external: Option<ExternalFacts>,
}

/// An external program as the record saw it: its provenance, and the
/// start-up cost its times include. Nothing here is ever run again: the
/// row can be reproduced only from the config file it names.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExternalFacts {
    /// The config file that described it, as given on the command line.
    pub config: String,
    /// The command as written there, `{n}` (and `{threads}`) unfilled.
    #[serde(deserialize_with = "valid::<Line, _, _>")]
    pub command: String,
    /// The build command run once before it, if any.
    pub build: Option<String>,
    /// The last lines of what the build printed (stdout, then stderr).
    pub build_output: Option<String>,
    /// The first line its version command printed, if it has one.
    #[serde(default, deserialize_with = "valid::<Opt<Line>, _, _>")]
    pub version: Option<String>,
    /// The file run (the command's first word, or the config's
    /// `program`), as a path from the config's folder.
    pub program: String,
    /// SHA-256 of that file's bytes, in hex.
    #[serde(deserialize_with = "valid::<Hex<64, 64>, _, _>")]
    pub program_sha256: String,
    /// Whole-process time at the smallest n it was timed at (its cold
    /// median, nanoseconds): an upper bound of the start-up cost that every
    /// one of its times includes. Absent when nothing was timed.
    pub startup_ns: Option<u64>,
    /// The n `startup_ns` was measured at.
    pub startup_n: Option<usize>,
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
            external: None,
        }
    }
}

/// What happened to one (question, solver, n), as a kind: what
/// [`Outcome`] is, without its figures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Counted correctly and timed.
    Timed,
    /// Not timed: its run took, or was predicted to take, longer than the
    /// budget allowed. The solver climbed no further.
    OverBudget,
    /// Not timed: the solver failed or its count was wrong.
    Error,
}

/// What happened to one (question, solver, n), with the figures or the
/// reason that go with it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "kebab-case")]
#[serde(try_from = "Fields")]
pub enum Outcome {
    /// Answered correctly and timed.
    Timed {
        /// The same search repeated back to back (criterion's samples, or
        /// `queens compare`'s loop), where the processor may have learned
        /// the search.
        warm: Timing,
        /// Each sample ONE run taken after runs of other searches
        /// (`settings.cold_rounds` samples): the figure tables rank by.
        /// Absent exactly when the record took no cold samples.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cold: Option<Timing>,
    },
    /// Not timed: its run took, or was predicted to take, longer than the
    /// budget allowed; the solver climbed no further.
    OverBudget {
        /// Why, on one line.
        why: String,
    },
    /// Not timed: the solver failed or its answer was wrong.
    Error {
        /// Why, on one line.
        why: String,
    },
}

/// An [`Outcome`] as it is read: its fields checked one by one, so that a
/// refusal names the field (`outcome.warm.median_ns`), which serde cannot
/// do inside a tagged enum, then put together by its status.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Fields {
    status: Status,
    warm: Option<Timing>,
    cold: Option<Timing>,
    #[serde(default, deserialize_with = "valid::<Opt<Line>, _, _>")]
    why: Option<String>,
}

impl TryFrom<Fields> for Outcome {
    type Error = &'static str;

    fn try_from(fields: Fields) -> Result<Self, &'static str> {
        match fields {
            Fields {
                status: Status::Timed,
                warm: Some(warm),
                cold,
                why: None,
            } => Ok(Outcome::Timed { warm, cold }),
            Fields {
                status,
                warm: None,
                cold: None,
                why: Some(why),
            } if status != Status::Timed => Ok(match status {
                Status::OverBudget => Outcome::OverBudget { why },
                _ => Outcome::Error { why },
            }),
            _ => Err("a timed outcome has a warm timing and no why, another a why and no timing"),
        }
    }
}

/// One (question, solver, n).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// What was asked.
    pub question: Question,
    /// The solver's id, or for [`Question::FindOne`] the finder's.
    pub solver: String,
    /// Board size.
    pub n: usize,
    /// Timed (with its timings), over budget or an error (with why).
    pub outcome: Outcome,
    /// From the checking run (absent when the solver failed or never ran).
    pub solutions: Option<u64>,
    /// Classes up to symmetry, where the question computed them.
    pub unique: Option<u64>,
    /// The solver's unit of work, from the checking run.
    pub nodes: Option<u64>,
    /// The solver's own extra statistics (e.g. memory of a level).
    #[serde(deserialize_with = "valid::<MetricNames, _, _>")]
    pub extra: Vec<Metric>,
    /// Peak heap bytes allocated during the checking run.
    #[serde(default, deserialize_with = "valid::<Opt<Within<0, HEAP>>, _, _>")]
    pub peak_heap_bytes: Option<u64>,
    /// Wall time of the checking run (made with the allocator watching).
    #[serde(default, deserialize_with = "valid::<Opt<Within<0, DAY_NS>>, _, _>")]
    pub check_run_ns: Option<u64>,
    /// Branch mispredictions per node in the cold runs (their median per
    /// run, divided by nodes), where the counters could be read.
    #[serde(default, deserialize_with = "valid::<Opt<NonNegative>, _, _>")]
    pub cold_branch_misses_per_node: Option<f64>,
    /// Branch mispredictions per node in repeated (warm) runs.
    #[serde(default, deserialize_with = "valid::<Opt<NonNegative>, _, _>")]
    pub warm_branch_misses_per_node: Option<f64>,
}

impl Outcome {
    /// Timed with `warm`; its cold timing is taken later, in rounds through
    /// every timed (solver, n).
    pub fn timed(warm: Timing) -> Self {
        Outcome::Timed { warm, cold: None }
    }
}

impl Entry {
    /// The entry of `outcome` with no figures of a run (the checking run's
    /// are the caller's to fill in).
    pub fn new(question: Question, solver: &str, n: usize, outcome: Outcome) -> Self {
        Entry {
            question,
            solver: solver.to_string(),
            n,
            outcome,
            solutions: None,
            unique: None,
            nodes: None,
            extra: Vec::new(),
            peak_heap_bytes: None,
            check_run_ns: None,
            cold_branch_misses_per_node: None,
            warm_branch_misses_per_node: None,
        }
    }

    /// What happened, without its figures.
    pub fn status(&self) -> Status {
        match self.outcome {
            Outcome::Timed { .. } => Status::Timed,
            Outcome::OverBudget { .. } => Status::OverBudget,
            Outcome::Error { .. } => Status::Error,
        }
    }

    /// The warm timing, if timed.
    pub fn timing(&self) -> Option<Timing> {
        match self.outcome {
            Outcome::Timed { warm, .. } => Some(warm),
            _ => None,
        }
    }

    /// The cold timing, if timed and the record took cold samples.
    pub fn cold(&self) -> Option<Timing> {
        match self.outcome {
            Outcome::Timed { cold, .. } => cold,
            _ => None,
        }
    }

    /// Why the entry was not timed; `None` when timed.
    pub fn error(&self) -> Option<&str> {
        match &self.outcome {
            Outcome::Timed { .. } => None,
            Outcome::OverBudget { why } | Outcome::Error { why } => Some(why),
        }
    }

    /// Forgets the cold timing: a table that cannot rank every entry by its
    /// cold figure ranks all of them by the warm one.
    pub fn drop_cold(&mut self) {
        if let Outcome::Timed { cold, .. } = &mut self.outcome {
            *cold = None;
        }
    }

    /// The median time tables rank by: the cold one. `None` for an entry
    /// without a cold timing (every version-1 record): a caller that falls
    /// back to the warm one must say so.
    pub fn cold_median_ns(&self) -> Option<f64> {
        self.cold().map(|t| t.median_ns)
    }

    /// The warm median time (repeated runs), if timed.
    pub fn warm_median_ns(&self) -> Option<f64> {
        self.timing().map(|t| t.median_ns)
    }

    /// Warm cost per unit of work: the warm median over the nodes.
    pub fn ns_per_node(&self) -> Option<f64> {
        self.per_node(self.timing())
    }

    /// Cold cost per unit of work: the cold median over the nodes.
    pub fn cold_ns_per_node(&self) -> Option<f64> {
        self.per_node(self.cold())
    }

    fn per_node(&self, timing: Option<Timing>) -> Option<f64> {
        let nodes = self.nodes.filter(|&nodes| nodes > 0)?;
        Some(timing?.median_ns / nodes as f64)
    }
}

/// Statistics of the time of one run, over `samples` samples.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Timing {
    /// Number of samples.
    #[serde(deserialize_with = "valid::<Within<1, SAMPLES>, _, _>")]
    pub samples: usize,
    /// Median time of one run, in nanoseconds.
    #[serde(deserialize_with = "valid::<RunNs, _, _>")]
    pub median_ns: f64,
    /// Fastest sample.
    #[serde(deserialize_with = "valid::<RunNs, _, _>")]
    pub min_ns: f64,
    /// Slowest sample.
    #[serde(deserialize_with = "valid::<RunNs, _, _>")]
    pub max_ns: f64,
    /// Median absolute deviation from the median: spread that one noisy
    /// sample cannot inflate.
    #[serde(deserialize_with = "valid::<NonNegative, _, _>")]
    pub mad_ns: f64,
}
