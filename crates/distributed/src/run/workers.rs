//! The unit scheduling of a run: the units still to count, on worker
//! threads (heaviest first, [`queens_core::split::count_units`]), each
//! finished one reported as an event to the thread that owns the run.
//!
//! The workers run on a thread of their own that the run does not wait
//! for when it is interrupted: a unit cannot be cut short, half a unit is
//! worth nothing, and waiting for the units in flight could take as long
//! as the largest of them. Their results after that are dropped.

use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread::JoinHandle;
use std::time::Duration;

use queens_core::QueensError;
use queens_core::split::{self, Plan, UnitCount, WorkSplit};

/// The units of one run, being counted.
pub(crate) struct Workers {
    finished: Receiver<(usize, UnitCount)>,
    thread: Option<JoinHandle<Result<(), QueensError>>>,
}

impl Workers {
    /// Starts counting the units `todo` of `plan` (all of them, so that an
    /// index means what it means in the plan) on `threads` threads (0: one
    /// per core); a thread the system cannot start (an address-space limit
    /// leaves no room for its stack) is the run's error, not a panic.
    pub(crate) fn start(
        split: &'static dyn WorkSplit,
        n: usize,
        plan: Plan,
        todo: Vec<usize>,
        unique: bool,
        threads: usize,
    ) -> Result<Self, QueensError> {
        let (sender, finished) = mpsc::channel();
        let thread = std::thread::Builder::new().spawn(move || {
            split::count_units(split, n, &plan, &todo, unique, threads, &|index, count| {
                // Once the run has stopped listening (interrupted), a
                // finished unit has nowhere to go, and that is fine.
                let _ = sender.send((index, count));
            })
        });
        let thread = thread.map_err(|error| QueensError::Threads(error.to_string()))?;
        Ok(Workers {
            finished,
            thread: Some(thread),
        })
    }

    /// Waits at most `wait` for a unit to finish, adding it to `counted`.
    /// Once every unit is counted, or one failed (its device went away)
    /// and no more were handed out, says how the workers ended.
    pub(crate) fn next(
        &mut self,
        wait: Duration,
        counted: &mut Vec<(usize, UnitCount)>,
    ) -> Option<Result<(), QueensError>> {
        match self.finished.recv_timeout(wait) {
            Ok(unit) => {
                counted.push(unit);
                None
            }
            Err(RecvTimeoutError::Timeout) => None,
            // The sender went with the workers' thread: it has returned.
            // A panic in it is a bug in a solver: it goes on as the panic
            // it was.
            Err(RecvTimeoutError::Disconnected) => Some(match self.thread.take() {
                Some(thread) => thread
                    .join()
                    .unwrap_or_else(|p| std::panic::resume_unwind(p)),
                None => Ok(()),
            }),
        }
    }

    /// The units finished and not yet reported, without waiting.
    pub(crate) fn counted_so_far(&mut self) -> Vec<(usize, UnitCount)> {
        self.finished.try_iter().collect()
    }
}
