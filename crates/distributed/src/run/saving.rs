//! When a run writes its checkpoint: at once when it starts (a file that
//! cannot be written should fail now, not after minutes of work), then
//! whenever a unit has finished since the last save and that save is older
//! than the save interval, and once more when the run stops, however it
//! stops (finished, failed, interrupted), so that nothing finished is lost.
//! How the file is written and checked is [`crate::checkpoint`]'s.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use queens_core::split::UnitCount;

use crate::checkpoint::Checkpoint;
use crate::files::FileError;

/// The checkpoint of a run (if it has one) and when it was last saved.
pub(crate) struct Saving {
    checkpoint: Option<Checkpoint>,
    every: Duration,
    last_save: Instant,
    /// The units the last save held: a run only adds units, so more than
    /// that means one has finished since.
    saved: usize,
}

impl Saving {
    /// Takes charge of the run's checkpoint and saves `done` in it at once.
    pub(crate) fn start(
        checkpoint: Option<Checkpoint>,
        every: Duration,
        done: &BTreeMap<usize, UnitCount>,
        seconds: f64,
    ) -> Result<Self, FileError> {
        let mut saving = Saving {
            checkpoint,
            every,
            last_save: Instant::now(),
            saved: 0,
        };
        saving.keep(done, seconds, true)?;
        Ok(saving)
    }

    /// Saves `done`, counted for `seconds` over all attempts, `now`
    /// (starting, or stopping: finished, failed or interrupted) or when a
    /// unit has finished since the last save and that save is old enough.
    pub(crate) fn keep(
        &mut self,
        done: &BTreeMap<usize, UnitCount>,
        seconds: f64,
        now: bool,
    ) -> Result<(), FileError> {
        let Some(checkpoint) = &self.checkpoint else {
            return Ok(());
        };
        if now || (done.len() > self.saved && self.last_save.elapsed() >= self.every) {
            checkpoint.save(done, seconds)?;
            self.last_save = Instant::now();
            self.saved = done.len();
        }
        Ok(())
    }
}
