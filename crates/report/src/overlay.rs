//! Several records read as one table: entries keyed by (solver, n), a later
//! record replacing an earlier one's entry, so that a re-run of one solver
//! can be laid over a full run.

use std::collections::BTreeMap;

use super::inputs::Source;
use queens_record::COUNT;
use queens_record::{Entry, SolverFacts, Status};

/// Several records as one table (see the module documentation).
pub struct Overlay {
    /// In the order the records list them (registry order, fastest first).
    pub solvers: Vec<SolverFacts>,
    entries: BTreeMap<(String, usize), Entry>,
    /// Every n that has an entry, ascending.
    pub ns: Vec<usize>,
    /// Solvers whose rows come from a record older than their code: id →
    /// the commit of the change (see [`Source::newer_code`]).
    pub stale: BTreeMap<String, String>,
}

impl Overlay {
    /// The records overlaid in order, later entries replacing earlier ones.
    pub fn from_sources(sources: &[Source]) -> Self {
        let mut solvers: Vec<SolverFacts> = Vec::new();
        let mut entries = BTreeMap::new();
        let mut stale = BTreeMap::new();
        for source in sources {
            for facts in &source.record.solvers {
                // The later record's rows replace the earlier's, and so
                // does its verdict on their age.
                match source.newer_code.get(&facts.id) {
                    Some(commit) => stale.insert(facts.id.clone(), commit.clone()),
                    None => stale.remove(&facts.id),
                };
                match solvers.iter_mut().find(|known| known.id == facts.id) {
                    Some(known) => *known = facts.clone(),
                    None => solvers.push(facts.clone()),
                }
            }
            for entry in source.record.entries.iter().filter(|e| e.question == COUNT) {
                entries.insert((entry.solver.clone(), entry.n), entry.clone());
            }
        }
        let mut ns: Vec<usize> = entries.keys().map(|(_, n)| *n).collect();
        ns.sort_unstable();
        ns.dedup();
        Overlay {
            solvers,
            entries,
            ns,
            stale,
        }
    }

    /// The entry of (solver, n), if any record has one.
    pub fn entry(&self, solver: &str, n: usize) -> Option<&Entry> {
        self.entries.get(&(solver.to_string(), n))
    }

    /// The median time of a timed entry.
    pub fn median_ns(&self, solver: &str, n: usize) -> Option<f64> {
        self.entry(solver, n)
            .filter(|e| e.status == Status::Timed)
            .and_then(|e| e.timing)
            .map(|t| t.median_ns)
    }

    /// The fastest median at n, over every solver timed there.
    pub fn fastest_ns(&self, n: usize) -> Option<f64> {
        self.solvers
            .iter()
            .filter_map(|s| self.median_ns(&s.id, n))
            .min_by(f64::total_cmp)
    }

    /// The timed entries of one solver, by ascending n.
    pub fn timed(&self, solver: &str) -> Vec<&Entry> {
        self.ns
            .iter()
            .filter_map(|&n| self.entry(solver, n))
            .filter(|e| e.status == Status::Timed)
            .collect()
    }

    /// Every entry of one solver, by ascending n.
    pub fn all(&self, solver: &str) -> Vec<&Entry> {
        self.ns
            .iter()
            .filter_map(|&n| self.entry(solver, n))
            .collect()
    }

    /// The geometric mean, over the n where `solver` was timed, of its time
    /// divided by the fastest time at that n; and how many n that covers.
    pub fn geometric_mean_ratio(&self, solver: &str) -> Option<(f64, usize)> {
        let logs: Vec<f64> = self
            .ns
            .iter()
            .filter_map(|&n| Some((self.median_ns(solver, n)? / self.fastest_ns(n)?).ln()))
            .collect();
        (!logs.is_empty()).then(|| {
            (
                (logs.iter().sum::<f64>() / logs.len() as f64).exp(),
                logs.len(),
            )
        })
    }
}
