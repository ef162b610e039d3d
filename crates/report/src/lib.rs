//! `queens report`: from one or more records, the comparison a reader
//! learns from: `COMPARISON.md` (tables, summary, each solver's analysis,
//! the finders' time to one board), three SVG plots, a self-contained HTML page (`index.html`: the same numbers
//! sortable and plotted, each solver's texts, and its recorded search to
//! watch), and a short section spliced into the README.
//!
//! Everything here is a pure function of the records (and of each solver's
//! analysis text), so the same records always give the same bytes: CI
//! regenerates the committed report and compares. Records come from
//! `queens-record`; this crate runs no solver and measures nothing, so the
//! `queens` command passes in what only running solvers can give (their
//! analysis texts, the trees they walk, their recorded searches). It is
//! used by `queens report`, and `queens compare` and `queens explain`
//! print numbers with its [`format`](mod@format).
//!
//! The modules, each using only those listed before it:
//!
//! - [`error`]: the typed failures of reporting.
//! - [`format`](mod@format): numbers as the report prints them (durations, bytes,
//!   thousands separators, significant digits), solvers' names (the mark of
//!   an external program), and lists without repeats.
//! - `table`: one table model (columns, rows of cells, each a figure or
//!   the status in its place) written as Markdown and as the page's
//!   sortable tables; the one wording of every status.
//! - `inputs`: what the report is made from (`Source`,
//!   `InstructionsSource`, [`Analyses`], [`Trees`], [`PageInputs`]) and the
//!   names of the files it writes.
//! - `overlay`: several records as one table, later ones replacing earlier
//!   ones' entries (`Overlay`).
//! - `found`: the other question, the time to one board of every finder
//!   (`Found`), and the tables of its section of COMPARISON.md.
//! - `parts`: all of it gathered once (`Parts`), as COMPARISON.md's
//!   template and the page's read it.
//! - `external`: what the report says of programs outside the workspace
//!   (their rows' note, their provenance); the mark beside their ids is
//!   `format`'s.
//! - `tables`: COMPARISON.md (the template `templates/comparison.md`
//!   around the tables made here) and the README section.
//! - `work`: the instructions record's tables (instructions per solution
//!   and per node) and the one table of what each solver's node is.
//! - `estimates`: the README's table of projected count times
//!   (`estimates_section`), from the estimates record; the machine it
//!   names ([`measured_on`]) and the [`Ratio`] of another estimate to one
//!   of its rows, which `queens count --estimate` prints.
//! - `measured`: the measured blocks spliced into other pages
//!   (`splice_measured`).
//! - [`page`]: the self-contained HTML page.
//! - `splice`: replacing the text between two named markers
//!   ([`splice_section`]; `splice()` for the comparison section).
//! - `generate`: every output as a string (`generate()`).
//! - `publish`: `queens report` as one call: read, generate, write every
//!   file atomically or none ([`publish()`]).
//! - [`terminal`]: text that fits a terminal: wrapped lines, tables that
//!   fit a width, Markdown rendered as text (what `queens compare`, `list`,
//!   `explain` and `trace` print).

#![deny(missing_docs)]

pub mod error;
mod estimates;
mod external;
pub mod format;
mod found;
mod generate;
mod inputs;
mod measured;
mod overlay;
pub mod page;
mod parts;
mod publish;
mod splice;
mod table;
mod tables;
pub mod terminal;
mod work;

pub use error::Error;
pub use estimates::{Ratio, measured_on};
pub use inputs::{Analyses, CodeChange, CodeChanges, PAGE_FILE, PageInputs, Trees};
pub use page::Trace;
pub use page::styles::DISTINCT_STYLES;
pub use publish::{Request, publish};
pub use splice::splice_section;
