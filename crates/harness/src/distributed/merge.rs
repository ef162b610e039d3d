//! Adding up the records of `count N --shard I/K --json` into the full
//! count. Refuses, with one line, files that are not shard records, shards
//! of different runs (n, K, partition version, solver, `--unique`),
//! duplicates and missing shards.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use queens_bench::FileError;
use queens_bench::files::from_json;
use queens_core::split::SYMMETRIES;
use serde::Deserialize;

use super::shard::ShardRecord;
use crate::error::CliError;

/// What `merge` reads from each file.
#[derive(Debug, Deserialize)]
struct ShardFile {
    n: usize,
    solver: String,
    solutions: u64,
    nodes: u64,
    seconds: f64,
    shard: ShardRecord,
}

impl ShardFile {
    /// What must agree between the shards of one run.
    fn run(&self) -> (usize, &str, usize, &str, bool) {
        (
            self.n,
            self.solver.as_str(),
            self.shard.count,
            self.shard.split.as_str(),
            self.shard.fixed_pairs.is_some(),
        )
    }

    fn describe_run(&self) -> String {
        let unique = if self.shard.fixed_pairs.is_some() {
            ", --unique"
        } else {
            ""
        };
        format!(
            "n = {}, {} shards, {} ({}){unique}",
            self.n, self.shard.count, self.solver, self.shard.split
        )
    }
}

fn read(path: &Path) -> Result<ShardFile, FileError> {
    let text =
        fs::read_to_string(path).map_err(|e| FileError::new(path, format!("cannot read: {e}")))?;
    from_json(
        path,
        &text,
        "is not a shard record of `queens count N --shard I/K --json`",
    )
}

/// The whole count from all K shards of one run.
#[derive(Clone, Debug, PartialEq)]
pub struct Merged {
    /// Board size.
    pub n: usize,
    /// The solver's id.
    pub solver: String,
    /// Solutions over all shards.
    pub solutions: u64,
    /// Classes, when the shards counted fixed pairs (`--unique`).
    pub unique: Option<u64>,
    /// Nodes over all shards.
    pub nodes: u64,
    /// Compute time over all shards, however they overlapped.
    pub seconds: f64,
    /// K.
    pub shards: usize,
}

/// Reads the shard records and adds them up.
pub fn merge(files: &[PathBuf]) -> Result<Merged, CliError> {
    let mut shards: BTreeMap<usize, (PathBuf, ShardFile)> = BTreeMap::new();
    // The shard of the first file: every other file must match its run.
    let mut first_index: Option<usize> = None;
    for path in files {
        let file = read(path)?;
        if let Some((first_path, first_file)) = first_index.and_then(|i| shards.get(&i))
            && file.run() != first_file.run()
        {
            return Err(CliError::Input(format!(
                "{} is a shard of another run ({}) than {} ({}); merge shards of one run only",
                path.display(),
                file.describe_run(),
                first_path.display(),
                first_file.describe_run()
            )));
        }
        let index = file.shard.index;
        if index == 0 || index > file.shard.count {
            return Err(FileError::field(
                path,
                "shard.index",
                format!(
                    "claims to be shard {index} of {}, which does not exist",
                    file.shard.count
                ),
            )
            .into());
        }
        if let Some((earlier, _)) = shards.get(&index) {
            return Err(CliError::Input(format!(
                "shard {index}/{} is given twice: {} and {}",
                file.shard.count,
                earlier.display(),
                path.display()
            )));
        }
        first_index.get_or_insert(index);
        shards.insert(index, (path.clone(), file));
    }
    let first_index =
        first_index.ok_or_else(|| CliError::Input("no shard records to merge".to_string()))?;
    let (_, first) = &shards[&first_index];
    let count = first.shard.count;
    let missing: Vec<String> = (1..=count)
        .filter(|i| !shards.contains_key(i))
        .map(|i| i.to_string())
        .collect();
    if !missing.is_empty() {
        return Err(CliError::Input(format!(
            "missing shard{} {} of {count} ({}); all K shards are needed",
            if missing.len() > 1 { "s" } else { "" },
            missing.join(", "),
            first.describe_run()
        )));
    }
    let files = shards.values().map(|(_, file)| file);
    let fixed_pairs: Option<u64> = files.clone().map(|f| f.shard.fixed_pairs).sum();
    Ok(Merged {
        n: first.n,
        solver: first.solver.clone(),
        solutions: files.clone().map(|f| f.solutions).sum(),
        unique: fixed_pairs.map(|pairs| pairs / SYMMETRIES),
        nodes: files.clone().map(|f| f.nodes).sum(),
        seconds: files.map(|f| f.seconds).sum(),
        shards: count,
    })
}
