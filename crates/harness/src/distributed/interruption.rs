//! SIGINT and SIGTERM during a split count. Slurm sends SIGTERM before
//! SIGKILL when it preempts or requeues a job, and a person presses ^C: in
//! both cases the finished units must reach the checkpoint before the
//! process ends, and the terminal must be left clean, with one line that
//! says how to go on.

use std::path::Path;
use std::sync::Arc;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::error::{CliError, exit_with};

/// Set by the signal handler; read by the loop that owns the checkpoint.
static INTERRUPTED: OnceLock<Arc<AtomicBool>> = OnceLock::new();

/// The flag SIGINT and SIGTERM raise from now on (the handler is installed
/// once per process). If no handler can be installed the flag simply never
/// rises, and the signals end the process as they would anyway.
pub fn watch() -> Arc<AtomicBool> {
    INTERRUPTED
        .get_or_init(|| {
            let flag = Arc::new(AtomicBool::new(false));
            let raised = Arc::clone(&flag);
            let _ = ctrlc::set_handler(move || raised.store(true, Ordering::Relaxed));
            flag
        })
        .clone()
}

/// Ends the process after an interruption: `done` of `all` units finished,
/// saved in `checkpoint` if there is one.
pub fn exit(done: usize, all: usize, checkpoint: Option<&Path>) -> ! {
    let message = match checkpoint {
        Some(path) => format!(
            "interrupted: {done} of {all} units finished and saved in {}; run the same command again to resume",
            path.display()
        ),
        None => format!(
            "interrupted after {done} of {all} units; nothing was saved (--checkpoint FILE makes a run resumable)"
        ),
    };
    exit_with(CliError::Interrupted(message))
}
