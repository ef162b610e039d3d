//! SIGINT and SIGTERM during a split count. Slurm sends SIGTERM before
//! SIGKILL when it preempts or requeues a job, and a person presses ^C: in
//! both cases the finished units must reach the checkpoint before the
//! process ends, and the terminal must be left clean, with one line that
//! says how to go on.
//!
//! Catching a signal is a choice for the whole process, so it is made here,
//! by the command, and not by the counting library: the library only polls
//! the flag this raises (`queens_distributed::run::UnitRun::interrupted`)
//! and returns, and `queens count` prints the line and exits 130.

use std::sync::Arc;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

/// Set by the signal handler; read by the run that owns the checkpoint.
static INTERRUPTED: OnceLock<Arc<AtomicBool>> = OnceLock::new();

/// The flag SIGINT and SIGTERM raise from now on (the handler is installed
/// once per process, by the first command that needs it, so every other
/// command keeps the signals' default). If no handler can be installed the
/// flag simply never rises, and the signals end the process as they would
/// anyway.
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
