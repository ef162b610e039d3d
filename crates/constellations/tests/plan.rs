//! The plan: one unit per orbit of legal border pre-placements, whose orbit
//! sizes add up to the number of legal pre-placements, and a trace that
//! shows the plan and the units in the engine's own terms.

use queens_constellations::CONSTELLATIONS;
use queens_constellations::constellation::Constellation;
use queens_constellations::plan::legal_constellations;
use queens_core::Solver;
use queens_core::split::WorkSplit;
use queens_core::trace::{StepKind, TraceRecorder};

#[test]
fn units_cover_every_legal_pre_placement_once() {
    for n in 1..=14 {
        let plan = CONSTELLATIONS.plan(n).unwrap();
        let (legal, _) = legal_constellations(n);
        let mut covered: Vec<Constellation> = plan
            .iter()
            .flat_map(|unit| Constellation::from_key(unit.key).images(n))
            .collect();
        covered.sort_unstable();
        covered.dedup();
        assert_eq!(covered, legal, "n = {n}");
        let by_orbit: u64 = plan
            .iter()
            .map(|u| Constellation::from_key(u.key).orbit_size(n))
            .sum();
        assert_eq!(by_orbit, legal.len() as u64, "n = {n}");
        assert!(plan.iter().all(|u| u.weight > 0), "n = {n}");
    }
}

#[test]
fn the_trace_shows_the_plan_then_units_then_the_interior() {
    let mut recorder = TraceRecorder::new(200);
    let stats = CONSTELLATIONS.trace(5, &mut recorder).unwrap();
    let steps = recorder.texts();
    assert!(
        steps[0].1.starts_with("plan: 5^4 border pre-placements"),
        "{}",
        steps[0].1
    );
    assert!(steps[1].1.starts_with("unit 1/"), "{}", steps[1].1);
    assert!(steps.iter().any(|(kind, _)| *kind == StepKind::Place));
    let solutions = steps.iter().filter(|(kind, _)| *kind == StepKind::Solution);
    // Each traced solution is one completion of a unit, standing for its
    // orbit: together they account for all 10 solutions of the 5x5 board.
    assert!(solutions.count() > 0);
    assert_eq!(stats.solutions, 10);
    assert!(!recorder.stopped_early());
}
