//! How well the work splits, measured rather than assumed: times every unit
//! of an n×n count on one thread, then replays the harness's thread schedule
//! (heaviest estimate first, each unit to the first free worker) and its
//! shard partition with those times.
//!
//!   cargo run --release -p queens-constellations --example schedule -- 17
//!
//! Prints the speedup the schedule allows for 2, 4, 8 and 16 threads (total
//! work / finishing time of the last worker) and, for 4, 16 and 64 shards,
//! the slowest shard's time over the mean.

use std::time::Instant;

use queens_constellations::CONSTELLATIONS;
use queens_core::split::{WorkSplit, heaviest_first, shard_units};

fn main() {
    let n: usize = match std::env::args().nth(1).map(|a| a.parse()) {
        Some(Ok(n)) => n,
        _ => {
            eprintln!("usage: schedule N");
            std::process::exit(2);
        }
    };
    let plan = match CONSTELLATIONS.plan(n) {
        Ok(plan) => plan,
        Err(error) => {
            eprintln!("schedule: {error}");
            std::process::exit(2);
        }
    };
    let seconds: Vec<f64> = plan
        .iter()
        .map(|unit| {
            let started = Instant::now();
            // The CPU engine never fails once its plan is made.
            let _ = CONSTELLATIONS.count_unit(n, unit, false);
            started.elapsed().as_secs_f64()
        })
        .collect();
    let total: f64 = seconds.iter().sum();
    let longest = seconds.iter().copied().fold(0.0, f64::max);
    println!(
        "n = {n}: {} units, {total:.3} s on one thread, longest unit {longest:.4} s",
        plan.len()
    );
    let order = heaviest_first(&plan, 0..plan.len());
    for threads in [2, 4, 8, 16] {
        let mut free_at = vec![0.0f64; threads];
        for &unit in &order {
            let first_free = (0..threads)
                .min_by(|&a, &b| free_at[a].total_cmp(&free_at[b]))
                .expect("threads >= 1");
            free_at[first_free] += seconds[unit];
        }
        let finish = free_at.iter().copied().fold(0.0, f64::max);
        println!(
            "{threads:>2} threads: last worker done at {finish:.3} s, speedup bound {:.3}",
            total / finish
        );
    }
    for shards in [4, 16, 64] {
        let times: Vec<f64> = (1..=shards)
            .map(|index| {
                shard_units(&plan, index, shards)
                    .iter()
                    .map(|&u| seconds[u])
                    .sum()
            })
            .collect();
        let slowest = times.iter().copied().fold(0.0, f64::max);
        println!(
            "{shards:>2} shards: slowest {slowest:.3} s, mean {:.3} s, slowest/mean {:.3}",
            total / shards as f64,
            slowest * shards as f64 / total
        );
    }
}
