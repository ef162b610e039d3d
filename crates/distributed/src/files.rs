//! The files this crate writes and reads go through queens-record's atomic
//! writer and its JSON reader that names the field to blame. This module is
//! the one place that names that crate.

pub use queens_record::FileError;
pub(crate) use queens_record::files::{
    from_json, read_bytes_if_present, read_text, regular, replace_atomically,
};
