//! Several records read as one table: entries keyed by (solver, n), a later
//! record replacing an earlier one's entry, so that a re-run of one solver
//! can be laid over a full run.

use std::collections::BTreeMap;

use super::inputs::Source;
use super::table::{Cell, Outcome, by_n};
use queens_record::{COUNT, Entry, Question, Record, SolverFacts, Status};

/// Records overlaid for one question, as the counts' [`Overlay`] and the
/// finders' [`super::found::Found`] both read them: the solvers' (or
/// finders') facts, a later record's replacing an earlier's of the same id
/// and so does its verdict on their age, and the question's entries by
/// (id, n), later ones replacing earlier ones.
pub(crate) struct Overlaid<F> {
    /// The solvers' (or finders') facts, in the order the records first
    /// list them.
    pub facts: Vec<F>,
    /// Each id's place in `facts`: by a map, as a search per id is
    /// quadratic in a record of thousands of them.
    pub position: BTreeMap<String, usize>,
    /// Ids whose rows come from a record older than their code: id → the
    /// commit of the change (see [`Source::newer_code`]).
    pub stale: BTreeMap<String, String>,
    /// The question's entries by (id, n).
    pub entries: BTreeMap<(String, usize), Entry>,
    /// Every n that has an entry, ascending.
    pub ns: Vec<usize>,
    /// What the tables rank by: cold when every timed entry has a cold
    /// timing, warm otherwise (for every entry alike: a table never mixes
    /// the two).
    pub basis: Basis,
}

impl<F: Clone> Overlaid<F> {
    /// `sources` overlaid in order: `facts` lists a record's solvers or
    /// finders, `id` names one.
    pub(crate) fn of(
        sources: &[Source],
        question: Question,
        facts: fn(&Record) -> &[F],
        id: fn(&F) -> &str,
    ) -> Self {
        let (mut list, mut position, mut stale) = (Vec::new(), BTreeMap::new(), BTreeMap::new());
        let mut entries = BTreeMap::new();
        for source in sources {
            for fact in facts(&source.record) {
                let key = id(fact).to_string();
                match source.newer_code.get(&key) {
                    Some(commit) => stale.insert(key.clone(), commit.clone()),
                    None => stale.remove(&key),
                };
                match position.get(&key) {
                    Some(&at) => list[at] = fact.clone(),
                    None => {
                        position.insert(key, list.len());
                        list.push(fact.clone());
                    }
                }
            }
            for entry in source.record.entries.iter() {
                if entry.question == question {
                    entries.insert((entry.solver.clone(), entry.n), entry.clone());
                }
            }
        }
        let mut ns: Vec<usize> = entries.keys().map(|(_, n)| *n).collect();
        ns.sort_unstable();
        ns.dedup();
        let cold = entries
            .values()
            .all(|e: &Entry| e.status() != Status::Timed || e.cold().is_some());
        // A table never mixes the two: without a cold figure for every
        // timed entry, none is kept.
        if !cold {
            entries.values_mut().for_each(Entry::drop_cold);
        }
        Overlaid {
            facts: list,
            position,
            stale,
            entries,
            ns,
            basis: if cold { Basis::Cold } else { Basis::Warm },
        }
    }

    /// The entry of (id, n), if any record has one.
    pub(crate) fn entry(&self, id: &str, n: usize) -> Option<&Entry> {
        self.entries.get(&(id.to_string(), n))
    }

    /// Every entry of one id, by ascending n.
    pub(crate) fn all(&self, id: &str) -> Vec<&Entry> {
        let (from, to) = ((id.to_string(), 0), (id.to_string(), usize::MAX));
        self.entries.range(from..=to).map(|(_, e)| e).collect()
    }

    /// The timed entries of one id, by ascending n.
    pub(crate) fn timed(&self, id: &str) -> Vec<&Entry> {
        let mut all = self.all(id);
        all.retain(|e| e.status() == Status::Timed);
        all
    }

    /// A Markdown table with one row per n (written by `n_text`) and one
    /// column per id (titled as paired): `value` of each timed entry (a
    /// dash where it has none), the status of any other, nothing where
    /// there is no entry.
    pub(crate) fn by_n(
        &self,
        ids: &[(&str, String)],
        n_text: fn(usize) -> String,
        value: &dyn Fn(&Entry) -> Option<String>,
    ) -> String {
        by_n(&self.ns, ids, n_text, &|id, n| match self.entry(id, n) {
            None => Cell::Empty,
            Some(e) => match Outcome::of(e) {
                Outcome::Timed => value(e).map_or(Cell::Missing, Cell::Text),
                outcome => Cell::Status(outcome),
            },
        })
    }

    /// A timed entry's median time on the basis; none for any other.
    pub(crate) fn timed_ns(&self, entry: &Entry) -> Option<f64> {
        ranked_ns(entry).filter(|_| entry.status() == Status::Timed)
    }
}

/// Which timing the tables rank by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Basis {
    /// The cold median: one run per sample, never the same search twice in
    /// a row (every record of schema version 2).
    Cold,
    /// The warm median of repeated runs: only when some record has no cold
    /// figure (schema version 1), and the report says so.
    Warm,
}

impl Basis {
    /// The word the tables' headers use: "cold" or "warm".
    pub(crate) fn word(self) -> &'static str {
        match self {
            Basis::Cold => "cold",
            Basis::Warm => "warm",
        }
    }
}

/// An entry's median time on its overlay's basis (whether timed or not):
/// the cold one where it has one, as an overlay keeps cold figures only
/// when every timed entry has one.
pub(crate) fn ranked_ns(entry: &Entry) -> Option<f64> {
    entry.cold_median_ns().or_else(|| entry.warm_median_ns())
}

/// An entry's time per node on its overlay's basis, as [`ranked_ns`].
pub(crate) fn ranked_per_node(entry: &Entry) -> Option<f64> {
    entry.cold_ns_per_node().or(entry.ns_per_node())
}

/// Several records as one table (see the module documentation).
pub(crate) struct Overlay {
    /// Why the branch-miss figures are absent, one reason per record that
    /// has none (a version-1 record never measured them), in record order.
    pub branch_misses_absent: Vec<String>,
    /// The solvers (`facts`, in the order the records list them: registry
    /// order, fastest first) and their count entries.
    overlaid: Overlaid<SolverFacts>,
    /// The fastest median at each n ([`Overlay::fastest_ns`]), found once:
    /// every row of a table asks for its n's, and a search over every
    /// solver per row is quadratic in a record of thousands of them.
    fastest: BTreeMap<usize, f64>,
}

impl Overlay {
    /// The records overlaid in order, later entries replacing earlier ones.
    pub(crate) fn from_sources(sources: &[Source]) -> Self {
        let overlaid = Overlaid::of(sources, COUNT, |r| &r.solvers, |s| &s.id);
        let branch_misses_absent =
            crate::format::distinct(sources.iter().filter_map(|source| {
                match (
                    source.record.has_cold(),
                    &source.record.settings.branch_misses_unavailable,
                ) {
                    (false, _) => Some(
                        "not recorded (a version-1 record: it measured no counters)".to_string(),
                    ),
                    (true, why) => why.clone(),
                }
            }));
        let mut fastest = BTreeMap::new();
        for ((solver, n), entry) in &overlaid.entries {
            let ns = overlaid.timed_ns(entry);
            if let Some(ns) = ns.filter(|_| overlaid.position.contains_key(solver)) {
                let least: &mut f64 = fastest.entry(*n).or_insert(ns);
                *least = least.min(ns);
            }
        }
        Overlay {
            branch_misses_absent,
            overlaid,
            fastest,
        }
    }

    /// The median time a timed entry is ranked by ([`Overlaid::basis`]).
    pub(crate) fn median_ns(&self, solver: &str, n: usize) -> Option<f64> {
        self.entry(solver, n).and_then(|e| self.timed_ns(e))
    }

    /// One sentence on what the times are, for every table's legend.
    pub(crate) fn basis_note(&self) -> &'static str {
        match self.basis {
            Basis::Cold => {
                "Times are cold medians: each sample one run, taken between runs of other \
                 searches, never the same search twice in a row (the warm median of repeated \
                 runs, which the branch predictor flatters on small boards, is shown beside \
                 them where both appear)."
            }
            Basis::Warm => {
                "These records have no cold figure (schema version 1): times are warm medians \
                 of repeated runs of the same search, which the branch predictor flatters on \
                 small boards; rerun `scripts/bench` for cold ones."
            }
        }
    }

    /// The rankings of the summary: at the largest n every solver reached,
    /// and at a larger n that at least half of them (and two or more)
    /// reached, among those.
    pub(crate) fn rankings(&self) -> Vec<Ranking> {
        let timed_at = |n: usize| -> Vec<&str> {
            let ids = self.facts.iter().map(|s| s.id.as_str());
            ids.filter(|id| self.median_ns(id, n).is_some()).collect()
        };
        let all = self.facts.len();
        let common = self.ns.iter().rev().find(|&&n| timed_at(n).len() == all);
        let enough = all.div_ceil(2).max(2);
        let wider = self
            .ns
            .iter()
            .rev()
            .take_while(|&&n| common.is_none_or(|&c| n > c));
        let wider = wider
            .map(|&n| (n, timed_at(n)))
            .find(|(_, ids)| ids.len() >= enough);
        let common = common.map(|&n| (n, timed_at(n)));
        let fastest = |n| self.fastest_ns(n).unwrap_or(f64::NAN);
        let ranking = |(n, ids): (usize, Vec<&str>)| Ranking {
            n,
            ratios: ids
                .into_iter()
                .filter_map(|id| Some((id.to_string(), self.median_ns(id, n)? / fastest(n))))
                .collect(),
            of: all,
        };
        common.into_iter().chain(wider).map(ranking).collect()
    }

    /// The fastest median at n, over every solver timed there.
    pub(crate) fn fastest_ns(&self, n: usize) -> Option<f64> {
        self.fastest.get(&n).copied()
    }
}

/// An overlay is its solvers' overlaid records, with their basis.
impl std::ops::Deref for Overlay {
    type Target = Overlaid<SolverFacts>;
    fn deref(&self) -> &Self::Target {
        &self.overlaid
    }
}

/// Every solver compared at one n: each one's time over the fastest's.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Ranking {
    /// The board size every solver in it was timed at.
    pub n: usize,
    /// solver → time at n / fastest time at n: by a map, as a table asks
    /// for each solver's, and a record of thousands of solvers must not
    /// search a list each time.
    pub ratios: BTreeMap<String, f64>,
    /// How many solvers the overlay has (the ranking may cover fewer).
    pub of: usize,
}

impl Ranking {
    /// The ratio of one solver, if it is in this ranking.
    pub(crate) fn ratio(&self, id: &str) -> Option<f64> {
        self.ratios.get(id).copied()
    }

    /// Its column's name: "× fastest at n = 8 (all 11)" or
    /// "× fastest at n = 13 (6 of 11)".
    pub(crate) fn header(&self) -> String {
        let among = match self.ratios.len() {
            all if all == self.of => format!("all {all}"),
            some => format!("{some} of {}", self.of),
        };
        format!("× fastest at n = {} ({among})", self.n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use queens_record::fixtures::sample_record;
    use queens_record::{Outcome, SolverFacts, Timing};

    /// Three solvers: `a` timed at n = 8..=12, `b` at 8..=11, `short` only
    /// at 8; cold medians `cold(solver, n)` ns.
    fn reaching_different_n() -> Overlay {
        let mut record = sample_record();
        let template = record.entries[0].clone();
        record.entries.clear();
        record.solvers.clear();
        let cold = |solver: &str, n: usize| match solver {
            "a" => 1000.0 * 6f64.powi(n as i32 - 8),
            "b" => 500.0 * 7f64.powi(n as i32 - 8),
            _ => 300.0,
        };
        for (id, top) in [("a", 12), ("b", 11), ("short", 8)] {
            record.solvers.push(SolverFacts {
                id: id.into(),
                max_n: top,
                ..sample_record().solvers[0].clone()
            });
            for n in 8..=top {
                let ns = cold(id, n);
                let mut entry = Entry {
                    solver: id.into(),
                    n,
                    ..template.clone()
                };
                if let Outcome::Timed { cold, .. } = &mut entry.outcome {
                    *cold = Some(Timing {
                        samples: 3,
                        median_ns: ns,
                        min_ns: ns,
                        max_ns: ns,
                        mad_ns: 0.0,
                    });
                }
                record.entries.push(entry);
            }
        }
        Overlay::from_sources(&[Source {
            newer_code: Default::default(),
            label: "fixture".into(),
            record,
        }])
    }

    #[test]
    fn every_ranking_compares_solvers_at_one_n() {
        let overlay = reaching_different_n();
        assert_eq!(overlay.basis, Basis::Cold);
        let rankings = overlay.rankings();
        // The largest n all three reached is 8; the larger one that at
        // least two reached is 11 (12 has only `a`).
        assert_eq!(rankings.len(), 2);
        assert_eq!(rankings[0].n, 8);
        assert_eq!(rankings[0].header(), "× fastest at n = 8 (all 3)");
        assert_eq!(rankings[0].ratio("short"), Some(1.0));
        assert_eq!(rankings[0].ratio("a"), Some(1000.0 / 300.0));
        assert_eq!(rankings[1].n, 11);
        assert_eq!(rankings[1].header(), "× fastest at n = 11 (2 of 3)");
        assert_eq!(rankings[1].ratio("short"), None);
        // At n = 11: a = 1000·6³ = 216 000, b = 500·7³ = 171 500.
        assert_eq!(rankings[1].ratio("b"), Some(1.0));
        assert_eq!(rankings[1].ratio("a"), Some(216_000.0 / 171_500.0));
        for ranking in &rankings {
            for id in ranking.ratios.keys() {
                assert!(
                    overlay.median_ns(id, ranking.n).is_some(),
                    "{id} at {}",
                    ranking.n
                );
            }
        }
    }

    #[test]
    fn one_entry_without_a_cold_figure_makes_every_table_warm() {
        let mut record = sample_record();
        let mut second = record.entries[0].clone();
        second.n = 9;
        second.solutions = Some(352);
        second.drop_cold();
        record.entries.push(second);
        let overlay = Overlay::from_sources(&[Source {
            newer_code: Default::default(),
            label: "mixed".into(),
            record,
        }]);
        assert_eq!(overlay.basis, Basis::Warm);
        assert_eq!(overlay.median_ns("three-mask", 8), Some(14_000.5));
        assert_eq!(overlay.entry("three-mask", 8).unwrap().cold(), None);
        assert!(overlay.basis_note().contains("no cold figure"));
    }
}
