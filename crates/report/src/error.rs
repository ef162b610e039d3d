//! The failures of reporting, typed so that the command line decides in one
//! place what each one means to a user (all of them exit 2: nothing was
//! verified to have failed).

use queens_record::FileError;
use thiserror::Error;

/// Everything reporting can fail with.
#[derive(Debug, Error)]
pub enum Error {
    /// A record could not be read, or an output could not be written.
    #[error(transparent)]
    File(#[from] FileError),
    /// An output (a plot or the page) could not be rendered from its
    /// template: a value the template could not write, not the data's fault.
    #[error("cannot render {file}: {problem}")]
    Render {
        /// The output's file name.
        file: &'static str,
        /// What the template engine said.
        problem: String,
    },
}
