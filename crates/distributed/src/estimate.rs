//! `queens count N --estimate`: the time and memory of a whole count,
//! predicted from a timed random sample of its work, within a time budget,
//! before committing a machine (or a cluster) to it.
//!
//! # Three stages
//!
//! **Units** are drawn with probability proportional to their plan weight,
//! with replacement. A unit of a large board can take hours, so a drawn unit
//! is not timed whole: its *shared* work
//! ([`WorkSplit::prepare_unit`]) is timed once, then a uniform random
//! sample of its **parts** ([`WorkSplit::parts`]), drawn without
//! replacement from a cut of `M` parts. A part can itself take minutes (at
//! n = 28 one file set of a half-join unit takes from half a second to over
//! twenty minutes), so a timed part is not counted whole either: its own
//! shared work ([`WorkSplit::prepare_part`], which says into how many
//! **sub-parts** `Q` it is cut) is timed apart, then a uniform random
//! sample of `m'` of its sub-parts ([`WorkSplit::count_sub_part`]), drawn
//! without replacement. An engine that does not cut its parts has `Q = 1`:
//! its parts are timed whole ([`WorkSplit::count_part`]); one that counts
//! only whole units has `M = 1` too, and its units are timed whole.
//!
//! Each level expands the same way (simple random sampling's expansion
//! estimator). A part of shared seconds `q` whose sub-parts timed took `t̄`
//! on average is estimated at `P̂ = q + Q · t̄`, with within-part variance
//! estimated by `v = Q² (1 − m'/Q) S² / m'` (`S²` the sub-parts' sample
//! variance). A unit of shared seconds `s` whose `m` parts timed were
//! estimated at `P̂_j` (variances `v_j`) is estimated at
//! `T̂ = s + M · mean(P̂_j)`, with variance estimated by the classic
//! multi-stage formula `M² (1 − m/M) s₁² / m + (M/m) Σ v_j`, `s₁²` the
//! sample variance of the `P̂_j` (Cochran, *Sampling Techniques*, 3rd ed.,
//! 1977, chapter 10, two-stage sampling with equal first-stage
//! probabilities, and chapter 11 for first-stage units of unequal sizes, as
//! parts are): the first term, from the spread between the parts'
//! estimates, also carries their sub-sampling's variance, but only a share
//! `1 − m/M` of it; the second adds the rest, and is the whole of it when
//! every part is timed. For samples of a size fixed in advance (see below)
//! both estimates and both variance estimates are unbiased; a level timed
//! whole has no variance.
//!
//! Draw `i` of `k` then gives `z_i = W · T̂_i / w_i` (W the total weight,
//! `w_i` the unit's), and the estimate is their mean, the Hansen-Hurwitz
//! estimator. Its standard error is `sqrt(Σ (z_i − z̄)² / (k (k − 1)))`:
//! for primary units drawn with replacement and subsampled independently at
//! each draw, this one formula is unbiased for the *whole* multi-stage
//! variance, between units and within them at every level below (Cochran,
//! *Sampling Techniques*, 3rd ed., 1977, section 11.9, "units selected with
//! unequal probabilities with replacement"; Särndal, Swensson and Wretman,
//! *Model Assisted Survey Sampling*, 1992, section 4.5 on two-stage
//! sampling with the pwr estimator). A unit drawn twice is therefore
//! subsampled afresh, its parts and their sub-parts alike (the shared time
//! of a unit or of a part is kept, not measured twice). With few draws that
//! formula is itself noisy, and can fall below the within-unit part alone,
//! which is known from the parts: the variance reported is the larger of
//! the two, `max(v_wr, Σ (W/w_i)² v_i / k²)`, so the parts' own spread is
//! always carried. One draw has no spread between units to measure: its
//! error is reported as the estimate itself, which says "one unit is no
//! sample".
//!
//! # Pieces and shards
//!
//! A plan may cut an engine's long unit into **pieces**
//! ([`queens_core::split::Plan::cut`]), and threads, shards and
//! checkpoints hand out pieces. The stages above are the engine's: its
//! parts and their shared work are a whole unit's. So the sample draws the
//! engine's whole units, never pieces: the run's pieces are grouped by the
//! unit they belong to ([`queens_core::split::Plan::whole_units`]'s
//! grouping), and a unit is drawn with probability proportional to the
//! run's weight in it (the weights of the pieces of it the run holds). A
//! unit the run holds whole (a whole count holds every unit whole) is cut
//! and sampled as above. Of a unit a shard holds only some pieces of, the
//! population is the engine's finest parts those pieces hold: cuts nest
//! (see [`Part`]), so piece `i` of `P` is exactly the finest parts `j` of
//! `M` with `⌊i·M/P⌋ ≤ j < ⌊(i+1)·M/P⌋`. A uniform sample of those parts
//! (`Part { index: j, of: M }`), each timed as above, is expanded by the
//! number held, `H`, in place of `M`: `T̂ = s + H · mean(P̂_j)`.
//!
//! This stays unbiased: the shard's time is `Σ_u T_u`, `T_u` the shared
//! work `s_u` of unit `u` plus its held parts; each `T̂_u` is unbiased for
//! `T_u` (a uniform sample of fixed size from the `H_u` parts held, as
//! above from `M`); and a unit of the run's weight `w_u` (each piece
//! weighing at least 1, so every unit held can be drawn) is drawn with
//! probability `w_u / W`, so `E[W · T̂_u / w_u] = Σ_u T_u`, the
//! Hansen-Hurwitz argument unchanged. The shared work is counted once per
//! unit in the run: a thread that counts several pieces of one unit in a
//! row prepares it once; a run whose threads interleave the pieces of
//! many units pays it more often, which this does not see.
//!
//! What the run hands out is pieces, so the estimate also predicts the
//! longest of them: its share by weight of the estimated time
//! ([`Estimate::longest_piece_seconds`]), the time the plan meant a piece
//! to take.
//!
//! # How the time is spent
//!
//! A draw spends on its parts about as long as its unit's shared work took
//! (the cost of a draw is then balanced between its stages), at least a
//! 64th of the budget, at most a quarter of it so that several units are
//! drawn: as many parts as take that long at the mean cost of a part so
//! far. A part gets the same balance one level down: as many sub-parts as
//! take about as long as its shared work (capped by the draw's share) at
//! the mean sub-part time so far. Both are at least two where there are
//! two, so that the spread at that level can be estimated.
//! Where parts vary far more than their sub-parts (the usual case: a part
//! is a file set, a sub-part a few seconds of it) this spends the time on
//! more parts, which is what lowers the variance.
//!
//! How many pieces are timed is fixed before they are timed, from what
//! the pieces before them took: a sample that stopped once its own pieces
//! had taken long enough would stop sooner after a long piece, and its
//! mean would lean toward the long ones (with pieces of 0 s and 1 s, equally
//! many, and a stop once 1 s is reached, the mean expected is ln 2, not
//! 1/2). Only the budget ends a sample early, and it does depend on the
//! times drawn: where a long piece also costs long to time, a long draw
//! ends the sample sooner, and with few draws the mean leans toward it (a
//! lean of the order of one over the number of draws). This is why an
//! engine cuts a long part into *more* sub-parts of a few seconds rather
//! than longer ones: a draw then costs about the same whatever its size,
//! and the budget's end says nothing about the times drawn.
//!
//! # The budget
//!
//! The budget bounds the whole estimate, counted from [`Sample::started`]
//! (the caller starts it before making the plan). Nothing already started
//! can be cut short, so sampling stops *before* a step whose predicted time
//! would pass the budget: a new draw needs the largest unit shared work
//! seen so far plus one part; a part needs the largest part shared work
//! seen so far plus one sub-part; a sub-part needs the mean sub-part time
//! so far. The first sub-part of a part whose shared work was done is
//! always timed (the check before that shared work counted it), so at
//! least one sub-part of one part of one unit is always timed. The first
//! shared work of a unit or of a part cannot be predicted: when one alone
//! passes the budget the estimate says so
//! ([`Estimate::shared_over_budget`]) instead of pretending the budget
//! held.
//!
//! A sub-part of each draw is timed twice when a tenth of the time allows;
//! how much those pairs differ says how much the machine's speed moves,
//! which the interval must also cover ([`speed_noise`]).
//!
//! When every unit of the plan has been timed whole, the answer is the
//! measured sum, whose only error is the machine's speed. Memory is the
//! process's peak while timing the sample (one thread): the engine's
//! buffers, kept from unit to unit, grow to the largest unit timed, and a
//! run on T threads holds T of them.

use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::time::{Duration, Instant};

use queens_core::QueensError;
use queens_core::split::{Part, Plan, WorkSplit, WorkUnit};
use serde::Serialize;

/// What the sample says about the whole run.
///
/// The JSON of `count --estimate --json` flattens this; fields are only
/// ever added, so older readers keep working.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Estimate {
    /// The engine's whole units in the run (all of each, or the pieces of
    /// it a shard holds).
    pub units: usize,
    /// The plan's pieces in the run: what threads, shards and checkpoints
    /// hand out (a unit the plan does not cut is one piece).
    pub pieces: usize,
    /// The longest piece's predicted seconds on one thread: `seconds`
    /// over the run's total weight, times the heaviest piece's weight (as
    /// the plan predicts it, from the weights it cut by).
    pub longest_piece_seconds: f64,
    /// Distinct units timed (whole or in part).
    pub timed: usize,
    /// Draws of units (a heavy unit can be drawn more than once).
    pub draws: usize,
    /// Parts timed, over all draws (a unit timed whole counts as one).
    pub parts_timed: usize,
    /// Sub-parts timed, over all parts (a part timed whole counts as one).
    pub sub_parts_timed: usize,
    /// Share of the run's weight the timed work carries (a unit timed in
    /// part counts by the share of its parts timed, a part by the share
    /// of its sub-parts).
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
    /// Sub-parts timed a second time, to see how much the machine's speed
    /// moves.
    pub repeats: usize,
    /// The relative spread of one timing from the machine's speed (see
    /// [`speed_noise`]); 0 with no repeat.
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

/// One draw: its unit's weight, the unit's estimated seconds and the
/// variance of that estimate within the unit.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Timing {
    /// The unit's plan weight (at least 1).
    pub(crate) weight: f64,
    /// Its seconds, measured whole or estimated from parts.
    pub(crate) seconds: f64,
    /// Estimated variance of `seconds` from subsampling its parts (0 when
    /// timed whole).
    pub(crate) within: f64,
}

/// The whole run's seconds as a sample predicts them.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Prediction {
    /// The estimate.
    pub seconds: f64,
    /// Its standard error.
    pub standard_error: f64,
}

/// The multi-stage Hansen-Hurwitz estimate of a total from draws made with
/// probability weight / `total_weight` (see the module documentation).
pub(crate) fn hansen_hurwitz(draws: &[Timing], total_weight: f64) -> Prediction {
    let k = draws.len() as f64;
    let prediction = |seconds, standard_error| Prediction {
        seconds,
        standard_error,
    };
    if draws.is_empty() {
        return prediction(0.0, 0.0);
    }
    let expansion = |d: &Timing| total_weight / d.weight;
    let scaled: Vec<f64> = draws.iter().map(|d| expansion(d) * d.seconds).collect();
    let mean = scaled.iter().sum::<f64>() / k;
    if draws.len() == 1 {
        return prediction(mean, mean);
    }
    let between = scaled.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (k - 1.0) / k;
    let within = draws
        .iter()
        .map(|d| expansion(d).powi(2) * d.within)
        .sum::<f64>()
        / (k * k);
    prediction(mean, between.max(within).sqrt())
}

/// The seconds of a piece of work (a unit or a part), measured or
/// estimated from a sample of its pieces.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Expanded {
    /// The seconds, or their unbiased estimate.
    pub(crate) seconds: f64,
    /// Estimated variance of `seconds` (0 when measured whole).
    pub(crate) within: f64,
    /// Whether every piece of it was timed, all the way down: `seconds`
    /// is then a measure, not an estimate.
    pub(crate) whole: bool,
}

impl Expanded {
    /// A piece timed whole, in `seconds`.
    pub(crate) fn measured(seconds: f64) -> Self {
        Expanded {
            seconds,
            within: 0.0,
            whole: true,
        }
    }
}

/// Work of `shared` seconds plus `of` pieces, from a uniform sample of `m`
/// of those pieces drawn without replacement (each measured, or itself
/// estimated from its own pieces): `shared + M · mean`, and the variance
/// of that, `M² (1 − m/M) s₁² / m + (M/m) Σ v_j` (the first term unknown,
/// so 0, from one piece; see the module documentation). The same formula
/// serves a part from its sub-parts and a unit from its parts.
pub(crate) fn expand(shared: f64, pieces: &[Expanded], of: u32) -> Expanded {
    let m = pieces.len() as f64;
    let big_m = f64::from(of);
    if pieces.is_empty() {
        return Expanded {
            seconds: shared,
            within: 0.0,
            whole: false,
        };
    }
    let mean = pieces.iter().map(|p| p.seconds).sum::<f64>() / m;
    let between = if pieces.len() < 2 {
        0.0
    } else {
        let s2 = pieces
            .iter()
            .map(|p| (p.seconds - mean).powi(2))
            .sum::<f64>()
            / (m - 1.0);
        big_m * big_m * (1.0 - m / big_m).max(0.0) * s2 / m
    };
    let below = big_m / m * pieces.iter().map(|p| p.within).sum::<f64>();
    Expanded {
        seconds: shared + big_m * mean,
        within: between + below,
        whole: pieces.len() == of as usize && pieces.iter().all(|p| p.whole),
    }
}

/// The share of the sample's time spent timing sub-parts again.
const REPEAT_SHARE: f64 = 0.1;

/// The relative standard deviation of a long timing, from sub-parts timed
/// twice (`pairs`: first and second seconds):
/// `sqrt(Σ (t₂ − t₁)² / (2 Σ t₁²))`, as the difference of two timings has
/// twice one's variance. Weighted by the square of the time, so that the
/// jitter of a part of microseconds (a timer's tick, a cache miss) does
/// not pass for the speed of a run of hours.
///
/// The sampling error is the error of the work's measure at the speed the
/// machine ran while sampling; the full run will run at another moment,
/// and on a shared machine its speed moves (other jobs, frequency,
/// caches). The interval is meant to hold the full run's time, so the
/// estimate's variance adds `(seconds · speed_noise)²`: the whole run
/// taken as one timing at a speed that moves as much as the repeats saw.
/// That is conservative for a run long enough to average the moves out,
/// and honest for a machine whose load changes between the estimate and
/// the run. When every unit is timed whole the answer is the measured sum
/// and this is its whole error.
pub fn speed_noise(pairs: &[(f64, f64)]) -> f64 {
    let squares: f64 = pairs.iter().map(|(first, _)| first * first).sum();
    if squares <= 0.0 {
        return 0.0;
    }
    let differences: f64 = pairs.iter().map(|(a, b)| (b - a).powi(2)).sum();
    (differences / (2.0 * squares)).sqrt()
}

/// Enough draws for any standard error worth printing; re-drawing units
/// timed whole costs nothing, so without a cap a small plan would draw
/// until the budget ends.
const MAX_DRAWS: usize = 10_000;

/// The most slices a unit is cut into for timing: more only makes each
/// part shorter than a timer needs (the engine may offer many more). Also
/// the most sub-parts of one part timed in a draw.
const MAX_CUT: u32 = 4096;

/// The parts a unit of `predicted` seconds (from the draws so far; `None`
/// before the first) is cut into, of the `offered` its engine can cut: a
/// part about a 256th of the budget, so that a draw is many parts and a
/// part is long against a timer's tick and a unit's start-up cost; the
/// finest cut offered before anything is known, since a unit of a large
/// board may take days and its first part must fit the budget. How a unit
/// is cut does not bias its expansion; only how finely it is sampled.
pub(crate) fn cut(offered: u32, predicted: Option<f64>, budget_seconds: f64) -> u32 {
    let finest = offered.clamp(1, MAX_CUT);
    match predicted {
        None => finest,
        Some(seconds) => {
            let part = (budget_seconds / 256.0).max(1e-6);
            let wanted = (seconds / part).ceil();
            if wanted >= f64::from(finest) {
                finest
            } else {
                (wanted as u32).max(1)
            }
        }
    }
}

/// How many of a unit's parts, or of a part's sub-parts, to time, of the
/// `of` it is cut into: about `seconds` worth at `mean`, the mean seconds
/// of one such piece before this unit or part (`None` before the first),
/// at least two where it is cut (its own variance needs two), at most all
/// of them (and [`MAX_CUT`]). Fixed before its pieces are timed, so that
/// they are a uniform sample of fixed size (see the module
/// documentation).
pub(crate) fn wanted(of: u32, seconds: f64, mean: Option<f64>) -> u32 {
    let most = of.clamp(1, MAX_CUT);
    let wanted = match mean {
        Some(mean) if mean > 0.0 => (seconds / mean).ceil().min(f64::from(most)) as u32,
        _ => 2,
    };
    wanted.max(2).min(most)
}

/// `wanted` distinct indices of `0..of`, uniformly at random: a shuffle
/// where `wanted` is a good share of `of`, else rejection (a part may be
/// cut into millions of sub-parts and only a few timed).
pub(crate) fn uniform_sample(rng: &mut fastrand::Rng, of: u32, wanted: u32) -> Vec<u32> {
    let wanted = wanted.min(of);
    if u64::from(of) <= 4 * u64::from(wanted) {
        let mut order: Vec<u32> = (0..of).collect();
        rng.shuffle(&mut order);
        order.truncate(wanted as usize);
        return order;
    }
    let mut seen = HashSet::new();
    let mut order = Vec::with_capacity(wanted as usize);
    while order.len() < wanted as usize {
        let index = rng.u32(0..of);
        if seen.insert(index) {
            order.push(index);
        }
    }
    order
}

/// Index of the unit a uniform `point` in [0, total weight) falls on, units
/// laid end to end by weight (`cumulative[i]` is the weight of units 0..=i).
pub(crate) fn draw(cumulative: &[u64], point: u64) -> usize {
    cumulative.partition_point(|&c| c <= point)
}

/// A sample to time: which units of which run, for how long.
pub struct Sample<'a> {
    /// The solver's units.
    pub split: &'a dyn WorkSplit,
    /// Board size.
    pub n: usize,
    /// The plan: the engine's whole units, or pieces of them.
    pub plan: &'a Plan,
    /// The run's pieces (indices into `plan`): one shard's, or `None` for
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

/// The run's share of one of the engine's whole units: all of it, or the
/// pieces of it the run holds.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Held {
    /// The unit's index among the plan's whole units, in plan order (as
    /// [`queens_core::split::Plan::whole_units`] lists them).
    pub(crate) index: usize,
    /// The engine's whole unit, weighing what all its pieces weigh.
    pub(crate) unit: WorkUnit,
    /// The run's weight in it: its pieces' weights, each at least 1 (a
    /// unit the run holds must have a chance to be drawn).
    pub(crate) weight: u64,
    /// The pieces of it the run holds, in piece order, when it does not
    /// hold them all (`None`: the whole unit).
    pub(crate) pieces: Option<Vec<Part>>,
}

/// The run's pieces (`chosen`, indices into `plan`) grouped by the
/// engine's whole unit they belong to, in plan order (as
/// [`queens_core::split::Plan::whole_units`] lists them). A unit of which
/// the run holds every piece is held whole.
pub(crate) fn holdings(plan: &Plan, chosen: &[usize]) -> Vec<Held> {
    // A plan may hold hundreds of millions of pieces: nothing is kept per
    // piece of the plan, only per piece of the run, and the run's pieces
    // are found by one walk beside the plan.
    let mut chosen = chosen.to_vec();
    chosen.sort_unstable();
    chosen.dedup();
    let whole = plan.whole_units();
    let mut held: Vec<Held> = Vec::new();
    let mut pieces: Vec<Part> = Vec::new();
    // Closes the unit held last: whole if the run holds all its pieces.
    let close = |held: &mut Vec<Held>, pieces: &mut Vec<Part>| {
        if let Some(last) = held.last_mut() {
            let all = pieces.len() == plan.pieces(last.index).len();
            last.pieces = (!all).then(|| std::mem::take(pieces));
            pieces.clear();
        }
    };
    for (index, piece) in plan.units_at(chosen) {
        if held.last().is_none_or(|last| last.index != index) {
            close(&mut held, &mut pieces);
            held.push(Held {
                index,
                unit: whole[index],
                weight: 0,
                pieces: None,
            });
        }
        let last = held.last_mut().expect("pushed above");
        last.weight = last.weight.saturating_add(piece.weight.max(1));
        pieces.push(piece.piece);
    }
    close(&mut held, &mut pieces);
    held
}

/// [`holdings`] of every piece of the plan, without listing them: every
/// unit held whole, weighing its pieces' weights, each at least 1 (the
/// shares of a unit lighter than its count of pieces are 0 or 1).
pub(crate) fn holdings_all(plan: &Plan) -> Vec<Held> {
    (plan.whole_units().into_iter().enumerate())
        .map(|(index, unit)| Held {
            index,
            unit,
            weight: unit.weight.max(plan.pieces(index).len() as u64),
            pieces: None,
        })
        .collect()
}

/// The finest parts (of `finest`, the engine's [`WorkSplit::parts`]) that
/// piece `piece` of a unit holds: `index · M / of` up to `(index + 1) · M
/// / of`, rounded down, as cuts nest (see [`Part`]).
pub(crate) fn finest_parts(piece: Part, finest: u32) -> std::ops::Range<u32> {
    let at = |i: u32| (u64::from(i) * u64::from(finest) / u64::from(piece.of)) as u32;
    at(piece.index)..at(piece.index + 1)
}

/// The finest parts a run holds of a unit it holds only pieces of: ranges
/// of them, laid end to end, so that a uniform index among the `count`
/// held names one part.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct FinestHeld {
    /// The engine's finest cut of the unit ([`WorkSplit::parts`]).
    pub(crate) of: u32,
    /// The held ranges and, for each, how many held parts come before it.
    ranges: Vec<(std::ops::Range<u32>, u32)>,
    /// Finest parts held in all.
    pub(crate) count: u32,
}

impl FinestHeld {
    /// The finest parts `pieces` hold of a unit cut at most into `of`; a
    /// piece the engine cannot cut is refused as a count of it would be.
    pub(crate) fn new(pieces: &[Part], of: u32) -> Result<Self, QueensError> {
        let mut ranges = Vec::with_capacity(pieces.len());
        let mut count = 0u32;
        for &piece in pieces {
            piece.check(of)?;
            let range = finest_parts(piece, of);
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

/// What the sample is doing, for a progress display.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Status {
    /// The engine's unit being timed (index among the plan's whole units,
    /// [`queens_core::split::Plan::whole_units`]).
    pub unit: usize,
    /// The part being timed, or `None` for the unit's shared work.
    pub part: Option<Part>,
    /// The sub-part of `part` being timed ([`Part::WHOLE`] for a part not
    /// cut further), or `None` for the part's shared work.
    pub sub_part: Option<Part>,
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
    /// 8", "unit 3, part 2 of 8, sub-part 5 of 40" (counted from 1; a part
    /// not cut further is named without a sub-part).
    pub fn doing(&self) -> String {
        let unit = self.unit;
        match (self.part, self.sub_part) {
            (None, _) => format!("the shared work of unit {unit}"),
            (Some(part), None) => format!(
                "the shared work of unit {unit}, part {} of {}",
                part.index + 1,
                part.of
            ),
            (Some(part), Some(sub)) if sub.of > 1 => format!(
                "unit {unit}, part {} of {}, sub-part {} of {}",
                part.index + 1,
                part.of,
                sub.index + 1,
                sub.of
            ),
            (Some(part), Some(_)) => format!("unit {unit}, part {} of {}", part.index + 1, part.of),
        }
    }
}

/// What is known of one unit drawn at least once.
#[derive(Clone, Debug, Default)]
struct Drawn {
    /// Seconds of its shared work, as first measured.
    shared: f64,
    /// Its seconds, when every part of it was timed whole in one draw.
    whole: Option<f64>,
    /// Share of its work timed at the most in one draw.
    share: f64,
}

/// Seconds since the estimate began: the real clock, or a test's.
pub(crate) trait Clock {
    /// Seconds since the budget started.
    fn seconds(&self) -> f64;
}

/// The real clock, from the estimate's start.
struct Since(Instant);

impl Clock for Since {
    fn seconds(&self) -> f64 {
        self.0.elapsed().as_secs_f64()
    }
}

/// Times a random three-stage sample of the chosen units' work on this
/// thread within the budget (see the module documentation), reporting each
/// step to `watch` before it starts. A unit that cannot be counted (its
/// device went away) ends the sample with that error.
pub fn estimate(
    sample: &Sample<'_>,
    watch: &mut dyn FnMut(&Status),
) -> Result<Estimate, QueensError> {
    estimate_on(sample, &Since(sample.started), watch)
}

/// One part timed within a draw.
struct TimedPart {
    /// Its seconds, measured or estimated from its sub-parts.
    seconds: Expanded,
    /// Seconds this draw spent on it (its shared work as measured now).
    spent: f64,
    /// Share of its sub-parts timed.
    share: f64,
    /// Its last sub-part timed and that sub-part's seconds.
    last: (Part, f64),
}

/// The state of a sample being timed: what has been seen so far, which
/// predicts the steps to come.
struct Sampler<'a, 's> {
    sample: &'a Sample<'s>,
    clock: &'a dyn Clock,
    budget_seconds: f64,
    rng: fastrand::Rng,
    /// The unit being drawn, the draws finished and their estimate.
    unit: usize,
    draws: usize,
    so_far: Option<Prediction>,
    parts_timed: usize,
    /// Seconds spent on parts, their shared work included.
    part_seconds_sum: f64,
    sub_parts_timed: usize,
    sub_seconds_sum: f64,
    shared_max: f64,
    part_shared_max: f64,
    shared_over_budget: bool,
    /// Shared seconds of each part prepared, as first measured, by unit
    /// and part.
    part_shared: HashMap<(usize, Part), f64>,
}

impl Sampler<'_, '_> {
    /// Whether a step of `seconds` would end within the budget.
    fn fits(&self, seconds: f64) -> bool {
        self.clock.seconds() + seconds <= self.budget_seconds
    }

    /// The budget left, in seconds (never negative).
    fn left(&self) -> f64 {
        (self.budget_seconds - self.clock.seconds()).max(0.0)
    }

    /// The mean seconds of a sub-part so far, if any was timed.
    fn mean_sub(&self) -> Option<f64> {
        (self.sub_parts_timed > 0).then(|| self.sub_seconds_sum / self.sub_parts_timed as f64)
    }

    /// The mean seconds of a part so far (its shared work and its
    /// sub-parts), if any was timed.
    fn mean_part(&self) -> Option<f64> {
        (self.parts_timed > 0).then(|| self.part_seconds_sum / self.parts_timed as f64)
    }

    /// The predicted seconds of one more part: the largest part shared
    /// work seen and one sub-part.
    fn next_part(&self) -> f64 {
        self.part_shared_max + self.mean_sub().unwrap_or(0.0)
    }

    fn status(&self, part: Option<Part>, sub_part: Option<Part>) -> Status {
        Status {
            unit: self.unit,
            part,
            sub_part,
            draws: self.draws,
            so_far: self.so_far,
            left: Duration::from_secs_f64(self.left()),
        }
    }

    /// Runs `work`, returning what it returned and the seconds it took.
    fn time<T>(
        &self,
        work: impl FnOnce() -> Result<T, QueensError>,
    ) -> Result<(T, f64), QueensError> {
        let start = self.clock.seconds();
        let value = work()?;
        Ok((value, self.clock.seconds() - start))
    }

    /// Times `part` of `unit` (already prepared): its shared work, then a
    /// uniform sample of its sub-parts worth about `seconds`.
    fn time_part(
        &mut self,
        unit: WorkUnit,
        part: Part,
        seconds: f64,
        watch: &mut dyn FnMut(&Status),
    ) -> Result<TimedPart, QueensError> {
        let Sample { split, n, .. } = *self.sample;
        watch(&self.status(Some(part), None));
        let left_before = self.left();
        let (of, measured) = self.time(|| split.prepare_part(n, unit, part))?;
        let of = of.max(1);
        let shared = *self
            .part_shared
            .entry((self.unit, part))
            .or_insert(measured);
        self.part_shared_max = self.part_shared_max.max(shared);
        self.shared_over_budget |= measured > left_before;
        let count = wanted(of, shared.min(seconds), self.mean_sub());
        let order = uniform_sample(&mut self.rng, of, count);
        let mut subs = Vec::with_capacity(order.len());
        let mut last = (Part::WHOLE, 0.0);
        for &index in &order {
            // The first always: the check before this part counted it.
            if !subs.is_empty() && !self.fits(self.mean_sub().unwrap_or(0.0)) {
                break;
            }
            let sub = Part { index, of };
            watch(&self.status(Some(part), Some(sub)));
            let ((), t) = self.time(|| self.count(unit, part, sub).map(drop))?;
            subs.push(Expanded::measured(t));
            self.sub_parts_timed += 1;
            self.sub_seconds_sum += t;
            last = (sub, t);
        }
        Ok(TimedPart {
            seconds: expand(shared, &subs, of),
            spent: measured + subs.iter().map(|s| s.seconds).sum::<f64>(),
            share: subs.len() as f64 / f64::from(of),
            last,
        })
    }

    /// Counts sub-part `sub` of `part` of `unit`: the part whole when it
    /// is not cut.
    fn count(&self, unit: WorkUnit, part: Part, sub: Part) -> Result<(), QueensError> {
        let Sample {
            split, n, unique, ..
        } = *self.sample;
        if sub == Part::WHOLE {
            split.count_part(n, unit, part, unique)?;
        } else {
            split.count_sub_part(n, unit, part, sub, unique)?;
        }
        Ok(())
    }
}

/// [`estimate`] on any clock (a test's runs in no time).
pub(crate) fn estimate_on(
    sample: &Sample<'_>,
    clock: &dyn Clock,
    watch: &mut dyn FnMut(&Status),
) -> Result<Estimate, QueensError> {
    let Sample {
        split,
        n,
        plan,
        chosen,
        budget,
        seed,
        ..
    } = *sample;
    let budget_seconds = budget.as_secs_f64();
    let held = match chosen {
        Some(chosen) => holdings(plan, chosen),
        None => holdings_all(plan),
    };
    let weight = |k: usize| held[k].weight;
    let mut cumulative = Vec::with_capacity(held.len());
    let mut total = 0u64;
    for h in &held {
        total = total.saturating_add(h.weight);
        cumulative.push(total);
    }
    // The finest parts held of each unit held in pieces, once it is drawn.
    let mut finest: HashMap<usize, FinestHeld> = HashMap::new();
    let sampling = clock.seconds();
    let mut run = Sampler {
        sample,
        clock,
        budget_seconds,
        rng: fastrand::Rng::with_seed(seed),
        unit: 0,
        draws: 0,
        so_far: None,
        parts_timed: 0,
        part_seconds_sum: 0.0,
        sub_parts_timed: 0,
        sub_seconds_sum: 0.0,
        shared_max: 0.0,
        part_shared_max: 0.0,
        shared_over_budget: false,
        part_shared: HashMap::new(),
    };
    let mut drawn: BTreeMap<usize, Drawn> = BTreeMap::new();
    let mut draws: Vec<Timing> = Vec::new();
    // Sub-parts timed twice (first, second), and the time spent on that.
    let mut repeats: Vec<(f64, f64)> = Vec::new();
    let mut repeat_spent = 0.0;
    let mut work_spent = 0.0;
    // Seconds per unit of weight over the draws so far: what sizes a cut.
    let (mut drawn_seconds, mut drawn_weight) = (0.0, 0.0);
    let mut seconds_per_weight: Option<f64> = None;
    while !held.is_empty() && draws.len() < MAX_DRAWS {
        let all_whole = drawn.len() == held.len() && drawn.values().all(|d| d.whole.is_some());
        if all_whole {
            break;
        }
        if !draws.is_empty() && !run.fits(run.shared_max + run.next_part()) {
            break;
        }
        let index = draw(&cumulative, run.rng.u64(0..total));
        let unit = held[index].unit;
        run.unit = held[index].index;
        run.draws = draws.len();
        run.so_far = (!draws.is_empty()).then(|| hansen_hurwitz(&draws, total as f64));
        if let Some(seconds) = drawn.get(&index).and_then(|d| d.whole) {
            draws.push(Timing {
                weight: weight(index) as f64,
                seconds,
                within: 0.0,
            });
            continue;
        }
        watch(&run.status(None, None));
        let left_before = run.left();
        let (_, measured) = run.time(|| split.prepare_unit(n, unit))?;
        let known = drawn.entry(index).or_insert_with(|| Drawn {
            shared: measured,
            ..Drawn::default()
        });
        let shared = known.shared;
        run.shared_max = run.shared_max.max(shared);
        // Before the first draw nothing predicts it; after, only the
        // largest seen so far does, and this unit's may be larger.
        run.shared_over_budget |= measured > left_before;
        // Parts: as much time as the shared work took (the cost of a draw
        // is then balanced between its shared work and its parts), at
        // least a 64th of the budget, at most a quarter of it so that
        // several units are drawn; as many as take that at the mean part.
        let target = shared.min(budget_seconds / 4.0).max(budget_seconds / 64.0);
        // A unit held whole is cut as its predicted time says; of one held
        // in pieces, the finest parts its pieces hold are the population.
        let pieces = match &held[index].pieces {
            None => None,
            Some(pieces) => Some(match finest.entry(index) {
                Entry::Occupied(known) => known.into_mut(),
                Entry::Vacant(new) => {
                    new.insert(FinestHeld::new(pieces, split.parts(n, unit).max(1))?)
                }
            }),
        };
        let of = match &pieces {
            Some(pieces) => pieces.count,
            None => cut(
                split.parts(n, unit),
                seconds_per_weight.map(|rate| rate * weight(index) as f64),
                budget_seconds,
            ),
        };
        let count = wanted(of, target, run.mean_part());
        let order = uniform_sample(&mut run.rng, of, count);
        let mut parts = Vec::new();
        let mut spent = 0.0;
        let mut share = 0.0;
        let mut last = None;
        for &index_of_part in &order {
            // The first part always: the check before the draw counted it.
            if !parts.is_empty() && !run.fits(run.next_part()) {
                break;
            }
            let part = match &pieces {
                Some(pieces) => pieces.part(index_of_part),
                None => Part {
                    index: index_of_part,
                    of,
                },
            };
            let timed = run.time_part(unit, part, target, watch)?;
            parts.push(timed.seconds);
            spent += timed.spent;
            run.part_seconds_sum += timed.spent;
            run.parts_timed += 1;
            share += timed.share;
            last = Some((part, timed.last));
        }
        work_spent += measured + spent;
        // The draw's last sub-part again, while its part is prepared (both
        // timings warm: the first sub-part of a part also pays for its
        // buffers growing): within a tenth of the time spent, if it fits
        // the budget.
        if let Some((part, (sub, seconds))) = last
            && repeat_spent + seconds <= REPEAT_SHARE * work_spent
            && run.fits(seconds)
        {
            watch(&run.status(Some(part), Some(sub)));
            let ((), t) = run.time(|| run.count(unit, part, sub))?;
            repeat_spent += t;
            repeats.push((seconds, t));
        }
        let estimate = expand(shared, &parts, of);
        let known = drawn.entry(index).or_default();
        known.share = known.share.max(share / f64::from(of));
        if estimate.whole {
            known.whole = Some(estimate.seconds);
        }
        draws.push(Timing {
            weight: weight(index) as f64,
            seconds: estimate.seconds,
            within: estimate.within,
        });
        drawn_seconds += estimate.seconds;
        drawn_weight += weight(index) as f64;
        seconds_per_weight = Some(drawn_seconds / drawn_weight);
    }
    // Folded from +0.0: an empty sum of floats is -0.0.
    let timed_weight = drawn
        .iter()
        .fold(0.0, |sum, (&i, d)| sum + weight(i) as f64 * d.share);
    let everything = drawn.len() == held.len() && drawn.values().all(|d| d.whole.is_some());
    let Prediction {
        seconds,
        standard_error,
    } = if everything {
        // Everything was timed: the sum is the answer, with no sampling
        // error; only the machine's speed moves it.
        // Folded from +0.0: an empty sum of floats is -0.0, which an empty
        // shard would print.
        let seconds = drawn
            .values()
            .filter_map(|d| d.whole)
            .fold(0.0, |sum, s| sum + s);
        Prediction {
            seconds,
            standard_error: seconds * speed_noise(&repeats),
        }
    } else {
        let sampled = hansen_hurwitz(&draws, total as f64);
        Prediction {
            seconds: sampled.seconds,
            standard_error: (sampled.standard_error.powi(2)
                + (sampled.seconds * speed_noise(&repeats)).powi(2))
            .sqrt(),
        }
    };
    // A piece's predicted time is its share of the run's by weight, as
    // the plan weighs it: what threads and shards hand out.
    let heaviest = match chosen {
        Some(chosen) => {
            let mut sorted = chosen.to_vec();
            sorted.sort_unstable();
            (plan.units_at(sorted))
                .map(|(_, piece)| piece.weight.max(1))
                .max()
        }
        // The heaviest piece of a unit weighs its share rounded up.
        None => (0..held.len())
            .map(|w| {
                let of = plan.pieces(w).len() as u64;
                held[w].unit.weight.div_ceil(of).max(1)
            })
            .max(),
    };
    let longest_piece_seconds = heaviest.map_or(0.0, |w| seconds / total as f64 * w as f64);
    Ok(Estimate {
        units: held.len(),
        pieces: chosen.map_or(plan.len(), <[usize]>::len),
        longest_piece_seconds,
        timed: drawn.len(),
        draws: draws.len(),
        parts_timed: run.parts_timed,
        sub_parts_timed: run.sub_parts_timed,
        weight_share: timed_weight / total.max(1) as f64,
        sample_seconds: clock.seconds() - sampling,
        budget_seconds,
        shared_seconds_max: run.shared_max,
        part_shared_seconds_max: run.part_shared_max,
        shared_over_budget: run.shared_over_budget,
        repeats: repeats.len(),
        speed_noise: speed_noise(&repeats),
        seconds,
        standard_error,
        peak_bytes: peak_resident_bytes(),
    })
}

/// The process's peak resident set (VmHWM), on Linux.
fn peak_resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

#[cfg(test)]
mod tests;
