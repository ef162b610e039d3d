//! The page's contents: summary, plots, every measurement, the player, each
//! solver's teaching text and analysis beside its numbers, the records,
//! gathered from the records into the values `templates/page.html` writes
//! (the engine escapes every one of them). Everything a reader sees comes
//! from here; the script only sorts, switches lines and plays traces.

use askama::Template;
use pulldown_cmark::{Options, Parser, html::push_html};

use super::charts::{self, MEASURES, Variant, style};
// `Markup` is the templates' escaper: templates/askama.toml names it, and
// the code the template derive writes finds it here.
use super::escape::{Markup, script_json};
use super::trace::Trace;
use crate::format::{bytes, duration_ns, significant, thousands};
use crate::inputs::{Analyses, Source};
use crate::overlay::Overlay;
use crate::tables::stopped;
use queens_record::{Entry, Provenance, Status};

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
}

/// Everything the page is made from.
pub struct Parts<'a> {
    /// The `queens report ...` line that made it.
    pub command: &'a str,
    /// The records.
    pub sources: &'a [Source],
    /// The records as one table.
    pub overlay: &'a Overlay,
    /// Each solver's analysis (ANALYSIS.md), by id.
    pub analyses: &'a Analyses<'a>,
    /// Teaching texts and traces.
    pub inputs: &'a PageInputs<'a>,
}

/// The whole page.
pub fn page(parts: &Parts<'_>) -> Result<String, askama::Error> {
    let overlay = parts.overlay;
    Page {
        command: parts.command,
        summary: summary(overlay),
        legend: overlay
            .solvers
            .iter()
            .enumerate()
            .map(|(index, solver)| Swatch {
                id: &solver.id,
                colour: style(index).colour,
                dash: style(index).dash,
            })
            .collect(),
        figures: MEASURES
            .iter()
            .map(|measure| figure(measure, overlay))
            .collect::<Result<_, _>>()?,
        measurements: measurements(overlay),
        trace_steps: parts.inputs.trace_steps,
        solvers: overlay
            .solvers
            .iter()
            .map(|solver| SolverPart {
                id: &solver.id,
                node: &solver.node,
                max_n: solver.max_n,
                rows: overlay.all(&solver.id).into_iter().map(measured).collect(),
                analysis: text(parts.analyses, &solver.id, "No analysis written yet."),
                teaching: text(
                    &parts.inputs.teachings,
                    &solver.id,
                    "No teaching text written yet.",
                ),
            })
            .collect(),
        records: parts
            .sources
            .iter()
            .map(|source| {
                let provenance = &source.record.provenance;
                RecordLine {
                    label: &source.label,
                    provenance,
                    commit: provenance
                        .git_commit
                        .as_deref()
                        .map_or("no git commit".to_string(), |c| {
                            format!("commit {}", c.chars().take(12).collect::<String>())
                        }),
                }
            })
            .collect(),
        data: script_json(&data_json(parts)),
    }
    .render()
}

/// The page as `page.html` writes it.
#[derive(Template)]
#[template(path = "page.html", config = "templates/askama.toml")]
struct Page<'a> {
    command: &'a str,
    summary: Table<'a>,
    /// One switch per solver, with its line's look.
    legend: Vec<Swatch<'a>>,
    figures: Vec<Figure>,
    measurements: Table<'a>,
    trace_steps: usize,
    solvers: Vec<SolverPart<'a>>,
    records: Vec<RecordLine<'a>>,
    /// The script's data ([`data_json`]), already safe inside `<script>`.
    data: String,
}

/// A sortable table: each column's header a button (keyboard and screen
/// readers reach it) that sorts by the cells' `data-sort` values.
struct Table<'a> {
    id: &'static str,
    caption: &'static str,
    columns: [&'static str; 8],
    rows: Vec<Row<'a>>,
}

/// One row of a sortable table: the solver, then its cells.
struct Row<'a> {
    solver: &'a str,
    /// Whether the solver's name links to its part of the page.
    link: bool,
    cells: Vec<Cell>,
}

/// One cell: what is shown and the value it sorts by.
struct Cell {
    shown: String,
    sort: String,
}

impl Cell {
    fn text(text: String) -> Self {
        Cell {
            shown: text.clone(),
            sort: text,
        }
    }

    /// A number written by `shown` and sorted by its value; a dash and no
    /// sort value (sorted last) when there is none.
    fn number(value: Option<f64>, shown: impl Fn(f64) -> String) -> Self {
        match value {
            Some(v) => Cell {
                shown: shown(v),
                sort: v.to_string(),
            },
            None => Cell {
                shown: "—".to_string(),
                sort: String::new(),
            },
        }
    }
}

/// A solver's switch in the plots' legend.
struct Swatch<'a> {
    id: &'a str,
    colour: &'static str,
    dash: &'static str,
}

/// One plot with its caption.
struct Figure {
    title: &'static str,
    /// The solvers left out of it and why ("" when none is).
    missing: String,
    svg: String,
}

/// One solver's part: its numbers, analysis and teaching text.
struct SolverPart<'a> {
    id: &'a str,
    node: &'a str,
    max_n: usize,
    rows: Vec<MeasuredRow<'a>>,
    analysis: Text,
    teaching: Text,
}

/// One n of a solver's own table.
struct MeasuredRow<'a> {
    n: usize,
    result: Measured<'a>,
}

enum Measured<'a> {
    Timed {
        time: String,
        nodes: String,
        ns_per_node: String,
        heap: String,
    },
    OverBudget,
    Error(&'a str),
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

/// One record's line: where it is and what it was measured on.
struct RecordLine<'a> {
    label: &'a str,
    provenance: &'a Provenance,
    /// "commit" and the commit's first 12 digits, or "no git commit".
    commit: String,
}

const SUMMARY_COLUMNS: [&str; 8] = [
    "solver",
    "largest n timed",
    "time there",
    "ns/node there",
    "peak heap there",
    "× fastest",
    "n compared",
    "stopped",
];

const MEASUREMENT_COLUMNS: [&str; 8] = [
    "solver",
    "n",
    "status",
    "median time",
    "× fastest at n",
    "nodes",
    "ns/node",
    "peak heap",
];

fn ratio(value: f64) -> String {
    format!("{}×", significant(value))
}

fn summary(overlay: &Overlay) -> Table<'_> {
    let rows = overlay
        .solvers
        .iter()
        .map(|solver| {
            let last = overlay.timed(&solver.id).last().copied();
            let geomean = overlay.geometric_mean_ratio(&solver.id);
            Row {
                solver: &solver.id,
                link: true,
                cells: vec![
                    Cell::number(last.map(|e| e.n as f64), |n| n.to_string()),
                    Cell::number(
                        last.and_then(|e| e.timing).map(|t| t.median_ns),
                        duration_ns,
                    ),
                    Cell::number(last.and_then(|e| e.ns_per_node), significant),
                    Cell::number(
                        last.and_then(|e| e.peak_heap_bytes).map(|b| b as f64),
                        |b| bytes(b as u64),
                    ),
                    Cell::number(geomean.map(|g| g.0), ratio),
                    Cell::number(geomean.map(|g| g.1 as f64), |c| c.to_string()),
                    Cell::text(stopped(overlay, solver)),
                ],
            }
        })
        .collect();
    Table {
        id: "summary-table",
        caption: "Each solver at the largest n it was timed at",
        columns: SUMMARY_COLUMNS,
        rows,
    }
}

fn figure(measure: &charts::Measure, overlay: &Overlay) -> Result<Figure, askama::Error> {
    let series = measure.series(overlay);
    // A solver with no line here says why, rather than vanish.
    let missing: Vec<&str> = series
        .iter()
        .filter(|s| s.points.is_empty())
        .map(|s| s.id.as_str())
        .collect();
    Ok(Figure {
        title: measure.title,
        missing: if missing.is_empty() {
            String::new()
        } else {
            format!(". Not drawn (no positive value): {}", missing.join(", "))
        },
        svg: charts::svg(measure, &series, Variant::Page)?,
    })
}

fn measurements(overlay: &Overlay) -> Table<'_> {
    let mut rows = Vec::new();
    for solver in &overlay.solvers {
        for entry in overlay.all(&solver.id) {
            let status = match entry.status {
                Status::Timed => "timed".to_string(),
                Status::OverBudget => "over budget".to_string(),
                Status::Error => {
                    format!("error: {}", entry.error.as_deref().unwrap_or("no message"))
                }
            };
            let median = overlay.median_ns(&solver.id, entry.n);
            let timed = entry.status == Status::Timed;
            rows.push(Row {
                solver: &solver.id,
                link: false,
                cells: vec![
                    Cell::text(entry.n.to_string()),
                    Cell::text(status),
                    Cell::number(median, duration_ns),
                    Cell::number(
                        median.zip(overlay.fastest_ns(entry.n)).map(|(m, f)| m / f),
                        ratio,
                    ),
                    Cell::number(entry.nodes.filter(|_| timed).map(|n| n as f64), |v| {
                        thousands(v as u64)
                    }),
                    Cell::number(entry.ns_per_node.filter(|_| timed), significant),
                    Cell::number(
                        entry.peak_heap_bytes.filter(|_| timed).map(|b| b as f64),
                        |b| bytes(b as u64),
                    ),
                ],
            });
        }
    }
    Table {
        id: "measurements-table",
        caption: "Every (solver, n) in the records",
        columns: MEASUREMENT_COLUMNS,
        rows,
    }
}

fn measured(entry: &Entry) -> MeasuredRow<'_> {
    let unknown = || "?".to_string();
    let result = match (entry.status, entry.timing) {
        (Status::Timed, Some(timing)) => Measured::Timed {
            time: duration_ns(timing.median_ns),
            nodes: entry.nodes.map(thousands).unwrap_or_else(unknown),
            ns_per_node: entry.ns_per_node.map(significant).unwrap_or_else(unknown),
            heap: entry.peak_heap_bytes.map(bytes).unwrap_or_else(unknown),
        },
        (Status::OverBudget, _) => Measured::OverBudget,
        _ => Measured::Error(entry.error.as_deref().unwrap_or("no message")),
    };
    MeasuredRow { n: entry.n, result }
}

/// A solver's text from `map`, rendered from Markdown.
fn text(map: &Analyses<'_>, id: &str, missing: &'static str) -> Text {
    match map.get(id).map(|t| t.trim()) {
        Some("") => Text::Missing(missing),
        Some(text) => {
            let mut out = String::new();
            push_html(&mut out, Parser::new_ext(text, Options::ENABLE_TABLES));
            Text::Html(out)
        }
        None => Text::NotInRegistry,
    }
}

/// What the script needs: the solvers in order, each one's traces by n and
/// its measured median there (so a pane can say what the whole count cost).
fn data_json(parts: &Parts<'_>) -> String {
    // The records' solvers first, then any solver that has traces but no
    // measurement yet (newer than the records): it can still be watched.
    let mut ids: Vec<&str> = parts
        .overlay
        .solvers
        .iter()
        .map(|s| s.id.as_str())
        .collect();
    for trace in &parts.inputs.traces {
        if !ids.contains(&trace.solver.as_str()) {
            ids.push(&trace.solver);
        }
    }
    let solvers: Vec<serde_json::Value> = ids
        .into_iter()
        .map(|id| {
            let traces: serde_json::Map<String, serde_json::Value> = parts
                .inputs
                .traces
                .iter()
                .filter(|t| t.solver == id)
                .map(|t| {
                    (
                        t.n.to_string(),
                        serde_json::to_value(t).expect("a trace serializes"),
                    )
                })
                .collect();
            let measured: serde_json::Map<String, serde_json::Value> = parts
                .overlay
                .timed(id)
                .iter()
                .filter(|e| e.n <= 8)
                .filter_map(|e| {
                    let timing = e.timing?;
                    Some((
                        e.n.to_string(),
                        serde_json::json!(format!(
                            "measured: the whole count at n = {} took {} ({} nodes)",
                            e.n,
                            duration_ns(timing.median_ns),
                            e.nodes.map(thousands).unwrap_or_else(|| "?".into())
                        )),
                    ))
                })
                .collect();
            serde_json::json!({"id": id, "traces": traces, "measured": measured})
        })
        .collect();
    serde_json::json!({"solvers": solvers}).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use queens_record::fixtures::sample_record;
    use std::collections::BTreeMap;

    const TRACE: &str = r#"{"format":"queens-trace/1","solver":"three-mask","n":4,
      "legend":"tags: place = a queen put down","steps":[
        {"event":"place","text":"</script> queen on a","queens":[[0,0]],"state":[["safe","1111"]],"nodes":1,"solutions":0}],
      "cut":true}"#;

    fn page_of(traces: Vec<Trace>) -> String {
        let sources = vec![Source {
            newer_code: Default::default(),
            label: "bench-results/fixture.json".into(),
            record: sample_record(),
        }];
        let overlay = Overlay::from_sources(&sources);
        let analyses = BTreeMap::from([("three-mask", "Three masks *per rank*.")]);
        let inputs = PageInputs {
            teachings: BTreeMap::from([(
                "three-mask",
                "# three-mask\n\nBits, `left` and `right`.",
            )]),
            traces,
            trace_steps: 300,
        };
        page(&Parts {
            command: "queens report bench-results/fixture.json",
            sources: &sources,
            overlay: &overlay,
            analyses: &analyses,
            inputs: &inputs,
        })
        .unwrap()
    }

    #[test]
    fn the_page_carries_the_numbers_the_texts_and_the_traces() {
        let text = page_of(vec![Trace::from_json(TRACE).unwrap()]);
        assert!(text.starts_with("<!DOCTYPE html>"));
        // The fixture's one timed entry: three-mask at n = 8, 14.0 µs, 2,057 nodes.
        assert!(
            text.contains("<td data-sort=\"14000.5\">14.0 µs</td>"),
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
        // The trace is embedded, and its `</script>` cannot end the script early.
        assert!(text.contains("\\u003c/script> queen on a"));
        assert_eq!(
            text.matches("</script>").count(),
            2,
            "only the two script elements end"
        );
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
