//! What the newest reference record says about one solver or finder: the
//! rows `queens explain` prints beside its teaching text.

use std::path::{Path, PathBuf};

use super::provenance::Provenance;
use super::schema::Entry;
use super::store::{newest_reference, read};
use crate::error::FileError;

/// What the newest reference record in a directory says about one solver
/// or finder.
#[derive(Clone, Debug, PartialEq)]
pub enum Newest {
    /// There is no record to read; the text says why.
    Missing(String),
    /// The newest reference record, with the id's rows (possibly none).
    Found(Box<Measured>),
}

/// One solver's or finder's entries from one record, with where they come
/// from.
#[derive(Clone, Debug, PartialEq)]
pub struct Measured {
    /// The record file.
    pub file: PathBuf,
    /// Who measured, on what, when.
    pub provenance: Provenance,
    /// The id's entries, in the record's order: its counts and, for a
    /// finder, its boards found (`question` tells them apart).
    pub rows: Vec<Entry>,
    /// Whether the record took cold samples (version 1 took none).
    pub has_cold: bool,
    /// Why the record has no branch misses, if it says.
    pub branch_misses_unavailable: Option<String>,
}

/// The entries of solver or finder `id` in the newest reference record in
/// `dir`: the record [`newest_reference`] picks, the one `queens report`
/// reads by default, so that `explain` and the report never cite two
/// different measurements (a quick `queens compare` is never taken). No
/// record at all is not an error ([`Newest::Missing`] says why); a record
/// that cannot be read is.
pub fn newest_measurements(dir: &Path, id: &str) -> Result<Newest, FileError> {
    let file = match newest_reference(dir) {
        Ok(file) => file,
        Err(why) => return Ok(Newest::Missing(why.to_string())),
    };
    let record = read(&file)?;
    let rows = record
        .entries
        .into_iter()
        .filter(|entry| entry.solver == id)
        .collect();
    Ok(Newest::Found(Box::new(Measured {
        file,
        provenance: record.provenance,
        rows,
        has_cold: record.settings.cold_rounds.is_some(),
        branch_misses_unavailable: record.settings.branch_misses_unavailable,
    })))
}
