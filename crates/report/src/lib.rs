//! `queens report`: from one or more records, the comparison a reader
//! learns from: `COMPARISON.md` (tables, summary, each solver's analysis),
//! two SVG plots, a self-contained HTML page (`index.html`: the same numbers
//! sortable and plotted, each solver's texts, and its recorded search to
//! watch), and a short section spliced into the README.
//!
//! Everything here is a pure function of the records (and of each solver's
//! analysis text), so the same records always give the same bytes: CI
//! regenerates the committed report and compares.

pub mod format;
mod generate;
mod inputs;
mod measured;
mod overlay;
pub mod page;
mod plots;
mod publish;
mod splice;
mod tables;

pub use generate::{Outputs, generate, readme_section};
pub use inputs::{
    Analyses, COMPARISON_FILE, NODES_PLOT_FILE, PAGE_FILE, Source, TIME_PLOT_FILE, Trees,
};
pub use measured::{BEGIN_PREFIX as MEASURED_BEGIN, END_LINE as MEASURED_END, splice_measured};
pub use overlay::Overlay;
pub use page::{PageInputs, Trace};
pub use publish::{Request, publish};
pub use splice::{BEGIN_MARKER, END_MARKER, splice};
