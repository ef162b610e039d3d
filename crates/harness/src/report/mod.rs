//! `queens report`: from one or more records, the comparison a reader
//! learns from: `COMPARISON.md` (tables, summary, each solver's analysis),
//! two SVG plots, and a short section spliced into the README.
//!
//! Everything here is a pure function of the records (and of each solver's
//! analysis text), so the same records always give the same bytes: CI
//! regenerates the committed report and compares.

pub mod format;
mod merge;
mod plots;
mod splice;
mod tables;

use crate::record::Record;

pub use merge::Merged;
pub use splice::{BEGIN_MARKER, END_MARKER, splice};

/// The generated files, by name.
pub const COMPARISON_FILE: &str = "COMPARISON.md";
pub const TIME_PLOT_FILE: &str = "time-vs-n.svg";
pub const NODES_PLOT_FILE: &str = "nodes-vs-n.svg";

/// A record and how the report names it (its path as given).
pub struct Source {
    pub label: String,
    pub record: Record,
}

/// The contents of every generated file.
pub struct Outputs {
    pub comparison: String,
    pub time_plot: String,
    pub nodes_plot: String,
}

/// A solver's analysis paragraph, looked up by id (`None`: not registered).
pub type Analysis<'a> = &'a dyn Fn(&str) -> Option<&'static str>;

/// Builds every output. `command` is the `queens report ...` line printed at
/// the top of COMPARISON.md.
pub fn generate(
    command: &str,
    sources: &[Source],
    analysis: Analysis<'_>,
) -> Result<Outputs, String> {
    let merged = Merged::from_sources(sources);
    Ok(Outputs {
        comparison: tables::comparison(command, sources, &merged, analysis),
        time_plot: plots::time_vs_n(&merged)?,
        nodes_plot: plots::nodes_vs_n(&merged)?,
    })
}

/// The README section: the summary and the plots, with links made relative
/// to the README by `prefix` (e.g. `bench-results/`).
pub fn readme_section(sources: &[Source], prefix: &str) -> String {
    tables::readme_section(&Merged::from_sources(sources), prefix)
}
