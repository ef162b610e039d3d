//! Text for a terminal: what `queens compare`, `list`, `explain` and
//! `trace` print is laid out here to fit [`WIDTH`] columns, so that no
//! line runs past an ordinary terminal window and none ends in spaces.
//! Nothing is cut to fit: a long line is wrapped at a space onto
//! continuation lines ([`wrap`]), a table that is too wide wraps its text
//! columns or, failing that, prints each row as a block ([`Table`]), and
//! Markdown is rendered as text of that width ([`markdown()`]).
//!
//! The modules, each using only those listed before it: `lines` (the
//! width, wrapping), `table`, `markdown`.
//!
//! Columns are counted in characters (`µs` and `×` are one column each,
//! though two bytes): every text this project prints is in scripts whose
//! characters are one column wide.

mod lines;
mod markdown;
mod table;

pub use lines::{WIDTH, Width, columns, wrap, wrap_lines};
pub use markdown::markdown;
pub use table::{Align, Column, Table};
