//! `--checkpoint FILE`: the finished work units of a split count, saved so
//! that a killed run, started again with the same command and file, goes on
//! where it stopped.
//!
//! The file is JSON: what run it belongs to (solver, partition version, n,
//! `--unique`, shard) and the count of every finished unit by its index in
//! the plan. It is replaced atomically (a temporary file in the same
//! directory, then a rename), so a kill at any moment leaves either the old
//! or the new version, never a torn one. A file that belongs to another run,
//! or is not a checkpoint at all, is refused and left untouched.

use std::collections::BTreeMap;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use queens_bench::FileError;
use queens_bench::files::replace_atomically;
use queens_core::split::UnitCount;
use serde::{Deserialize, Serialize};

use super::shard::ShardSpec;

/// Names this file format; bumped if its meaning changes.
const FORMAT: &str = "queens-checkpoint/1";

/// The run a checkpoint belongs to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunIdentity {
    /// The solver's id.
    pub solver: String,
    /// The partition's version ([`queens_core::split::WorkSplit::version`]).
    pub split: String,
    /// Board size.
    pub n: usize,
    /// Whether the fixed pairs for the classes are counted.
    pub unique: bool,
    /// The shard, if the run is one.
    pub shard: Option<ShardSpec>,
    /// Units in the whole plan: a cheap guard against a changed plan.
    pub plan_units: usize,
}

impl RunIdentity {
    fn describe(&self) -> String {
        let shard = self
            .shard
            .map_or("whole".to_string(), |s| format!("shard {s}"));
        let unique = if self.unique { ", --unique" } else { "" };
        format!("n = {}, {}, {}{unique}", self.n, self.split, shard)
    }
}

#[derive(Debug, Serialize, Deserialize)]
struct CheckpointFile {
    format: String,
    run: RunIdentity,
    /// Seconds spent counting so far, over all attempts.
    seconds: f64,
    /// (unit index in the plan, its count).
    done: Vec<(usize, UnitCount)>,
}

/// The finished units of one run and where they are saved.
pub struct Checkpoint {
    path: PathBuf,
    run: RunIdentity,
    /// Finished units: their index in the plan and their count.
    pub done: BTreeMap<usize, UnitCount>,
    /// Seconds of earlier attempts.
    pub earlier_seconds: f64,
}

impl Checkpoint {
    /// Opens the checkpoint of `run` at `path`: the saved units if the file
    /// exists and belongs to this run, none if it does not exist. Anything
    /// else is an error that names the file.
    pub fn open(path: &Path, run: RunIdentity) -> Result<Self, FileError> {
        let mut checkpoint = Checkpoint {
            path: path.to_path_buf(),
            run,
            done: BTreeMap::new(),
            earlier_seconds: 0.0,
        };
        let text = match fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(checkpoint),
            Err(e) => return Err(FileError::new(path, format!("cannot read checkpoint: {e}"))),
        };
        let saved: CheckpointFile = serde_json::from_str(&text)
            .ok()
            .filter(|f: &CheckpointFile| f.format == FORMAT)
            .ok_or_else(|| {
                FileError::new(
                    path,
                    "exists and is not a queens checkpoint; refusing to overwrite it (choose another --checkpoint file)",
                )
            })?;
        if saved.run != checkpoint.run {
            return Err(FileError::field(
                path,
                "run",
                format!(
                    "this checkpoint belongs to another run ({}), not this one ({}); use another file or delete it",
                    saved.run.describe(),
                    checkpoint.run.describe()
                ),
            ));
        }
        if let Some(position) = saved
            .done
            .iter()
            .position(|(i, _)| *i >= saved.run.plan_units)
        {
            return Err(FileError::field(
                path,
                format!("done[{position}]"),
                format!(
                    "damaged: unit {} is outside the plan of {} units",
                    saved.done[position].0, saved.run.plan_units
                ),
            ));
        }
        checkpoint.done = saved.done.into_iter().collect();
        checkpoint.earlier_seconds = saved.seconds;
        Ok(checkpoint)
    }

    /// Writes the finished units atomically (a temporary file beside the
    /// checkpoint, flushed to disk, then renamed over it).
    pub fn save(&self, seconds: f64) -> Result<(), FileError> {
        let file = CheckpointFile {
            format: FORMAT.to_string(),
            run: self.run.clone(),
            seconds,
            done: self.done.iter().map(|(&i, &c)| (i, c)).collect(),
        };
        let text = serde_json::to_string(&file).expect("plain data serialises");
        replace_atomically(&self.path, text.as_bytes()).map_err(|e| FileError {
            problem: format!("cannot save checkpoint: {}", e.problem),
            ..e
        })
    }
}
