//! The page's four plots (time, nodes, ns per node, peak heap against n) as
//! inline SVG, drawn here rather than by a plotting crate so that each
//! solver's line is one `<g data-solver>` the page can switch off, each
//! point carries its value for hover, and lines that coincide stay
//! distinguishable without colour: every solver has its own dash pattern,
//! its own hollow marker (two shapes on one point both show) and a label at
//! its last point, pushed apart from its neighbours'.

use std::fmt::Write;

use super::escape::html;

/// Plot size in SVG units (the page scales it to its column).
const WIDTH: f64 = 760.0;
const HEIGHT: f64 = 430.0;
const LEFT: f64 = 86.0;
const RIGHT: f64 = 150.0;
const TOP: f64 = 16.0;
const BOTTOM: f64 = 52.0;
/// End labels closer than this (SVG units) are pushed apart.
const LABEL_GAP: f64 = 13.0;

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
pub struct Style {
    /// Stroke colour.
    pub colour: &'static str,
    /// SVG stroke-dasharray ("" = solid).
    pub dash: &'static str,
    marker: Marker,
}

/// The style of the solver at `index` in the list of solvers.
pub fn style(index: usize) -> Style {
    Style {
        colour: COLOURS[index % COLOURS.len()],
        dash: DASHES[index % DASHES.len()],
        // 10 dashes and 5 shapes: with the index taken twice the pair
        // (dash, shape) repeats only after 10 solvers.
        marker: MARKERS[(index + index / MARKERS.len()) % MARKERS.len()],
    }
}

/// One solver's points: (n, value), value > 0.
pub struct Series {
    /// The solver's id.
    pub id: String,
    /// Its index in the solver list (its style).
    pub index: usize,
    /// (n, value) by ascending n.
    pub points: Vec<(usize, f64)>,
}

/// One plot's words.
pub struct Plot<'a> {
    /// The element id.
    pub id: &'a str,
    /// The title above it.
    pub title: &'a str,
    /// The y axis's name.
    pub y_label: &'a str,
    /// How a value is written (axis and hover).
    pub format: &'a dyn Fn(f64) -> String,
    /// Grid lines at the powers of this (10; 32 for bytes, so that they
    /// fall on 1 KiB, 32 KiB, 1 MiB).
    pub tick_base: f64,
}

/// The SVG of one plot (log y scale).
pub fn svg(plot: &Plot<'_>, series: &[Series]) -> String {
    let values = || series.iter().flat_map(|s| s.points.iter());
    let x_min = values().map(|p| p.0).min().unwrap_or(4);
    let x_max = values()
        .map(|p| p.0)
        .max()
        .unwrap_or(x_min + 1)
        .max(x_min + 1);
    let low = values().map(|p| p.1).min_by(f64::total_cmp).unwrap_or(1.0);
    let high = values().map(|p| p.1).max_by(f64::total_cmp).unwrap_or(10.0);
    let base = plot.tick_base;
    let decade_low = low.log(base).floor() as i32;
    let decade_high = (high.log(base).ceil() as i32).max(decade_low + 1);
    let x = |n: usize| LEFT + (n - x_min) as f64 * (WIDTH - LEFT - RIGHT) / (x_max - x_min) as f64;
    let y = |v: f64| {
        let t = (v.log(base) - decade_low as f64) / (decade_high - decade_low) as f64;
        HEIGHT - BOTTOM - t * (HEIGHT - TOP - BOTTOM)
    };
    let mut out = String::new();
    let _ = write!(
        out,
        "<svg id=\"{}\" class=\"plot\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" role=\"img\" aria-labelledby=\"{}-title\">\
         <title id=\"{}-title\">{}</title>",
        plot.id,
        plot.id,
        plot.id,
        html(plot.title)
    );
    axes(
        &mut out,
        plot,
        (x_min, x_max),
        (decade_low, decade_high),
        &x,
        &y,
    );
    let mut labels = Vec::new();
    for s in series.iter().filter(|s| !s.points.is_empty()) {
        let style = style(s.index);
        let _ = write!(
            out,
            "<g class=\"series\" data-solver=\"{}\" stroke=\"{}\" fill=\"none\">",
            html(&s.id),
            style.colour
        );
        let path: Vec<String> = s
            .points
            .iter()
            .map(|&(n, v)| format!("{:.1},{:.1}", x(n), y(v)))
            .collect();
        let dash = if style.dash.is_empty() {
            String::new()
        } else {
            format!(" stroke-dasharray=\"{}\"", style.dash)
        };
        let _ = write!(
            out,
            "<polyline points=\"{}\" stroke-width=\"2\"{dash}/>",
            path.join(" ")
        );
        for &(n, v) in &s.points {
            let hover = format!("{}, n = {n}: {}", s.id, (plot.format)(v));
            marker(&mut out, style.marker, x(n), y(v), &hover);
        }
        out.push_str("</g>");
        let &(n, v) = s.points.last().expect("non-empty");
        labels.push((y(v), x(n), s.id.as_str(), style.colour));
    }
    end_labels(&mut out, labels);
    out.push_str("</svg>");
    out
}

/// Frame, decade grid lines with their values, n ticks, axis names.
fn axes(
    out: &mut String,
    plot: &Plot<'_>,
    (x_min, x_max): (usize, usize),
    (decade_low, decade_high): (i32, i32),
    x: &dyn Fn(usize) -> f64,
    y: &dyn Fn(f64) -> f64,
) {
    let (left, right, bottom) = (LEFT, WIDTH - RIGHT, HEIGHT - BOTTOM);
    out.push_str("<g class=\"axes\">");
    for decade in decade_low..=decade_high {
        let value = plot.tick_base.powi(decade);
        let at = y(value);
        let _ = write!(
            out,
            "<line x1=\"{left}\" x2=\"{right}\" y1=\"{at:.1}\" y2=\"{at:.1}\" class=\"grid\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            left - 6.0,
            at + 4.0,
            html(&(plot.format)(value))
        );
    }
    for n in x_min..=x_max {
        let at = x(n);
        let _ = write!(
            out,
            "<line x1=\"{at:.1}\" x2=\"{at:.1}\" y1=\"{bottom}\" y2=\"{:.1}\" class=\"tick\"/>\
             <text x=\"{at:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{n}</text>",
            bottom + 5.0,
            bottom + 18.0
        );
    }
    let _ = write!(
        out,
        "<rect x=\"{left}\" y=\"{TOP}\" width=\"{:.1}\" height=\"{:.1}\" class=\"frame\"/>\
         <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">n (board size)</text>\
         <text transform=\"translate(16 {:.1}) rotate(-90)\" text-anchor=\"middle\">{} (log scale)</text></g>",
        right - left,
        bottom - TOP,
        (left + right) / 2.0,
        HEIGHT - 10.0,
        (TOP + bottom) / 2.0,
        html(plot.y_label)
    );
}

/// One hollow marker with its value as a tooltip.
fn marker(out: &mut String, shape: Marker, x: f64, y: f64, hover: &str) {
    let _ = write!(
        out,
        "<g class=\"point\" tabindex=\"-1\"><title>{}</title>",
        html(hover)
    );
    let _ = match shape {
        Marker::Circle => write!(out, "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"4.5\"/>"),
        Marker::Square => write!(
            out,
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"8\" height=\"8\"/>",
            x - 4.0,
            y - 4.0
        ),
        Marker::Triangle => write!(
            out,
            "<path d=\"M{x:.1} {:.1}L{:.1} {:.1}L{:.1} {:.1}Z\"/>",
            y - 5.5,
            x + 5.0,
            y + 4.0,
            x - 5.0,
            y + 4.0
        ),
        Marker::Diamond => write!(
            out,
            "<path d=\"M{x:.1} {:.1}L{:.1} {y:.1}L{x:.1} {:.1}L{:.1} {y:.1}Z\"/>",
            y - 6.0,
            x + 6.0,
            y + 6.0,
            x - 6.0
        ),
        Marker::Cross => write!(
            out,
            "<path d=\"M{:.1} {:.1}L{:.1} {:.1}M{:.1} {:.1}L{:.1} {:.1}\"/>",
            x - 5.0,
            y - 5.0,
            x + 5.0,
            y + 5.0,
            x - 5.0,
            y + 5.0,
            x + 5.0,
            y - 5.0
        ),
    };
    out.push_str("</g>");
}

/// The solvers' names at their last points, moved apart vertically where
/// they would overlap, with a thin leader line to the point.
fn end_labels(out: &mut String, mut labels: Vec<(f64, f64, &str, &str)>) {
    labels.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.2.cmp(b.2)));
    let mut placed: Vec<f64> = Vec::with_capacity(labels.len());
    for label in &labels {
        let lowest = placed.last().map_or(TOP, |last| last + LABEL_GAP);
        placed.push(label.0.max(lowest));
    }
    // Pushed below the frame: shift the whole run back up.
    let overflow = placed.last().map_or(0.0, |last| last - (HEIGHT - BOTTOM));
    if overflow > 0.0 {
        for at in &mut placed {
            *at -= overflow;
        }
    }
    let label_x = WIDTH - RIGHT + 12.0;
    for ((point_y, point_x, id, colour), at) in labels.iter().zip(placed) {
        let _ = write!(
            out,
            "<g class=\"label\" data-solver=\"{id}\"><line x1=\"{point_x:.1}\" y1=\"{point_y:.1}\" x2=\"{:.1}\" y2=\"{at:.1}\" stroke=\"{colour}\"/>\
             <text x=\"{label_x:.1}\" y=\"{:.1}\">{id}</text></g>",
            label_x - 2.0,
            at + 4.0,
            id = html(id),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_point_carries_its_value_and_every_solver_its_own_look() {
        let series = vec![
            Series {
                id: "base-counting".into(),
                index: 0,
                points: vec![(4, 10.0), (5, 100.0)],
            },
            Series {
                id: "row-fold".into(),
                index: 1,
                points: vec![(4, 10.0), (5, 100.0)],
            },
        ];
        let format = |v: f64| format!("{v} nodes");
        let text = svg(
            &Plot {
                id: "nodes",
                title: "Nodes",
                y_label: "nodes",
                format: &format,
                tick_base: 10.0,
            },
            &series,
        );
        assert!(
            text.contains("<title>row-fold, n = 5: 100 nodes</title>"),
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
}
