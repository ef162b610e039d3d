use std::collections::HashSet;
use std::sync::Mutex;

use std::time::{Duration, Instant};

use queens_core::split::{Part, Plan, UnitCount, WorkSplit, WorkUnit, shard_units};

use super::population::{FinestHeld, Held, finest_parts, holdings, holdings_all};
use super::stats::{
    Expanded, MAX_CUT, Timing, cut, draw, expand, hansen_hurwitz, uniform_sample, wanted,
};
use super::*;

fn timing(weight: f64, seconds: f64) -> Timing {
    Timing {
        weight,
        seconds,
        within: 0.0,
    }
}

#[test]
fn weights_exactly_proportional_to_time_give_the_exact_total_from_any_draw() {
    // Units of weights 1, 3, 6 taking 2 s per weight: 20 s in all.
    let draws = [timing(3.0, 6.0), timing(1.0, 2.0)];
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
            let one = hansen_hurwitz(&[timing(weight, seconds)], total_weight).seconds;
            weight / total_weight * one
        })
        .sum();
    assert!((expected - truth).abs() < 1e-9);
}

fn measured(seconds: &[f64]) -> Vec<Expanded> {
    seconds.iter().map(|&s| Expanded::measured(s)).collect()
}

#[test]
fn a_units_expansion_from_parts_is_unbiased_and_exact_when_whole() {
    // Shared 1 s, parts of 1, 2, 6 s: 10 s in all.
    let parts = measured(&[1.0, 2.0, 6.0]);
    assert_eq!(expand(1.0, &parts, 3), Expanded::measured(10.0));
    // Every pair of parts, equally likely, averages to the unit's time.
    let pairs = [[1.0, 2.0], [1.0, 6.0], [2.0, 6.0]].map(|p| measured(&p));
    let mean: f64 = pairs.iter().map(|p| expand(1.0, p, 3).seconds).sum::<f64>() / 3.0;
    assert!((mean - 10.0).abs() < 1e-9);
    // And the within-unit variance estimate averages to the true variance
    // of that expansion over the pairs.
    let truth = pairs
        .iter()
        .map(|p| (expand(1.0, p, 3).seconds - 10.0).powi(2))
        .sum::<f64>()
        / 3.0;
    let estimated = pairs.iter().map(|p| expand(1.0, p, 3).within).sum::<f64>() / 3.0;
    assert!((estimated - truth).abs() < 1e-9, "{estimated} vs {truth}");
}

/// Every way of drawing `m` of a list's items, equally likely.
fn choices(items: usize, m: usize) -> Vec<Vec<usize>> {
    if m == 0 {
        return vec![Vec::new()];
    }
    (m - 1..items)
        .flat_map(|last| {
            choices(last, m - 1).into_iter().map(move |mut c| {
                c.push(last);
                c
            })
        })
        .collect()
}

#[test]
fn a_three_stage_expansion_and_its_variance_are_unbiased_over_every_sample() {
    // A unit of shared 1 s and three parts: shared seconds and parts of parts
    // (1 + 2 + 6 + 0.5 + 3 + 3 + 4 + 2 + 9 + 1 + 1 = 32.5 s in all).
    let parts: [(f64, &[f64]); 3] = [
        (0.5, &[1.0, 2.0, 6.0]),
        (0.0, &[3.0, 3.0, 4.0]),
        (1.0, &[2.0, 9.0, 1.0]),
    ];
    let truth = 1.0
        + parts
            .iter()
            .map(|(q, subs)| q + subs.iter().sum::<f64>())
            .sum::<f64>();
    // Two of the three parts, two of each one's three parts of parts: every
    // such sample is equally likely; their mean estimate is the truth and
    // their mean variance estimate the true variance of the estimate.
    let mut estimates = Vec::new();
    for chosen in choices(3, 2) {
        let per_part: Vec<Vec<Expanded>> = chosen
            .iter()
            .map(|&j| {
                let (q, subs) = parts[j];
                choices(3, 2)
                    .iter()
                    .map(|c| {
                        expand(
                            q,
                            &measured(&c.iter().map(|&k| subs[k]).collect::<Vec<_>>()),
                            3,
                        )
                    })
                    .collect()
            })
            .collect();
        for a in &per_part[0] {
            for b in &per_part[1] {
                estimates.push(expand(1.0, &[*a, *b], 3));
            }
        }
    }
    let count = estimates.len() as f64;
    let mean = estimates.iter().map(|e| e.seconds).sum::<f64>() / count;
    assert!((mean - truth).abs() < 1e-9, "{mean} vs {truth}");
    let variance = estimates
        .iter()
        .map(|e| (e.seconds - truth).powi(2))
        .sum::<f64>()
        / count;
    let estimated = estimates.iter().map(|e| e.within).sum::<f64>() / count;
    assert!(
        (estimated - variance).abs() < 1e-9 * variance,
        "{estimated} vs {variance}"
    );
    assert!(estimates.iter().all(|e| !e.whole));
}

#[test]
fn the_parts_own_spread_is_carried_when_draws_happen_to_agree() {
    // Two draws that agree exactly have no spread between them, but their
    // units were only sampled: the error is not zero.
    let draw = Timing {
        weight: 1.0,
        seconds: 4.0,
        within: 1.0,
    };
    let p = hansen_hurwitz(&[draw, draw], 2.0);
    assert!((p.seconds - 8.0).abs() < 1e-9);
    // (W/w)^2 v summed over 2 draws, over k^2 = 4: 4 + 4 over 4.
    assert!((p.standard_error - 2f64.sqrt()).abs() < 1e-9);
}

#[test]
fn the_speed_noise_is_the_spread_of_one_timing() {
    assert_eq!(speed_noise(&[]), 0.0);
    // Timings 10 % apart: one timing's share of the spread is that over
    // sqrt(2), and a pair of microseconds hardly moves it.
    let noise = speed_noise(&[(1.0, 1.1), (2.0, 1.8), (1e-6, 5e-6)]);
    assert!((noise - 0.1 / 2f64.sqrt()).abs() < 1e-6, "{noise}");
}

#[test]
fn a_unit_is_cut_finely_until_its_time_is_known_then_into_parts_that_last() {
    // Nothing known: the finest cut the engine offers (capped).
    assert_eq!(cut(100, None, 45.0), 100);
    assert_eq!(cut(u32::MAX, None, 45.0), MAX_CUT);
    assert_eq!(cut(0, None, 45.0), 1);
    // A unit predicted at 10 s with 256 s of budget: parts of about 1 s.
    assert_eq!(cut(100, Some(10.0), 256.0), 10);
    // A unit shorter than one such part stays whole; a long one is cut as
    // finely as offered.
    assert_eq!(cut(100, Some(0.1), 256.0), 1);
    assert_eq!(cut(100, Some(1e6), 256.0), 100);
}

#[test]
fn a_draw_lands_on_each_unit_in_proportion_to_its_weight() {
    // Weights 2, 0 (never drawn), 3 laid end to end: points 0..5.
    let cumulative = [2, 2, 5];
    let landed: Vec<usize> = (0..5).map(|p| draw(&cumulative, p)).collect();
    assert_eq!(landed, vec![0, 0, 2, 2, 2]);
}

/// One step an engine was asked for: unit key, part (`None`: the unit's
/// shared work) and part of a part (`None`: the part's shared work), as a
/// [`Status`] names it.
type Step = (u64, Option<Part>, Option<Part>);

/// What a fake engine was asked to do, in order.
#[derive(Default)]
struct Log(Mutex<Vec<Step>>);

impl Log {
    fn push(&self, key: u64, part: Option<Part>, sub: Option<Part>) {
        self.0.lock().unwrap().push((key, part, sub));
    }

    fn steps(&self) -> Vec<Step> {
        self.0.lock().unwrap().clone()
    }

    /// Asserts that the watcher heard of every step, in order, before it
    /// ran.
    fn assert_watched(&self, seen: &[Status]) {
        let heard: Vec<Step> = seen
            .iter()
            .map(|s| (s.unit as u64, s.part, s.part_of_part))
            .collect();
        assert_eq!(heard, self.steps());
    }

    /// Steps of each kind: units prepared, parts prepared, counts.
    fn kinds(&self) -> (usize, usize, usize) {
        let steps = self.steps();
        let of = |f: fn(&Step) -> bool| steps.iter().filter(|s| f(s)).count();
        (
            of(|s| s.1.is_none()),
            of(|s| s.1.is_some() && s.2.is_none()),
            of(|s| s.2.is_some()),
        )
    }
}

/// A fake engine whose work is sleeping: unit `key` has shared work of
/// `shared` ms and `parts` parts, part `j` sleeping `1 + (key + j) % 4`
/// ms (parts not cut further); what it did is logged.
struct Sleepy {
    units: u64,
    parts: u32,
    shared: u64,
    log: Log,
}

impl Sleepy {
    fn new(units: u64, parts: u32, shared: u64) -> Self {
        Sleepy {
            units,
            parts,
            shared,
            log: Log::default(),
        }
    }

    fn part_ms(&self, key: u64, part: u32) -> u64 {
        1 + (key + u64::from(part)) % 4
    }
}

fn nap(ms: u64) {
    std::thread::sleep(Duration::from_millis(ms));
}

/// Units `0..count` weighing 1, 2, 3, 1, 2, ...: weights that do not
/// follow the fake engines' times, so that the draws' expansion matters.
fn plan_of(count: u64) -> Plan {
    let units = (0..count)
        .map(|key| WorkUnit::whole(key, 1 + key % 3))
        .collect();
    Plan::whole(units, 0)
}

/// The engine parts `part` of a cut into `part.of` holds, of `parts`: a
/// part of a coarser cut holds several.
fn held(part: Part, parts: u32) -> std::ops::Range<u32> {
    part.index * parts / part.of..(part.index + 1) * parts / part.of
}

impl WorkSplit for Sleepy {
    fn version(&self) -> &'static str {
        "sleepy/1"
    }
    fn plan(&self, _: usize) -> Result<Plan, QueensError> {
        Ok(plan_of(self.units))
    }
    fn count_unit(&self, _: usize, unit: WorkUnit, _: bool) -> Result<UnitCount, QueensError> {
        nap(self.shared);
        for j in 0..self.parts {
            nap(self.part_ms(unit.key, j));
        }
        Ok(UnitCount::default())
    }
    fn parts(&self, _: usize, _: WorkUnit) -> u32 {
        self.parts
    }
    fn prepare_unit(&self, _: usize, unit: WorkUnit) -> Result<u64, QueensError> {
        self.log.push(unit.key, None, None);
        nap(self.shared);
        Ok(0)
    }
    fn prepare_part(&self, _: usize, unit: WorkUnit, part: Part) -> Result<u32, QueensError> {
        self.log.push(unit.key, Some(part), None);
        Ok(1)
    }
    fn count_part(
        &self,
        _: usize,
        unit: WorkUnit,
        part: Part,
        _: bool,
    ) -> Result<UnitCount, QueensError> {
        self.log.push(unit.key, Some(part), Some(Part::WHOLE));
        for j in held(part, self.parts) {
            nap(self.part_ms(unit.key, j));
        }
        Ok(UnitCount::default())
    }
}

/// The parts of `plan` in shard `shard` (index, count), or all of them.
fn parts_of(plan: &Plan, shard: Option<(usize, usize)>) -> Vec<usize> {
    match shard {
        Some((index, count)) => shard_units(plan, index, count),
        None => (0..plan.len()).collect(),
    }
}

/// Estimates `engine`'s plan (one shard of it, given) on `clock` (the
/// real one when `None`), returning the estimate and every status the
/// watcher heard.
fn run_on(
    engine: &dyn WorkSplit,
    clock: Option<&FakeClock>,
    budget: Duration,
    seed: u64,
    shard: Option<(usize, usize)>,
) -> (Estimate, Vec<Status>) {
    let plan = engine.plan(0).unwrap();
    let chosen = shard.map(|_| parts_of(&plan, shard));
    let mut seen = Vec::new();
    let sample = Sample {
        split: engine,
        n: 0,
        plan: &plan,
        chosen: chosen.as_deref(),
        unique: false,
        budget,
        started: Instant::now(),
        seed,
    };
    let mut watch = |status: &Status| seen.push(*status);
    let estimate = match clock {
        Some(clock) => estimate_on(&sample, &|| clock.seconds(), &mut watch),
        None => estimate(&sample, &mut watch),
    }
    .unwrap();
    (estimate, seen)
}

fn run(engine: &Sleepy, budget_ms: u64, seed: u64) -> (Estimate, Vec<Status>) {
    run_on(engine, None, Duration::from_millis(budget_ms), seed, None)
}

#[test]
fn an_engine_of_whole_units_is_timed_whole_and_a_small_plan_exactly() {
    let engine = Sleepy::new(3, 1, 0);
    let (estimate, seen) = run(&engine, 10_000, 1);
    assert_eq!((estimate.timed, estimate.units), (3, 3));
    // No sampling error: only the machine's speed, as the repeats saw it.
    assert_eq!(
        estimate.standard_error,
        estimate.seconds * estimate.speed_noise
    );
    assert_eq!(estimate.weight_share, 1.0);
    // Each unit prepared once and timed as its one part, not cut further.
    assert_eq!(engine.log.kinds().0, 3);
    assert!(
        engine
            .log
            .steps()
            .iter()
            .all(|&(_, part, sub)| part.is_none_or(|p| p == Part::WHOLE)
                && sub.is_none_or(|s| s == Part::WHOLE))
    );
    assert_eq!(estimate.sub_parts_timed, estimate.parts_timed);
    assert!(seen.iter().any(|s| s.part.is_none()));
}

#[test]
fn a_unit_is_timed_in_part_its_shared_work_once_a_draw() {
    // 16 parts of up to 4 ms and no shared work: a 64th of a 100 ms budget
    // is one or two parts' time, so a draw times two, and no unit is timed
    // whole.
    let engine = Sleepy::new(4, 16, 0);
    let (estimate, seen) = run(&engine, 100, 7);
    assert!(estimate.draws >= 2, "{estimate:?}");
    assert!(estimate.parts_timed < 16 * estimate.draws);
    assert!(estimate.weight_share < 1.0);
    assert!(estimate.standard_error > 0.0);
    engine.log.assert_watched(&seen);
    let (units, parts, counts) = engine.log.kinds();
    assert_eq!(units, estimate.draws);
    assert_eq!(parts, estimate.parts_timed);
    // Parts timed again are logged, not counted as parts of the sample.
    assert_eq!(counts, estimate.sub_parts_timed + estimate.repeats);
    assert_eq!(estimate.sub_parts_timed, estimate.parts_timed);
}

#[test]
fn the_budget_bounds_the_whole_estimate_and_a_long_shared_work_is_reported() {
    // Shared work of 30 ms each against a 50 ms budget: the second unit's
    // shared work is predicted not to fit, so one unit is drawn.
    let engine = Sleepy::new(6, 8, 30);
    let started = Instant::now();
    let (estimate, _) = run(&engine, 50, 3);
    let took = started.elapsed().as_secs_f64();
    assert_eq!(estimate.draws, 1, "{estimate:?}");
    assert!(!estimate.shared_over_budget);
    // Past the budget by at most one part (4 ms) and scheduling noise.
    assert!(took < 0.05 + 0.004 + 0.05, "took {took} s");
    assert!(estimate.standard_error >= estimate.seconds);
    // A budget shorter than one unit's shared work says so.
    let (estimate, _) = run(&engine, 10, 3);
    assert!(estimate.shared_over_budget);
    assert_eq!(estimate.parts_timed, 1);
}

/// The light honesty check (CI): ten estimates of a sleeping engine with a
/// small budget, each against the time of the whole run measured once.
/// A nominal 95 % interval (± 2 standard errors) should hold about 9.5 of
/// 10; at least 6 allows for a loaded machine's noise in the timings and
/// for the few draws a small budget affords (the standard error of a
/// handful of draws is itself uncertain), while an estimator that ignored
/// the within-unit spread or a biased one would miss far more often.
#[test]
fn the_interval_of_two_standard_errors_holds_the_full_time_in_most_trials() {
    let engine = Sleepy::new(12, 16, 2);
    let plan = engine.plan(0).unwrap();
    let timer = Instant::now();
    for unit in plan.iter() {
        engine.count_unit(0, unit, false).unwrap();
    }
    let truth = timer.elapsed().as_secs_f64();
    let covered = (0..10)
        .filter(|&seed| {
            let (e, _) = run(&engine, 80, seed);
            (e.seconds - truth).abs() <= 2.0 * e.standard_error
        })
        .count();
    assert!(covered >= 6, "{covered} of 10 intervals held {truth} s");
}

/// A clock that moves only when a fake engine says its work took time:
/// the true time of a whole run is then known exactly, and an estimate
/// takes no real time at all. It also keeps when each step started and
/// how long it took.
#[derive(Default)]
struct FakeClock(Mutex<(f64, Vec<(f64, f64)>)>);

impl FakeClock {
    fn advance(&self, seconds: f64) {
        let mut clock = self.0.lock().unwrap();
        let now = clock.0;
        clock.1.push((now, seconds));
        clock.0 += seconds;
    }

    fn reset(&self) {
        *self.0.lock().unwrap() = (0.0, Vec::new());
    }

    /// Asserts that no step started past `budget`, so that the estimate
    /// ended within it but for one step longer than predicted.
    fn assert_within(&self, budget: f64) {
        let clock = self.0.lock().unwrap();
        let longest = clock.1.iter().map(|s| s.1).fold(0.0, f64::max);
        assert!(clock.1.iter().all(|s| s.0 <= budget), "{:?}", clock.1);
        assert!(clock.0 <= budget + longest, "{} s", clock.0);
    }

    fn seconds(&self) -> f64 {
        self.0.lock().unwrap().0
    }
}

/// A fake engine of three levels on a [`FakeClock`]: units of `parts`
/// parts, each part with its own shared work and cut into parts of parts (some
/// parts not cut at all), their seconds spread over a factor of hundreds
/// as half-join's file sets are. Seconds are scaled by `scale`, the
/// parts' shared work by `part_shared` besides. With `cut`, its plan cuts
/// units of weights 8, 16, 24, ... into parts of about that weight; with
/// `shard`, the estimate is of that shard of the plan.
struct Layered {
    units: u64,
    parts: u32,
    scale: f64,
    part_shared: f64,
    uneven: bool,
    cut: Option<u64>,
    shard: Option<(usize, usize)>,
    clock: FakeClock,
    log: Log,
}

/// Engine part `j` of unit `key`: its shared seconds and its parts of parts'.
struct Piece {
    shared: f64,
    subs: Vec<f64>,
}

impl Layered {
    fn new(units: u64, parts: u32) -> Self {
        Layered {
            units,
            parts,
            scale: 1.0,
            part_shared: 1.0,
            uneven: false,
            cut: None,
            shard: None,
            clock: FakeClock::default(),
            log: Log::default(),
        }
    }

    fn unit_shared(&self, key: u64) -> f64 {
        self.scale * (0.2 + 0.1 * (key % 3) as f64)
    }

    fn piece(&self, key: u64, j: u32) -> Piece {
        let j = u64::from(j);
        let size = (key * 5 + j * 11) % 7;
        let shared = self.scale * self.part_shared * 0.05 * (1 + (key + j) % 4) as f64;
        if self.uneven {
            // Parts of parts from 0.1 to 3.2 s, longer in longer parts.
            let cut = 1 + (key * 7 + j * 3) % 6;
            let base = 0.1 * f64::from(1u32 << size);
            return Piece {
                shared,
                subs: (0..cut)
                    .map(|k| self.scale * base * (1 + k % 3) as f64)
                    .collect(),
            };
        }
        // Parts of parts of 0.2 to 0.6 s, 1 to 64 of them: a long part is
        // more parts of parts, as an engine cuts them.
        Piece {
            shared,
            subs: (0..1u64 << size)
                .map(|k| self.scale * 0.2 * (1 + (k + key) % 3) as f64)
                .collect(),
        }
    }

    /// The parts a part of a (possibly coarser) cut holds.
    fn pieces(&self, key: u64, part: Part) -> Vec<Piece> {
        held(part, self.parts).map(|j| self.piece(key, j)).collect()
    }

    /// The run's parts: the whole plan, or the shard's.
    fn chosen(&self) -> (Plan, Vec<usize>) {
        let plan = self.plan(0).unwrap();
        let chosen = parts_of(&plan, self.shard);
        (plan, chosen)
    }

    /// The exact seconds of the run: each unit it holds a part of pays
    /// its shared work once, and every engine part its parts hold.
    fn truth(&self) -> f64 {
        let (plan, chosen) = self.chosen();
        let keys: HashSet<u64> = chosen.iter().map(|&i| plan.unit(i).key).collect();
        let parts: f64 = chosen
            .iter()
            .flat_map(|&i| {
                let unit = plan.unit(i);
                held(unit.piece, self.parts).map(move |j| self.piece(unit.key, j))
            })
            .map(|p| p.shared + p.subs.iter().sum::<f64>())
            .sum();
        keys.iter().map(|&key| self.unit_shared(key)).sum::<f64>() + parts
    }

    fn run(&self, budget: f64, seed: u64) -> (Estimate, Vec<Status>) {
        self.clock.reset();
        self.log.0.lock().unwrap().clear();
        run_on(
            self,
            Some(&self.clock),
            Duration::from_secs_f64(budget),
            seed,
            self.shard,
        )
    }
}

impl WorkSplit for Layered {
    fn version(&self) -> &'static str {
        "layered/1"
    }
    fn plan(&self, _: usize) -> Result<Plan, QueensError> {
        Ok(match self.cut {
            None => plan_of(self.units),
            Some(target) => {
                let units = (0..self.units)
                    .map(|key| WorkUnit::whole(key, 8 * (1 + key % 3)))
                    .collect();
                Plan::cut(units, 0, target, |_| self.parts)
            }
        })
    }
    fn count_unit(&self, _: usize, unit: WorkUnit, _: bool) -> Result<UnitCount, QueensError> {
        unreachable!("an estimate times units in parts: {unit:?}")
    }
    fn parts(&self, _: usize, unit: WorkUnit) -> u32 {
        assert_eq!(unit.piece, Part::WHOLE, "a piece is not the engine's unit");
        self.parts
    }
    fn prepare_unit(&self, _: usize, unit: WorkUnit) -> Result<u64, QueensError> {
        assert_eq!(unit.piece, Part::WHOLE, "a piece is not the engine's unit");
        self.log.push(unit.key, None, None);
        self.clock.advance(self.unit_shared(unit.key));
        Ok(0)
    }
    fn prepare_part(&self, _: usize, unit: WorkUnit, part: Part) -> Result<u32, QueensError> {
        assert_eq!(unit.piece, Part::WHOLE, "a piece is not the engine's unit");
        self.log.push(unit.key, Some(part), None);
        let pieces = self.pieces(unit.key, part);
        self.clock.advance(pieces.iter().map(|p| p.shared).sum());
        Ok(pieces.iter().map(|p| p.subs.len() as u32).sum())
    }
    fn count_part(
        &self,
        _: usize,
        unit: WorkUnit,
        part: Part,
        _: bool,
    ) -> Result<UnitCount, QueensError> {
        self.log.push(unit.key, Some(part), Some(Part::WHOLE));
        let pieces = self.pieces(unit.key, part);
        self.clock
            .advance(pieces.iter().flat_map(|p| &p.subs).sum::<f64>());
        Ok(UnitCount::default())
    }
    fn count_sub_part(
        &self,
        _: usize,
        unit: WorkUnit,
        part: Part,
        sub: Part,
        _: bool,
    ) -> Result<UnitCount, QueensError> {
        self.log.push(unit.key, Some(part), Some(sub));
        let pieces = self.pieces(unit.key, part);
        let subs: Vec<f64> = pieces.iter().flat_map(|p| p.subs.clone()).collect();
        assert!(sub.is_valid(subs.len() as u32), "{sub:?} of {part:?}");
        self.clock.advance(subs[sub.index as usize]);
        Ok(UnitCount::default())
    }
}

#[test]
fn the_three_stage_estimate_is_unbiased_over_many_seeds() {
    let engine = Layered::new(12, 8);
    let truth = engine.truth();
    let seeds = 400;
    let estimates: Vec<f64> = (0..seeds)
        .map(|seed| engine.run(20.0, seed).0.seconds)
        .collect();
    let mean = estimates.iter().sum::<f64>() / seeds as f64;
    let spread =
        (estimates.iter().map(|e| (e - mean).powi(2)).sum::<f64>() / (seeds - 1) as f64).sqrt();
    // The mean of 400 estimates lies within 3 standard errors of that mean
    // of the truth (a biased estimator drifts out of it).
    let error_of_mean = spread / (seeds as f64).sqrt();
    assert!(
        (mean - truth).abs() <= 3.0 * error_of_mean,
        "mean {mean} vs truth {truth} (± {error_of_mean})"
    );
    // And the sample was a sample, not the whole run.
    assert!(spread > 0.0);
}

#[test]
fn the_three_stage_interval_holds_the_truth_in_most_seeds() {
    let engine = Layered::new(12, 8);
    let truth = engine.truth();
    let seeds = 200;
    let covered = (0..seeds)
        .filter(|&seed| {
            let (e, _) = engine.run(20.0, seed);
            (e.seconds - truth).abs() <= 2.0 * e.standard_error
        })
        .count();
    // Nominal 95 %; about ten draws of a skewed population (parts from a
    // fifth of a second to half a minute) make the standard error itself
    // noisy and often short, so fewer hold: at least 80 %, which an
    // interval much too short or off its centre would not reach.
    assert!(covered * 100 >= 80 * seeds as usize, "{covered} of {seeds}");
}

#[test]
fn parts_of_parts_are_timed_as_sampled_and_counted_as_timed() {
    let engine = Layered::new(12, 8);
    for seed in 0..20 {
        let (estimate, seen) = engine.run(20.0, seed);
        engine.log.assert_watched(&seen);
        let steps = engine.log.steps();
        let (units, parts, counts) = engine.log.kinds();
        assert_eq!(units, estimate.draws);
        assert_eq!(parts, estimate.parts_timed);
        assert_eq!(counts, estimate.sub_parts_timed + estimate.repeats);
        assert!(
            estimate.sub_parts_timed > estimate.parts_timed,
            "{estimate:?}"
        );
        // Each part prepared is followed by its own parts of parts, at least
        // one, never the same twice but for the draw's one repeat, each
        // in the cut its part was prepared with.
        for (i, step) in steps.iter().enumerate() {
            let (key, Some(part), None) = *step else {
                continue;
            };
            let of = engine
                .pieces(key, part)
                .iter()
                .map(|p| p.subs.len() as u32)
                .sum();
            let subs: Vec<Part> = steps[i + 1..]
                .iter()
                .take_while(|s| s.0 == key && s.1 == Some(part) && s.2.is_some())
                .filter_map(|s| s.2)
                .collect();
            assert!(!subs.is_empty(), "part {part:?} of unit {key} not timed");
            let distinct: HashSet<Part> = subs.iter().copied().collect();
            assert!(subs.len() - distinct.len() <= 1, "{subs:?}");
            for sub in subs {
                if of == 1 {
                    assert_eq!(sub, Part::WHOLE);
                } else {
                    assert!(sub.of == of && sub.is_valid(of), "{sub:?} of {of}");
                }
            }
        }
        engine.clock.assert_within(20.0);
    }
}

#[test]
fn a_small_plan_timed_to_its_last_part_of_a_part_is_its_exact_time() {
    // Parts whose shared work is long against their parts of parts: every
    // part of a part is timed once one has been seen, so with budget enough
    // every unit is timed whole in some draw. The same holds for a shard
    // of a plan cut into parts: its answer is the time of the parts it
    // holds and nothing else.
    for (cut, shard) in [(None, None), (Some(6), Some((2, 3)))] {
        let mut engine = Layered::new(4, 4);
        engine.part_shared = 1000.0;
        engine.cut = cut;
        engine.shard = shard;
        let (estimate, _) = engine.run(1e7, 1);
        let truth = engine.truth();
        assert!(
            (estimate.seconds - truth).abs() < 1e-9 * truth,
            "{} vs {truth}",
            estimate.seconds
        );
        assert_eq!(estimate.standard_error, 0.0);
        assert_eq!(estimate.weight_share, 1.0);
        let (plan, chosen) = engine.chosen();
        // The shard holds some unit only in part.
        let partly = holdings(&plan, &chosen).iter().any(|h| h.parts.is_some());
        assert_eq!(partly, shard.is_some());
        let subs: usize = chosen
            .iter()
            .map(|&i| plan.unit(i))
            .flat_map(|unit| held(unit.piece, 4).map(move |j| (unit.key, j)))
            .map(|(key, j)| engine.piece(key, j).subs.len())
            .sum();
        assert!(estimate.sub_parts_timed >= subs, "{estimate:?}");
    }
}

#[test]
fn slow_parts_of_parts_keep_the_budget_and_the_first_is_always_timed() {
    // Parts of parts from a tenth of a second to twenty seconds against a 5 s
    // budget: no step starts that its prediction says would pass the
    // budget.
    let mut engine = Layered::new(12, 8);
    engine.uneven = true;
    for seed in 0..50 {
        let (estimate, _) = engine.run(5.0, seed);
        engine.clock.assert_within(5.0);
        assert!(estimate.sub_parts_timed >= 1);
    }
    // A first step far longer than the whole budget is said to be, and
    // one part of a part of one part is still timed, and nothing after it.
    engine.scale = 100.0;
    let (estimate, _) = engine.run(5.0, 3);
    assert_eq!(
        (
            estimate.draws,
            estimate.parts_timed,
            estimate.sub_parts_timed
        ),
        (1, 1, 1),
        "{estimate:?}"
    );
    assert!(estimate.shared_over_budget);
    assert!(estimate.standard_error >= estimate.seconds);
}

/// The sample ends with the budget, and how soon depends on the times
/// drawn: where a long part's parts of parts are long too (not more of them),
/// a long draw ends the sample early and the mean leans toward it. With
/// more draws that lean fades (see the module documentation).
#[test]
fn the_lean_of_a_budget_spent_on_long_parts_of_parts_fades_with_the_draws() {
    let mut engine = Layered::new(12, 8);
    engine.uneven = true;
    let truth = engine.truth();
    let lean = |budget: f64| {
        let seeds = 100u32;
        let mean = (0..seeds)
            .map(|seed| engine.run(budget, u64::from(seed)).0.seconds)
            .sum::<f64>()
            / f64::from(seeds);
        (mean - truth).abs() / truth
    };
    let (short, long) = (lean(20.0), lean(1000.0));
    assert!(long < short, "{long} vs {short}");
    assert!(long < 0.05, "{long}");
}

#[test]
fn a_part_is_cut_into_parts_by_its_own_shared_time() {
    // Nothing seen: two, so that the part's own variance is known.
    assert_eq!(wanted(40, 3.0, None), 2);
    // Parts of parts of 0.5 s and 3 s of shared work: six.
    assert_eq!(wanted(40, 3.0, Some(0.5)), 6);
    // No fewer than two, no more than there are.
    assert_eq!(wanted(40, 0.0, Some(0.5)), 2);
    assert_eq!(wanted(4, 30.0, Some(0.5)), 4);
    assert_eq!(wanted(u32::MAX, 1e9, Some(1e-9)), MAX_CUT);
    // A uniform sample is distinct and within the cut, a huge one too.
    let mut rng = fastrand::Rng::with_seed(1);
    for (of, wanted) in [(10, 10), (10, 3), (u32::MAX, 50)] {
        let sample = uniform_sample(&mut rng, of, wanted);
        let distinct: HashSet<u32> = sample.iter().copied().collect();
        assert_eq!(distinct.len(), wanted as usize);
        assert!(sample.iter().all(|&i| i < of));
    }
}

#[test]
fn a_status_names_its_step_down_to_the_part_of_a_part() {
    let status = |part, part_of_part| Status {
        unit: 3,
        part,
        part_of_part,
        draws: 0,
        so_far: None,
        left: Duration::ZERO,
    };
    let part = Some(Part { index: 1, of: 8 });
    assert_eq!(status(None, None).doing(), "the shared work of unit 3");
    assert_eq!(
        status(part, None).doing(),
        "the shared work of unit 3, part 2 of 8"
    );
    assert_eq!(
        status(part, Some(Part::WHOLE)).doing(),
        "unit 3, part 2 of 8"
    );
    assert_eq!(
        status(part, Some(Part { index: 4, of: 40 })).doing(),
        "unit 3, part 2 of 8, its part 5 of 40"
    );
}

#[test]
fn a_runs_parts_are_grouped_by_unit_and_a_shards_share_by_finest_part() {
    // Units of weights 10, 1, 25 cut at 10: 10 | 1 | 8, 8, 9.
    let units = vec![
        WorkUnit::whole(5, 10),
        WorkUnit::whole(6, 1),
        WorkUnit::whole(7, 25),
    ];
    let plan = Plan::cut(units, 0, 10, |_| 100);
    let everything: Vec<usize> = (0..plan.len()).collect();
    let whole = holdings(&plan, &everything);
    assert_eq!(
        whole.iter().map(|h| (h.index, h.unit)).collect::<Vec<_>>(),
        plan.whole_units()
            .into_iter()
            .enumerate()
            .collect::<Vec<_>>()
    );
    assert!(whole.iter().all(|h| h.parts.is_none()));
    assert_eq!(
        whole.iter().map(|h| h.weight).collect::<Vec<_>>(),
        vec![10, 1, 25]
    );
    // The whole plan's holdings, made without listing its parts, are
    // the same, here and where a unit weighs nothing (a share of 0
    // weighs 1).
    assert_eq!(holdings_all(&plan), whole);
    let light = Plan::cut(
        vec![WorkUnit::whole(1, 0), WorkUnit::whole(2, 40)],
        0,
        3,
        |_| 5,
    );
    let all: Vec<usize> = (0..light.len()).collect();
    assert_eq!(holdings_all(&light), holdings(&light, &all));
    // Parts 1 and 3 of 3 of unit 7 (given out of order) and unit 6.
    let share = holdings(&plan, &[4, 1, 2]);
    let cut = |index| Part { index, of: 3 };
    assert_eq!(
        share,
        vec![
            Held {
                index: 1,
                unit: WorkUnit::whole(6, 1),
                weight: 1,
                parts: None,
            },
            Held {
                index: 2,
                unit: WorkUnit::whole(7, 25),
                weight: 17,
                parts: Some(vec![cut(0), cut(2)]),
            },
        ]
    );
    // Of 10 finest parts, parts 0 and 2 of 3 hold 0..3 and 6..10: seven,
    // numbered end to end.
    let finest = FinestHeld::new(&[cut(0), cut(2)], 10).unwrap();
    assert_eq!(finest.count, 7);
    let parts: Vec<u32> = (0..7).map(|k| finest.part(k).index).collect();
    assert_eq!(parts, vec![0, 1, 2, 6, 7, 8, 9]);
    assert!((0..7).all(|k| finest.part(k).of == 10));
    // The parts of a cut hold every finest part once, whatever the cut.
    for (of, finest) in [(3, 3), (3, 10), (7, 4096), (1, 5)] {
        let all: Vec<u32> = (0..of)
            .flat_map(|index| finest_parts(Part { index, of }, finest))
            .collect();
        assert_eq!(all, (0..finest).collect::<Vec<_>>());
    }
    // A part finer than the engine cuts is refused, as counting it is.
    assert_eq!(
        FinestHeld::new(&[cut(1)], 2),
        Err(QueensError::NoSuchPart {
            index: 1,
            of: 3,
            max: 2
        })
    );
}

/// Estimates of `engine` over `seeds` seeds: their mean and the standard
/// error of that mean, and how many intervals (± 2 standard errors) held
/// the truth.
fn over_seeds(engine: &Layered, budget: f64, seeds: u64) -> (f64, f64, usize) {
    let truth = engine.truth();
    let estimates: Vec<Estimate> = (0..seeds).map(|seed| engine.run(budget, seed).0).collect();
    let k = seeds as f64;
    let mean = estimates.iter().map(|e| e.seconds).sum::<f64>() / k;
    let spread = (estimates
        .iter()
        .map(|e| (e.seconds - mean).powi(2))
        .sum::<f64>()
        / (k - 1.0))
        .sqrt();
    let covered = estimates
        .iter()
        .filter(|e| (e.seconds - truth).abs() <= 2.0 * e.standard_error)
        .count();
    (mean, spread / k.sqrt(), covered)
}

#[test]
fn a_cut_plan_is_estimated_as_its_whole_units() {
    // The same units, whole or cut into parts: the same draws, the same
    // estimate, and parts named as such.
    let mut whole = Layered::new(12, 8);
    whole.cut = Some(u64::MAX);
    let mut cut = Layered::new(12, 8);
    cut.cut = Some(6);
    let plan = cut.plan(0).unwrap();
    assert!(plan.len() > 12);
    assert!(plan.iter().any(|u| u.piece != Part::WHOLE));
    for seed in 0..20 {
        let (a, _) = whole.run(20.0, seed);
        let (b, seen) = cut.run(20.0, seed);
        cut.log.assert_watched(&seen);
        assert_eq!(
            (a.seconds, a.standard_error, a.draws, a.units),
            (b.seconds, b.standard_error, b.draws, b.units)
        );
        assert_eq!((a.pieces, b.pieces), (12, plan.len()));
        // The longest part is the heaviest's share: a unit of 24 whole,
        // a part of 6 cut, of 192 in all.
        assert!((a.longest_piece_seconds - a.seconds * 24.0 / 192.0).abs() < 1e-9);
        assert!((b.longest_piece_seconds - b.seconds * 6.0 / 192.0).abs() < 1e-9);
    }
    let (mean, error, _) = over_seeds(&cut, 20.0, 200);
    let truth = cut.truth();
    assert!(
        (mean - truth).abs() <= 3.0 * error,
        "mean {mean} vs truth {truth} (± {error})"
    );
}

#[test]
fn a_shard_of_a_cut_plan_is_sampled_by_the_finest_parts_it_holds() {
    let mut engine = Layered::new(12, 8);
    engine.cut = Some(6);
    for index in 1..=3 {
        engine.shard = Some((index, 3));
        let (plan, chosen) = engine.chosen();
        let share = holdings(&plan, &chosen);
        assert!(share.iter().any(|h| h.parts.is_some()), "shard {index}");
        // The finest parts the shard holds of each unit held in parts.
        let partly: std::collections::HashMap<u64, HashSet<u32>> = share
            .iter()
            .filter_map(|h| {
                let held_parts = h.parts.as_ref()?;
                let parts = held_parts.iter().flat_map(|&p| held(p, 8)).collect();
                Some((h.unit.key, parts))
            })
            .collect();
        let truth = engine.truth();
        for seed in 0..20 {
            let (estimate, seen) = engine.run(20.0, seed);
            engine.log.assert_watched(&seen);
            engine.clock.assert_within(20.0);
            assert_eq!(estimate.units, share.len());
            assert_eq!(estimate.pieces, chosen.len());
            // Only the shard's units, and of one held in parts only the
            // finest parts it holds.
            for (key, part, _) in engine.log.steps() {
                assert!(share.iter().any(|h| h.unit.key == key), "unit {key}");
                if let (Some(parts), Some(part)) = (partly.get(&key), part) {
                    assert_eq!(part.of, 8, "{part:?}");
                    assert!(parts.contains(&part.index), "{part:?} of unit {key}");
                }
            }
            assert!(estimate.seconds > 0.0 && estimate.seconds < 3.0 * truth);
        }
        // Unbiased for the shard's own time, and honest about its error.
        let seeds = 200;
        let (mean, error, covered) = over_seeds(&engine, 20.0, seeds);
        assert!(
            (mean - truth).abs() <= 3.0 * error,
            "shard {index}: mean {mean} vs truth {truth} (± {error})"
        );
        assert!(
            covered * 100 >= 80 * seeds as usize,
            "shard {index}: {covered} of {seeds}"
        );
    }
}
