use std::sync::Mutex;

use queens_core::split::{Plan, UnitCount};

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

#[test]
fn a_units_expansion_from_parts_is_unbiased_and_exact_when_whole() {
    // Shared 1 s, parts of 1, 2, 6 s: 10 s in all.
    let parts = [1.0, 2.0, 6.0];
    assert_eq!(expand(1.0, &parts, 3), (10.0, 0.0));
    // Every pair of parts, equally likely, averages to the unit's time.
    let pairs = [[1.0, 2.0], [1.0, 6.0], [2.0, 6.0]];
    let mean: f64 = pairs.iter().map(|p| expand(1.0, p, 3).0).sum::<f64>() / 3.0;
    assert!((mean - 10.0).abs() < 1e-9);
    // And the within-unit variance estimate averages to the true variance
    // of that expansion over the pairs.
    let truth = pairs
        .iter()
        .map(|p| (expand(1.0, p, 3).0 - 10.0).powi(2))
        .sum::<f64>()
        / 3.0;
    let estimated = pairs.iter().map(|p| expand(1.0, p, 3).1).sum::<f64>() / 3.0;
    assert!((estimated - truth).abs() < 1e-9, "{estimated} vs {truth}");
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

/// A fake engine whose work is sleeping: unit `key` has shared work of
/// `shared` ms and `parts` parts, part `j` sleeping `1 + (key + j) % 4`
/// ms; what it did is logged.
struct Sleepy {
    units: u64,
    parts: u32,
    shared: u64,
    log: Mutex<Vec<(u64, Option<Part>)>>,
}

impl Sleepy {
    fn new(units: u64, parts: u32, shared: u64) -> Self {
        Sleepy {
            units,
            parts,
            shared,
            log: Mutex::new(Vec::new()),
        }
    }

    fn part_ms(&self, key: u64, part: u32) -> u64 {
        1 + (key + u64::from(part)) % 4
    }
}

fn nap(ms: u64) {
    std::thread::sleep(Duration::from_millis(ms));
}

impl WorkSplit for Sleepy {
    fn version(&self) -> &'static str {
        "sleepy/1"
    }
    fn plan(&self, _: usize) -> Result<Plan, QueensError> {
        Ok(Plan {
            units: (0..self.units)
                .map(|key| WorkUnit {
                    key,
                    weight: 1 + key % 3,
                })
                .collect(),
            nodes: 0,
        })
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
        self.log.lock().unwrap().push((unit.key, None));
        nap(self.shared);
        Ok(0)
    }
    fn count_part(
        &self,
        _: usize,
        unit: WorkUnit,
        part: Part,
        _: bool,
    ) -> Result<UnitCount, QueensError> {
        self.log.lock().unwrap().push((unit.key, Some(part)));
        // Slices of a coarser cut sleep for the parts they hold.
        let (from, to) = (
            part.index * self.parts / part.of,
            (part.index + 1) * self.parts / part.of,
        );
        for j in from..to {
            nap(self.part_ms(unit.key, j));
        }
        Ok(UnitCount::default())
    }
}

fn run(engine: &Sleepy, budget_ms: u64, seed: u64) -> (Estimate, Vec<Status>) {
    let plan = engine.plan(0).unwrap();
    let chosen: Vec<usize> = (0..plan.units.len()).collect();
    let mut seen = Vec::new();
    let estimate = estimate(
        &Sample {
            split: engine,
            n: 0,
            units: &plan.units,
            chosen: &chosen,
            unique: false,
            budget: Duration::from_millis(budget_ms),
            started: Instant::now(),
            seed,
        },
        &mut |status| seen.push(*status),
    )
    .unwrap();
    (estimate, seen)
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
    // Each unit prepared once and timed as its one part.
    let log = engine.log.lock().unwrap();
    assert_eq!(log.iter().filter(|(_, p)| p.is_none()).count(), 3);
    assert!(log.iter().flat_map(|(_, p)| p).all(|&p| p == Part::WHOLE));
    assert!(seen.iter().any(|s| s.part.is_none()));
}

#[test]
fn a_unit_is_timed_in_part_its_shared_work_once_a_draw() {
    // 16 parts of up to 4 ms and no shared work: a 64th of a 100 ms budget
    // is reached after one or two parts, so no unit is timed whole.
    let engine = Sleepy::new(4, 16, 0);
    let (estimate, seen) = run(&engine, 100, 7);
    assert!(estimate.draws >= 2, "{estimate:?}");
    assert!(estimate.parts_timed < 16 * estimate.draws);
    assert!(estimate.weight_share < 1.0);
    assert!(estimate.standard_error > 0.0);
    // The watcher heard of every step before it ran.
    let log = engine.log.lock().unwrap();
    assert_eq!(seen.len(), log.len());
    for (status, (key, part)) in seen.iter().zip(log.iter()) {
        assert_eq!((status.unit as u64, status.part), (*key, *part));
    }
    assert_eq!(
        log.iter().filter(|(_, p)| p.is_none()).count(),
        estimate.draws
    );
    // Parts timed again are logged, not counted as parts of the sample.
    assert_eq!(
        log.iter().filter(|(_, p)| p.is_some()).count(),
        estimate.parts_timed + estimate.repeats
    );
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
    for unit in &plan.units {
        engine.count_unit(0, *unit, false).unwrap();
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
