//! Adding up the records of `count N --shard I/K --json` into the full
//! count, trusting nothing a file says until it is checked:
//!
//! - each file is a shard record of this format whose checksum matches its
//!   contents, of a solver the caller knows, an n it supports and the partition
//!   version this build makes;
//! - its units are exactly the units the partition deals to that shard (the
//!   plan is made again here and dealt to all K shards once per merge, not
//!   once per file: a merge of K records is then linear in K plus the
//!   plan, where dealing per file would be K times the plan), and its totals are
//!   the sums of its unit subtotals, added without overflow;
//! - all shards belong to one run (n, K, partition, solver, `--unique`) and
//!   none is missing;
//! - a shard given twice (counted on two machines) is compared unit by unit
//!   (solutions, fixed pairs and nodes, as [`crate::recheck`] compares) and
//!   counted once if the two agree;
//! - the total, and the classes, equal the published counts where they are
//!   known ([`crate::published::check`], which `count` calls too).
//!
//! The plan is made without the solver's device
//! ([`queens_core::split::WorkSplit::plan_without_device`]): checking a
//! record needs only its units.
//!
//! A file that fails a check of its own is an [`Error::File`] naming the
//! file and the field, a set of files that is not one whole run an
//! [`Error::Input`] (both: the user can fix them); records that are each
//! sound but disagree with each other or with OEIS are an
//! [`Error::Verification`]. The solver a record names is looked up by the
//! caller ([`FindSolver`]): this crate knows no registry.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use queens_core::split::{UnitCount, WorkSplit, deal};
use queens_core::{Solver, counted};
use serde::Deserialize;

use crate::Error;
use crate::files::{FileError, duration, from_json, read_text};
use crate::shard::{
    MAX_SHARDS, SHARD_FORMAT, SHARD_FORMAT_2, SHARD_VERSION, ShardRecord, checksum,
};

/// A shard record as `count --shard I/K --json` prints it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShardFile {
    /// [`SHARD_FORMAT`] (absent in a record of version 2).
    #[serde(default)]
    pub format: Option<String>,
    /// [`SHARD_VERSION`] (absent in a record of version 2).
    #[serde(default)]
    pub format_version: Option<u32>,
    /// Board size.
    pub n: usize,
    /// The solver's id.
    pub solver: String,
    /// Solutions in this shard's units.
    pub solutions: u64,
    /// Nodes of this shard (the first shard also carries the plan's).
    pub nodes: u64,
    /// Its compute time.
    pub seconds: f64,
    /// Which shard, and its units.
    pub shard: ShardRecord,
}

impl ShardFile {
    /// The run this record is a shard of, what must agree between the
    /// shards that are merged: n, solver, K, partition and `--unique`.
    fn run(&self) -> (usize, &str, usize, &str, bool) {
        let shard = &self.shard;
        let unique = shard.fixed_pairs.is_some();
        (self.n, &self.solver, shard.count, &shard.split, unique)
    }

    /// Whether the record's checksum matches its contents (see
    /// [`checksum`]): false for a damaged or edited file.
    pub fn is_sealed(&self) -> bool {
        let (n, solver, shard) = (self.n, &self.solver, &self.shard);
        shard.checksum == checksum(n, solver, self.solutions, self.nodes, self.seconds, shard)
    }

    /// Whether this queens reads the record's format: the current one, or
    /// version 2 (which named its format inside the shard object).
    pub fn is_readable(&self) -> bool {
        match (&self.format, self.format_version, &self.shard.format) {
            (Some(format), Some(SHARD_VERSION), None) => format == SHARD_FORMAT,
            (None, None, Some(format)) => format == SHARD_FORMAT_2,
            _ => false,
        }
    }

    /// The run, as a person reads it.
    pub fn describe_run(&self) -> String {
        let (n, solver, shards, split, unique) = self.run();
        let shards = counted(shards, "shard", "shards");
        let unique = if unique { ", --unique" } else { "" };
        format!("n = {n}, {shards}, {solver} ({split}){unique}")
    }
}

/// How the caller finds a solver by the id a record names (the `queens`
/// command: in its registry); `None` if it knows no such solver.
pub type FindSolver<'s> = dyn Fn(&str) -> Option<&'s dyn Solver> + 's;

/// Reads one shard record and checks everything it says about itself.
/// Returns it with its solver, found by `find`.
pub fn read<'s>(
    path: &Path,
    find: &FindSolver<'s>,
) -> Result<(ShardFile, &'s dyn Solver), FileError> {
    read_dealt(path, find, &mut None)
}

/// A plan dealt to K shards: what checking the records of one run needs
/// of it, made once for all of them.
struct Dealt {
    /// The run it is the plan of: (solver, partition, n, K).
    run: (String, &'static str, usize, usize),
    /// Units in the plan.
    plan_units: usize,
    /// Nodes spent making the plan.
    plan_nodes: u64,
    /// The units of each shard (from 0), in plan order.
    shards: Vec<Vec<usize>>,
}

/// [`read`], with the plan dealt for an earlier record of the same run
/// kept in `dealt` (made, or replaced, when this record is of another).
/// In order: its format and its seal; its solver, which must count its n
/// and split its work by the partition the record was made with; its
/// shard exists and its seconds are a duration; then its units and sums
/// against the plan ([`ShardFile::check_counts`]).
fn read_dealt<'s>(
    path: &Path,
    find: &FindSolver<'s>,
    dealt: &mut Option<Dealt>,
) -> Result<(ShardFile, &'s dyn Solver), FileError> {
    let text = read_text(path)?;
    let file: ShardFile = from_json(
        path,
        &text,
        "is not a shard record of `queens count N --shard I/K --json`",
    )?;
    let field = |name: &str, problem: String| FileError::field(path, name, problem);
    let (id, shard) = (&file.solver, &file.shard);
    if !file.is_readable() {
        let format = match (&file.format, file.format_version, &shard.format) {
            (Some(format), Some(version), _) => format!("{format:?} {version}"),
            (Some(format), None, _) | (None, _, Some(format)) => format!("{format:?}"),
            (None, _, None) => "none".to_string(),
        };
        return Err(field(
            "format",
            format!(
                "a shard record of format {format}; this queens reads {SHARD_FORMAT} {SHARD_VERSION} and {SHARD_FORMAT_2}: count the shard again with this version"
            ),
        ));
    }
    if !file.is_sealed() {
        return Err(field(
            "shard.checksum",
            "does not match the record's contents: the file was damaged or edited".to_string(),
        ));
    }
    let solver = find(id)
        .ok_or_else(|| field("solver", format!("no registered solver is called '{id}'")))?;
    (solver.info().check_n(file.n)).map_err(|refusal| field("n", refusal.to_string()))?;
    let split = solver.work_split().ok_or_else(|| {
        field(
            "solver",
            format!("{id} does not split its work into shards"),
        )
    })?;
    let version = split.version();
    if shard.split != version {
        return Err(field(
            "shard.split",
            format!(
                "made by partition {}, but this queens partitions {id} as {version}: count the shard again with this version",
                shard.split
            ),
        ));
    }
    let (index, count) = (shard.index, shard.count);
    if !(1..=MAX_SHARDS).contains(&count) || !(1..=count).contains(&index) {
        return Err(field(
            "shard.index",
            format!("claims to be shard {index} of {count}, which does not exist"),
        ));
    }
    duration(path, file.seconds)?;
    let run = (id.clone(), version, file.n, count);
    let plan = match dealt.take() {
        Some(kept) if kept.run == run => kept,
        _ => Dealt::new(run, split, path)?,
    };
    file.check_counts(path, dealt.insert(plan))?;
    Ok((file, solver))
}

impl Dealt {
    /// The plan of `run` made again and dealt to its K shards.
    fn new(
        run: (String, &'static str, usize, usize),
        split: &dyn WorkSplit,
        path: &Path,
    ) -> Result<Dealt, FileError> {
        // Reading a record needs the plan's units, not the device that
        // counts them: a GPU engine's shards merge on a machine without
        // a GPU.
        let plan = (split.plan_without_device(run.2))
            .map_err(|refusal| FileError::field(path, "n", refusal.to_string()))?;
        let mut shards = vec![Vec::new(); run.3];
        for (unit, shard) in deal(&plan, run.3).into_iter().enumerate() {
            shards[shard].push(unit);
        }
        Ok(Dealt {
            run,
            plan_units: plan.len(),
            plan_nodes: plan.nodes,
            shards,
        })
    }
}

impl ShardFile {
    /// Its units are those `plan` deals its shard, and its totals the sums
    /// of its unit subtotals (and the plan's nodes, in the first shard),
    /// none overflowing.
    fn check_counts(&self, path: &Path, plan: &Dealt) -> Result<(), FileError> {
        let field = |name: &str, problem: String| FileError::field(path, name, problem);
        let shard = &self.shard;
        if shard.plan_units != plan.plan_units {
            return Err(field(
                "shard.plan_units",
                format!(
                    "says the plan has {}; {} at n = {} has {}",
                    counted(shard.plan_units, "unit", "units"),
                    plan.run.1,
                    self.n,
                    plan.plan_units
                ),
            ));
        }
        let dealt = &plan.shards[shard.index - 1];
        let listed: Vec<usize> = shard.subtotals.iter().map(|s| s.unit).collect();
        if listed != *dealt || shard.units != dealt.len() {
            return Err(field(
                "shard.subtotals",
                format!(
                    "lists {}, but shard {}/{} of this plan has {} (units {}): the record's units are not its shard's",
                    counted(listed.len(), "unit", "units"),
                    shard.index,
                    shard.count,
                    counted(dealt.len(), "unit", "units"),
                    preview(dealt)
                ),
            ));
        }
        let mut sum = UnitCount::default();
        for (position, subtotal) in shard.subtotals.iter().enumerate() {
            let place = format!("shard.subtotals[{position}]");
            if shard.fixed_pairs.is_none() && subtotal.count.fixed_pairs != 0 {
                let problem = "fixed pairs in a record without --unique";
                return Err(field(&place, problem.to_string()));
            }
            sum = sum.checked_add(subtotal.count).ok_or_else(|| {
                let problem = "the subtotals overflow 64 bits: they cannot be real counts";
                field(&place, problem.to_string())
            })?;
        }
        let plan_nodes = if shard.index == 1 { plan.plan_nodes } else { 0 };
        let totals = [
            ("solutions", self.solutions, Some(sum.solutions)),
            ("nodes", self.nodes, sum.nodes.checked_add(plan_nodes)),
            (
                "shard.fixed_pairs",
                shard.fixed_pairs.unwrap_or(0),
                Some(sum.fixed_pairs),
            ),
        ];
        for (name, recorded, summed) in totals {
            if Some(recorded) != summed {
                let summed = summed.map_or("more than 64 bits".to_string(), |s| s.to_string());
                return Err(field(
                    name,
                    format!("{recorded} is not the sum of the unit subtotals ({summed})"),
                ));
            }
        }
        Ok(())
    }
}

/// At most a few items of a list, for a message.
fn preview(items: &[usize]) -> String {
    let shown: Vec<String> = items.iter().take(5).map(usize::to_string).collect();
    let more = if items.len() > 5 { ", ..." } else { "" };
    format!("{}{more}", shown.join(", "))
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
    /// Shards given twice whose two records agree unit by unit.
    pub confirmed: Vec<usize>,
    /// Whether the total (and the classes) were compared with OEIS.
    pub published: bool,
}

/// A shard record as given to [`merge`]: the file it was read from, for
/// messages, and what it says.
type Given<'p> = (&'p Path, ShardFile);

/// Reads the shard records, checks them (each one's solver found by
/// `find`), and adds them up.
pub fn merge<'s>(files: &[PathBuf], find: &FindSolver<'s>) -> Result<Merged, Error> {
    let mut shards: BTreeMap<usize, Given<'_>> = BTreeMap::new();
    let mut confirmed = Vec::new();
    // The first file's shard: every other file must be of the same run.
    let mut first: Option<usize> = None;
    let mut dealt = None;
    for path in files.iter().map(PathBuf::as_path) {
        let (file, _) = read_dealt(path, find, &mut dealt)?;
        if let Some((first_path, first)) = first.map(|index| &shards[&index])
            && file.run() != first.run()
        {
            return Err(Error::Input(format!(
                "{} is a shard of another run ({}) than {} ({}); merge shards of one run only",
                path.display(),
                file.describe_run(),
                first_path.display(),
                first.describe_run()
            )));
        }
        let index = file.shard.index;
        if let Some(twin) = shards.get(&index) {
            compare_twins(twin, &(path, file))?;
            confirmed.push(index);
            continue;
        }
        first.get_or_insert(index);
        shards.insert(index, (path, file));
    }
    let first = first.ok_or_else(|| Error::Input("no shard records to merge".to_string()))?;
    let model = &shards[&first].1;
    let count = model.shard.count;
    let missing: Vec<usize> = (1..=count).filter(|i| !shards.contains_key(i)).collect();
    if !missing.is_empty() {
        return Err(Error::Input(format!(
            "missing shard{} {} of {count} ({}); all K shards are needed",
            if missing.len() > 1 { "s" } else { "" },
            preview(&missing),
            model.describe_run()
        )));
    }
    let (total, seconds) = add_up(&shards)?;
    let whose = "the shards add up to";
    let advice =
        "some shard's counts are wrong (`queens recheck SHARD` recounts a sample of its units)";
    let unique = (model.shard.fixed_pairs)
        .map(|_| crate::published::classes(total.fixed_pairs, whose, advice))
        .transpose()?;
    let n = model.n;
    let published = crate::published::check(n, total.solutions, unique, whose, advice)?;
    Ok(Merged {
        n,
        solver: model.solver.clone(),
        solutions: total.solutions,
        unique,
        nodes: total.nodes,
        seconds,
        shards: count,
        confirmed,
        published,
    })
}

/// The shards' counts and seconds added up, refused if they overflow.
fn add_up(shards: &BTreeMap<usize, Given<'_>>) -> Result<(UnitCount, f64), Error> {
    let total = (shards.values()).try_fold(UnitCount::default(), |total, (_, file)| {
        total.checked_add(UnitCount {
            solutions: file.solutions,
            fixed_pairs: file.shard.fixed_pairs.unwrap_or(0),
            nodes: file.nodes,
            pair_tests: 0,
        })
    });
    let total = total.ok_or_else(|| {
        let why = "the shards' totals overflow 64 bits: they cannot be real counts";
        Error::Verification(why.to_string())
    })?;
    let seconds: f64 = shards.values().map(|(_, file)| file.seconds).sum();
    if !seconds.is_finite() {
        // Each record's seconds were checked to be a duration; only their
        // sum can leave f64, and a JSON record has no number for that.
        return Err(Error::Verification(format!(
            "the shards' seconds add up to more than {:e}: they cannot be real durations",
            f64::MAX
        )));
    }
    Ok((total, seconds))
}

/// Two records of one shard (counted twice, say on two machines): they
/// must agree on every unit, as `recheck` defines agreement (nodes too).
fn compare_twins((first_path, first): &Given<'_>, (path, second): &Given<'_>) -> Result<(), Error> {
    let (shard, theirs) = (&first.shard, &second.shard.subtotals);
    let differing: Vec<usize> = (shard.subtotals.iter().zip(theirs))
        .filter(|(a, b)| a.count != b.count)
        .map(|(a, _)| a.unit)
        .collect();
    if differing.is_empty() {
        return Ok(());
    }
    Err(Error::Verification(format!(
        "shard {}/{} is given twice and the two records disagree on {} ({}): {} and {}; `queens recheck` recounts them",
        shard.index,
        shard.count,
        counted(differing.len(), "unit", "units"),
        preview(&differing),
        first_path.display(),
        path.display()
    )))
}
