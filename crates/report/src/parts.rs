//! Everything the report is made from, gathered once ([`Parts`]): the
//! records overlaid, their found boards, the texts and the solvers' looks,
//! as COMPARISON.md's template and the page's read them.

use super::found::Found;
use super::inputs::{Analyses, InstructionsSource, PageInputs, Source, Trees};
use super::overlay::Overlay;
use super::page::styles::Styles;

/// Everything the report is made from: COMPARISON.md's template and the
/// page's read it.
pub(crate) struct Parts<'a> {
    /// The `queens report ...` line that made it.
    pub command: &'a str,
    /// The records.
    pub sources: &'a [Source],
    /// The instructions record, if any.
    pub instructions: Option<&'a InstructionsSource>,
    /// The records as one table.
    pub overlay: &'a Overlay,
    /// The records' found boards (the finders), apart from the counts.
    pub found: &'a Found,
    /// Each solver's analysis (ANALYSIS.md), by id.
    pub analyses: &'a Analyses<'a>,
    /// The trees the depth-first solvers walk (COMPARISON.md's table).
    pub trees: &'a Trees<'a>,
    /// Teaching texts and traces.
    pub inputs: &'a PageInputs<'a>,
    /// Each solver's look in the plots and the legend.
    pub styles: &'a Styles,
}
