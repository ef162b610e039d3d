//! The record of one measuring run (`cargo bench` or `queens compare`): what
//! was measured, on what, by which command, and the files it lives in. The
//! format is documented for readers in `bench-results/FORMAT.md`;
//! [`FORMAT_VERSION`] changes whenever a field changes meaning; older
//! versions are brought up to date when read, and any other is refused.
//!
//! This crate is data and files only: it runs no solver and draws nothing.
//! `queens-measure` makes records, `queens-report` reads them, and the
//! `queens` command writes its checkpoints with [`files`] too. The modules,
//! each using only those listed before it:
//!
//! - [`error`]: [`FileError`], the one failure here: which file, which field
//!   when one is to blame, and what is wrong with it, on one line.
//! - [`files`]: writing a file so that a reader never sees half of it, and
//!   reading JSON so that a problem names the field.
//! - `valid`: what one field may hold, checked as it is read.
//! - `provenance`: where a record's numbers come from ([`Provenance`]).
//! - `schema`: the record's types, field by field ([`Record`], [`Entry`],
//!   [`Timing`], ...).
//! - [`meaning`]: the checks that a record's fields agree, so that every
//!   number in it is one a real run could have produced.
//! - `store`: records on disk: [`write_new`] never overwrites, [`read`]
//!   refuses anything that is not exactly a record of this version.
//! - [`instructions`]: the other kind of record, instructions retired per
//!   search counted by callgrind, its checks and its files.
//! - [`estimates`]: the third kind, projected times of whole counts
//!   (`count N --estimate`) at the frontier, for the README's table.
//! - `latest`: what the newest reference record says about one solver or
//!   finder ([`newest_measurements`]).
//! - `fixtures` (tests, and the `fixtures` feature): a small fixed record.

#![deny(missing_docs)]

pub mod error;
pub mod estimates;
pub mod files;
#[cfg(any(test, feature = "fixtures"))]
pub mod fixtures;
pub mod instructions;
mod latest;
pub mod meaning;
mod provenance;
mod schema;
mod store;
mod valid;

pub use error::FileError;
pub use latest::{Measured, Newest, newest_measurements};
pub use provenance::{Provenance, cpu_model, git, utc_timestamp};
pub use schema::{
    COUNT, Entry, ExternalFacts, FIND_ONE, FORMAT, FORMAT_VERSION, FinderFacts, Outcome, Question,
    Record, Settings, SolverFacts, Status, Timing,
};
pub use store::{
    BENCH_KINDS, Kind, REFERENCE_TOOL, newest, newest_reference, prepare_dir, read, read_kind,
    write_new,
};
pub use valid::is_id;

/// The records directory's name, spelled once: [`RECORDS_DIR`] and
/// [`LOCAL_RECORDS_DIR`] are made from it.
macro_rules! records_dir {
    () => {
        "bench-results"
    };
}

/// Where the reference records and the reports made from them live,
/// relative to the workspace root: the default of every command that reads
/// them or writes a report.
pub const RECORDS_DIR: &str = records_dir!();

/// Where `queens compare` writes its records unless told otherwise: a
/// folder of [`RECORDS_DIR`] that git ignores (the workspace's
/// `.gitignore`), so that a quick comparison leaves the checkout clean and
/// never becomes what the committed report is made from.
pub const LOCAL_RECORDS_DIR: &str = concat!(records_dir!(), "/local");
