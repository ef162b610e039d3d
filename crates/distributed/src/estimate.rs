//! `queens count N --estimate`: the time and memory of a whole count,
//! predicted from a timed random sample of its work, within a time budget,
//! before committing a machine (or a cluster) to it.
//!
//! # Two stages
//!
//! **Units** are drawn with probability proportional to their plan weight,
//! with replacement. A unit of a large board can take hours, so a drawn unit
//! is not timed whole: its *shared* work
//! ([`WorkSplit::prepare_unit`]) is timed once, then a uniform random
//! sample of its **parts** ([`WorkSplit::parts`], [`WorkSplit::count_part`]),
//! drawn without replacement from a cut of `M` parts. With `s` the shared
//! seconds and `t̄` the mean seconds of the `m` parts timed, the unit's time
//! is estimated by `T̂ = s + M · t̄`, unbiased for the unit's time, with
//! within-unit variance estimated by `M² (1 − m/M) S² / m` (`S²` the
//! parts' sample variance): simple random sampling's expansion estimator.
//! An engine that counts only whole units has `M = 1`: its units are timed
//! whole, as before the parts existed.
//!
//! Draw `i` of `k` then gives `z_i = W · T̂_i / w_i` (W the total weight,
//! `w_i` the unit's), and the estimate is their mean, the Hansen-Hurwitz
//! estimator. Its standard error is `sqrt(Σ (z_i − z̄)² / (k (k − 1)))`:
//! for primary units drawn with replacement and subsampled independently at
//! each draw, this one formula is unbiased for the *whole* two-stage
//! variance, between units and within them (Cochran, *Sampling Techniques*,
//! 3rd ed., 1977, section 11.9, "units selected with unequal probabilities
//! with replacement"; Särndal, Swensson and Wretman, *Model Assisted Survey
//! Sampling*, 1992, section 4.5 on two-stage sampling with the pwr
//! estimator). A unit drawn twice is therefore subsampled afresh (its
//! shared time is kept, not measured twice). With few draws that formula is
//! itself noisy, and can fall below the within-unit part alone, which is
//! known from the parts: the variance reported is the larger of the two,
//! `max(v_wr, Σ (W/w_i)² v_i / k²)`, so the parts' own spread is always
//! carried. One draw has no spread between units to measure: its error is
//! reported as the estimate itself, which says "one unit is no sample".
//!
//! # The budget
//!
//! The budget bounds the whole estimate, counted from [`Sample::started`]
//! (the caller starts it before making the plan). Nothing already started
//! can be cut short, so sampling stops *before* a step whose predicted time
//! would pass the budget: a new draw needs the largest shared work seen so
//! far plus one part; a part needs the mean part time so far. At least one
//! part of one unit is always timed. The first unit's shared work cannot be
//! predicted: when it alone passes the budget the estimate says so
//! ([`Estimate::shared_over_budget`]) instead of pretending the budget held.
//!
//! A part of each draw is timed twice when a tenth of the time allows;
//! how much those pairs differ says how much the machine's speed moves,
//! which the interval must also cover ([`speed_noise`]).
//!
//! When every unit of the plan has been timed whole, the answer is the
//! measured sum, whose only error is the machine's speed. Memory is the
//! process's peak while timing the sample (one thread): the engine's
//! buffers, kept from unit to unit, grow to the largest unit timed, and a
//! run on T threads holds T of them.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use queens_core::QueensError;
use queens_core::split::{Part, WorkSplit, WorkUnit};
use serde::Serialize;

/// What the sample says about the whole run.
///
/// The JSON of `count --estimate --json` flattens this; fields are only
/// ever added, so older readers keep working.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Estimate {
    /// Units in the run.
    pub units: usize,
    /// Distinct units timed (whole or in part).
    pub timed: usize,
    /// Draws of units (a heavy unit can be drawn more than once).
    pub draws: usize,
    /// Parts timed, over all draws (a unit timed whole counts as one).
    pub parts_timed: usize,
    /// Share of the run's weight the timed work carries (a unit timed in
    /// part counts by the share of its parts timed).
    pub weight_share: f64,
    /// Seconds spent timing the sample.
    pub sample_seconds: f64,
    /// The budget the sample was given, in seconds (the whole estimate's,
    /// plan included).
    pub budget_seconds: f64,
    /// The largest shared work of one unit timed, in seconds (0 for an
    /// engine without shared work).
    pub shared_seconds_max: f64,
    /// Whether one unit's shared work alone took the estimate past its
    /// budget (it could not be predicted, or not avoided).
    pub shared_over_budget: bool,
    /// Parts timed a second time, to see how much the machine's speed
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

/// The two-stage Hansen-Hurwitz estimate of a total from draws made with
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

/// A unit's time from its shared seconds and a uniform sample of `m` of
/// its `of` parts: `s + M · mean`, and the variance of that within the unit
/// (simple random sampling without replacement, finite population
/// corrected; unknown, so 0, from one part).
pub(crate) fn expand(shared: f64, part_seconds: &[f64], of: u32) -> (f64, f64) {
    let m = part_seconds.len() as f64;
    let big_m = f64::from(of);
    if part_seconds.is_empty() {
        return (shared, 0.0);
    }
    let mean = part_seconds.iter().sum::<f64>() / m;
    let within = if part_seconds.len() < 2 {
        0.0
    } else {
        let s2 = part_seconds.iter().map(|t| (t - mean).powi(2)).sum::<f64>() / (m - 1.0);
        big_m * big_m * (1.0 - m / big_m).max(0.0) * s2 / m
    };
    (shared + big_m * mean, within)
}

/// The share of the sample's time spent timing parts again.
const REPEAT_SHARE: f64 = 0.1;

/// The relative standard deviation of a long timing, from parts timed
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
/// part shorter than a timer needs (the engine may offer many more).
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
    /// The plan's units.
    pub units: &'a [WorkUnit],
    /// The run's units (indices into `units`): all, or one shard's.
    pub chosen: &'a [usize],
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
    /// The unit being timed (index into the plan).
    pub unit: usize,
    /// The part being timed, or `None` for the unit's shared work.
    pub part: Option<Part>,
    /// Draws finished so far.
    pub draws: usize,
    /// The estimate from the finished draws, if any.
    pub so_far: Option<Prediction>,
    /// Time left in the budget (zero once it is spent).
    pub left: Duration,
}

/// What is known of one unit drawn at least once.
#[derive(Clone, Debug, Default)]
struct Drawn {
    /// Seconds of its shared work, as first measured.
    shared: f64,
    /// Its seconds, when every part of it was timed in one draw.
    whole: Option<f64>,
    /// Share of its parts timed at the most in one draw.
    share: f64,
}

/// Times a random two-stage sample of the chosen units' work on this
/// thread within the budget (see the module documentation), reporting each
/// step to `watch` before it starts. A unit that cannot be counted (its
/// device went away) ends the sample with that error.
pub fn estimate(
    sample: &Sample<'_>,
    watch: &mut dyn FnMut(&Status),
) -> Result<Estimate, QueensError> {
    let Sample {
        split,
        n,
        units,
        chosen,
        unique,
        budget,
        started,
        seed,
    } = *sample;
    let deadline = started + budget;
    let budget_seconds = budget.as_secs_f64();
    let weight = |i: usize| units[i].weight.max(1);
    let mut cumulative = Vec::with_capacity(chosen.len());
    let mut total = 0u64;
    for &i in chosen {
        total = total.saturating_add(weight(i));
        cumulative.push(total);
    }
    let sampling = Instant::now();
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut drawn: BTreeMap<usize, Drawn> = BTreeMap::new();
    let mut draws: Vec<Timing> = Vec::new();
    let mut parts_timed = 0usize;
    let mut part_seconds_sum = 0.0;
    let mut shared_max = 0.0f64;
    let mut shared_over_budget = false;
    // Parts timed twice (first, second), and the time spent on that.
    let mut repeats: Vec<(f64, f64)> = Vec::new();
    let mut repeat_spent = 0.0;
    let mut work_spent = 0.0;
    // Seconds per unit of weight over the draws so far: what sizes a cut.
    let (mut drawn_seconds, mut drawn_weight) = (0.0, 0.0);
    let mut seconds_per_weight: Option<f64> = None;
    let fits = |seconds: f64| Instant::now() + Duration::from_secs_f64(seconds) <= deadline;
    let left = || deadline.saturating_duration_since(Instant::now());
    while !chosen.is_empty() && draws.len() < MAX_DRAWS {
        let all_whole = drawn.len() == chosen.len() && drawn.values().all(|d| d.whole.is_some());
        if all_whole {
            break;
        }
        let mean_part = part_seconds_sum / parts_timed.max(1) as f64;
        if !draws.is_empty() && !fits(shared_max + mean_part) {
            break;
        }
        let index = chosen[draw(&cumulative, rng.u64(0..total))];
        let unit = units[index];
        let so_far = (!draws.is_empty()).then(|| hansen_hurwitz(&draws, total as f64));
        let status = |part| Status {
            unit: index,
            part,
            draws: draws.len(),
            so_far,
            left: left(),
        };
        if let Some(seconds) = drawn.get(&index).and_then(|d| d.whole) {
            draws.push(Timing {
                weight: weight(index) as f64,
                seconds,
                within: 0.0,
            });
            continue;
        }
        watch(&status(None));
        let left_before = left();
        let timer = Instant::now();
        split.prepare_unit(n, unit)?;
        let measured = timer.elapsed().as_secs_f64();
        let known = drawn.entry(index).or_insert_with(|| Drawn {
            shared: measured,
            ..Drawn::default()
        });
        let shared = known.shared;
        shared_max = shared_max.max(shared);
        // Before the first draw nothing predicts it; after, only the
        // largest seen so far does, and this unit's may be larger.
        shared_over_budget |= measured > left_before.as_secs_f64();
        // Parts: as much time as the shared work took (the cost of a draw
        // is then balanced between its two stages), at least a 64th of the
        // budget, at most a quarter of it so that several units are drawn.
        let target = shared.min(budget_seconds / 4.0).max(budget_seconds / 64.0);
        let of = cut(
            split.parts(n, unit),
            seconds_per_weight.map(|rate| rate * weight(index) as f64),
            budget_seconds,
        );
        let mut order: Vec<u32> = (0..of).collect();
        rng.shuffle(&mut order);
        let mut seconds = Vec::new();
        let mut spent = 0.0;
        for &index_of_part in &order {
            let mean_part = part_seconds_sum / parts_timed.max(1) as f64;
            if !seconds.is_empty() && (spent >= target || !fits(mean_part)) {
                break;
            }
            let part = Part {
                index: index_of_part,
                of,
            };
            watch(&status(Some(part)));
            let timer = Instant::now();
            split.count_part(n, unit, part, unique)?;
            let t = timer.elapsed().as_secs_f64();
            seconds.push(t);
            spent += t;
            parts_timed += 1;
            part_seconds_sum += t;
        }
        work_spent += measured + spent;
        // The draw's last part again, while its unit is prepared (both
        // timings warm: the first part of a unit also pays for its buffers
        // growing): within a tenth of the time spent, if it fits the budget.
        if let Some(&last) = seconds.last() {
            let again = Part {
                index: order[seconds.len() - 1],
                of,
            };
            if repeat_spent + last <= REPEAT_SHARE * work_spent && fits(last) {
                watch(&status(Some(again)));
                let timer = Instant::now();
                split.count_part(n, unit, again, unique)?;
                let t = timer.elapsed().as_secs_f64();
                repeat_spent += t;
                repeats.push((last, t));
            }
        }
        let (estimate, within) = expand(shared, &seconds, of);
        let known = drawn.entry(index).or_default();
        known.share = known.share.max(seconds.len() as f64 / f64::from(of));
        if seconds.len() == of as usize {
            known.whole = Some(estimate);
        }
        draws.push(Timing {
            weight: weight(index) as f64,
            seconds: estimate,
            within,
        });
        drawn_seconds += estimate;
        drawn_weight += weight(index) as f64;
        seconds_per_weight = Some(drawn_seconds / drawn_weight);
    }
    // Folded from +0.0: an empty sum of floats is -0.0.
    let timed_weight = drawn
        .iter()
        .fold(0.0, |sum, (&i, d)| sum + weight(i) as f64 * d.share);
    let everything = drawn.len() == chosen.len() && drawn.values().all(|d| d.whole.is_some());
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
    Ok(Estimate {
        units: chosen.len(),
        timed: drawn.len(),
        draws: draws.len(),
        parts_timed,
        weight_share: timed_weight / total.max(1) as f64,
        sample_seconds: sampling.elapsed().as_secs_f64(),
        budget_seconds: budget.as_secs_f64(),
        shared_seconds_max: shared_max,
        shared_over_budget,
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
