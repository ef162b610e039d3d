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
    /// A plot could not be drawn (a plotting library failure, not the data's).
    #[error("cannot draw {plot}: {problem}")]
    Plot {
        /// The plot's file name.
        plot: &'static str,
        /// What the plotting library said.
        problem: String,
    },
}
