//! Who counts which units, in what order: shards balanced by weight, and
//! threads that take the heaviest unit left.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::plan::Plan;
use super::units::UnitCount;
use super::work_split::WorkSplit;
use crate::{CountOptions, Metric, QueensError, SearchStats};

/// The chosen indices of `plan`'s units, heaviest first (ties in plan
/// order): handing out the big units first leaves only small ones to even
/// out the finish.
pub fn heaviest_first(plan: &Plan, chosen: impl IntoIterator<Item = usize>) -> Vec<usize> {
    // Weighed in one walk beside the plan (the chosen sorted first), not
    // by a search per unit: a run may hold hundreds of millions.
    let mut chosen: Vec<usize> = chosen.into_iter().collect();
    chosen.sort_unstable();
    let mut keyed: Vec<(Reverse<u64>, usize)> = (plan.units_at(chosen.iter().copied()))
        .zip(&chosen)
        .map(|((_, unit), &i)| (Reverse(unit.weight), i))
        .collect();
    drop(chosen);
    keyed.sort_unstable();
    keyed.into_iter().map(|(_, i)| i).collect()
}

/// The units of shard `index` (1-based) of `count`: a deterministic
/// partition balanced by weight (each unit, heaviest first, goes to the
/// lightest shard so far, the lowest-numbered on ties). Sorted in plan
/// order. Only this shard's units are kept, so a shard of a plan of
/// hundreds of millions of units holds its own share.
pub fn shard_units(plan: &Plan, index: usize, count: usize) -> Vec<usize> {
    assert!(
        (1..=count).contains(&index),
        "shard spec checked by the caller"
    );
    let mut mine = Vec::new();
    deal_each(plan, count, |unit, shard| {
        if shard + 1 == index {
            mine.push(unit);
        }
    });
    mine.sort_unstable();
    mine
}

/// The shard (counted from 0) of every unit, in plan order: the dealing
/// [`shard_units`] describes, for all shards at once.
pub fn deal(plan: &Plan, count: usize) -> Vec<usize> {
    let mut owner = vec![0; plan.len()];
    deal_each(plan, count, |unit, shard| owner[unit] = shard);
    owner
}

/// Deals every unit of `plan` to one of `count` shards, heaviest first,
/// telling `dealt(unit, shard)`.
///
/// Finding the lightest shard by looking at all K of them made dealing
/// O(units × K): minutes for n = 27 in a million shards. The same choice
/// is made here in O(units × log(min(units, K))), whatever K: a shard that
/// has no unit yet weighs 0, less than any shard that has one (a unit adds
/// at least 1), and the lowest-numbered of those is simply the next one not
/// yet used; the shards that have units wait in a heap ordered by (load,
/// number), the order the scan minimised. The units come from the plan
/// heaviest first without being listed ([`Plan::heaviest_first`]).
fn deal_each(plan: &Plan, count: usize, mut dealt: impl FnMut(usize, usize)) {
    assert!(count >= 1, "shard count checked by the caller");
    let mut used: BinaryHeap<Reverse<(u64, usize)>> = BinaryHeap::new();
    let mut next_empty = 0;
    for (unit, weight) in plan.heaviest_first() {
        let weight = weight.max(1);
        if next_empty < count {
            next_empty += 1;
            dealt(unit, next_empty - 1);
            used.push(Reverse((weight, next_empty - 1)));
            continue;
        }
        // The lightest shard takes the unit where it stands in the heap:
        // one sift down instead of a pop and a push (a plan of n = 28 deals
        // hundreds of millions of parts).
        let mut lightest = used.peek_mut().expect("count >= 1 shards hold units");
        let Reverse((load, shard)) = *lightest;
        dealt(unit, shard);
        *lightest = Reverse((load + weight, shard));
    }
}

/// Counts the chosen units on `threads` worker threads (0: one per core),
/// heaviest first, each thread taking the next unit as soon as it is free.
/// `done(index, count)` is called from the worker as each unit finishes.
/// The result does not depend on the number of threads: each unit is counted
/// alone and counts are added, and addition does not care about order. The
/// first unit that fails (a device error) stops the handing out of units,
/// and its error is the result once the units in flight are done.
pub fn count_units(
    split: &dyn WorkSplit,
    n: usize,
    plan: &Plan,
    chosen: &[usize],
    unique: bool,
    threads: usize,
    done: &(dyn Fn(usize, UnitCount) + Sync),
) -> Result<(), QueensError> {
    let order = heaviest_first(plan, chosen.iter().copied());
    let threads = match threads {
        0 => std::thread::available_parallelism().map_or(1, usize::from),
        threads => threads,
    }
    // A thread without a unit to count would only cost its start.
    .min(order.len())
    .max(1);
    // The shared queue is one counter: a worker claims position `taken` of
    // `order` by incrementing it, so no unit is counted twice or skipped,
    // and the heaviest units go first whatever the timing.
    let next = AtomicUsize::new(0);
    let failed = Mutex::new(None);
    let work = || {
        loop {
            let taken = next.fetch_add(1, Ordering::Relaxed);
            let Some(&index) = order.get(taken) else {
                break;
            };
            match split.count_unit(n, plan.unit(index), unique) {
                Ok(count) => done(index, count),
                Err(error) => {
                    next.store(order.len(), Ordering::Relaxed);
                    failed
                        .lock()
                        .expect("no panics while held")
                        .get_or_insert(error);
                    break;
                }
            }
        }
    };
    // Scoped threads may borrow the plan and the callback; the scope joins
    // them all before returning and passes a worker's panic on to the
    // caller. The caller's thread is one of the workers, so K threads cost
    // K - 1 starts, and one thread counts on the caller's thread alone:
    // starting and joining a thread (tens of microseconds) would dwarf a
    // whole count of a small board.
    std::thread::scope(|scope| {
        for _ in 1..threads {
            if let Err(error) = std::thread::Builder::new().spawn_scoped(scope, work) {
                // Hand out no more units: the workers already running finish
                // the one they hold, and the count is refused.
                next.store(order.len(), Ordering::Relaxed);
                return Err(QueensError::Threads(error.to_string()));
            }
        }
        work();
        Ok(())
    })?;
    failed
        .into_inner()
        .expect("no panics while held")
        .map_or(Ok(()), Err)
}

/// A whole count through the split: every unit, summed.
pub fn count_all(
    split: &dyn WorkSplit,
    n: usize,
    options: &CountOptions,
) -> Result<SearchStats, QueensError> {
    let plan = split.plan(n)?;
    let all: Vec<usize> = (0..plan.len()).collect();
    let total = Mutex::new(UnitCount::default());
    count_units(
        split,
        n,
        &plan,
        &all,
        options.unique,
        options.threads,
        &|_, count| *total.lock().expect("no panics while held") += count,
    )?;
    let total = total.into_inner().expect("no panics while held");
    Ok(whole_board(total, plan.nodes, options.unique))
}

/// The statistics of a whole board: the sum of all its units plus the
/// plan's nodes (classes by Burnside's lemma when `unique`), and the pairs
/// a joining engine tested, where it tested any.
pub fn whole_board(total: UnitCount, plan_nodes: u64, unique: bool) -> SearchStats {
    let stats = SearchStats {
        solutions: total.solutions,
        unique: unique.then(|| total.classes()),
        nodes: total.nodes + plan_nodes,
        extra: Vec::new(),
    };
    match total.pair_tests {
        0 => stats,
        tests => stats.with_metric("pair_tests", tests),
    }
}

/// A count's own statistics beside its nodes, as a whole count reports
/// them: a joining engine's pair tests, where it made any.
pub fn metrics(total: &UnitCount) -> Vec<Metric> {
    whole_board(*total, 0, false).extra
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::split::units::{Part, WorkUnit};

    fn units(weights: &[u64]) -> Plan {
        let units = weights
            .iter()
            .enumerate()
            .map(|(i, &weight)| WorkUnit::whole(i as u64, weight))
            .collect();
        Plan::whole(units, 0)
    }

    #[test]
    fn shards_partition_the_units() {
        let units = units(&[5, 1, 9, 3, 3, 7, 0, 2, 8]);
        for count in 1..=5 {
            let mut seen: Vec<usize> = (1..=count)
                .flat_map(|i| shard_units(&units, i, count))
                .collect();
            seen.sort_unstable();
            assert_eq!(seen, (0..units.len()).collect::<Vec<_>>(), "K = {count}");
        }
    }

    #[test]
    fn shards_are_balanced_by_weight() {
        let units = units(&[10, 10, 1, 1, 1, 1]);
        let load = |i| -> u64 {
            shard_units(&units, i, 2)
                .iter()
                .map(|&u| units.weight(u))
                .sum()
        };
        assert_eq!(load(1), 12);
        assert_eq!(load(2), 12);
    }

    #[test]
    fn a_cut_plan_is_dealt_as_its_listed_pieces_would_be() {
        // The dealing made without listing the parts is the scan of the
        // old definition over the listed parts: each, heaviest first
        // (ties in plan order), to the lightest shard, lowest-numbered on
        // ties.
        let whole = [7u64, 3, 10, 1, 8, 6, 13]
            .iter()
            .enumerate()
            .map(|(key, &weight)| WorkUnit::whole(key as u64, weight))
            .collect();
        let plan = Plan::cut(whole, 0, 3, |_| 100);
        let listed: Vec<WorkUnit> = plan.iter().collect();
        for count in 1..=7 {
            let mut order: Vec<usize> = (0..listed.len()).collect();
            order.sort_by_key(|&i| (Reverse(listed[i].weight), i));
            let mut loads = vec![0u64; count];
            let mut owner = vec![0; listed.len()];
            for i in order {
                let lightest = (0..count).min_by_key(|&s| (loads[s], s)).unwrap();
                owner[i] = lightest;
                loads[lightest] += listed[i].weight.max(1);
            }
            assert_eq!(deal(&plan, count), owner, "K = {count}");
            for shard in 1..=count {
                let mine: Vec<usize> = (0..listed.len())
                    .filter(|&i| owner[i] + 1 == shard)
                    .collect();
                assert_eq!(shard_units(&plan, shard, count), mine, "K = {count}");
            }
        }
    }

    #[test]
    fn heaviest_first_breaks_ties_in_plan_order() {
        let units = units(&[2, 5, 2, 5]);
        assert_eq!(heaviest_first(&units, 0..4), vec![1, 3, 0, 2]);
    }

    /// The weight of a unit that [`Keys`] refuses to count.
    const FAILS: u64 = 1000;

    /// Units whose count is their key, so sums show which were counted.
    struct Keys;

    impl WorkSplit for Keys {
        fn version(&self) -> &'static str {
            "keys/1"
        }
        fn plan(&self, _: usize) -> Result<Plan, QueensError> {
            unreachable!("the tests hand units over directly")
        }
        fn count_unit(&self, _: usize, unit: WorkUnit, _: bool) -> Result<UnitCount, QueensError> {
            if unit.weight == FAILS {
                return Err(QueensError::Threads("a unit that fails".into()));
            }
            Ok(UnitCount {
                solutions: unit.key,
                fixed_pairs: 0,
                nodes: 1,
                pair_tests: 0,
            })
        }
    }

    #[test]
    fn an_engine_without_parts_counts_the_whole_unit_and_refuses_slices() {
        let unit = WorkUnit::whole(7, 1);
        assert_eq!(Keys.parts(8, unit), 1);
        assert_eq!(Keys.prepare_unit(8, unit), Ok(0));
        assert_eq!(
            Keys.count_part(8, unit, Part::WHOLE, false),
            Keys.count_unit(8, unit, false)
        );
        for part in [Part { index: 0, of: 2 }, Part { index: 1, of: 1 }] {
            assert!(!part.is_valid(1));
            assert_eq!(
                Keys.count_part(8, unit, part, false),
                Err(QueensError::NoSuchPart {
                    index: part.index,
                    of: part.of,
                    max: 1
                })
            );
        }
    }

    #[test]
    fn every_chosen_unit_is_counted_once_on_any_number_of_threads() {
        let units = units(&[4, 9, 1, 7, 7, 2, 5]);
        let chosen = [0, 2, 3, 5, 6];
        // 0 is one per core; 12 threads is more than there are units.
        for threads in [0, 1, 2, 3, 12] {
            let seen = std::sync::Mutex::new(Vec::new());
            count_units(
                &Keys,
                8,
                &units,
                &chosen,
                false,
                threads,
                &|index, count| {
                    assert_eq!(count.solutions, units.unit(index).key);
                    seen.lock().unwrap().push(index);
                },
            )
            .unwrap();
            let mut seen = seen.into_inner().unwrap();
            seen.sort_unstable();
            assert_eq!(seen, chosen, "{threads} threads");
        }
    }

    #[test]
    fn one_thread_counts_heaviest_first_on_the_callers_thread() {
        let units = units(&[4, 9, 1, 7]);
        let caller = std::thread::current().id();
        let order = std::sync::Mutex::new(Vec::new());
        count_units(&Keys, 8, &units, &[0, 1, 2, 3], false, 1, &|index, _| {
            assert_eq!(std::thread::current().id(), caller);
            order.lock().unwrap().push(index);
        })
        .unwrap();
        assert_eq!(order.into_inner().unwrap(), vec![1, 3, 0, 2]);
    }

    #[test]
    fn a_failing_unit_is_the_result_and_stops_the_dealing() {
        for threads in [1, 2, 3] {
            let units = units(&[4, FAILS, 1, 7]);
            let counted = std::sync::Mutex::new(Vec::new());
            let result = count_units(&Keys, 8, &units, &[0, 1, 2, 3], false, threads, &|i, _| {
                counted.lock().unwrap().push(i)
            });
            assert!(
                matches!(result, Err(QueensError::Threads(_))),
                "{threads} threads"
            );
            // The failing unit is dealt first (the heaviest): on one thread
            // nothing is counted after it (on more, the others may finish
            // what they took before it failed).
            if threads == 1 {
                assert!(counted.into_inner().unwrap().is_empty());
            }
        }
    }
}
