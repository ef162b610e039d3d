//! The standalone SVG plots: the README's two, every solver on each, median
//! time against n and nodes against n, both on a log scale, where
//! exponential growth is a straight line whose slope is the growth factor
//! per n; and COMPARISON.md's time to one board against n, every finder,
//! log-log. They are the page's plots, drawn by the same code as files
//! that stand alone (see [`super::page`]'s charts).

use super::found::Found;
use super::overlay::Overlay;
use super::page::charts::{self, Measure, Variant};
use super::page::styles::Styles;

/// `time-vs-n.svg`.
pub(crate) fn time_vs_n(overlay: &Overlay, styles: &Styles) -> Result<String, askama::Error> {
    standalone(&charts::TIME, overlay, styles)
}

/// `nodes-vs-n.svg`.
pub(crate) fn nodes_vs_n(overlay: &Overlay, styles: &Styles) -> Result<String, askama::Error> {
    standalone(&charts::NODES, overlay, styles)
}

/// `find-vs-n.svg`.
pub(crate) fn find_vs_n(found: &Found, styles: &Styles) -> Result<String, askama::Error> {
    charts::svg(&charts::FIND, &found.series(styles), Variant::Standalone)
}

fn standalone(
    measure: &Measure,
    overlay: &Overlay,
    styles: &Styles,
) -> Result<String, askama::Error> {
    charts::svg(
        measure,
        &measure.series(overlay, styles),
        Variant::Standalone,
    )
}
