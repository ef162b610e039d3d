//! The estimate's arithmetic: the expansion of a sample at each stage,
//! the Hansen-Hurwitz estimate over the draws, how finely a unit is cut
//! and how many of its parts are timed (see the module documentation of
//! [`super`]).

use std::collections::HashSet;

use serde::Serialize;

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

/// The seconds of a part of work (a unit or a part), measured or
/// estimated from a sample of its parts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Expanded {
    /// The seconds, or their unbiased estimate.
    pub(crate) seconds: f64,
    /// Estimated variance of `seconds` (0 when measured whole).
    pub(crate) within: f64,
    /// Whether every part of it was timed, all the way down: `seconds`
    /// is then a measure, not an estimate.
    pub(crate) whole: bool,
}

impl Expanded {
    /// A part timed whole, in `seconds`.
    pub(crate) fn measured(seconds: f64) -> Self {
        Expanded {
            seconds,
            within: 0.0,
            whole: true,
        }
    }
}

/// Work of `shared` seconds plus `of` parts, from a uniform sample of `m`
/// of those parts drawn without replacement (each measured, or itself
/// estimated from its own parts): `shared + M · mean`, and the variance
/// of that, `M² (1 − m/M) s₁² / m + (M/m) Σ v_j` (the first term unknown,
/// so 0, from one part; see the module documentation). The same formula
/// serves a part from its parts of parts and a unit from its parts.
pub(crate) fn expand(shared: f64, parts: &[Expanded], of: u32) -> Expanded {
    let m = parts.len() as f64;
    let big_m = f64::from(of);
    if parts.is_empty() {
        return Expanded {
            seconds: shared,
            within: 0.0,
            whole: false,
        };
    }
    let mean = parts.iter().map(|p| p.seconds).sum::<f64>() / m;
    let between = if parts.len() < 2 {
        0.0
    } else {
        let s2 = parts
            .iter()
            .map(|p| (p.seconds - mean).powi(2))
            .sum::<f64>()
            / (m - 1.0);
        big_m * big_m * (1.0 - m / big_m).max(0.0) * s2 / m
    };
    let below = big_m / m * parts.iter().map(|p| p.within).sum::<f64>();
    Expanded {
        seconds: shared + big_m * mean,
        within: between + below,
        whole: parts.len() == of as usize && parts.iter().all(|p| p.whole),
    }
}

/// The share of the sample's time spent timing parts of parts again.
pub(crate) const REPEAT_SHARE: f64 = 0.1;

/// The relative standard deviation of a long timing, from parts of parts timed
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

/// The most parts a unit is cut into for timing: more only makes each
/// part shorter than a timer needs (the engine may offer many more). Also
/// the most parts of parts of one part timed in a draw.
pub(crate) const MAX_CUT: u32 = 4096;

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

/// How many of a unit's parts, or of a part's parts of parts, to time, of the
/// `of` it is cut into: about `seconds` worth at `mean`, the mean seconds
/// of one such part before this unit or part (`None` before the first),
/// at least two where it is cut (its own variance needs two), at most all
/// of them (and [`MAX_CUT`]). Fixed before its parts are timed, so that
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
/// cut into millions of parts of parts and only a few timed).
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
