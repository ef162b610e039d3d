//! What a report is made from, and the names of what it makes: the records
//! (with the labels the report calls them by), each solver's analysis text,
//! and the generated files' names.

use std::collections::{BTreeMap, BTreeSet};

use queens_record::Record;
use queens_record::instructions::InstructionsRecord;

use super::page::Trace;

/// The generated files, by name.
/// The comparison: tables, summary and analysis.
pub(crate) const COMPARISON_FILE: &str = "COMPARISON.md";
/// Median time against n.
pub(crate) const TIME_PLOT_FILE: &str = "time-vs-n.svg";
/// Nodes against n.
pub(crate) const NODES_PLOT_FILE: &str = "nodes-vs-n.svg";
/// Time to one board against n, every finder (log-log).
pub(crate) const FIND_PLOT_FILE: &str = "find-vs-n.svg";
/// The self-contained HTML page: tables, plots, teaching texts, the player.
pub const PAGE_FILE: &str = "index.html";

/// A record and how the report names it (its path as given).
pub(crate) struct Source {
    /// The record's path as given on the command line.
    pub label: String,
    /// The record.
    pub record: Record,
    /// Its solvers and finders whose code changed after it was measured:
    /// id → the commit of that change, which the record's commit does not
    /// contain ([`stale_solvers`] works it out from [`CodeChanges`]).
    pub newer_code: BTreeMap<String, String>,
}

/// The last change to each solver's code, as git tells it: what the report
/// needs to say that a record is older than a solver's code. Gathered by
/// the caller (the `queens` command runs git), so that the report stays a
/// pure function of its inputs; empty outside a checkout.
pub type CodeChanges = BTreeMap<String, CodeChange>;

/// The last commit that touched one solver's code.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CodeChange {
    /// The commit, in full.
    pub commit: String,
    /// The commits of the records reported on that contain it (the others
    /// were measured before it).
    pub contained_in: BTreeSet<String>,
}

/// The solvers and finders of `record` whose last code change its commit
/// does not contain, with that change's commit (a depth-first solver
/// stopped at its first board is both, under one id and one code). A
/// record without a commit (made outside a checkout) cannot be placed in
/// history, and flags nothing.
pub(crate) fn stale_solvers(record: &Record, code: &CodeChanges) -> BTreeMap<String, String> {
    let Some(measured_at) = &record.provenance.git_commit else {
        return BTreeMap::new();
    };
    let solvers = record.solvers.iter().map(|solver| &solver.id);
    let finders = record.finders.iter().map(|finder| &finder.id);
    solvers
        .chain(finders)
        .filter_map(|id| {
            let change = code.get(id)?;
            (!change.contained_in.contains(measured_at))
                .then(|| (id.clone(), change.commit.clone()))
        })
        .collect()
}

/// An instructions record (`cargo xtask instructions`) and how the report
/// names it: its figures go beside the bench records' times.
pub(crate) struct InstructionsSource {
    /// The record's path as given on the command line.
    pub label: String,
    /// The record.
    pub record: InstructionsRecord,
}

/// Each registered solver's analysis paragraph (its ANALYSIS.md), by id. It
/// is data, not a registry lookup, so that this library needs no solver
/// crate: the caller (the `queens` command) passes what its registry knows.
/// A solver missing from the map is reported as not registered.
pub type Analyses<'a> = BTreeMap<&'a str, &'a str>;

/// The tree each depth-first solver walks on one board: the safe boards it
/// reaches with 0, 1, ..., n queens (`Solver::tree_profile`), by solver id,
/// in registry order. Exact and the same on every machine, so not part of
/// a record: the caller computes it (the `queens` command, from its
/// registry), and the report puts each profile beside the solver's
/// measured cost per node on that board.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Trees<'a> {
    /// The board the profiles are of.
    pub n: usize,
    /// (solver id, safe boards with k queens for k = 0..=n).
    pub profiles: Vec<(&'a str, Vec<u64>)>,
}
/// What the page needs beyond the records and the analyses: the caller
/// (the `queens` command) gathers it, since only it may run solvers.
#[derive(Clone, Debug, Default)]
pub struct PageInputs<'a> {
    /// Each solver's teaching text (its README), by id.
    pub teachings: Analyses<'a>,
    /// The recorded searches the player plays (any solver, any n).
    pub traces: Vec<Trace>,
    /// The step bound they were recorded with (the page says so).
    pub trace_steps: usize,
    /// Solver ids in the order the walk-through (docs/ALGORITHMS.md)
    /// teaches them: the page lists its solvers so, and those this leaves
    /// out after them, in the records' order.
    pub order: Vec<&'a str>,
    /// For each n, `counts[rank][file]`: how many of the solutions have a
    /// queen on that square (the player's heatmap).
    pub heatmaps: BTreeMap<usize, Vec<Vec<u64>>>,
}
