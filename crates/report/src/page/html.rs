//! The page's contents: summary, plots, every measurement, the player, each
//! solver's teaching text and analysis beside its numbers, the records,
//! gathered from the records into the values `templates/page.html` writes
//! (the engine escapes every one of them). Everything a reader sees comes
//! from here; the script only sorts, switches lines and plays traces.

use std::collections::BTreeMap;

use askama::Template;
use pulldown_cmark::{Options, Parser, html::push_html};

use super::charts::{self, MEASURES, Series, Variant};
// `Markup` is the templates' escaper: templates/askama.toml names it, and
// the code the template derive writes finds it here.
use super::escape::{Markup, script_json};
use crate::external;
use crate::format::{bytes, duration_ns, significant, thousands};
use crate::inputs::Analyses;
use crate::overlay::{Basis, Overlay, ranked_ns};
use crate::parts::Parts;
use crate::table::{Cell, Column, Outcome, PageTable, Table, ratio};
use crate::tables::{self, Legend, summary_legend};
use crate::work;
use queens_record::{Entry, SolverFacts};

/// The whole page.
pub(crate) fn page(parts: &Parts<'_>) -> Result<String, askama::Error> {
    let (overlay, styles) = (parts.overlay, parts.styles);
    let order = teaching_order(&overlay.facts, &parts.inputs.order);
    Page {
        parts,
        summary_legend: markdown(&summary_legend(overlay, Legend::Page)),
        summary: order.rows(tables::summary(overlay).page(
            "summary-table",
            "Each solver compared with the others at the same n",
            true,
        )),
        external_note: external::note(&overlay.facts).map(|note| markdown(&note)),
        figures: MEASURES
            .iter()
            .map(|measure| figure(measure, &measure.series(overlay, styles)))
            .collect::<Result<_, _>>()?,
        measurements: measurements(overlay, &order.solvers).page(
            "measurements-table",
            "Every (solver, n) in the records",
            false,
        ),
        find_plot: (!parts.found.facts.is_empty())
            .then(|| figure(&charts::FIND, &parts.found.series(styles)))
            .transpose()?,
        find_table: parts.found.table().page(
            "find-table",
            "Every (finder, n) in the records: the time to one checked board",
            false,
        ),
        work: parts.instructions.map(|source| {
            order.rows(work::table(overlay, source).page(
                "instructions-table",
                "Instructions retired by one count's search, every (solver, n) counted",
                false,
            ))
        }),
        nodes: order.rows(work::nodes(overlay, parts.instructions).page(
            "nodes-table",
            "What one node is, for each solver: compare nodes only between solvers whose nodes \
             mean the same thing",
            false,
        )),
        solvers: solver_parts(parts, &order.solvers),
        data: script_json(&data_json(parts, &order.solvers)),
        order: order.solvers,
    }
    .render()
}

/// The records' solvers in the page's order: the walk-through's first.
struct Order<'a> {
    solvers: Vec<&'a SolverFacts>,
    /// Each id's place in `solvers`, by a map: a record may hold
    /// thousands of solvers, and every row of every table asks.
    place: BTreeMap<&'a str, usize>,
}

/// `facts` ordered by `order` (the walk-through's), those it leaves out
/// after them in the records' order.
fn teaching_order<'a>(facts: &'a [SolverFacts], order: &[&str]) -> Order<'a> {
    let taught: BTreeMap<&str, usize> = (order.iter().enumerate())
        .map(|(place, id)| (*id, place))
        .collect();
    let mut solvers: Vec<&SolverFacts> = facts.iter().collect();
    // Stable: the solvers `order` leaves out keep the records' order.
    solvers.sort_by_key(|s| taught.get(s.id.as_str()).copied().unwrap_or(usize::MAX));
    let place = (solvers.iter().enumerate())
        .map(|(place, s)| (s.id.as_str(), place))
        .collect();
    Order { solvers, place }
}

impl Order<'_> {
    /// A table's rows in this order of their solvers; the rows of one
    /// solver keep theirs (by n), and a row of no solver here goes last.
    fn rows(&self, mut table: PageTable) -> PageTable {
        table.rows.sort_by_key(|(title, _)| {
            match title {
                Cell::Solver { id, .. } => self.place.get(id.as_str()).copied(),
                _ => None,
            }
            .unwrap_or(usize::MAX)
        });
        table
    }
}

/// Each solver's part, in `solvers`' order. Variants built from one crate
/// share its README: the first of them on the page shows it, the others
/// link there, so each teaching text is on the page once.
fn solver_parts<'a>(parts: &Parts<'a>, solvers: &[&'a SolverFacts]) -> Vec<SolverPart<'a>> {
    let mut shown: BTreeMap<&str, &str> = BTreeMap::new();
    let mut out = Vec::new();
    for &solver in solvers {
        let rows = parts.overlay.all(&solver.id);
        // A column of branch misses only where this solver has them: the
        // page says once, above the solvers, why they are absent.
        let branch_misses = rows.iter().any(|e| {
            e.cold_branch_misses_per_node.is_some() && e.warm_branch_misses_per_node.is_some()
        });
        let teaching = solver.external.is_none().then(|| {
            let own = parts.inputs.teachings.get(solver.id.as_str()).copied();
            match own.map(str::trim).filter(|t| !t.is_empty()) {
                Some(readme) => match shown.get(readme) {
                    Some(first) => Teaching::SameAs(first),
                    None => {
                        shown.insert(readme, &solver.id);
                        Teaching::Own(Text::Html(markdown(readme)))
                    }
                },
                None => {
                    let missing = "No teaching text written yet.";
                    Teaching::Own(text(&parts.inputs.teachings, &solver.id, missing))
                }
            }
        });
        let mut columns = ["n", "cold median", "warm median", "nodes"].to_vec();
        columns.extend(["cold ns/node", "warm ns/node"]);
        if branch_misses {
            columns.push("branch misses/node cold / warm");
        }
        columns.push("peak heap");
        let width = columns.len();
        let mut table = Table::new(columns.into_iter().map(Column::text).collect());
        for entry in rows {
            table.push(measured(entry, branch_misses, width));
        }
        out.push(SolverPart {
            facts: solver,
            table: table.page("", "", false),
            // An external has no texts in the registry: its provenance
            // stands in for the analysis, and nothing for the teaching.
            analysis: match &solver.external {
                Some(external) => Text::Html(markdown(&external::provenance(external))),
                None => text(parts.analyses, &solver.id, "No analysis written yet."),
            },
            teaching,
        });
    }
    out
}

/// The page as `page.html` writes it.
#[derive(Template)]
#[template(path = "page.html", config = "templates/askama.toml")]
struct Page<'a> {
    /// The records, the command and the texts (the template reads the
    /// command, the basis, the records' lines and the styles from them).
    parts: &'a Parts<'a>,
    /// What the summary's columns mean and which n each ranking is at.
    summary_legend: String,
    summary: PageTable,
    /// The note on external programs under the summary (HTML), if any.
    external_note: Option<String>,
    /// The solvers in the page's order: one switch each in the plots'
    /// legend.
    order: Vec<&'a SolverFacts>,
    figures: Vec<Figure>,
    measurements: PageTable,
    /// The other question, time to one board: the finders' log-log
    /// plot (none when the records time no finder) and every (finder, n).
    find_plot: Option<Figure>,
    find_table: PageTable,
    /// Instructions per solution and per node, when there is a record.
    work: Option<PageTable>,
    /// What one node is, every solver once (not sortable).
    nodes: PageTable,
    solvers: Vec<SolverPart<'a>>,
    /// The script's data ([`data_json`]), already safe inside `<script>`.
    data: String,
}

/// One plot with its caption.
struct Figure {
    title: &'static str,
    /// The solvers left out of it, for want of a positive value ("" when
    /// none is).
    missing: String,
    svg: String,
}

/// One solver's part: its numbers, analysis and teaching text.
struct SolverPart<'a> {
    /// Its id, node and largest n.
    facts: &'a SolverFacts,
    /// Its table: a row per n, its figures or its status across them.
    table: PageTable,
    analysis: Text,
    /// None for an external program, which has no teaching text and no
    /// recorded search to watch.
    teaching: Option<Teaching<'a>>,
}

/// A solver's teaching text on the page.
enum Teaching<'a> {
    /// Its own, or why there is none.
    Own(Text),
    /// The same text as the part of this solver, earlier on the page.
    SameAs(&'a str),
}

/// An analysis or teaching text.
enum Text {
    /// Rendered from Markdown.
    Html(String),
    /// The solver is known but has no such text yet: this says so.
    Missing(&'static str),
    /// The records name a solver the `queens` that made the page lacks.
    NotInRegistry,
}

/// A plot on the page, and the solvers left out of it.
fn figure(measure: &charts::Measure, series: &[Series]) -> Result<Figure, askama::Error> {
    // A solver with no line here says why, rather than vanish.
    let missing = series.iter().filter(|s| s.points.is_empty());
    Ok(Figure {
        title: measure.title,
        missing: missing
            .map(|s| s.id.as_str())
            .collect::<Vec<_>>()
            .join(", "),
        svg: charts::svg(measure, series, Variant::Page)?,
    })
}

/// Every (solver, n) in the records, `solvers` in order. The time per
/// node cold and warm: a record without cold figures (version 1) has
/// the warm one alone.
fn measurements(overlay: &Overlay, solvers: &[&SolverFacts]) -> Table {
    let basis = overlay.basis.word();
    let cold = overlay.basis == Basis::Cold;
    let mut columns = vec![
        Column::text("solver"),
        Column::numbers("n"),
        Column::text("status"),
        Column::numbers(format!("{basis} median time")),
        Column::numbers("× fastest at this n"),
        Column::numbers("nodes"),
    ];
    if cold {
        columns.push(Column::numbers("cold ns/node"));
    }
    columns.push(Column::numbers("warm ns/node"));
    columns.push(Column::numbers("peak heap"));
    let mut table = Table::new(columns);
    for &solver in solvers {
        for entry in overlay.all(&solver.id) {
            let outcome = Outcome::of(entry);
            let timed = outcome == Outcome::Timed;
            let median = overlay.median_ns(&solver.id, entry.n);
            let per_node = |value: Option<f64>| Cell::figure(value.filter(|_| timed), significant);
            let fastest = overlay.fastest_ns(entry.n);
            let mut row = vec![
                Cell::named(solver),
                Cell::Text(entry.n.to_string()),
                Cell::Status(outcome),
                Cell::figure(median, duration_ns),
                Cell::figure(median.zip(fastest).map(|(m, f)| m / f), ratio),
                Cell::count(entry.nodes.filter(|_| timed), thousands),
            ];
            if cold {
                row.push(per_node(entry.cold_ns_per_node()));
            }
            row.push(per_node(entry.ns_per_node()));
            row.push(Cell::count(entry.peak_heap_bytes.filter(|_| timed), bytes));
            table.push(row);
        }
    }
    table
}

/// One n of a solver's own table: its figures, or its status in the first
/// cell after n (the page spans it across the others), `width` cells in
/// all; `branch_misses`: whether the table has their column.
fn measured(entry: &Entry, branch_misses: bool, width: usize) -> Vec<Cell> {
    let mut row = vec![Cell::Text(entry.n.to_string())];
    let (Outcome::Timed, Some(timing)) = (Outcome::of(entry), entry.timing()) else {
        row.push(Cell::Status(Outcome::of(entry)));
        row.resize(width, Cell::Empty);
        return row;
    };
    let not_recorded = || Cell::Text("not recorded".into());
    row.extend([
        (entry.cold_median_ns()).map_or_else(not_recorded, |ns| Cell::Text(duration_ns(ns))),
        Cell::Text(duration_ns(timing.median_ns)),
        Cell::count(entry.nodes, thousands),
        match (entry.cold_ns_per_node(), entry.cold_median_ns()) {
            (Some(per_node), _) => Cell::Text(significant(per_node)),
            (None, Some(_)) => Cell::Missing,
            (None, None) => not_recorded(),
        },
        Cell::figure(entry.ns_per_node(), significant),
    ]);
    if branch_misses {
        let both = (entry.cold_branch_misses_per_node).zip(entry.warm_branch_misses_per_node);
        row.push(both.map_or(Cell::Missing, |(c, w)| {
            Cell::Text(format!("{} / {}", significant(c), significant(w)))
        }));
    }
    row.push(Cell::count(entry.peak_heap_bytes, bytes));
    row
}

/// Markdown as HTML (the parser escapes the text).
fn markdown(text: &str) -> String {
    let mut out = String::new();
    push_html(&mut out, Parser::new_ext(text, Options::ENABLE_TABLES));
    out
}

/// A solver's text from `map`, rendered from Markdown.
fn text(map: &Analyses<'_>, id: &str, missing: &'static str) -> Text {
    match map.get(id).map(|t| t.trim()) {
        Some("") => Text::Missing(missing),
        Some(text) => Text::Html(markdown(text)),
        None => Text::NotInRegistry,
    }
}

/// What the script needs: the solvers in order, each one's traces by n
/// (packed, see [`Trace::packed`]) and its measured median there (so a pane
/// can say what the whole count cost).
fn data_json(parts: &Parts<'_>, solvers: &[&SolverFacts]) -> String {
    let overlay = parts.overlay;
    // The records' solvers first, then any solver that has traces but no
    // measurement yet (newer than the records): it can still be watched.
    let mut ids: Vec<&str> = solvers.iter().map(|s| s.id.as_str()).collect();
    for trace in &parts.inputs.traces {
        if !ids.contains(&trace.solver.as_str()) {
            ids.push(&trace.solver);
        }
    }
    let measured = |e: &Entry, median: f64| {
        let nodes = e.nodes.map_or_else(
            || "? nodes".into(),
            |k| format!("{} {}", thousands(k), queens_core::noun(k, "node", "nodes")),
        );
        format!(
            "measured: the whole count at n = {} took {} ({nodes}, {} median)",
            e.n,
            duration_ns(median),
            overlay.basis.word()
        )
    };
    let solvers: Vec<serde_json::Value> = ids
        .into_iter()
        .map(|id| {
            let traces = parts.inputs.traces.iter().filter(|t| t.solver == id);
            let traces: BTreeMap<String, String> =
                traces.map(|t| (t.n.to_string(), t.packed())).collect();
            let small = overlay.timed(id).into_iter().filter(|e| e.n <= 8);
            let measured: BTreeMap<String, String> = small
                .filter_map(|e| Some((e.n.to_string(), measured(e, ranked_ns(e)?))))
                .collect();
            serde_json::json!({"id": id, "traces": traces, "measured": measured})
        })
        .collect();
    let heatmaps: BTreeMap<String, &Vec<Vec<u64>>> = (parts.inputs.heatmaps.iter())
        .map(|(n, counts)| (n.to_string(), counts))
        .collect();
    serde_json::json!({"solvers": solvers, "heatmaps": heatmaps}).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::found::Found;
    use crate::inputs::{PageInputs, Source};
    use crate::page::Trace;
    use crate::page::styles::Styles;

    const TRACE: &str = r#"{"format":"queens-trace","format_version":1,"solver":"three-mask","n":4,
      "legend":"tags: place = a queen put down","steps":[
        {"event":"place","text":"</script> queen on a","queens":[[0,0]],"state":[["safe","1111"]],"nodes":1,"solutions":0}],
      "cut":true}"#;

    fn page_of(traces: Vec<Trace>) -> String {
        let record = queens_record::fixtures::find_record();
        page_from(record, traces, Vec::new())
    }

    /// The page of `record` with three-mask's texts, and `mirror`'s the
    /// same teaching text as three-mask's (one README for both).
    fn page_from(record: queens_record::Record, traces: Vec<Trace>, order: Vec<&str>) -> String {
        let sources = vec![Source {
            newer_code: Default::default(),
            label: "bench-results/fixture.json".into(),
            record,
        }];
        let overlay = Overlay::from_sources(&sources);
        let found = Found::from_sources(&sources);
        let analyses = BTreeMap::from([("three-mask", "Three masks *per rank*.")]);
        let styles = Styles::new(
            analyses.keys().copied(),
            overlay.facts.iter().map(|s| s.id.as_str()),
        );
        let readme = "# three-mask\n\nBits, `left` and `right`.";
        let inputs = PageInputs {
            teachings: BTreeMap::from([("three-mask", readme), ("mirror", readme)]),
            traces,
            trace_steps: 300,
            order,
            heatmaps: BTreeMap::from([(4, vec![vec![0, 1, 1, 0]; 4])]),
        };
        page(&Parts {
            command: "queens report bench-results/fixture.json",
            sources: &sources,
            instructions: None,
            overlay: &overlay,
            found: &found,
            analyses: &analyses,
            trees: &Default::default(),
            inputs: &inputs,
            styles: &styles,
        })
        .unwrap()
    }

    #[test]
    fn the_page_finds_one_board_apart_from_the_counts() {
        let text = page_of(Vec::new());
        let section = text
            .split("<section id=\"find\">")
            .nth(1)
            .unwrap()
            .split("</section>")
            .next()
            .unwrap();
        // The log-log plot and the table, every finder in both.
        assert!(section.contains("id=\"plot-find\""), "{section}");
        assert!(section.contains("n (board size, log scale)"), "{section}");
        assert!(section.contains("id=\"find-table\""), "{section}");
        for finder in ["construction", "min-conflicts", "three-mask"] {
            assert!(
                section.contains(&format!("data-solver=\"{finder}\"")),
                "{finder}"
            );
        }
        // construction at 10^6: 4.00 ms cold, 10^6 steps, 4.00 ns a step.
        assert!(
            section.contains("<td data-sort=\"4000000\">4.00 ms</td>"),
            "{section}"
        );
        assert!(section.contains("1,000,000"), "{section}");
        assert!(section.contains("over budget"), "{section}");
        assert!(section.contains("seed 1"), "{section}");
        // three-mask's first board (1.00 µs cold) is in no counting table.
        let elsewhere = text.replace(section, "");
        assert!(
            !elsewhere.contains("1.00 µs"),
            "a found board among the counts"
        );
    }

    #[test]
    fn the_page_carries_the_numbers_the_texts_and_the_traces() {
        let text = page_of(vec![Trace::from_json(TRACE).unwrap()]);
        assert!(text.starts_with("<!DOCTYPE html>"));
        // The fixture's one timed entry: three-mask at n = 8, 41.0 µs cold,
        // 14.0 µs warm, 2,057 nodes; both figures are on the page.
        assert!(
            text.contains("<td data-sort=\"41000\">41.0 µs</td>"),
            "{text}"
        );
        assert!(
            text.contains("<td>41.0 µs</td><td>14.0 µs</td><td>2,057</td>"),
            "{text}"
        );
        assert!(text.contains("× fastest at n = 8 (all 1)"), "{text}");
        assert!(
            text.contains("are absent: perf_event_open failed"),
            "{text}"
        );
        assert!(text.contains("2,057"));
        assert!(
            text.contains("<em>per rank</em>"),
            "analysis rendered from Markdown"
        );
        assert!(
            text.contains("<code>left</code>"),
            "teaching text rendered from Markdown"
        );
        assert!(text.contains("data-solver=\"three-mask\""));
        // The trace is embedded (packed: the script inflates it), and no
        // `</script>` in it can end the script early.
        let trace = Trace::from_json(TRACE).unwrap();
        assert!(text.contains(&format!("\"traces\":{{\"4\":\"{}\"}}", trace.packed())));
        // The heatmaps, by n, rank by rank.
        assert!(text.contains("\"heatmaps\":{\"4\":[[0,1,1,0],[0,1,1,0],"));
        assert_eq!(
            text.matches("</script>").count(),
            2,
            "only the two script elements end"
        );
    }

    /// The fixture's record (counts and finders) with a second solver,
    /// `mirror`, faster than three-mask at n = 8 and listed first, as the
    /// records list the fastest first.
    fn with_mirror() -> queens_record::Record {
        let mut record = queens_record::fixtures::find_record();
        let facts = (record.solvers.iter())
            .find(|s| s.id == "three-mask")
            .unwrap()
            .clone();
        record.solvers.insert(
            0,
            SolverFacts {
                id: "mirror".into(),
                ..facts
            },
        );
        let entry = (record.entries.iter())
            .find(|e| e.solver == "three-mask" && e.n == 8)
            .unwrap()
            .clone();
        let one = queens_record::fixtures::one_sample;
        record.entries.push(Entry {
            solver: "mirror".into(),
            outcome: queens_record::Outcome::Timed {
                warm: one(7_000.0).unwrap(),
                cold: one(20_000.0),
            },
            ..entry
        });
        record
    }

    /// The part of `page` from `from` to the next `</section>`.
    fn section<'a>(page: &'a str, from: &str) -> &'a str {
        let start = page.find(from).unwrap_or_else(|| panic!("{from}: {page}"));
        let rest = &page[start..];
        &rest[..rest.find("</section>").unwrap()]
    }

    #[test]
    fn the_page_opens_with_what_it_is_and_links_the_walk_through() {
        let text = page_of(Vec::new());
        let header = section(&text, "<header>");
        let header = &header[..header.find("</header>").unwrap()];
        assert!(
            header.contains("<a href=\"../docs/ALGORITHMS.md\">docs/ALGORITHMS.md</a>"),
            "{header}"
        );
        let summary = section(&text, "<section id=\"summary\">");
        assert!(
            summary.contains("Every ratio compares solvers"),
            "{summary}"
        );
        // Its per-n ratios are on this page, not cited from another file.
        assert!(
            summary.contains("<em>Every measurement</em> below"),
            "{summary}"
        );
        for gone in ["Ranked on common ground", "(COMPARISON.md)"] {
            assert!(!text.contains(gone), "{gone}");
        }
    }

    #[test]
    fn the_page_lists_the_solvers_in_teaching_order_and_each_readme_once() {
        let text = page_from(with_mirror(), Vec::new(), vec!["three-mask", "mirror"]);
        // Teaching order in the summary (where speed would put mirror,
        // 20.0 µs, before three-mask, 41.0 µs), the plots' switches, the
        // measurements and the solvers' parts alike.
        for (part, marks) in [
            (
                "<section id=\"summary\">",
                ["#solver-three-mask\"", "#solver-mirror\""],
            ),
            ("<section id=\"plots\">", ["\"three-mask\">", "\"mirror\">"]),
            (
                "<section id=\"measurements\">",
                ["<th scope=\"row\">three-mask<", "<th scope=\"row\">mirror<"],
            ),
            (
                "<section id=\"solvers\">",
                ["id=\"solver-three-mask\"", "id=\"solver-mirror\""],
            ),
        ] {
            let part = section(&text, part);
            let at = marks.map(|mark| part.find(mark).unwrap_or_else(|| panic!("{mark}: {part}")));
            assert!(at[0] < at[1], "{marks:?}: {part}");
        }
        assert!(
            text.contains("<td data-sort=\"20000\">20.0 µs</td>"),
            "{text}"
        );
        // One README, shown once: the second solver links the first's.
        assert_eq!(text.matches("<code>left</code>").count(), 1, "{text}");
        assert_eq!(text.matches("<div class=\"teaching\">").count(), 1);
        let mirror = section(&text, "id=\"solver-mirror\"");
        assert!(
            mirror
                .contains("the teaching text under <a href=\"#solver-three-mask\">three-mask</a>"),
            "{mirror}"
        );
        // Without an order, the records' (fastest first).
        let text = page_from(with_mirror(), Vec::new(), Vec::new());
        let solvers = section(&text, "<section id=\"solvers\">");
        let at =
            ["id=\"solver-mirror\"", "id=\"solver-three-mask\""].map(|m| solvers.find(m).unwrap());
        assert!(at[0] < at[1], "{solvers}");
        assert_eq!(text.matches("<code>left</code>").count(), 1, "{text}");
    }

    #[test]
    fn absent_branch_misses_are_said_once_with_no_column_of_dashes() {
        let text = page_from(with_mirror(), Vec::new(), Vec::new());
        assert_eq!(
            text.matches("are absent: perf_event_open failed").count(),
            1,
            "{text}"
        );
        assert!(!text.contains("branch misses/node"), "{text}");
        // Cold and warm per node once each in the measurements table.
        let measurements = section(&text, "<section id=\"measurements\">");
        for column in [">cold ns/node<", ">warm ns/node<"] {
            assert_eq!(measurements.matches(column).count(), 1, "{measurements}");
        }
    }

    #[test]
    fn a_solver_newer_than_the_records_can_still_be_watched() {
        let newcomer = TRACE.replace("three-mask", "newcomer");
        let text = page_of(vec![Trace::from_json(&newcomer).unwrap()]);
        assert!(
            text.contains("\"id\":\"newcomer\",\"measured\":{},\"traces\":{\"4\":"),
            "{text}"
        );
    }

    #[test]
    fn the_page_needs_no_network() {
        let text = page_of(Vec::new());
        for fetching in [
            "src=",
            "<link",
            "@import",
            "url(",
            "fetch(",
            "XMLHttpRequest",
        ] {
            assert!(
                !text.contains(fetching),
                "the page would load something: {fetching}"
            );
        }
    }

    #[test]
    fn the_same_inputs_give_the_same_bytes() {
        let traces = vec![Trace::from_json(TRACE).unwrap()];
        assert_eq!(page_of(traces.clone()), page_of(traces));
    }
}
