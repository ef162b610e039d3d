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

/// What the workers have to say.
pub(crate) enum Event {
    /// Unit `index` (of the plan) is counted.
    Counted { index: usize, count: UnitCount },
    /// Nothing happened for the time waited.
    Quiet,
    /// Every unit is counted, or one failed (its device went away) and no
    /// more were handed out.
    Finished(Result<(), QueensError>),
}

/// The units of one run, being counted.
pub(crate) struct Workers {
    finished: Receiver<(usize, UnitCount)>,
    thread: Option<JoinHandle<Result<(), QueensError>>>,
}

/// What the workers count: the plan's units (all of them, so that an
/// index means what it means in the plan) and the ones still to do.
pub(crate) struct Assignment {
    pub(crate) n: usize,
    pub(crate) plan: Plan,
    pub(crate) todo: Vec<usize>,
    pub(crate) unique: bool,
    pub(crate) threads: usize,
}

impl Workers {
    /// Starts counting the assignment on `threads` threads (0: one per
    /// core); a thread the system cannot start (an address-space limit
    /// leaves no room for its stack) is the run's error, not a panic.
    pub(crate) fn start(
        split: &'static dyn WorkSplit,
        assignment: Assignment,
    ) -> Result<Self, QueensError> {
        let (sender, finished) = mpsc::channel();
        let thread = std::thread::Builder::new().spawn(move || {
            let Assignment {
                n,
                plan,
                todo,
                unique,
                threads,
            } = assignment;
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

    /// The next event, waiting at most `wait` for one.
    pub(crate) fn next(&mut self, wait: Duration) -> Event {
        match self.finished.recv_timeout(wait) {
            Ok((index, count)) => Event::Counted { index, count },
            Err(RecvTimeoutError::Timeout) => Event::Quiet,
            // The sender went with the workers' thread: it has returned.
            Err(RecvTimeoutError::Disconnected) => match self.thread.take() {
                Some(thread) => match thread.join() {
                    Ok(result) => Event::Finished(result),
                    // A bug in a solver: it goes on as the panic it was.
                    Err(panic) => std::panic::resume_unwind(panic),
                },
                None => Event::Finished(Ok(())),
            },
        }
    }

    /// The units finished and not yet reported, without waiting.
    pub(crate) fn counted_so_far(&mut self) -> Vec<(usize, UnitCount)> {
        self.finished.try_iter().collect()
    }
}
