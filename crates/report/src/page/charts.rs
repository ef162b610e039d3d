//! The report's plots (time, nodes, ns per node, peak heap against n), laid
//! out here and written by the template `templates/chart.svg`: inline in the
//! page, and standalone as the README's two SVG files, so that both show
//! the same lines on the same scales in the same colours. They are drawn
//! here rather than by a plotting crate so that each solver's line is one
//! `<g data-solver>` the page can switch off, each point carries its value
//! for hover, and lines that coincide stay distinguishable without colour:
//! every solver has its own dash pattern, its own hollow marker (two shapes
//! on one point both show) and a label at its last point, pushed apart from
//! its neighbours'.

use std::fmt;

use askama::Template;

// The templates' escaper: templates/askama.toml names it, and the code
// the template derive writes finds it here.
use super::escape::Markup;
use crate::format::{bytes, duration_ns, significant, thousands};
use crate::overlay::Overlay;
use queens_record::Entry;

/// Plot size in SVG units (the page scales it to its column).
const WIDTH: f64 = 760.0;
const HEIGHT: f64 = 430.0;
const LEFT: f64 = 86.0;
const RIGHT: f64 = 150.0;
const TOP: f64 = 16.0;
const BOTTOM: f64 = 52.0;
/// End labels closer than this (SVG units) are pushed apart.
const LABEL_GAP: f64 = 13.0;
/// Where the end labels' text starts.
const LABEL_X: f64 = WIDTH - RIGHT + 12.0;
/// The band above a standalone plot that holds its title (on the page the
/// title is the figure's caption).
const TITLE_BAND: f64 = 30.0;

/// Ten colours that stay apart for the common colour blindnesses (Okabe
/// and Ito's palette, extended with darker shades); colour only helps, the
/// dashes, markers and labels carry the distinction.
const COLOURS: [&str; 10] = [
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#8C510A",
    "#5D3A9B", "#666666",
];
/// One dash pattern per solver (in registry order), solid first.
const DASHES: [&str; 10] = [
    "",
    "8 4",
    "2 3",
    "10 3 2 3",
    "4 4",
    "12 4 2 4 2 4",
    "1 5",
    "6 2 6 6",
    "14 3",
    "3 2 3 6",
];
/// Marker shapes, drawn hollow so that one on top of another leaves both visible.
const MARKERS: [Marker; 5] = [
    Marker::Circle,
    Marker::Square,
    Marker::Triangle,
    Marker::Diamond,
    Marker::Cross,
];

#[derive(Clone, Copy)]
enum Marker {
    Circle,
    Square,
    Triangle,
    Diamond,
    Cross,
}

/// How a solver's line looks, by its position in the registry order.
pub(crate) struct Style {
    /// Stroke colour.
    pub colour: &'static str,
    /// SVG stroke-dasharray ("" = solid).
    pub dash: &'static str,
    marker: Marker,
}

/// The style of the solver at `index` in the list of solvers.
pub(crate) fn style(index: usize) -> Style {
    Style {
        colour: COLOURS[index % COLOURS.len()],
        dash: DASHES[index % DASHES.len()],
        // 10 dashes and 5 shapes: with the index taken twice the pair
        // (dash, shape) repeats only after 10 solvers.
        marker: MARKERS[(index + index / MARKERS.len()) % MARKERS.len()],
    }
}

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
}

/// Median time of one count (the README's `time-vs-n.svg`).
pub(crate) const TIME: Measure = Measure {
    id: "plot-time",
    title: "Median time of one count against n",
    y_label: "median time",
    // The overlay keeps cold figures only when every timed entry has one.
    value: |e| e.cold_median_ns().or_else(|| e.warm_median_ns()),
    format: duration_ns,
    tick_base: 10.0,
};

/// Nodes (the README's `nodes-vs-n.svg`).
pub(crate) const NODES: Measure = Measure {
    id: "plot-nodes",
    title: "Nodes (each solver's unit of work) against n",
    y_label: "nodes",
    value: |e| e.nodes.map(|n| n as f64),
    format: |v| thousands(v.round() as u64),
    tick_base: 10.0,
};

/// The four plots of the page, in order.
pub(crate) const MEASURES: [Measure; 4] = [
    TIME,
    NODES,
    Measure {
        id: "plot-ns-per-node",
        title: "Cost of one node against n",
        y_label: "ns per node",
        value: |e| e.cold_ns_per_node.or(e.ns_per_node),
        format: |v| format!("{} ns", significant(v)),
        tick_base: 10.0,
    },
    Measure {
        id: "plot-heap",
        title: "Peak heap memory against n (0 B cannot sit on a log scale and is left out)",
        y_label: "peak heap",
        value: |e| e.peak_heap_bytes.map(|b| b as f64),
        format: |v| bytes(v.round() as u64),
        tick_base: 32.0,
    },
];

/// One solver's points: (n, value), value > 0.
pub(crate) struct Series {
    /// The solver's id.
    pub id: String,
    /// Its index in the solver list (its style).
    pub index: usize,
    /// (n, value) by ascending n.
    pub points: Vec<(usize, f64)>,
}

impl Measure {
    /// Every solver's positive values of this measure (a log scale has no
    /// place for 0), in the records' solver order.
    pub(crate) fn series(&self, overlay: &Overlay) -> Vec<Series> {
        overlay
            .solvers
            .iter()
            .enumerate()
            .map(|(index, solver)| Series {
                id: solver.id.clone(),
                index,
                points: overlay
                    .timed(&solver.id)
                    .iter()
                    .filter_map(|e| Some((e.n, (self.value)(e).filter(|v| *v > 0.0)?)))
                    .collect(),
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

/// An SVG coordinate, written with one decimal.
#[derive(Clone, Copy)]
struct At(f64);

impl fmt::Display for At {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.1}", self.0)
    }
}

/// The fixed positions of every plot: the frame and what sits beside it.
struct Frame {
    width: f64,
    height: f64,
    left: f64,
    right: f64,
    top: f64,
    bottom: f64,
    /// The frame's size.
    inner: (At, At),
    /// Where the grid lines' values end (they are right-aligned).
    grid_label_x: At,
    /// Where the n ticks end and their labels sit.
    tick_end: At,
    tick_label_y: At,
    /// The axis names' anchors: the n axis's (x, y), the y axis's y.
    x_name: (At, At),
    y_name_y: At,
    /// Where the end labels' leader lines end and their text starts.
    leader_x: At,
    label_x: At,
    /// A standalone plot's title band, and where its title sits.
    title_band: f64,
    title_y: At,
}

const FRAME: Frame = Frame {
    width: WIDTH,
    height: HEIGHT,
    left: LEFT,
    right: WIDTH - RIGHT,
    top: TOP,
    bottom: HEIGHT - BOTTOM,
    inner: (At(WIDTH - RIGHT - LEFT), At(HEIGHT - BOTTOM - TOP)),
    grid_label_x: At(LEFT - 6.0),
    tick_end: At(HEIGHT - BOTTOM + 5.0),
    tick_label_y: At(HEIGHT - BOTTOM + 18.0),
    x_name: (At((LEFT + WIDTH - RIGHT) / 2.0), At(HEIGHT - 10.0)),
    y_name_y: At((TOP + HEIGHT - BOTTOM) / 2.0),
    leader_x: At(LABEL_X - 2.0),
    label_x: At(LABEL_X),
    title_band: TITLE_BAND,
    title_y: At(TITLE_BAND - 10.0),
};

/// A horizontal grid line at a power of the tick base, with its value.
struct GridLine {
    y: At,
    label_y: At,
    label: String,
}

/// A solver's line and its markers.
struct Line<'a> {
    id: &'a str,
    colour: &'static str,
    dash: &'static str,
    /// The polyline's points, "x,y x,y ...".
    points: String,
    marks: Vec<Mark>,
}

/// One point's marker and the value it shows on hover.
struct Mark {
    hover: String,
    shape: Shape,
}

enum Shape {
    Circle {
        x: At,
        y: At,
    },
    /// The square's top left corner.
    Square {
        x: At,
        y: At,
    },
    /// Triangle, diamond and cross.
    Path(String),
}

/// A solver's name at its last point, with a leader line to the point.
struct Label<'a> {
    id: &'a str,
    colour: &'static str,
    point: (At, At),
    y: At,
    text_y: At,
}

/// One plot as `chart.svg` writes it.
#[derive(Template)]
#[template(path = "chart.svg", config = "templates/askama.toml")]
struct Chart<'a> {
    standalone: bool,
    frame: Frame,
    id: &'a str,
    title: &'a str,
    y_label: &'a str,
    grid: Vec<GridLine>,
    /// The n axis: each n and its x.
    ticks: Vec<(usize, At)>,
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
        let x =
            |n: usize| LEFT + (n - x_min) as f64 * (WIDTH - LEFT - RIGHT) / (x_max - x_min) as f64;
        let y = |v: f64| {
            let t = (v.log(base) - decade_low as f64) / (decade_high - decade_low) as f64;
            HEIGHT - BOTTOM - t * (HEIGHT - TOP - BOTTOM)
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
        let lines: Vec<Line<'a>> = series
            .iter()
            .filter(|s| !s.points.is_empty())
            .map(|s| {
                let style = style(s.index);
                let points: Vec<String> = s
                    .points
                    .iter()
                    .map(|&(n, v)| format!("{},{}", At(x(n)), At(y(v))))
                    .collect();
                Line {
                    id: &s.id,
                    colour: style.colour,
                    dash: style.dash,
                    points: points.join(" "),
                    marks: s
                        .points
                        .iter()
                        .map(|&(n, v)| Mark {
                            hover: format!("{}, n = {n}: {}", s.id, (measure.format)(v)),
                            shape: shape(style.marker, x(n), y(v)),
                        })
                        .collect(),
                }
            })
            .collect();
        let ends = series
            .iter()
            .filter_map(|s| {
                let &(n, v) = s.points.last()?;
                Some((y(v), x(n), s.id.as_str(), style(s.index).colour))
            })
            .collect();
        Chart {
            standalone: variant == Variant::Standalone,
            frame: FRAME,
            id: measure.id,
            title: measure.title,
            y_label: measure.y_label,
            grid,
            ticks: (x_min..=x_max).map(|n| (n, At(x(n)))).collect(),
            lines,
            labels: end_labels(ends),
        }
    }
}

/// A hollow marker of `shape` centred on (x, y).
fn shape(shape: Marker, x: f64, y: f64) -> Shape {
    match shape {
        Marker::Circle => Shape::Circle { x: At(x), y: At(y) },
        Marker::Square => Shape::Square {
            x: At(x - 4.0),
            y: At(y - 4.0),
        },
        Marker::Triangle => Shape::Path(format!(
            "M{} {}L{} {}L{} {}Z",
            At(x),
            At(y - 5.5),
            At(x + 5.0),
            At(y + 4.0),
            At(x - 5.0),
            At(y + 4.0)
        )),
        Marker::Diamond => Shape::Path(format!(
            "M{} {}L{} {}L{} {}L{} {}Z",
            At(x),
            At(y - 6.0),
            At(x + 6.0),
            At(y),
            At(x),
            At(y + 6.0),
            At(x - 6.0),
            At(y)
        )),
        Marker::Cross => Shape::Path(format!(
            "M{} {}L{} {}M{} {}L{} {}",
            At(x - 5.0),
            At(y - 5.0),
            At(x + 5.0),
            At(y + 5.0),
            At(x - 5.0),
            At(y + 5.0),
            At(x + 5.0),
            At(y - 5.0)
        )),
    }
}

/// The solvers' names at their last points (y, x, id, colour), moved apart
/// vertically where they would overlap.
fn end_labels<'a>(mut ends: Vec<(f64, f64, &'a str, &'static str)>) -> Vec<Label<'a>> {
    ends.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.2.cmp(b.2)));
    let mut placed: Vec<f64> = Vec::with_capacity(ends.len());
    for end in &ends {
        let lowest = placed.last().map_or(TOP, |last| last + LABEL_GAP);
        placed.push(end.0.max(lowest));
    }
    // Pushed below the frame: shift the whole run back up.
    let overflow = placed.last().map_or(0.0, |last| last - (HEIGHT - BOTTOM));
    if overflow > 0.0 {
        for at in &mut placed {
            *at -= overflow;
        }
    }
    ends.into_iter()
        .zip(placed)
        .map(|((point_y, point_x, id, colour), y)| Label {
            id,
            colour,
            point: (At(point_x), At(point_y)),
            y: At(y),
            text_y: At(y + 4.0),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two_coinciding() -> Vec<Series> {
        ["base-counting", "row-fold"]
            .into_iter()
            .enumerate()
            .map(|(index, id)| Series {
                id: id.into(),
                index,
                points: vec![(4, 10.0), (5, 100.0)],
            })
            .collect()
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
        // labels that do not sit on one another.
        assert!(text.contains("stroke-dasharray=\"8 4\""));
        assert!(text.contains("<circle") && text.contains("<rect x="));
        let label_ys: Vec<&str> = text
            .match_indices("<text x=\"622.0\" y=\"")
            .map(|(at, m)| &text[at + m.len()..at + m.len() + 5])
            .collect();
        assert_eq!(label_ys.len(), 2, "{text}");
        assert_ne!(label_ys[0], label_ys[1]);
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
