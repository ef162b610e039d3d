//! The comparison as one self-contained HTML page (`bench-results/index.html`):
//! what it is and a link to the walk-through first, then the summary and
//! every measurement in sortable tables, the four plots with values on hover
//! and each solver switchable, each solver's teaching text (each README
//! once) and analysis beside its numbers, and a player that replays each
//! solver's recorded search on a drawn board, two solvers side by side. The
//! solvers are listed in the order the walk-through teaches them (the
//! caller's [`crate::PageInputs::order`]); sorting by speed is a click away.
//!
//! Everything is inline (CSS, script, SVG, data): the page opens from the
//! file system with no network and no build step. It is written by the
//! askama templates in the crate's `templates/` (`page.html`, which
//! includes `page.css` and `page.js`, and `chart.svg` for each plot), which
//! the compiler checks against the values gathered here. Like the rest of the
//! report it is a pure function of its inputs, so the same records and
//! traces give the same bytes and CI can check that the committed page is
//! reproduced. The traces come from the caller (the `queens` command, the
//! only layer that may run solvers), as `queens trace --format json`
//! documents ([`Trace`]).

pub(crate) mod charts;
mod escape;
mod html;
mod labels;
pub(crate) mod styles;
mod trace;

pub(crate) use html::page;
pub use trace::{Image, Move, Order, Step, TRACE_FORMAT, TRACE_VERSION, Trace, Walk};
