//! The kernel walks constellations' interior search: on every board it is
//! tested at, its statistics (solutions, classes and nodes) are exactly the
//! CPU engine's, and each unit's count is the sum of its constellations'
//! counts on the CPU. Skipped without an adapter unless QUEENS_REQUIRE_GPU
//! is set (as the conformance suite is).

use queens_constellations::{CONSTELLATIONS, count_constellation};
use queens_core::split::{UnitCount, WorkSplit};
use queens_core::{CountOptions, Solver, oeis};
use queens_gpu::GPU_CONSTELLATIONS;
use queens_gpu::units::{Run, order};

fn skipped() -> bool {
    queens_conformance::without_its_device(&GPU_CONSTELLATIONS)
}

#[test]
fn statistics_equal_the_cpu_engines_nodes_included() {
    if skipped() {
        return;
    }
    for n in 1..=12 {
        for unique in [false, true] {
            let options = CountOptions { unique, threads: 1 };
            let gpu = GPU_CONSTELLATIONS.count(n, &options).unwrap();
            let cpu = CONSTELLATIONS.count(n, &options).unwrap();
            assert_eq!(gpu, cpu, "n = {n}, unique = {unique}");
            assert_eq!(Some(gpu.solutions), oeis::total(n), "n = {n}");
        }
    }
}

#[test]
fn each_unit_is_its_constellations_counted_on_the_cpu() {
    if skipped() {
        return;
    }
    let n = 12;
    let plan = GPU_CONSTELLATIONS.plan(n).unwrap();
    assert!(plan.len() > 1, "n = {n} splits into several units");
    let order = order(n);
    let mut covered = 0;
    for unit in plan.iter() {
        let members = Run::from_key(unit.key).constellations(&order).unwrap();
        covered += members.len();
        let expected = members.iter().fold(UnitCount::default(), |mut sum, &c| {
            sum += count_constellation(n, c, true);
            sum
        });
        assert_eq!(
            GPU_CONSTELLATIONS.count_unit(n, unit, true).unwrap(),
            expected,
            "unit {:#x}",
            unit.key
        );
    }
    assert_eq!(covered, order.units.len(), "every constellation in one run");
}

#[test]
fn a_key_that_names_no_run_is_refused() {
    if skipped() {
        return;
    }
    let order = order(8);
    let past_the_end = Run {
        start: order.units.len() as u32,
        len: 1,
    };
    assert!(past_the_end.constellations(&order).is_none());
    let unit = queens_core::split::WorkUnit::whole(past_the_end.key(), 1);
    let refused = GPU_CONSTELLATIONS.count_unit(8, unit, false).unwrap_err();
    assert!(
        refused.to_string().contains("is not a unit of n = 8"),
        "{refused}"
    );
}
