//! `queens count N --estimate`: the time and memory of a whole count,
//! predicted from a timed random sample of its units, before committing a
//! machine (or a cluster) to it.
//!
//! The model is the one the progress bar already runs on: a unit's time is
//! proportional to its plan weight, at a rate measured on this machine. The
//! sample makes the rate an unbiased estimate. Units are drawn with
//! probability proportional to their weight (with replacement), and each
//! draw i gives `W · t_i / w_i` (W the total weight); the mean of those is
//! the estimate of the whole run's seconds (the Hansen-Hurwitz estimator),
//! and their spread gives its standard error. The better weight predicts
//! time, the smaller that error; with weights exactly proportional to time
//! one draw would give the exact answer. The progress bar's ETA is the same
//! model measured as the run goes: remaining weight at the rate so far.
//!
//! Sampling stops once the time budget is spent (after at least one unit),
//! or when every unit of the plan has been timed, in which case the answer
//! is simply the measured sum. Memory is the process's peak while counting
//! the sample (one thread): the engine's buffers, kept from unit to unit,
//! grow to the largest unit timed, and a run on T threads holds T of them.

use std::time::{Duration, Instant};

use queens_core::QueensError;
use queens_core::split::{WorkSplit, WorkUnit};
use serde::Serialize;

/// What the sample says about the whole run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Estimate {
    /// Units in the run.
    pub units: usize,
    /// Distinct units timed.
    pub timed: usize,
    /// Draws (a heavy unit can be drawn more than once; it is timed once).
    pub draws: usize,
    /// Share of the run's weight the timed units carry.
    pub weight_share: f64,
    /// Seconds spent timing the sample.
    pub sample_seconds: f64,
    /// Predicted seconds of the whole run on one thread.
    pub seconds: f64,
    /// Standard error of `seconds` (0 when every unit was timed).
    pub standard_error: f64,
    /// Peak resident bytes of the process while it timed the sample, where
    /// the platform says (Linux).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub peak_bytes: Option<u64>,
}

/// One timed unit: its weight and its seconds.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Timing {
    /// The unit's plan weight (at least 1).
    pub(crate) weight: f64,
    /// Seconds it took.
    pub(crate) seconds: f64,
}

/// The whole run's seconds as a sample predicts them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Prediction {
    /// The estimate.
    pub(crate) seconds: f64,
    /// Its standard error.
    pub(crate) standard_error: f64,
}

/// The Hansen-Hurwitz estimate of a total from draws made with probability
/// weight / `total_weight`: the mean of `total_weight · t / w`, and its
/// standard error. One draw has no spread to measure: its error is
/// reported as the estimate itself, which says "one unit is no sample".
pub(crate) fn hansen_hurwitz(draws: &[Timing], total_weight: f64) -> Prediction {
    let k = draws.len() as f64;
    let prediction = |seconds, standard_error| Prediction {
        seconds,
        standard_error,
    };
    if draws.is_empty() {
        return prediction(0.0, 0.0);
    }
    let scaled: Vec<f64> = draws
        .iter()
        .map(|d| total_weight * d.seconds / d.weight)
        .collect();
    let mean = scaled.iter().sum::<f64>() / k;
    if draws.len() == 1 {
        return prediction(mean, mean);
    }
    let variance = scaled.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (k - 1.0);
    prediction(mean, (variance / k).sqrt())
}

/// Enough draws for any standard error worth printing; re-drawing timed
/// units costs nothing, so without a cap a small plan would draw until the
/// budget ends.
const MAX_DRAWS: usize = 10_000;

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
    /// About how long to spend timing (at least one unit is timed).
    pub budget: Duration,
    /// Seed of the draws: the same seed draws the same sample.
    pub seed: u64,
}

/// Times a random sample of the chosen units, drawn with probability
/// proportional to weight, on this thread, for about the budget. A unit
/// that cannot be counted (its device went away) ends the sample with that
/// error.
pub fn estimate(sample: &Sample<'_>) -> Result<Estimate, QueensError> {
    let Sample {
        split,
        n,
        units,
        chosen,
        unique,
        budget,
        seed,
    } = *sample;
    let started = Instant::now();
    let weight = |i: usize| units[i].weight.max(1);
    let mut cumulative = Vec::with_capacity(chosen.len());
    let mut total = 0u64;
    for &i in chosen {
        total = total.saturating_add(weight(i));
        cumulative.push(total);
    }
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut seconds_of: std::collections::BTreeMap<usize, f64> = Default::default();
    let mut draws = Vec::new();
    while !chosen.is_empty() && (draws.is_empty() || started.elapsed() < budget) {
        if seconds_of.len() == chosen.len() || draws.len() >= MAX_DRAWS {
            break;
        }
        let position = draw(&cumulative, rng.u64(0..total));
        let index = chosen[position];
        let seconds = match seconds_of.get(&index) {
            Some(&seconds) => seconds,
            None => {
                let timer = Instant::now();
                split.count_unit(n, units[index], unique)?;
                let seconds = timer.elapsed().as_secs_f64();
                seconds_of.insert(index, seconds);
                seconds
            }
        };
        draws.push(Timing {
            weight: weight(index) as f64,
            seconds,
        });
    }
    let timed_weight: u64 = seconds_of.keys().map(|&i| weight(i)).sum();
    let Prediction {
        seconds,
        standard_error,
    } = if seconds_of.len() == chosen.len() {
        // Everything was timed: the sum is the answer, not an estimate.
        Prediction {
            // Folded from +0.0: an empty sum of floats is -0.0, which an
            // empty shard would print.
            seconds: seconds_of.values().fold(0.0, |sum, s| sum + s),
            standard_error: 0.0,
        }
    } else {
        hansen_hurwitz(&draws, total as f64)
    };
    Ok(Estimate {
        units: chosen.len(),
        timed: seconds_of.len(),
        draws: draws.len(),
        weight_share: timed_weight as f64 / total.max(1) as f64,
        sample_seconds: started.elapsed().as_secs_f64(),
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
mod tests {
    use super::*;

    #[test]
    fn weights_exactly_proportional_to_time_give_the_exact_total_from_any_draw() {
        // Units of weights 1, 3, 6 taking 2 s per weight: 20 s in all.
        let draws = [
            Timing {
                weight: 3.0,
                seconds: 6.0,
            },
            Timing {
                weight: 1.0,
                seconds: 2.0,
            },
        ];
        let Prediction {
            seconds: total,
            standard_error: error,
        } = hansen_hurwitz(&draws, 10.0);
        assert!((total - 20.0).abs() < 1e-9);
        assert!(error.abs() < 1e-9);
    }

    #[test]
    fn the_estimator_is_unbiased_over_every_draw() {
        // Every single draw, weighted by its probability, averages to the
        // true total even when time is not proportional to weight.
        let units = [(1.0, 5.0), (2.0, 1.0), (7.0, 4.0)];
        let total_weight: f64 = units.iter().map(|u| u.0).sum();
        let truth: f64 = units.iter().map(|u| u.1).sum();
        let expected: f64 = units
            .iter()
            .map(|&(weight, seconds)| {
                let one = hansen_hurwitz(&[Timing { weight, seconds }], total_weight).seconds;
                weight / total_weight * one
            })
            .sum();
        assert!((expected - truth).abs() < 1e-9);
    }

    #[test]
    fn a_draw_lands_on_each_unit_in_proportion_to_its_weight() {
        // Weights 2, 0 (never drawn), 3 laid end to end: points 0..5.
        let cumulative = [2, 2, 5];
        let landed: Vec<usize> = (0..5).map(|p| draw(&cumulative, p)).collect();
        assert_eq!(landed, vec![0, 0, 2, 2, 2]);
    }
}
