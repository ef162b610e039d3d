//! What an estimate is asked (a [`Sample`]), what it reports while it runs
//! (a [`Status`]) and what it finds (an [`Estimate`]), and the clock it
//! runs on: the types the sampler's steps and the entry point share.

use std::time::{Duration, Instant};

use queens_core::split::{Part, Plan, WorkSplit};
use serde::Serialize;

use super::stats::Prediction;
/// What the sample says about the whole run.
///
/// The JSON of `count --estimate --json` flattens this; fields are only
/// ever added, so older readers keep working.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Estimate {
    /// The engine's whole units in the run (all of each, or the parts of
    /// it a shard holds).
    pub units: usize,
    /// The plan's parts in the run: what threads, shards and checkpoints
    /// hand out (a unit the plan does not cut is one part).
    pub pieces: usize,
    /// The longest part's predicted seconds on one thread: `seconds`
    /// over the run's total weight, times the heaviest part's weight (as
    /// the plan predicts it, from the weights it cut by).
    pub longest_piece_seconds: f64,
    /// Distinct units timed (whole or in part).
    pub timed: usize,
    /// Draws of units (a heavy unit can be drawn more than once).
    pub draws: usize,
    /// Parts timed, over all draws (a unit timed whole counts as one).
    pub parts_timed: usize,
    /// Parts of parts timed, over all parts (a part timed whole counts as one).
    pub sub_parts_timed: usize,
    /// Share of the run's weight the timed work carries (a unit timed in
    /// part counts by the share of its parts timed, a part by the share
    /// of its parts of parts).
    pub weight_share: f64,
    /// Seconds spent timing the sample.
    pub sample_seconds: f64,
    /// The budget the sample was given, in seconds (the whole estimate's,
    /// plan included).
    pub budget_seconds: f64,
    /// The largest shared work of one unit timed, in seconds (0 for an
    /// engine without shared work).
    pub shared_seconds_max: f64,
    /// The largest shared work of one part timed, in seconds (0 for an
    /// engine that does not cut its parts).
    pub part_shared_seconds_max: f64,
    /// Whether one unit's or one part's shared work alone took the
    /// estimate past its budget (it could not be predicted, or not
    /// avoided).
    pub shared_over_budget: bool,
    /// Parts of parts timed a second time, to see how much the machine's speed
    /// moves.
    pub repeats: usize,
    /// The relative spread of one timing from the machine's speed (see
    /// [`super::speed_noise`]); 0 with no repeat.
    pub speed_noise: f64,
    /// Predicted seconds of the whole run on one thread.
    pub seconds: f64,
    /// Standard error of `seconds`: sampling and the machine's speed (only
    /// the speed when every unit was timed).
    pub standard_error: f64,
    /// Peak resident bytes of the process while it timed the sample, where
    /// the platform says (Linux).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub peak_bytes: Option<u64>,
}

/// A sample to time: which units of which run, for how long.
pub struct Sample<'a> {
    /// The solver's units.
    pub split: &'a dyn WorkSplit,
    /// Board size.
    pub n: usize,
    /// The plan: the engine's whole units, or parts of them.
    pub plan: &'a Plan,
    /// The run's parts (indices into `plan`): one shard's, or `None` for
    /// all of them (not listed: a plan may hold hundreds of millions). The
    /// sample draws the engine's whole units they belong to (see the
    /// module documentation).
    pub chosen: Option<&'a [usize]>,
    /// Whether the run counts fixed pairs for the classes.
    pub unique: bool,
    /// The whole estimate's time, counted from `started`.
    pub budget: Duration,
    /// When the estimate began (before its plan was made).
    pub started: Instant,
    /// Seed of the draws: the same seed draws the same sample.
    pub seed: u64,
}

/// What the sample is doing, for a progress display.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Status {
    /// The engine's unit being timed (index among the plan's whole units,
    /// [`queens_core::split::Plan::whole_units`]).
    pub unit: usize,
    /// The part being timed, or `None` for the unit's shared work.
    pub part: Option<Part>,
    /// The part of a part of `part` being timed ([`Part::WHOLE`] for a part not
    /// cut further), or `None` for the part's shared work.
    pub part_of_part: Option<Part>,
    /// Draws finished so far.
    pub draws: usize,
    /// The estimate from the finished draws, if any.
    pub so_far: Option<Prediction>,
    /// Time left in the budget (zero once it is spent).
    pub left: Duration,
}

impl Status {
    /// The step in words, for a progress line or an interrupted one:
    /// "the shared work of unit 3", "the shared work of unit 3, part 2 of
    /// 8", "unit 3, part 2 of 8, part of a part 5 of 40" (counted from 1; a part
    /// not cut further is named without a part of a part).
    pub fn doing(&self) -> String {
        let unit = self.unit;
        let Some(part) = self.part else {
            return format!("the shared work of unit {unit}");
        };
        let part = format!("unit {unit}, part {} of {}", part.index + 1, part.of);
        match self.part_of_part {
            None => format!("the shared work of {part}"),
            Some(sub) if sub.of > 1 => format!("{part}, its part {} of {}", sub.index + 1, sub.of),
            Some(_) => part,
        }
    }
}

/// The process's peak resident set (VmHWM), on Linux.
pub(crate) fn peak_resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}
