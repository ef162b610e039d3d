//! What the newest record says about one solver: the rows `queens explain`
//! prints beside a solver's teaching text.

use std::path::{Path, PathBuf};

use super::provenance::Provenance;
use super::schema::{COUNT, Entry};
use super::store::{newest, read};
use crate::error::FileError;

/// What the newest record in a directory says about one solver.
#[derive(Clone, Debug, PartialEq)]
pub enum Newest {
    /// There is no record to read; the text says why.
    Missing(String),
    /// The newest record, with the solver's rows (possibly none).
    Found(Box<Measured>),
}

/// One solver's entries from one record, with where they come from.
#[derive(Clone, Debug, PartialEq)]
pub struct Measured {
    /// The record file.
    pub file: PathBuf,
    /// Who measured, on what, when.
    pub provenance: Provenance,
    /// The solver's count entries, in the record's order.
    pub rows: Vec<Entry>,
    /// The record's schema version (1 has no cold figure).
    pub schema_version: u32,
    /// Why the record has no branch misses, if it says.
    pub branch_misses_unavailable: Option<String>,
}

/// The count entries of solver `id` in the newest record in `dir`. No
/// record at all is not an error ([`Newest::Missing`] says why); a record
/// that cannot be read is.
pub fn newest_measurements(dir: &Path, id: &str) -> Result<Newest, FileError> {
    let file = match newest(dir) {
        Ok(file) => file,
        Err(why) => return Ok(Newest::Missing(why.to_string())),
    };
    let record = read(&file)?;
    let rows = record
        .entries
        .into_iter()
        .filter(|entry| entry.solver == id && entry.question == COUNT)
        .collect();
    Ok(Newest::Found(Box::new(Measured {
        file,
        provenance: record.provenance,
        rows,
        schema_version: record.schema_version,
        branch_misses_unavailable: record.settings.branch_misses_unavailable,
    })))
}
