//! How each solver's line looks in every plot (the page's and the README's)
//! and in the page's legend: a colour, a dash pattern and a marker shape,
//! chosen so that no two solvers look alike to a reader who cannot tell
//! the colours apart, and fixed by the solver's id so that a solver keeps
//! its look in any record, whatever other solvers that record holds.

use std::collections::BTreeSet;
use std::fmt::{self, Write};

/// Okabe and Ito's colour-blind-safe palette ("Color Universal Design",
/// https://jfly.uni-koeln.de/color/, 2002), in their order, without its
/// yellow (#F0E442), which is too pale for a thin line on white. Seven
/// colours for twelve solvers: colour only helps, and the dash and the
/// marker tell every two solvers apart without it.
const COLOURS: [&str; 7] = [
    "#000000", "#E69F00", "#56B4E9", "#009E73", "#0072B2", "#D55E00", "#CC79A7",
];

/// One dash pattern per solver, solid first, for a 2-unit stroke: lengths
/// and rhythms differ (long, short, dotted, dash-dot, dash-dot-dot...) so
/// that each reads apart from the others over the 40-odd units between two
/// points.
const DASHES: [&str; 12] = [
    "",
    "8 4",
    "2 3",
    "10 3 2 3",
    "4 3",
    "10 3 2 3 2 3",
    "16 4",
    "2 7",
    "16 3 5 3",
    "6 2 2 2",
    "12 3 3 3 3 3",
    "3 6",
];

/// How many solvers the plots tell apart by dash alone (and by colour and
/// marker together): the registry must not hold more (the harness tests it).
pub const DISTINCT_STYLES: usize = DASHES.len();

/// Marker shapes, drawn hollow so that one on top of another leaves both
/// visible. Six shapes against seven colours: the pair (colour, shape)
/// repeats only after 42 solvers.
const MARKERS: [Marker; 6] = [
    Marker::Circle,
    Marker::Square,
    Marker::Triangle,
    Marker::Diamond,
    Marker::Cross,
    Marker::TriangleDown,
];

/// A marker's shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Marker {
    Circle,
    Square,
    Triangle,
    Diamond,
    Cross,
    TriangleDown,
}

/// How a solver's line looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Style {
    /// Stroke colour.
    pub colour: &'static str,
    /// SVG stroke-dasharray ("" = solid).
    pub dash: &'static str,
    /// The shape at each of its points.
    pub marker: Marker,
}

/// Every solver's style, by id.
pub(crate) struct Styles {
    /// The ids in style order: the registered solvers by id (alphabetical,
    /// so that reordering the registry, which is kept fastest first,
    /// changes no one's look), then any solver a record holds that is not
    /// registered, in the records' order.
    order: Vec<String>,
}

impl Styles {
    /// The styles of the `registered` solvers and then of the `others`
    /// that are not registered (the records' solvers, then their finders
    /// that are not solvers, in the records' order): a registered solver's
    /// style depends on the registered ids alone, never on which of them a
    /// record holds, and a solver stopped at its first board keeps its
    /// solver's look.
    pub(crate) fn new<'a>(
        registered: impl IntoIterator<Item = &'a str>,
        others: impl IntoIterator<Item = &'a str>,
    ) -> Styles {
        let registered: BTreeSet<&str> = registered.into_iter().collect();
        let mut order: Vec<String> = registered.iter().map(|id| id.to_string()).collect();
        for id in others {
            if !order.iter().any(|known| known == id) {
                order.push(id.to_string());
            }
        }
        Styles { order }
    }

    /// The style of solver `id`, by its place in the order (one past the
    /// known ones for an id neither registered nor in the records, which
    /// no caller asks for): every two of the first [`DISTINCT_STYLES`]
    /// differ in dash, and in colour or marker (7 colours and 6 shapes
    /// only meet again after 42 places).
    pub(crate) fn of(&self, id: &str) -> Style {
        let order = &self.order;
        let slot = order.iter().position(|known| known == id);
        let slot = slot.unwrap_or(order.len());
        Style {
            colour: COLOURS[slot % COLOURS.len()],
            dash: DASHES[slot % DASHES.len()],
            marker: MARKERS[slot % MARKERS.len()],
        }
    }
}

/// An SVG coordinate, written with one decimal.
#[derive(Clone, Copy, Debug)]
pub(crate) struct At(pub f64);

impl fmt::Display for At {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.1}", self.0)
    }
}

impl Marker {
    /// The hollow marker centred on (x, y), as one SVG element (its stroke
    /// and fill come from the group around it).
    pub(crate) fn at(self, x: f64, y: f64) -> String {
        // A closed path through these offsets from the centre.
        let polygon = |corners: &[(f64, f64)]| {
            let mut path = String::from("<path d=\"");
            for (i, (dx, dy)) in corners.iter().enumerate() {
                let command = if i == 0 { 'M' } else { 'L' };
                let _ = write!(path, "{command}{} {}", At(x + dx), At(y + dy));
            }
            path + "Z\"/>"
        };
        let (left, right, top, bottom) = (At(x - 5.0), At(x + 5.0), At(y - 5.0), At(y + 5.0));
        match self {
            Marker::Circle => format!("<circle cx=\"{}\" cy=\"{}\" r=\"4.5\"/>", At(x), At(y)),
            Marker::Square => format!(
                "<rect x=\"{}\" y=\"{}\" width=\"8\" height=\"8\"/>",
                At(x - 4.0),
                At(y - 4.0)
            ),
            Marker::Triangle => polygon(&[(0.0, -5.5), (5.0, 4.0), (-5.0, 4.0)]),
            Marker::TriangleDown => polygon(&[(0.0, 5.5), (5.0, -4.0), (-5.0, -4.0)]),
            Marker::Diamond => polygon(&[(0.0, -6.0), (6.0, 0.0), (0.0, 6.0), (-6.0, 0.0)]),
            Marker::Cross => format!(
                "<path d=\"M{left} {top}L{right} {bottom}M{left} {bottom}L{right} {top}\"/>"
            ),
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Twelve ids, as many as the registry holds (for tests here and in the
    /// plots).
    pub(crate) const IDS: [&str; 12] = [
        "half-join",
        "constellations",
        "three-mask-mirror",
        "three-mask",
        "threat-mask",
        "threat-mask-u128",
        "textbook",
        "row-fold",
        "base-counting",
        "perm-filter",
        "perm-filter-itertools",
        "gpu",
    ];

    #[test]
    fn every_two_solvers_differ_by_more_than_colour() {
        let styles = Styles::new(IDS, IDS);
        assert!(IDS.len() <= DISTINCT_STYLES);
        for (i, a) in IDS.iter().enumerate() {
            for b in &IDS[i + 1..] {
                let (x, y) = (styles.of(a), styles.of(b));
                assert_ne!(x.dash, y.dash, "{a} and {b} share a dash");
                assert_ne!(
                    (x.colour, x.marker),
                    (y.colour, y.marker),
                    "{a} and {b} share colour and marker"
                );
            }
        }
        // None is the palette's yellow, too pale on white.
        assert!(IDS.iter().all(|id| styles.of(id).colour != "#F0E442"));
    }

    #[test]
    fn a_solver_keeps_its_style_whatever_a_record_holds() {
        let all = Styles::new(IDS, IDS);
        // A record of two registered solvers and one that left the registry.
        let some = Styles::new(IDS, ["perm-filter-itertools", "old", "half-join"]);
        for id in ["perm-filter-itertools", "half-join"] {
            assert_eq!(all.of(id), some.of(id), "{id}");
        }
        // The unregistered one takes a place after every registered one.
        assert!(IDS.iter().all(|id| some.of("old") != some.of(id)));
        // And the registry's order does not matter, only its ids.
        let mut reordered = IDS;
        reordered.reverse();
        let again = Styles::new(reordered, IDS);
        assert!(IDS.iter().all(|id| again.of(id) == all.of(id)));
    }

    #[test]
    fn a_marker_is_one_element_centred_on_its_point() {
        for marker in MARKERS {
            let text = marker.at(20.0, 7.0);
            assert_eq!(text.matches('<').count(), 1, "{text}");
            assert!(text.ends_with("/>"), "{text}");
        }
        assert_eq!(
            Marker::Circle.at(20.0, 7.0),
            "<circle cx=\"20.0\" cy=\"7.0\" r=\"4.5\"/>"
        );
    }
}
