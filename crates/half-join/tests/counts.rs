//! The engine against the published counts, and its work split against
//! itself: any thread count, any sharding, the same numbers.

use queens_core::split::{WorkSplit, count_units, shard_units};
use queens_core::{CountOptions, Solver, oeis};
use queens_half_join::HalfJoin;
use std::sync::Mutex;

/// A000170 and, from the same runs, A002562 for n = 1..=13: the small
/// boards (1 to 5) are where corner queens and symmetric constellations
/// degenerate.
#[test]
fn counts_and_unique_counts_match_oeis() {
    for n in 1..=13 {
        let stats = HalfJoin
            .count(
                n,
                &CountOptions {
                    unique: true,
                    threads: 0,
                },
            )
            .unwrap();
        assert_eq!(Some(stats.solutions), oeis::total(n), "A000170 n = {n}");
        assert_eq!(stats.unique, oeis::unique(n), "A002562 n = {n}");
        assert!(stats.nodes > 0, "n = {n}");
    }
}

#[test]
fn the_result_does_not_depend_on_the_thread_count() {
    for n in [9, 12] {
        let run = |threads| {
            HalfJoin
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
            assert_eq!(run(threads), one, "n = {n}, {threads} threads");
        }
    }
}

#[test]
fn shards_sum_to_the_whole_count() {
    let n = 11;
    let plan = HalfJoin.plan(n).unwrap();
    let whole = HalfJoin
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
            count_units(&HalfJoin, n, &plan.units, &mine, true, 2, &|_, c| {
                *total.lock().unwrap() += c
            })
            .unwrap();
        }
        let total = total.into_inner().unwrap();
        assert_eq!(total.into_stats(plan.nodes, true), whole, "{shards} shards");
    }
}
