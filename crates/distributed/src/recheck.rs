//! Recounting units of a shard record and comparing them with the
//! subtotals it recorded: how a count that took a cluster days is trusted
//! without counting it all again. A record whose sampled units all agree
//! was very likely counted right; one that disagrees is wrong somewhere,
//! and the unit is named.

use std::collections::BTreeSet;

use queens_core::Solver;
use queens_core::split::{Plan, UnitCount, WorkSplit};

use crate::Error;
use crate::merge::ShardFile;
use crate::shard::Subtotal;

/// One unit recounted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Recount {
    /// The unit's index in the plan.
    pub unit: usize,
    /// What the record says.
    pub recorded: UnitCount,
    /// What counting it again found.
    pub recounted: UnitCount,
}

impl Recount {
    /// Whether the recount agrees with the record: solutions, fixed pairs
    /// and nodes alike, since the search is deterministic (as a merge
    /// compares a shard's two records). Records keep no pair tests.
    pub fn agrees(&self) -> bool {
        let kept = |count: UnitCount| UnitCount {
            pair_tests: 0,
            ..count
        };
        kept(self.recorded) == kept(self.recounted)
    }
}

/// The recounts that disagree, as the start of a refusal: "unit 7
/// recounts differently" or "units 7, 9 recount differently"; `None` if
/// every one agrees.
pub fn disagreement(recounts: &[Recount]) -> Option<String> {
    let differing: Vec<String> = recounts
        .iter()
        .filter(|r| !r.agrees())
        .map(|r| r.unit.to_string())
        .collect();
    match differing.len() {
        0 => None,
        1 => Some(format!("unit {} recounts differently", differing[0])),
        _ => Some(format!(
            "units {} recount differently",
            differing.join(", ")
        )),
    }
}

/// The units to recount: those named (each must be in the record; one
/// named twice is recounted once), or a sample of `sample` of them drawn
/// with `seed`.
pub fn choose(
    file: &ShardFile,
    named: &[usize],
    sample: usize,
    seed: u64,
) -> Result<Vec<Subtotal>, Error> {
    let subtotals = &file.shard.subtotals;
    if !named.is_empty() {
        let mut seen = BTreeSet::new();
        return named
            .iter()
            .filter(|&&unit| seen.insert(unit))
            .map(|&unit| {
                subtotals
                    .iter()
                    .find(|s| s.unit == unit)
                    .copied()
                    .ok_or_else(|| {
                        Error::Input(format!(
                            "unit {unit} is not in this shard (its units: {} of them, from {} to {})",
                            subtotals.len(),
                            subtotals.first().map_or(0, |s| s.unit),
                            subtotals.last().map_or(0, |s| s.unit)
                        ))
                    })
            })
            .collect();
    }
    Ok(draw(subtotals, sample, seed))
}

/// `sample` of the `subtotals` drawn at random with `seed` (all of them if
/// there are fewer), in plan order.
pub(crate) fn draw(subtotals: &[Subtotal], sample: usize, seed: u64) -> Vec<Subtotal> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut chosen = subtotals.to_vec();
    rng.shuffle(&mut chosen);
    chosen.truncate(sample.min(subtotals.len()));
    chosen.sort_by_key(|s| s.unit);
    chosen
}

/// Recounts the chosen units with the record's solver.
pub fn recount(
    file: &ShardFile,
    solver: &dyn Solver,
    chosen: &[Subtotal],
) -> Result<Vec<Recount>, Error> {
    let split = solver
        .work_split()
        .expect("the record was checked to be of a splitting solver");
    // The plan with the device: counting needs it, and a machine without
    // it is refused here, in the device's words, before any unit.
    let plan = split.plan(file.n)?;
    let unique = file.shard.fixed_pairs.is_some();
    recount_units(split, file.n, &plan, unique, chosen)
}

/// Counts each of the `chosen` units of `plan` again and pairs the count
/// with the one recorded.
pub(crate) fn recount_units(
    split: &dyn WorkSplit,
    n: usize,
    plan: &Plan,
    unique: bool,
    chosen: &[Subtotal],
) -> Result<Vec<Recount>, Error> {
    chosen
        .iter()
        .map(|subtotal| {
            Ok(Recount {
                unit: subtotal.unit,
                recorded: subtotal.count,
                recounted: split.count_unit(n, plan.unit(subtotal.unit), unique)?,
            })
        })
        .collect()
}
