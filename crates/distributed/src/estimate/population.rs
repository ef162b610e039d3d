//! What the sample draws from: the engine's whole units the run holds,
//! all of each or some of the plan's parts of it, each drawn with
//! probability proportional to the run's weight in it.

use queens_core::QueensError;
use queens_core::split::{Part, Plan, WorkUnit};

use super::stats::draw;

/// The units a run holds, laid end to end by weight for drawing.
pub(crate) struct Population {
    /// Every unit the run holds, in plan order.
    pub(crate) held: Vec<Held>,
    /// `cumulative[i]`: the weight of units `0..=i`.
    cumulative: Vec<u64>,
    /// The run's whole weight.
    pub(crate) total: u64,
}

impl Population {
    /// The units of the run's parts of `plan` (`chosen`, or all of them).
    pub(crate) fn new(plan: &Plan, chosen: Option<&[usize]>) -> Self {
        let held = match chosen {
            Some(chosen) => holdings(plan, chosen),
            None => holdings_all(plan),
        };
        let mut total = 0u64;
        let cumulative = (held.iter())
            .map(|h| {
                total = total.saturating_add(h.weight);
                total
            })
            .collect();
        Population {
            held,
            cumulative,
            total,
        }
    }

    /// A unit drawn with probability proportional to its weight (the run
    /// holds at least one).
    pub(crate) fn pick(&self, rng: &mut fastrand::Rng) -> usize {
        draw(&self.cumulative, rng.u64(0..self.total))
    }

    /// The weight of held unit `index`.
    pub(crate) fn weight(&self, index: usize) -> f64 {
        self.held[index].weight as f64
    }

    /// The weight of the heaviest of the plan's parts in the run (`None`
    /// for a run of none): what threads and shards hand out.
    pub(crate) fn heaviest_part(&self, plan: &Plan, chosen: Option<&[usize]>) -> Option<u64> {
        match chosen {
            Some(chosen) => {
                let mut sorted = chosen.to_vec();
                sorted.sort_unstable();
                (plan.units_at(sorted))
                    .map(|(_, part)| part.weight.max(1))
                    .max()
            }
            // The heaviest part of a unit weighs its share rounded up.
            None => (self.held.iter().enumerate())
                .map(|(w, held)| {
                    let of = plan.pieces(w).len() as u64;
                    held.unit.weight.div_ceil(of).max(1)
                })
                .max(),
        }
    }
}

/// The run's share of one of the engine's whole units: all of it, or the
/// parts of it the run holds.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Held {
    /// The unit's index among the plan's whole units, in plan order (as
    /// [`queens_core::split::Plan::whole_units`] lists them).
    pub(crate) index: usize,
    /// The engine's whole unit, weighing what all its parts weigh.
    pub(crate) unit: WorkUnit,
    /// The run's weight in it: its parts' weights, each at least 1 (a
    /// unit the run holds must have a chance to be drawn).
    pub(crate) weight: u64,
    /// The parts of it the run holds, in part order, when it does not
    /// hold them all (`None`: the whole unit).
    pub(crate) parts: Option<Vec<Part>>,
}

/// The run's parts (`chosen`, indices into `plan`) grouped by the
/// engine's whole unit they belong to, in plan order (as
/// [`queens_core::split::Plan::whole_units`] lists them). A unit of which
/// the run holds every part is held whole.
pub(crate) fn holdings(plan: &Plan, chosen: &[usize]) -> Vec<Held> {
    // A plan may hold hundreds of millions of parts: nothing is kept per
    // part of the plan, only per part of the run, and the run's parts
    // are found by one walk beside the plan.
    let mut chosen = chosen.to_vec();
    chosen.sort_unstable();
    chosen.dedup();
    let whole = plan.whole_units();
    let mut held: Vec<Held> = Vec::new();
    let mut parts: Vec<Part> = Vec::new();
    // Closes the unit held last: whole if the run holds all its parts.
    let close = |held: &mut Vec<Held>, parts: &mut Vec<Part>| {
        if let Some(last) = held.last_mut() {
            let all = parts.len() == plan.pieces(last.index).len();
            last.parts = (!all).then(|| std::mem::take(parts));
            parts.clear();
        }
    };
    for (index, part) in plan.units_at(chosen) {
        if held.last().is_none_or(|last| last.index != index) {
            close(&mut held, &mut parts);
            held.push(Held {
                index,
                unit: whole[index],
                weight: 0,
                parts: None,
            });
        }
        let last = held.last_mut().expect("pushed above");
        last.weight = last.weight.saturating_add(part.weight.max(1));
        parts.push(part.piece);
    }
    close(&mut held, &mut parts);
    held
}

/// [`holdings`] of every part of the plan, without listing them: every
/// unit held whole, weighing its parts' weights, each at least 1 (the
/// shares of a unit lighter than its count of parts are 0 or 1).
pub(crate) fn holdings_all(plan: &Plan) -> Vec<Held> {
    (plan.whole_units().into_iter().enumerate())
        .map(|(index, unit)| Held {
            index,
            unit,
            weight: unit.weight.max(plan.pieces(index).len() as u64),
            parts: None,
        })
        .collect()
}

/// The finest parts (of `finest`, the engine's [`WorkSplit::parts`]) that
/// the plan's part `part` of a unit holds: its share of them
/// ([`Part::share`]), as cuts nest.
pub(crate) fn finest_parts(part: Part, finest: u32) -> std::ops::Range<u32> {
    let range = part.share(u64::from(finest));
    // A share of a u32 total is within it.
    range.start as u32..range.end as u32
}

/// The finest parts a run holds of a unit it holds only parts of: ranges
/// of them, laid end to end, so that a uniform index among the `count`
/// held names one part. A unit held whole is one range, all of its cut
/// (`parts` [`Part::WHOLE`] of `of`).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct FinestHeld {
    /// The cut of the unit: the engine's finest ([`WorkSplit::parts`]).
    pub(crate) of: u32,
    /// The held ranges and, for each, how many held parts come before it.
    ranges: Vec<(std::ops::Range<u32>, u32)>,
    /// Finest parts held in all.
    pub(crate) count: u32,
}

impl FinestHeld {
    /// The finest parts `parts` hold of a unit cut at most into `of`; a
    /// part the engine cannot cut is refused as a count of it would be.
    pub(crate) fn new(parts: &[Part], of: u32) -> Result<Self, QueensError> {
        let mut ranges = Vec::with_capacity(parts.len());
        let mut count = 0u32;
        for &part in parts {
            part.check(of)?;
            let range = finest_parts(part, of);
            let len = range.len() as u32;
            ranges.push((range, count));
            count += len;
        }
        Ok(FinestHeld { of, ranges, count })
    }

    /// Held part number `k` (of `count`), as the engine's part.
    pub(crate) fn part(&self, k: u32) -> Part {
        let at = self.ranges.partition_point(|(_, before)| *before <= k) - 1;
        let (range, before) = &self.ranges[at];
        Part {
            index: range.start + (k - before),
            of: self.of,
        }
    }
}
