//! Every solver that splits its work into units (the engines), against the
//! published counts to n = 13 and against itself: any thread count, any
//! sharding, the same numbers.

use queens_core::split::{count_units, shard_units};
use queens_core::{CountOptions, oeis};
use queens_harness::registry::SOLVERS;
use std::sync::Mutex;

fn engines() -> impl Iterator<Item = &'static dyn queens_core::Solver> {
    SOLVERS.iter().copied().filter(|s| s.work_split().is_some())
}

/// A000170 and, from the same runs, A002562 for n = 1..=13: the small
/// boards (1 to 5) are where corner queens and symmetric constellations
/// degenerate.
#[test]
fn counts_and_unique_counts_match_oeis() {
    for engine in engines() {
        for n in 1..=13 {
            let stats = engine
                .count(
                    n,
                    &CountOptions {
                        unique: true,
                        threads: 0,
                    },
                )
                .unwrap();
            let id = engine.info().id;
            assert_eq!(
                Some(stats.solutions),
                oeis::total(n),
                "{id}: A000170 n = {n}"
            );
            assert_eq!(stats.unique, oeis::unique(n), "{id}: A002562 n = {n}");
            assert!(stats.nodes > 0, "{id}: n = {n}");
        }
    }
}

#[test]
fn the_result_does_not_depend_on_the_thread_count() {
    for engine in engines() {
        for n in [9, 12] {
            let run = |threads| {
                engine
                    .count(
                        n,
                        &CountOptions {
                            unique: true,
                            threads,
                        },
                    )
                    .unwrap()
            };
            let one = run(1);
            for threads in [2, 3, 5] {
                let id = engine.info().id;
                assert_eq!(run(threads), one, "{id}: n = {n}, {threads} threads");
            }
        }
    }
}

#[test]
fn shards_sum_to_the_whole_count() {
    let n = 11;
    for engine in engines() {
        let split = engine.work_split().expect("an engine splits");
        let plan = split.plan(n).unwrap();
        let whole = engine
            .count(
                n,
                &CountOptions {
                    unique: true,
                    threads: 1,
                },
            )
            .unwrap();
        for shards in [1, 2, 3, 7] {
            let total = Mutex::new(queens_core::split::UnitCount::default());
            for index in 1..=shards {
                let mine = shard_units(&plan.units, index, shards);
                count_units(split, n, &plan.units, &mine, true, 2, &|_, c| {
                    *total.lock().unwrap() += c
                })
                .unwrap();
            }
            let total = total.into_inner().unwrap();
            let id = engine.info().id;
            assert_eq!(
                total.into_stats(plan.nodes, true),
                whole,
                "{id}: {shards} shards"
            );
        }
    }
}
