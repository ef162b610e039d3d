//! How a command fails, and what that means to the person who ran it. The
//! exit code is decided here and nowhere else: a failed verification (a
//! solver disagreeing with the checker, another solver or OEIS) is 1;
//! everything the user can fix (the command line, a file, a solver's limit,
//! a place that cannot be written) is 2.

use std::io::{self, Write};

use queens_core::{QueensError, printable};
use queens_distributed::Error as DistributedError;
use queens_measure::Error as MeasureError;
use queens_record::FileError;
use queens_report::Error as ReportError;
use thiserror::Error;

/// Every failure of a `queens` command, printed as one line.
#[derive(Debug, Error)]
pub enum CliError {
    /// A request that cannot be met as asked (an unknown solver, options
    /// that do not go together): exit 2.
    #[error("{0}")]
    Input(String),
    /// A solver refused the request (its limit, listing from a count-only
    /// solver): exit 2.
    #[error(transparent)]
    Solver(#[from] QueensError),
    /// A file that could not be read, written or understood, with the file
    /// and the field to blame: exit 2.
    #[error(transparent)]
    File(#[from] FileError),
    /// Standard output could not be written (a full disk, a closed pipe
    /// other than a reader leaving early): exit 2.
    #[error("cannot write to standard output: {0}")]
    Output(io::Error),
    /// Measuring failed: exit 1 for a solver that disagreed, else 2.
    #[error(transparent)]
    Measure(#[from] MeasureError),
    /// A report could not be made (a record, a plot): exit 2 (nothing was
    /// verified to have failed).
    #[error(transparent)]
    Report(#[from] ReportError),
    /// A split count, merge or recheck failed: exit 1 for a count that
    /// disagrees with OEIS or a twin, else 2.
    #[error(transparent)]
    Distributed(#[from] DistributedError),
    /// A solver disagreed with the checker, another solver or OEIS: exit 1.
    #[error("{0}")]
    Verification(String),
    /// SIGINT or SIGTERM ended the run (what was finished is saved): exit
    /// 130, the shell's code for a run ended by an interrupt.
    #[error("{0}")]
    Interrupted(String),
}

impl CliError {
    /// The process exit code for this failure.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Verification(_)
            | CliError::Measure(MeasureError::Mismatch(_))
            | CliError::Distributed(DistributedError::Verification(_)) => 1,
            CliError::Interrupted(_) => 130,
            CliError::Input(_)
            | CliError::Solver(_)
            | CliError::File(_)
            | CliError::Output(_)
            | CliError::Measure(_)
            | CliError::Report(_)
            | CliError::Distributed(_) => 2,
        }
    }
}

/// Ends the process the way every failure ends it: one line on stderr,
/// then the exit code of its kind.
pub fn exit_with(error: CliError) -> ! {
    // Not eprintln!, which panics when stderr is closed: the exit code
    // still tells what happened.
    // Escaped as a whole, whatever each part already did: whatever a
    // message echoes (a solver id, a file name, a field of a file), it
    // stays one line and sends the terminal no escape sequence.
    let line = error.to_string();
    let _ = writeln!(io::stderr(), "queens: {}", printable(&line));
    std::process::exit(i32::from(error.exit_code()))
}

/// Writes to standard output fail as [`CliError::Output`], except a pipe
/// closed by its reader (`queens solve 12 | head`), which is the reader's
/// choice and ends the command quietly.
pub fn output(result: io::Result<()>) -> Result<(), CliError> {
    match result {
        Err(error) if error.kind() != io::ErrorKind::BrokenPipe => Err(CliError::Output(error)),
        _ => Ok(()),
    }
}

/// Writes `text` to standard output whole, failing as [`output`] does.
pub fn print(text: &str) -> Result<(), CliError> {
    let mut out = io::stdout().lock();
    output(out.write_all(text.as_bytes()).and_then(|()| out.flush()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_failed_verification_exits_1() {
        assert_eq!(CliError::Verification("x".into()).exit_code(), 1);
        assert_eq!(CliError::Input("x".into()).exit_code(), 2);
        assert_eq!(CliError::Solver(QueensError::EmptyBoard).exit_code(), 2);
        let file = FileError::new(std::path::Path::new("r.json"), "not JSON");
        assert_eq!(CliError::File(file).exit_code(), 2);
        assert_eq!(
            CliError::from(MeasureError::Mismatch("n = 8: 91".into())).exit_code(),
            1
        );
        assert_eq!(
            CliError::from(MeasureError::Input("x".into())).exit_code(),
            2
        );
        // A merge whose shards disagree with OEIS or with a twin fails
        // verification; a missing shard is the user's to fix.
        let disagreeing = DistributedError::Verification("OEIS says 14200".into());
        assert_eq!(CliError::from(disagreeing).exit_code(), 1);
        let missing = DistributedError::Input("missing shard 2 of 3".into());
        assert_eq!(CliError::from(missing).exit_code(), 2);
        let damaged = FileError::field(std::path::Path::new("s.json"), "shard.checksum", "edited");
        assert_eq!(
            CliError::from(DistributedError::File(damaged)).exit_code(),
            2
        );
        let refused = DistributedError::Solver(QueensError::EmptyBoard);
        assert_eq!(CliError::from(refused).exit_code(), 2);
    }
}
