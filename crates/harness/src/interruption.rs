//! SIGINT and SIGTERM during a long phase. Slurm sends SIGTERM before
//! SIGKILL when it preempts or requeues a job, and a person presses ^C: in
//! every case what can be saved must be saved, the terminal must be left
//! clean, and one line must say what happened and how to go on.
//!
//! Catching a signal is a choice for the whole process, so it is made here,
//! by the command, and not by the libraries. There are two kinds of phase:
//!
//! - one that can save its work (a split count with a checkpoint) asks for
//!   a flag with [`watch`]; the library polls it
//!   (`queens_distributed::run::UnitRun::interrupted`) and returns, and
//!   `queens count` prints the line and exits 130;
//! - one whose half-done work is worth nothing (measuring a comparison,
//!   recounting units, a count that does not split) names its line with
//!   [`end_with`]: the signal prints it and ends the process at once, exit
//!   130. A file being written at that moment is never torn (they are all
//!   written atomically) and its temporary file is removed by the next
//!   write to its directory.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};

/// What a signal does now: raise the flag of a phase that saves its work,
/// or end the process with a line.
struct Reaction {
    /// Raised by the signal when a phase [`watch`]es it.
    flag: AtomicBool,
    /// Whether a phase watches the flag (then it prints its own line).
    watched: AtomicBool,
    /// The line a phase that cannot save its work asked for.
    line: Mutex<Option<String>>,
}

/// The one handler's state, made with it by the first phase that needs it
/// (every other command keeps the signals' default). If no handler can be
/// installed the signals end the process as they would anyway.
static REACTION: OnceLock<Reaction> = OnceLock::new();

fn reaction() -> &'static Reaction {
    REACTION.get_or_init(|| {
        // A signal before this returns waits for it in `reaction()`.
        let _ = ctrlc::set_handler(|| react(reaction()));
        Reaction {
            flag: AtomicBool::new(false),
            watched: AtomicBool::new(false),
            line: Mutex::new(None),
        }
    })
}

/// The handler (on its own thread, not in signal context).
fn react(reaction: &Reaction) {
    reaction.flag.store(true, Ordering::Relaxed);
    if reaction.watched.load(Ordering::Relaxed) {
        return;
    }
    let line = reaction
        .line
        .lock()
        .ok()
        .and_then(|line| line.clone())
        .unwrap_or_else(|| "interrupted".to_string());
    let mut stderr = std::io::stderr().lock();
    // A progress bar may be half drawn on this terminal line: cleared, so
    // that the line stands alone.
    let clear = if stderr.is_terminal() {
        "\r\x1b[2K"
    } else {
        ""
    };
    let _ = writeln!(stderr, "{clear}queens: {line}");
    std::process::exit(130);
}

/// The flag SIGINT and SIGTERM raise from now on, for a phase that saves
/// its work when it sees it and then says so itself.
pub fn watch() -> &'static AtomicBool {
    let reaction = reaction();
    reaction.watched.store(true, Ordering::Relaxed);
    &reaction.flag
}

/// From now on SIGINT and SIGTERM end the process with `line` (after
/// `queens: `) and exit 130: for a phase with nothing worth saving, which
/// `line` says (e.g. "interrupted while measuring; no record written").
pub fn end_with(line: impl Into<String>) {
    if let Ok(mut slot) = reaction().line.lock() {
        *slot = Some(line.into());
    }
}
