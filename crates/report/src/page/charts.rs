//! The report's plots (time, nodes, ns per node, peak heap against n), laid
//! out here and written by the template `templates/chart.svg`: inline in the
//! page, and standalone as the README's two SVG files, so that both show
//! the same lines on the same scales in the same styles.
//!
//! Drawn here, not by plotters, for what its SVG backend cannot write: it
//! emits bare shapes with no group, class, id or `<title>`, so the page
//! could neither switch a solver's line off (`<g data-solver>`) nor show a
//! point's value on hover, and it names series in a legend box, not beside
//! each line's last point where it hides the least and never lies on
//! another name ([`super::labels`]); coinciding lines stay apart by dash
//! pattern and hollow marker ([`super::styles`]).

use askama::Template;

// The templates' escaper: templates/askama.toml names it, and the code
// the template derive writes finds it here.
use super::escape::Markup;
use super::labels::{self, Area, Drawn};
use super::styles::{At, Style, Styles};
use crate::format::{bytes, duration_ns, name, significant, thousands};
use crate::overlay::{Overlay, ranked_ns, ranked_per_node};
use queens_record::Entry;

/// Plot size in SVG units (the page scales it to its column), and the
/// frame's edges in it: `templates/chart.svg` writes these and the
/// positions below by name.
const WIDTH: f64 = 760.0;
const HEIGHT: f64 = 430.0;
const LEFT: f64 = 86.0;
/// Room right of the frame (136 units) for the names of lines that reach
/// the last n.
const RIGHT: f64 = WIDTH - 136.0;
/// Room above the frame for a row of names (16 units) clear of its edge.
const TOP: f64 = 22.0;
const BOTTOM: f64 = HEIGHT - 52.0;
/// The frame's size.
const INNER: (At, At) = (At(RIGHT - LEFT), At(BOTTOM - TOP));
/// Where the grid lines' values end (they are right-aligned).
const GRID_LABEL_X: At = At(LEFT - 6.0);
/// Where the n ticks end and their labels sit.
const TICK_END: At = At(BOTTOM + 5.0);
const TICK_LABEL_Y: At = At(BOTTOM + 18.0);
/// The axis names' anchors: the n axis's (x, y), the y axis's y.
const X_NAME: (At, At) = (At((LEFT + RIGHT) / 2.0), At(HEIGHT - 10.0));
const Y_NAME_Y: At = At((TOP + BOTTOM) / 2.0);
/// The band above a standalone plot that holds its title (on the page the
/// title is the figure's caption), and where its title sits.
const TITLE_BAND: f64 = 30.0;
const TITLE_Y: At = At(TITLE_BAND - 10.0);
/// Where names may go: over the frame and the margin right of it, never
/// over the axes' values.
const LABEL_BOUNDS: Area = Area {
    left: LEFT + 2.0,
    top: 2.0,
    right: WIDTH - 2.0,
    bottom: BOTTOM - 2.0,
};

/// One measure plotted against n: what is taken from each timed entry and
/// how the plot names and writes it.
pub(crate) struct Measure {
    /// The plot's element id on the page.
    pub id: &'static str,
    /// The title above it.
    pub title: &'static str,
    /// The y axis's name.
    pub y_label: &'static str,
    /// The value of one timed entry, if it has one.
    pub value: fn(&Entry) -> Option<f64>,
    /// How a value is written (axis and hover).
    pub format: fn(f64) -> String,
    /// Grid lines at the powers of this (10; 32 for bytes, so that they
    /// fall on 1 KiB, 32 KiB, 1 MiB).
    pub tick_base: f64,
    /// Whether n is on a log scale too (the finders' plot, whose n runs
    /// from 8 to millions), with ticks at the powers of ten.
    pub log_n: bool,
}

/// Median time of one count (the README's `time-vs-n.svg`).
pub(crate) const TIME: Measure = Measure {
    id: "plot-time",
    title: "Median time of one count against n",
    y_label: "median time",
    value: ranked_ns,
    format: duration_ns,
    tick_base: 10.0,
    log_n: false,
};

/// Time to one board, every finder (the README-style `find-vs-n.svg` and
/// the page's "Find one board"): log-log, where a finder whose time grows
/// as n^k is a straight line of slope k. The time plot's scale and
/// format, n on a log scale too (its `value` is unused: the finders'
/// series come from their own table, found.rs).
pub(crate) const FIND: Measure = Measure {
    id: "plot-find",
    title: "Median time to one board against n (log-log)",
    log_n: true,
    ..TIME
};

/// Nodes (the README's `nodes-vs-n.svg`).
pub(crate) const NODES: Measure = Measure {
    id: "plot-nodes",
    title: "Nodes (each solver's unit of work) against n",
    y_label: "nodes",
    value: |e| e.nodes.map(|n| n as f64),
    format: |v| thousands(v.round() as u64),
    tick_base: 10.0,
    log_n: false,
};

/// The four plots of the page, in order.
pub(crate) const MEASURES: [Measure; 4] = [
    TIME,
    NODES,
    Measure {
        id: "plot-ns-per-node",
        title: "Cost of one node against n",
        y_label: "ns per node",
        value: ranked_per_node,
        format: |v| format!("{} ns", significant(v)),
        tick_base: 10.0,
        log_n: false,
    },
    Measure {
        id: "plot-heap",
        title: "Peak heap memory against n (0 B cannot sit on a log scale and is left out)",
        y_label: "peak heap",
        value: |e| e.peak_heap_bytes.map(|b| b as f64),
        format: |v| bytes(v.round() as u64),
        tick_base: 32.0,
        log_n: false,
    },
];

/// One solver's points: (n, value), value > 0.
pub(crate) struct Series {
    /// The solver's id.
    pub id: String,
    /// What its label and values call it (its id, marked for an external
    /// program).
    pub name: String,
    /// How its line looks.
    pub style: Style,
    /// (n, value) by ascending n.
    pub points: Vec<(usize, f64)>,
}

impl Series {
    /// The line of `id` (a solver or a finder) in its style: the positive
    /// `value`s of its `entries` (a log scale has no place for 0), given
    /// by ascending n.
    pub(crate) fn of<'a>(
        id: &str,
        styles: &Styles,
        entries: impl IntoIterator<Item = &'a Entry>,
        value: impl Fn(&Entry) -> Option<f64>,
    ) -> Series {
        Series {
            id: id.to_string(),
            name: id.to_string(),
            style: styles.of(id),
            points: entries
                .into_iter()
                .filter_map(|e| Some((e.n, value(e).filter(|v| *v > 0.0)?)))
                .collect(),
        }
    }
}

impl Measure {
    /// Every solver's positive values of this measure (a log scale has no
    /// place for 0), in the records' solver order, each in its style.
    pub(crate) fn series(&self, overlay: &Overlay, styles: &Styles) -> Vec<Series> {
        overlay
            .facts
            .iter()
            .map(|solver| Series {
                name: name(solver),
                ..Series::of(&solver.id, styles, overlay.timed(&solver.id), self.value)
            })
            .collect()
    }
}

/// Where a plot is shown.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Variant {
    /// Inside the page, styled by its stylesheet and switched by its script.
    Page,
    /// A file of its own (the README's plots), shown as an image: its own
    /// fonts, colours, background and title, no script.
    Standalone,
}

/// The SVG of one plot (log y scale).
pub(crate) fn svg(
    measure: &Measure,
    series: &[Series],
    variant: Variant,
) -> Result<String, askama::Error> {
    Chart::new(measure, series, variant).render()
}

/// A horizontal grid line at a power of the tick base, with its value.
struct GridLine {
    y: At,
    label_y: At,
    label: String,
}

/// A solver's line and its markers.
struct Line<'a> {
    id: &'a str,
    style: Style,
    /// The polyline's points, "x,y x,y ...".
    points: String,
    marks: Vec<Mark>,
}

/// One point's marker and the value it shows on hover.
struct Mark {
    hover: String,
    shape: String,
}

/// A solver's name near its line's last point.
struct Label<'a> {
    id: &'a str,
    name: &'a str,
    /// The text's start and baseline.
    x: At,
    y: At,
    /// The area the text takes (tests check that no two meet).
    #[cfg_attr(not(test), allow(dead_code))]
    area: Area,
}

/// One plot as `chart.svg` writes it.
#[derive(Template)]
#[template(path = "chart.svg", config = "templates/askama.toml")]
struct Chart<'a> {
    standalone: bool,
    /// Its id, title and axes.
    measure: &'a Measure,
    grid: Vec<GridLine>,
    /// The n axis: each n (as written) and its x.
    ticks: Vec<(String, At)>,
    lines: Vec<Line<'a>>,
    labels: Vec<Label<'a>>,
}

impl<'a> Chart<'a> {
    fn new(measure: &'a Measure, series: &'a [Series], variant: Variant) -> Self {
        let values = || series.iter().flat_map(|s| s.points.iter());
        let x_min = values().map(|p| p.0).min().unwrap_or(4);
        let x_max = values()
            .map(|p| p.0)
            .max()
            .unwrap_or(x_min + 1)
            .max(x_min + 1);
        let low = values().map(|p| p.1).min_by(f64::total_cmp).unwrap_or(1.0);
        let high = values().map(|p| p.1).max_by(f64::total_cmp).unwrap_or(10.0);
        let base = measure.tick_base;
        let decade_low = low.log(base).floor() as i32;
        let decade_high = (high.log(base).ceil() as i32).max(decade_low + 1);
        let width = RIGHT - LEFT;
        let x = |n: usize| {
            let t = if measure.log_n {
                (n as f64 / x_min as f64).ln() / (x_max as f64 / x_min as f64).ln()
            } else {
                (n - x_min) as f64 / (x_max - x_min) as f64
            };
            LEFT + t * width
        };
        let y = |v: f64| {
            let t = (v.log(base) - decade_low as f64) / (decade_high - decade_low) as f64;
            BOTTOM - t * (BOTTOM - TOP)
        };
        let grid = (decade_low..=decade_high)
            .map(|decade| {
                let value = base.powi(decade);
                GridLine {
                    y: At(y(value)),
                    label_y: At(y(value) + 4.0),
                    label: (measure.format)(value),
                }
            })
            .collect();
        let drawn: Vec<&Series> = series.iter().filter(|s| !s.points.is_empty()).collect();
        // Every line's points on the plot, in the order of `drawn`.
        let at: Vec<Vec<(f64, f64)>> = drawn
            .iter()
            .map(|s| s.points.iter().map(|&(n, v)| (x(n), y(v))).collect())
            .collect();
        let lines: Vec<Line<'a>> = drawn
            .iter()
            .zip(&at)
            .map(|(s, points)| Line {
                id: &s.id,
                style: s.style,
                points: points
                    .iter()
                    .map(|&(x, y)| format!("{},{}", At(x), At(y)))
                    .collect::<Vec<_>>()
                    .join(" "),
                marks: s
                    .points
                    .iter()
                    .zip(points)
                    .map(|(&(n, v), &(x, y))| Mark {
                        hover: format!("{}, n = {n}: {}", s.name, (measure.format)(v)),
                        shape: s.style.marker.at(x, y),
                    })
                    .collect(),
            })
            .collect();
        let ends: Vec<(&str, (f64, f64))> = drawn
            .iter()
            .zip(&at)
            .filter_map(|(s, points)| Some((s.name.as_str(), *points.last()?)))
            .collect();
        let edges = [
            ((LEFT, TOP), (RIGHT, TOP)),
            ((RIGHT, TOP), (RIGHT, BOTTOM)),
            ((LEFT, BOTTOM), (RIGHT, BOTTOM)),
        ];
        let drawn_so_far = Drawn {
            lines: &at,
            edges: &edges,
        };
        let areas = labels::place(&ends, &drawn_so_far, &LABEL_BOUNDS);
        Chart {
            standalone: variant == Variant::Standalone,
            measure,
            grid,
            ticks: n_ticks(measure.log_n, x_min, x_max)
                .into_iter()
                .map(|n| (thousands(n as u64), At(x(n))))
                .collect(),
            lines,
            labels: drawn
                .iter()
                .zip(&ends)
                .zip(areas)
                .map(|((s, &(name, _)), area)| Label {
                    id: &s.id,
                    name,
                    x: At(area.left),
                    y: At(area.top + labels::BASELINE),
                    area,
                })
                .collect(),
        }
    }
}

/// The n the axis marks: every n on a linear axis; on a log one the
/// powers of ten within it (n = 8 and 10 would sit on one another), or its
/// two ends when it spans no power of ten.
fn n_ticks(log_n: bool, x_min: usize, x_max: usize) -> Vec<usize> {
    if !log_n {
        return (x_min..=x_max).collect();
    }
    let decades: Vec<usize> = std::iter::successors(Some(1usize), |p| p.checked_mul(10))
        .skip_while(|&p| p < x_min)
        .take_while(|&p| p <= x_max)
        .collect();
    if decades.is_empty() {
        vec![x_min, x_max]
    } else {
        decades
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::styles::Marker;

    fn series(ids: &[&str], points: impl Fn(usize) -> Vec<(usize, f64)>) -> Vec<Series> {
        let markers = [Marker::Circle, Marker::Square];
        ids.iter()
            .enumerate()
            .map(|(index, id)| Series {
                id: id.to_string(),
                name: id.to_string(),
                style: Style {
                    colour: "#000000",
                    dash: ["", "8 4"][index % 2],
                    marker: markers[index % 2],
                },
                points: points(index),
            })
            .collect()
    }

    fn two_coinciding() -> Vec<Series> {
        series(&["base-counting", "row-fold"], |_| {
            vec![(4, 10.0), (5, 100.0)]
        })
    }

    #[test]
    fn every_point_carries_its_value_and_every_solver_its_own_look() {
        let text = svg(&NODES, &two_coinciding(), Variant::Page).unwrap();
        assert!(
            text.contains("<title>row-fold, n = 5: 100</title>"),
            "{text}"
        );
        assert!(text.contains("data-solver=\"base-counting\""));
        // The same points, yet two dash patterns, two marker shapes and two
        // names that do not sit on one another.
        assert!(text.contains("stroke-dasharray=\"8 4\""));
        assert!(text.contains("<circle") && text.contains("<rect x="));
        let series = two_coinciding();
        let chart = Chart::new(&NODES, &series, Variant::Page);
        assert_eq!(chart.labels.len(), 2);
        assert!(!chart.labels[0].area.overlaps(&chart.labels[1].area));
    }

    /// A plot like the committed time plot: twelve lines rising to the top
    /// right, ending at different n, one (like threat-mask) early and low.
    fn rising() -> Vec<Series> {
        series(&crate::page::styles::tests::IDS, |i| {
            let last = [16, 15, 15, 14, 8, 11, 13, 13, 12, 11, 10, 10][i];
            (4..=last)
                .map(|n| {
                    (
                        n,
                        10f64.powf(2.0 + (n - 4) as f64 * (0.5 + 0.06 * i as f64)),
                    )
                })
                .collect()
        })
    }

    #[test]
    fn names_sit_beside_last_points_and_nothing_runs_beyond_a_line() {
        let series = rising();
        for measure in [&TIME, &NODES] {
            let chart = Chart::new(measure, &series, Variant::Standalone);
            let text = chart.render().unwrap();
            // A label is its name and nothing else: no leader line that
            // could read as the line going on.
            for group in text.split("<g class=\"label\"").skip(1) {
                let group = group.split("</g>").next().unwrap();
                assert_eq!(group.matches('<').count(), 2, "{group}");
                assert!(group.contains("<text ") && !group.contains("<line"));
            }
            // No two names meet, and each is next to its last point, not
            // across the plot from it.
            for (i, label) in chart.labels.iter().enumerate() {
                for other in &chart.labels[i + 1..] {
                    assert!(
                        !label.area.overlaps(&other.area),
                        "{} {}",
                        label.id,
                        other.id
                    );
                }
                let line = chart.lines.iter().find(|l| l.id == label.id).unwrap();
                let last = line.points.rsplit(' ').next().unwrap();
                let (x, y) = last.split_once(',').unwrap();
                let (x, y): (f64, f64) = (x.parse().unwrap(), y.parse().unwrap());
                let dx = (label.area.left - x).max(x - label.area.right).max(0.0);
                let dy = (label.area.top - y).max(y - label.area.bottom).max(0.0);
                assert!(dx.hypot(dy) < 40.0, "{}: {dx}, {dy}", label.id);
            }
        }
    }

    #[test]
    fn a_standalone_plot_stands_alone() {
        let page = svg(&TIME, &two_coinciding(), Variant::Page).unwrap();
        let file = svg(&TIME, &two_coinciding(), Variant::Standalone).unwrap();
        assert!(!page.contains("xmlns"), "inline SVG needs no namespace");
        // Shown as an image: its own namespace, size, fonts, background and
        // visible title, and nothing that needs the page.
        assert!(file.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        for part in ["width=\"760\"", "font-family", "<rect width=\"100%\""] {
            assert!(file.contains(part), "{part}: {file}");
        }
        assert!(file.contains(">Median time of one count against n</text>"));
        assert!(!file.contains("<script") && !file.contains("class=\"plot\""));
        // The same lines as on the page.
        let polylines = |text: &str| {
            text.match_indices("<polyline")
                .map(|(at, _)| text[at..].split_once("/>").unwrap().0.to_string())
                .collect::<Vec<_>>()
        };
        assert_eq!(polylines(&page), polylines(&file));
    }
}
