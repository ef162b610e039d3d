//! The other question in the report: the time to find ONE board against n,
//! for every finder in the records (their [`FIND_ONE`] entries). Kept apart
//! from [`super::overlay::Overlay`], which holds the counts: a depth-first
//! solver stopped at its first board keeps the solver's id, and its board
//! must never show in a counting table, nor a count here.

use super::format::{bytes, duration_ns, significant, thousands};
use super::inputs::Source;
use super::overlay::Overlaid;
use super::page::charts::Series;
use super::page::styles::Styles;
use super::table::{Cell, Column, Outcome, Table, error_list};
use queens_record::{Entry, FIND_ONE, FinderFacts};

/// Several records' found boards as one table, later entries replacing
/// earlier ones for the same (finder, n), as the counts' overlay does; its
/// basis is cold where every timed entry has a cold timing (the figure
/// shown), otherwise the warm one is shown for all, as the counts do.
pub(crate) struct Found {
    /// The finders (`facts`, in the records' order) and their entries.
    overlaid: Overlaid<FinderFacts>,
    /// The seeds the seeded finders ran with, one per record that timed
    /// one, without repeats.
    pub seeds: Vec<u64>,
}

impl Found {
    /// The found boards of `sources`, overlaid in order.
    pub(crate) fn from_sources(sources: &[Source]) -> Self {
        Found {
            overlaid: Overlaid::of(sources, FIND_ONE, |r| &r.finders, |f| &f.id),
            seeds: crate::format::distinct(
                sources.iter().filter_map(|s| s.record.settings.find_seed),
            ),
        }
    }

    /// Each finder's line of the plot: (n, median time) of its timed n.
    pub(crate) fn series(&self, styles: &Styles) -> Vec<Series> {
        self.facts
            .iter()
            .map(|finder| {
                Series::of(&finder.id, styles, self.all(&finder.id), |e| {
                    self.timed_ns(e)
                })
            })
            .collect()
    }

    /// What the section says above its table and plot: how the finders
    /// climbed, that every board was checked first, the seed, the basis.
    pub(crate) fn legend(&self) -> String {
        let seed = match self.seeds.as_slice() {
            [] => String::new(),
            [seed] => format!(" Seeded finders (a random search) ran with seed {seed}."),
            seeds => format!(
                " Seeded finders (a random search) ran with seeds {} (one per record).",
                seeds
                    .iter()
                    .map(u64::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        format!(
            "The other question: not how many boards, but one. Each finder climbed n = 8, then \
             the powers of ten (a board written or repaired: construction, min-conflicts), or \
             every even n up to 32 (a search: fail-first, and each depth-first solver stopped at \
             its first board, whose time jumps erratically with n), until a run no longer fit its \
             time limit. Every board was checked (by the O(n) checker, and by the pairwise O(n²) one \
             on small boards) before it was timed: a wrong or missing board is an error, never \
             a time.{seed} Times are {} medians of one board's search.",
            self.basis.word()
        )
    }

    /// A table of one row per n and one column per finder, `value` of
    /// each timed entry.
    fn by_n_table(&self, value: &dyn Fn(&Entry) -> Option<String>) -> String {
        let ids: Vec<(&str, String)> = (self.facts.iter())
            .map(|f| (f.id.as_str(), f.id.clone()))
            .collect();
        self.by_n(&ids, |n| thousands(n as u64), value)
    }

    /// The time to one checked board, by n.
    pub(crate) fn times(&self) -> String {
        self.by_n_table(&|e| self.timed_ns(e).map(duration_ns))
    }

    /// The steps to that board, by n.
    pub(crate) fn steps(&self) -> String {
        self.by_n_table(&|e| e.nodes.map(thousands))
    }

    /// Each finder's step, and its peak heap and cost per step at its
    /// largest n timed.
    pub(crate) fn finders(&self) -> Table {
        let mut table = Table::new(vec![
            Column::text("finder"),
            Column::text("one step is"),
            Column::numbers("peak heap at its largest n timed"),
            Column::numbers("ns per step there"),
        ]);
        for finder in &self.facts {
            let largest = self.timed(&finder.id).last().copied();
            let heap = largest.and_then(|e| {
                let at = thousands(e.n as u64);
                Some(format!("{} (n = {at})", bytes(e.peak_heap_bytes?)))
            });
            let per_step = largest.and_then(|e| {
                let steps = e.nodes.filter(|&s| s > 0)?;
                Some(significant(self.timed_ns(e)? / steps as f64))
            });
            let label = super::format::stale_label(&finder.id, self.stale.get(&finder.id));
            let cell = |text: Option<String>| text.map_or(Cell::Missing, Cell::Text);
            table.push(vec![
                Cell::Text(label),
                Cell::Text(finder.step.clone()),
                cell(heap),
                cell(per_step),
            ]);
        }
        table
    }

    /// The failed entries, one line each ("" when none failed).
    pub(crate) fn errors(&self) -> String {
        let entries = self.facts.iter().flat_map(|f| self.all(&f.id));
        error_list(entries, |n| thousands(n as u64))
    }

    /// Every (finder, n), for the page: the time to one checked board.
    pub(crate) fn table(&self) -> Table {
        let mut table = Table::new(vec![
            Column::text("finder"),
            Column::numbers("n"),
            Column::text("status"),
            Column::numbers(format!("{} median", self.basis.word())),
            Column::numbers("steps"),
            Column::numbers("ns per step"),
            Column::numbers("peak heap"),
        ]);
        for finder in &self.facts {
            for entry in self.all(&finder.id) {
                let outcome = Outcome::of(entry);
                let timed = outcome == Outcome::Timed;
                let median = self.timed_ns(entry);
                let steps = entry.nodes.filter(|_| timed);
                let per_step = median.zip(steps.filter(|&s| s > 0));
                table.push(vec![
                    Cell::solver(&finder.id),
                    Cell::count(Some(entry.n as u64), thousands),
                    Cell::Status(outcome),
                    Cell::figure(median, duration_ns),
                    Cell::count(steps, thousands),
                    Cell::figure(per_step.map(|(m, s)| m / s as f64), significant),
                    Cell::count(entry.peak_heap_bytes.filter(|_| timed), bytes),
                ]);
            }
        }
        table
    }
}

/// Found boards are their finders' overlaid records.
impl std::ops::Deref for Found {
    type Target = Overlaid<FinderFacts>;
    fn deref(&self) -> &Self::Target {
        &self.overlaid
    }
}
