//! The sample timed step by step: a draw (one unit, its shared work, a
//! uniform sample of its parts and of their parts), checked against the
//! budget before each step, and the result made from the draws (see the
//! module documentation of [`super`]).

use std::collections::{BTreeMap, HashMap};
use std::time::Duration;

use queens_core::QueensError;
use queens_core::split::{Part, WorkUnit};

use super::population::{FinestHeld, Population};
use super::stats::{
    Expanded, Prediction, REPEAT_SHARE, Timing, cut, expand, hansen_hurwitz, speed_noise,
    uniform_sample, wanted,
};
use super::types::{Estimate, Sample, Status, peak_resident_bytes};

/// Enough draws for any standard error worth printing; re-drawing units
/// timed whole costs nothing, so without a cap a small plan would draw
/// until the budget ends.
const MAX_DRAWS: usize = 10_000;

/// The budget: the whole estimate's seconds on its clock.
pub(crate) struct Budget<'a> {
    /// Seconds since the estimate began.
    pub(crate) clock: &'a dyn Fn() -> f64,
    pub(crate) seconds: f64,
}

impl Budget<'_> {
    /// Whether a step of `seconds` would end within the budget.
    fn fits(&self, seconds: f64) -> bool {
        (self.clock)() + seconds <= self.seconds
    }

    /// The budget left, in seconds (never negative).
    fn left(&self) -> f64 {
        (self.seconds - (self.clock)()).max(0.0)
    }

    /// Runs `work`, returning what it returned and the seconds it took.
    fn time<T>(
        &self,
        work: impl FnOnce() -> Result<T, QueensError>,
    ) -> Result<(T, f64), QueensError> {
        let start = (self.clock)();
        let value = work()?;
        Ok((value, (self.clock)() - start))
    }
}

/// What the steps timed so far say about the next ones, and the draws
/// made.
#[derive(Default)]
struct Seen {
    parts_timed: usize,
    /// Seconds spent on parts, their shared work included.
    part_seconds_sum: f64,
    /// Parts of parts timed.
    subs_timed: usize,
    sub_seconds_sum: f64,
    shared_max: f64,
    part_shared_max: f64,
    shared_over_budget: bool,
    /// The unit being drawn (among the plan's whole units), and the
    /// estimate from the draws before it.
    unit: usize,
    so_far: Option<Prediction>,
    /// Shared seconds of each part prepared, as first measured, by unit
    /// and part.
    part_shared: HashMap<(usize, Part), f64>,
    /// The finest parts held of each unit held in the plan's parts, once
    /// it is drawn.
    finest: HashMap<usize, FinestHeld>,
    drawn: BTreeMap<usize, Drawn>,
    draws: Vec<Timing>,
    /// Parts of parts timed twice (first, second), and the time spent on
    /// that.
    repeats: Vec<(f64, f64)>,
    repeat_spent: f64,
    /// Seconds spent on draws' work, repeats left out.
    work_spent: f64,
    /// Seconds and weight of the draws timed: what sizes a cut.
    drawn_seconds: f64,
    drawn_weight: f64,
}

impl Seen {
    /// The mean seconds of a part of a part so far, if any was timed.
    fn mean_sub(&self) -> Option<f64> {
        (self.subs_timed > 0).then(|| self.sub_seconds_sum / self.subs_timed as f64)
    }

    /// The mean seconds of a part so far (its shared work and its parts),
    /// if any was timed.
    fn mean_part(&self) -> Option<f64> {
        (self.parts_timed > 0).then(|| self.part_seconds_sum / self.parts_timed as f64)
    }

    /// The predicted seconds of one more part: the largest part shared
    /// work seen and one of its parts.
    fn next_part(&self) -> f64 {
        self.part_shared_max + self.mean_sub().unwrap_or(0.0)
    }

    /// The predicted seconds of one more draw: the largest unit shared
    /// work seen and one part.
    fn next_draw(&self) -> f64 {
        self.shared_max + self.next_part()
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

/// The parts of a unit timed in one draw.
#[derive(Default)]
struct TimedParts {
    parts: Vec<Expanded>,
    /// Seconds spent on them, their shared work included.
    spent: f64,
    /// Sum of their shares timed.
    share: f64,
    /// The last part timed and its own last part timed, with its seconds.
    last: Option<(Part, (Part, f64))>,
}

/// A sample being timed: what has been seen so far, which predicts the
/// steps to come, and the draws made.
pub(crate) struct Sampler<'a, 's> {
    sample: &'a Sample<'s>,
    population: &'a Population,
    budget: Budget<'a>,
    rng: fastrand::Rng,
    seen: Seen,
}

impl<'a, 's> Sampler<'a, 's> {
    /// A sampler of `sample`'s `population` within `budget`.
    pub(crate) fn new(
        sample: &'a Sample<'s>,
        population: &'a Population,
        budget: Budget<'a>,
    ) -> Self {
        Sampler {
            sample,
            population,
            budget,
            rng: fastrand::Rng::with_seed(sample.seed),
            seen: Seen::default(),
        }
    }

    /// Whether every unit of the run was timed whole.
    fn everything(&self) -> bool {
        self.seen.drawn.len() == self.population.held.len()
            && self.seen.drawn.values().all(|d| d.whole.is_some())
    }

    /// Whether another draw is worth making and fits the budget.
    pub(crate) fn goes_on(&self) -> bool {
        !self.population.held.is_empty()
            && self.seen.draws.len() < MAX_DRAWS
            && !self.everything()
            && (self.seen.draws.is_empty() || self.budget.fits(self.seen.next_draw()))
    }

    fn status(&self, part: Option<Part>, part_of_part: Option<Part>) -> Status {
        Status {
            unit: self.seen.unit,
            part,
            part_of_part,
            draws: self.seen.draws.len(),
            so_far: self.seen.so_far,
            left: Duration::from_secs_f64(self.budget.left()),
        }
    }

    /// One draw: a unit drawn by weight, its shared work timed (once per
    /// unit), then a sample of its parts worth about as long, then one of
    /// its parts' parts timed again.
    pub(crate) fn draw(&mut self, watch: &mut dyn FnMut(&Status)) -> Result<(), QueensError> {
        let Sample { split, n, .. } = *self.sample;
        let index = self.population.pick(&mut self.rng);
        let weight = self.population.weight(index);
        let unit = self.population.held[index].unit;
        self.seen.unit = self.population.held[index].index;
        self.seen.so_far = (!self.seen.draws.is_empty())
            .then(|| hansen_hurwitz(&self.seen.draws, self.population.total as f64));
        if let Some(seconds) = self.seen.drawn.get(&index).and_then(|d| d.whole) {
            self.seen.draws.push(Timing {
                weight,
                seconds,
                within: 0.0,
            });
            return Ok(());
        }
        watch(&self.status(None, None));
        let left_before = self.budget.left();
        let (_, measured) = self.budget.time(|| split.prepare_unit(n, unit))?;
        let shared = (self.seen.drawn.entry(index))
            .or_insert_with(|| Drawn {
                shared: measured,
                ..Drawn::default()
            })
            .shared;
        self.seen.shared_max = self.seen.shared_max.max(shared);
        // Before the first draw nothing predicts it; after, only the
        // largest seen so far does, and this unit's may be larger.
        self.seen.shared_over_budget |= measured > left_before;
        // Parts: as much time as the shared work took (the cost of a draw
        // is then balanced between its shared work and its parts), at
        // least a 64th of the budget, at most a quarter of it so that
        // several units are drawn.
        let budget = self.budget.seconds;
        let target = shared.min(budget / 4.0).max(budget / 64.0);
        let cut = self.cut(index, unit)?;
        let timed = self.time_parts(unit, &cut, target, watch)?;
        self.seen.work_spent += measured + timed.spent;
        if let Some((part, last)) = timed.last {
            self.repeat(unit, part, last, watch)?;
        }
        let of = cut.count;
        let estimate = expand(shared, &timed.parts, of);
        let known = self.seen.drawn.entry(index).or_default();
        known.share = known.share.max(timed.share / f64::from(of));
        if estimate.whole {
            known.whole = Some(estimate.seconds);
        }
        self.seen.draws.push(Timing {
            weight,
            seconds: estimate.seconds,
            within: estimate.within,
        });
        self.seen.drawn_seconds += estimate.seconds;
        self.seen.drawn_weight += weight;
        Ok(())
    }

    /// The parts of held unit `index` that a draw samples: a unit held
    /// whole is cut as its predicted time says (from the draws so far), as
    /// one range of parts; of one held in the plan's parts, the finest
    /// parts those hold are the population.
    fn cut(&mut self, index: usize, unit: WorkUnit) -> Result<FinestHeld, QueensError> {
        let Sample { split, n, .. } = *self.sample;
        let Some(parts) = &self.population.held[index].parts else {
            let rate = (self.seen.drawn_weight > 0.0)
                .then(|| self.seen.drawn_seconds / self.seen.drawn_weight);
            let predicted = rate.map(|rate| rate * self.population.weight(index));
            let of = cut(split.parts(n, unit), predicted, self.budget.seconds);
            return FinestHeld::new(&[Part::WHOLE], of);
        };
        let finest = match self.seen.finest.get(&index) {
            Some(known) => known.clone(),
            None => FinestHeld::new(parts, split.parts(n, unit).max(1))?,
        };
        self.seen.finest.insert(index, finest.clone());
        Ok(finest)
    }

    /// Times a uniform sample of `cut`'s parts of `unit` (already
    /// prepared), as many as take about `target` seconds at the mean part
    /// so far, fixed before they are timed; the first always (the check
    /// before the draw counted it), the others while they fit the budget.
    fn time_parts(
        &mut self,
        unit: WorkUnit,
        cut: &FinestHeld,
        target: f64,
        watch: &mut dyn FnMut(&Status),
    ) -> Result<TimedParts, QueensError> {
        let of = cut.count;
        let count = wanted(of, target, self.seen.mean_part());
        let order = uniform_sample(&mut self.rng, of, count);
        let mut timed = TimedParts::default();
        for &k in &order {
            if !timed.parts.is_empty() && !self.budget.fits(self.seen.next_part()) {
                break;
            }
            self.time_part(unit, cut.part(k), target, &mut timed, watch)?;
        }
        Ok(timed)
    }

    /// Times `part` of `unit` (already prepared): its shared work, then a
    /// uniform sample of its parts worth about `seconds`; adds it to
    /// `timed`.
    fn time_part(
        &mut self,
        unit: WorkUnit,
        part: Part,
        seconds: f64,
        timed: &mut TimedParts,
        watch: &mut dyn FnMut(&Status),
    ) -> Result<(), QueensError> {
        let Sample { split, n, .. } = *self.sample;
        watch(&self.status(Some(part), None));
        let left_before = self.budget.left();
        let (of, measured) = self.budget.time(|| split.prepare_part(n, unit, part))?;
        let of = of.max(1);
        let shared = *self
            .seen
            .part_shared
            .entry((self.seen.unit, part))
            .or_insert(measured);
        self.seen.part_shared_max = self.seen.part_shared_max.max(shared);
        self.seen.shared_over_budget |= measured > left_before;
        let count = wanted(of, shared.min(seconds), self.seen.mean_sub());
        let order = uniform_sample(&mut self.rng, of, count);
        let mut subs = Vec::with_capacity(order.len());
        let mut last = (Part::WHOLE, 0.0);
        for &index in &order {
            // The first always: the check before this part counted it.
            if !subs.is_empty() && !self.budget.fits(self.seen.mean_sub().unwrap_or(0.0)) {
                break;
            }
            let sub = Part { index, of };
            watch(&self.status(Some(part), Some(sub)));
            let ((), t) = self.budget.time(|| self.count(unit, part, sub))?;
            subs.push(Expanded::measured(t));
            self.seen.subs_timed += 1;
            self.seen.sub_seconds_sum += t;
            last = (sub, t);
        }
        let spent = measured + subs.iter().map(|s| s.seconds).sum::<f64>();
        timed.parts.push(expand(shared, &subs, of));
        timed.spent += spent;
        timed.share += subs.len() as f64 / f64::from(of);
        timed.last = Some((part, last));
        self.seen.part_seconds_sum += spent;
        self.seen.parts_timed += 1;
        Ok(())
    }

    /// Counts part `sub` of `part` of `unit`: the part whole when it is not
    /// cut.
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

    /// The draw's last part of a part again, while its part is prepared
    /// (both timings warm: the first part of a part also pays for its
    /// buffers growing): within a tenth of the time spent, if it fits the
    /// budget.
    fn repeat(
        &mut self,
        unit: WorkUnit,
        part: Part,
        (sub, seconds): (Part, f64),
        watch: &mut dyn FnMut(&Status),
    ) -> Result<(), QueensError> {
        if self.seen.repeat_spent + seconds > REPEAT_SHARE * self.seen.work_spent
            || !self.budget.fits(seconds)
        {
            return Ok(());
        }
        watch(&self.status(Some(part), Some(sub)));
        let ((), t) = self.budget.time(|| self.count(unit, part, sub))?;
        self.seen.repeat_spent += t;
        self.seen.repeats.push((seconds, t));
        Ok(())
    }

    /// The whole run's seconds and standard error: the measured sum when
    /// every unit was timed whole (only the machine's speed moves it),
    /// else the Hansen-Hurwitz estimate with the speed's noise added.
    fn prediction(&self) -> Prediction {
        let noise = speed_noise(&self.seen.repeats);
        if self.everything() {
            // Folded from +0.0: an empty sum of floats is -0.0, which an
            // empty shard would print.
            let seconds = (self.seen.drawn.values())
                .filter_map(|d| d.whole)
                .fold(0.0, |sum, s| sum + s);
            return Prediction {
                seconds,
                standard_error: seconds * noise,
            };
        }
        let sampled = hansen_hurwitz(&self.seen.draws, self.population.total as f64);
        Prediction {
            seconds: sampled.seconds,
            standard_error: (sampled.standard_error.powi(2) + (sampled.seconds * noise).powi(2))
                .sqrt(),
        }
    }

    /// What the sample says, `sampled` seconds after it began.
    pub(crate) fn result(&self, sampled: f64) -> Estimate {
        let Sample { plan, chosen, .. } = *self.sample;
        let population = self.population;
        let total = population.total;
        // Folded from +0.0: an empty sum of floats is -0.0.
        let timed_weight =
            (self.seen.drawn.iter()).fold(0.0, |sum, (&i, d)| sum + population.weight(i) * d.share);
        let Prediction {
            seconds,
            standard_error,
        } = self.prediction();
        // A part's predicted time is its share of the run's by weight, as
        // the plan weighs it: what threads and shards hand out.
        let longest_piece_seconds = (population.heaviest_part(plan, chosen))
            .map_or(0.0, |w| seconds / total as f64 * w as f64);
        Estimate {
            units: population.held.len(),
            pieces: chosen.map_or(plan.len(), <[usize]>::len),
            longest_piece_seconds,
            timed: self.seen.drawn.len(),
            draws: self.seen.draws.len(),
            parts_timed: self.seen.parts_timed,
            sub_parts_timed: self.seen.subs_timed,
            weight_share: timed_weight / total.max(1) as f64,
            sample_seconds: sampled,
            budget_seconds: self.budget.seconds,
            shared_seconds_max: self.seen.shared_max,
            part_shared_seconds_max: self.seen.part_shared_max,
            shared_over_budget: self.seen.shared_over_budget,
            repeats: self.seen.repeats.len(),
            speed_noise: speed_noise(&self.seen.repeats),
            seconds,
            standard_error,
            peak_bytes: peak_resident_bytes(),
        }
    }
}
