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
//!
//! What is read back is checked before a single unit is trusted: a checksum
//! over the whole file (SHA-256, as shard records carry), and every saved
//! unit must be a unit of this run's shard, once. A run resumed from an
//! edited or damaged file would otherwise finish with exit 0 and a wrong
//! total.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use queens_core::split::UnitCount;
use serde::{Deserialize, Serialize};

use crate::files::{FileError, duration, from_json, read_bytes_if_present, replace_atomically};
use crate::shard::{ShardSpec, Subtotal, sha256_of_json, subtotals};

/// Names this file format.
const FORMAT: &str = "queens-checkpoint";
/// Its version, bumped if its meaning changes. Versions 1 and 2 named
/// themselves `queens-checkpoint/1` and `/2` in `format` alone.
const VERSION: u32 = 3;

/// The run a checkpoint belongs to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct RunIdentity {
    /// The solver's id.
    pub(crate) solver: String,
    /// The partition's version ([`queens_core::split::WorkSplit::version`]).
    pub(crate) split: String,
    /// Board size.
    pub(crate) n: usize,
    /// Whether the fixed pairs for the classes are counted.
    pub(crate) unique: bool,
    /// The shard, if the run is one.
    pub(crate) shard: Option<ShardSpec>,
    /// Units in the whole plan: a cheap guard against a changed plan.
    pub(crate) plan_units: usize,
}

impl RunIdentity {
    fn describe(&self) -> String {
        let shard = self
            .shard
            .map_or("whole".to_string(), |s| format!("shard {s}"));
        let unique = if self.unique { ", --unique" } else { "" };
        format!(
            "n = {}, {}, {}{unique}, a plan of {}",
            self.n,
            self.split,
            shard,
            queens_core::counted(self.plan_units, "unit", "units")
        )
    }
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct CheckpointFile {
    format: String,
    format_version: u32,
    run: RunIdentity,
    /// Seconds spent counting so far, over all attempts.
    seconds: f64,
    /// Every finished unit with its count.
    done: Vec<Subtotal>,
    /// SHA-256 (hex) of the file's JSON with this field empty.
    checksum: String,
}

impl CheckpointFile {
    fn checksum(&self) -> String {
        sha256_of_json(&CheckpointFile {
            checksum: String::new(),
            ..self.clone()
        })
    }
}

/// Where the finished units of one run are saved, and which run they
/// belong to.
pub(crate) struct Checkpoint {
    path: PathBuf,
    run: RunIdentity,
}

/// Refuses a file that is not a checkpoint of this format and version,
/// naming an older checkpoint as such.
fn check_format(path: &Path, text: &str) -> Result<(), FileError> {
    // Null, and so no format, for what is not a JSON object.
    let header: serde_json::Value = serde_json::from_str(text).unwrap_or_default();
    let version = header["format_version"].as_u64();
    match (header["format"].as_str(), version) {
        (Some(FORMAT), Some(v)) if v == u64::from(VERSION) => Ok(()),
        (Some(other), _) if other.starts_with(FORMAT) => {
            let other = version.map_or(other.to_string(), |v| format!("{other} {v}"));
            Err(FileError::field(
                path,
                "format",
                format!(
                    "a checkpoint of another queens version ({other}; this one reads {FORMAT} {VERSION}): finish it with that version, or delete it to start over"
                ),
            ))
        }
        _ => Err(not_a_checkpoint(path)),
    }
}

/// What a checkpoint held when it was opened.
#[derive(Debug, Default)]
pub(crate) struct Saved {
    /// Finished units: their index in the plan and their count.
    pub(crate) done: BTreeMap<usize, UnitCount>,
    /// Seconds spent counting by earlier attempts.
    pub(crate) seconds: f64,
}

impl Checkpoint {
    /// Opens the checkpoint of `run` at `path`: the saved units if the file
    /// exists, belongs to this run and passes its checks, none if it does
    /// not exist. `mine` are the units this run counts (sorted): a saved
    /// unit outside them means the file is not this run's. Anything else is
    /// an error that names the file (and the field, where one is to blame).
    pub(crate) fn open(
        path: &Path,
        run: RunIdentity,
        mine: &[usize],
    ) -> Result<(Self, Saved), FileError> {
        let checkpoint = Checkpoint {
            path: path.to_path_buf(),
            run,
        };
        let Some(bytes) = read_bytes_if_present(path)? else {
            return Ok((checkpoint, Saved::default()));
        };
        let text = String::from_utf8(bytes).map_err(|_| not_a_checkpoint(path))?;
        check_format(path, &text)?;
        let saved: CheckpointFile = from_json(path, &text, "is a damaged checkpoint")?;
        let field = |name: &str, problem: String| FileError::field(path, name, problem);
        if saved.checksum != saved.checksum() {
            return Err(field(
                "checksum",
                "the checkpoint's checksum does not match its contents (damaged or edited); delete it to count from the start".to_string(),
            ));
        }
        if saved.run != checkpoint.run {
            return Err(field(
                "run",
                format!(
                    "this checkpoint belongs to another run ({}), not this one ({}); use another file or delete it",
                    saved.run.describe(),
                    checkpoint.run.describe()
                ),
            ));
        }
        duration(path, saved.seconds)?;
        // Every saved unit is one of this run's (`mine`), once, with no
        // fixed pairs in a run without them.
        let mut done = BTreeMap::new();
        for (position, subtotal) in saved.done.iter().enumerate() {
            let unit = subtotal.unit;
            let problem = if mine.binary_search(&unit).is_err() {
                let units = queens_core::counted(mine.len(), "unit", "units");
                format!("unit {unit} is not one of the {units} of this run")
            } else if done.insert(unit, subtotal.count).is_some() {
                format!("unit {unit} is saved twice")
            } else if !checkpoint.run.unique && subtotal.count.fixed_pairs != 0 {
                format!("unit {unit} has fixed pairs in a run without --unique")
            } else {
                continue;
            };
            return Err(field(
                &format!("done[{position}]"),
                format!("damaged: {problem}"),
            ));
        }
        let seconds = saved.seconds;
        Ok((checkpoint, Saved { done, seconds }))
    }

    /// Writes the finished units `done`, after `seconds` of counting over
    /// all attempts, atomically (a temporary file beside the checkpoint,
    /// flushed to disk, then renamed over it).
    pub(crate) fn save(
        &self,
        done: &BTreeMap<usize, UnitCount>,
        seconds: f64,
    ) -> Result<(), FileError> {
        let mut file = CheckpointFile {
            format: FORMAT.to_string(),
            format_version: VERSION,
            run: self.run.clone(),
            seconds,
            done: subtotals(done),
            checksum: String::new(),
        };
        file.checksum = file.checksum();
        let text = serde_json::to_string(&file).expect("plain data serialises");
        replace_atomically(&self.path, text.as_bytes()).map_err(|e| FileError {
            problem: format!("cannot save checkpoint: {}", e.problem),
            ..e
        })
    }
}

fn not_a_checkpoint(path: &Path) -> FileError {
    FileError::new(
        path,
        "exists and is not a queens checkpoint; refusing to overwrite it (choose another --checkpoint file)",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn run() -> RunIdentity {
        RunIdentity {
            solver: "half-join".into(),
            split: "half-join/1".into(),
            n: 12,
            unique: false,
            shard: None,
            plan_units: 4,
        }
    }

    /// Writes a checkpoint with these units, sealed as a real one is: a
    /// forgery the checksum cannot catch.
    fn forged(dir: &Path, done: Vec<Subtotal>, unique: bool) -> PathBuf {
        let path = dir.join("forged.ckpt");
        let mut file = CheckpointFile {
            format: FORMAT.into(),
            format_version: VERSION,
            run: RunIdentity { unique, ..run() },
            seconds: 1.0,
            done,
            checksum: String::new(),
        };
        file.checksum = file.checksum();
        fs::write(&path, serde_json::to_string(&file).unwrap()).unwrap();
        path
    }

    fn refusal(path: &Path, unique: bool, mine: &[usize]) -> String {
        match Checkpoint::open(path, RunIdentity { unique, ..run() }, mine) {
            Ok(_) => panic!("a forged checkpoint was accepted"),
            Err(error) => error.to_string(),
        }
    }

    #[test]
    fn a_sound_checkpoint_round_trips() {
        let dir = tempfile::tempdir().unwrap();
        let path = forged(dir.path(), vec![Subtotal::from((1, 10, 0, 50))], false);
        let (_, saved) = Checkpoint::open(&path, run(), &[0, 1, 2, 3]).unwrap();
        assert_eq!(saved.done.len(), 1);
        assert_eq!(saved.done[&1].solutions, 10);
        assert_eq!(saved.seconds, 1.0);
    }

    #[test]
    fn forged_units_are_refused_even_with_a_valid_checksum() {
        let dir = tempfile::tempdir().unwrap();
        let all = [0, 1, 2, 3];
        let twice = forged(
            dir.path(),
            vec![Subtotal::from((1, 10, 0, 5)), Subtotal::from((1, 10, 0, 5))],
            false,
        );
        assert!(refusal(&twice, false, &all).contains("saved twice"));
        let outside = forged(dir.path(), vec![Subtotal::from((1000, 10, 0, 5))], false);
        assert!(refusal(&outside, false, &all).contains("not one of the 4 units"));
        let other_shard = forged(dir.path(), vec![Subtotal::from((3, 10, 0, 5))], false);
        assert!(refusal(&other_shard, false, &[0, 1]).contains("not one of the 2 units"));
        let pairs = forged(dir.path(), vec![Subtotal::from((2, 10, 7, 5))], false);
        assert!(refusal(&pairs, false, &all).contains("fixed pairs"));
    }

    #[test]
    fn an_edited_count_fails_the_checksum() {
        let dir = tempfile::tempdir().unwrap();
        let path = forged(dir.path(), vec![Subtotal::from((1, 10, 0, 50))], false);
        let text = fs::read_to_string(&path)
            .unwrap()
            .replace("[1,10,0,50]", "[1,1010,0,50]");
        fs::write(&path, text).unwrap();
        let error = refusal(&path, false, &[0, 1, 2, 3]);
        assert!(error.contains("field `checksum`"), "{error}");
    }
}
