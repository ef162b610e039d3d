//! Recounting units of a shard record and comparing them with the
//! subtotals it recorded: how a count that took a cluster days is trusted
//! without counting it all again. A record whose sampled units all agree
//! was very likely counted right; one that disagrees is wrong somewhere,
//! and the unit is named.

use queens_core::Solver;
use queens_core::split::UnitCount;

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
    /// Whether the recount agrees with the record (solutions, fixed pairs
    /// and nodes: the search is deterministic).
    pub fn agrees(&self) -> bool {
        self.recorded == self.recounted
    }
}

/// The units to recount: those named (each must be in the record), or a
/// sample of `sample` of them drawn with `seed`.
pub fn choose(
    file: &ShardFile,
    named: &[usize],
    sample: usize,
    seed: u64,
) -> Result<Vec<Subtotal>, Error> {
    let subtotals = &file.shard.subtotals;
    if !named.is_empty() {
        return named
            .iter()
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
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut chosen: Vec<Subtotal> = subtotals.clone();
    rng.shuffle(&mut chosen);
    chosen.truncate(sample.min(subtotals.len()));
    chosen.sort_by_key(|s| s.unit);
    Ok(chosen)
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
    let plan = split.plan(file.n)?;
    let unique = file.shard.fixed_pairs.is_some();
    chosen
        .iter()
        .map(|subtotal| {
            Ok(Recount {
                unit: subtotal.unit,
                recorded: subtotal.count,
                recounted: split.count_unit(file.n, plan.units[subtotal.unit], unique)?,
            })
        })
        .collect()
}
