//! `queens report`: COMPARISON.md, the plots and the HTML page (with every
//! solver's recorded search at n = 4..8, [`crate::page_traces`]) from
//! records, and optionally the README section between its markers
//! ([`queens_report::publish`]).

use std::io::{self, Write};
use std::path::PathBuf;

use queens_core::printable_path;
use queens_report::{PageInputs, Request, publish};

use crate::error::{CliError, output};
use crate::{code_changes, page_traces, registry};

/// The board whose trees COMPARISON.md shows: the classic puzzle, small
/// enough to walk every depth-first search in a blink.
pub const TREE_N: usize = 8;

/// `queens report`'s arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Records to report on, later ones replacing earlier ones' entries for
    /// the same (solver, n); default: the newest reference record
    /// (`scripts/bench`'s, `*-bench.json`) in bench-results/, so that a
    /// quick `compare` never silently becomes the committed report (name
    /// its record, with `--out` elsewhere, to see it as a report).
    pub records: Vec<PathBuf>,
    /// Directory for COMPARISON.md, the SVG plots and index.html.
    #[arg(long, default_value = queens_record::RECORDS_DIR)]
    pub out: PathBuf,
    /// Also regenerate this page's generated parts (repeatable): the section
    /// between `<!-- BEGIN: comparison -->` and `<!-- END: comparison -->`
    /// (README.md), and every `<!-- BEGIN: measured SOLVERS NS -->` block.
    #[arg(long)]
    pub splice: Vec<PathBuf>,
}

/// Generates, writes, and says what it wrote.
pub fn run(args: &Args) -> Result<(), CliError> {
    let written = publish(&Request {
        records: args.records.clone(),
        out: args.out.clone(),
        splice: args.splice.clone(),
        analyses: registry::texts(|info| info.analysis),
        trees: registry::trees(TREE_N)?,
        page: PageInputs {
            teachings: registry::texts(|info| info.teaching),
            traces: page_traces::gather()?,
            trace_steps: page_traces::PAGE_STEPS,
            order: registry::teaching_order(),
            heatmaps: page_traces::heatmaps()?,
        },
        code: code_changes::gather(&code_changes::record_commits(&args.records)),
    })?;
    let mut out = io::stdout().lock();
    for path in written {
        let verb = if args.splice.contains(&path) {
            "spliced"
        } else {
            "wrote"
        };
        output(writeln!(out, "{verb} {}", printable_path(&path)))?;
    }
    Ok(())
}
