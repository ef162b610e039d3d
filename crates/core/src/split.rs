//! Splitting one count into independent work units, so that generic machinery
//! (threads, shards on a cluster, checkpoints of long runs) can drive any
//! solver that can describe its work this way, without knowing the solver.
//!
//! A solver offers the capability through [`crate::Solver::work_split`]. Its
//! [`WorkSplit::plan`] lists the units of an n×n count in a fixed order, each
//! with an estimated weight; [`WorkSplit::count_unit`] counts one of them. The
//! plan must be deterministic: shards run on different machines and a resumed
//! run must see the same list, so units are identified by their position in
//! it. [`WorkSplit::version`] names the partition; records of another version
//! are refused rather than mixed.
//!
//! Unique counts come out of units by Burnside's lemma: the number of classes
//! of solutions under the eight symmetries of the square equals the number of
//! pairs (symmetry g, solution s) with g(s) = s, divided by 8. Each unit
//! reports its share of those pairs ([`UnitCount::fixed_pairs`]), so shares
//! simply add up, across threads and shards alike.

use std::ops::AddAssign;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde::{Deserialize, Serialize};

use crate::trace::TraceSink;
use crate::{CountOptions, QueensError, SearchStats, Solver, SolverInfo, Visit};

/// The eight symmetries of the square (see [`crate::symmetry`]).
pub const SYMMETRIES: u64 = 8;

/// One independent piece of a count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorkUnit {
    /// What the unit is, in the solver's own terms (for example a packed
    /// pre-placement). Opaque to everyone but the solver.
    pub key: u64,
    /// Estimated cost, in the solver's own arbitrary units: used to balance
    /// shards and threads and to estimate the time left.
    pub weight: u64,
}

/// The units of one board, in their fixed order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub units: Vec<WorkUnit>,
    /// Work done to make the plan (in the solver's node units), so that the
    /// total node count of a run includes it.
    pub nodes: u64,
}

/// What counting one unit (or a sum of units) found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitCount {
    /// Solutions the unit stands for (its weight by symmetry included).
    pub solutions: u64,
    /// Pairs (symmetry g, solution s) with g(s) = s among those solutions;
    /// 0 when unique counts were not asked for.
    pub fixed_pairs: u64,
    /// Nodes searched.
    pub nodes: u64,
}

impl AddAssign for UnitCount {
    fn add_assign(&mut self, other: UnitCount) {
        self.solutions += other.solutions;
        self.fixed_pairs += other.fixed_pairs;
        self.nodes += other.nodes;
    }
}

impl UnitCount {
    /// Classes by Burnside's lemma, from the fixed pairs of *all* units of a
    /// board (a partial sum has no meaning on its own).
    pub fn classes(&self) -> u64 {
        debug_assert_eq!(self.fixed_pairs % SYMMETRIES, 0, "partial sum of pairs");
        self.fixed_pairs / SYMMETRIES
    }

    /// The statistics of a whole board: all units plus the plan's nodes.
    pub fn into_stats(self, plan_nodes: u64, unique: bool) -> SearchStats {
        SearchStats {
            solutions: self.solutions,
            unique: unique.then(|| self.classes()),
            nodes: self.nodes + plan_nodes,
            extra: Vec::new(),
        }
    }
}

/// A count that splits into independent units.
pub trait WorkSplit: Sync {
    /// Names the partition, e.g. `constellations/1`. Change it whenever the
    /// units, their order or their counts change meaning.
    fn version(&self) -> &'static str;

    /// The units of the n×n board, in a fixed order. Errors are the solver's
    /// limit errors.
    fn plan(&self, n: usize) -> Result<Plan, QueensError>;

    /// Counts one unit of the n×n board's plan. With `unique`, also its
    /// fixed pairs.
    fn count_unit(&self, n: usize, unit: WorkUnit, unique: bool) -> UnitCount;
}

/// A count-only engine whose whole count is a plan of independent units:
/// the engine says what its units are and how to count one; wrapped in
/// [`SplitSolver`] it gets the rest of the [`Solver`] protocol (threads,
/// refusing to list boards, limit checks) and offers [`WorkSplit`] to the
/// harness for shards and checkpoints.
pub trait SplitEngine: Send + Sync {
    const INFO: &'static SolverInfo;

    /// See [`WorkSplit::version`].
    const SPLIT_VERSION: &'static str;

    /// The units of the n×n board (n already checked against the limits).
    fn plan(&self, n: usize) -> Plan;

    /// See [`WorkSplit::count_unit`].
    fn count_unit(&self, n: usize, unit: WorkUnit, unique: bool) -> UnitCount;

    /// The engine's walkthrough of the n×n board, in its own terms (n
    /// already checked).
    fn trace(&self, n: usize, sink: &mut dyn TraceSink) -> SearchStats;
}

/// A [`SplitEngine`] as a [`Solver`]: register `&SplitSolver(Engine)`.
#[derive(Clone, Copy, Debug, Default)]
pub struct SplitSolver<E>(pub E);

impl<E: SplitEngine> Solver for SplitSolver<E> {
    fn info(&self) -> &'static SolverInfo {
        E::INFO
    }

    fn enumerate(&self, n: usize, _visit: &mut Visit<'_>) -> Result<SearchStats, QueensError> {
        E::INFO.check_n(n)?;
        Err(QueensError::CannotEnumerate { solver: E::INFO.id })
    }

    fn count(&self, n: usize, options: &CountOptions) -> Result<SearchStats, QueensError> {
        count_all(self, n, options)
    }

    fn trace(&self, n: usize, sink: &mut dyn TraceSink) -> Result<SearchStats, QueensError> {
        E::INFO.check_n(n)?;
        Ok(self.0.trace(n, sink))
    }

    fn work_split(&self) -> Option<&dyn WorkSplit> {
        Some(self)
    }
}

impl<E: SplitEngine> WorkSplit for SplitSolver<E> {
    fn version(&self) -> &'static str {
        E::SPLIT_VERSION
    }

    fn plan(&self, n: usize) -> Result<Plan, QueensError> {
        E::INFO.check_n(n)?;
        Ok(self.0.plan(n))
    }

    fn count_unit(&self, n: usize, unit: WorkUnit, unique: bool) -> UnitCount {
        self.0.count_unit(n, unit, unique)
    }
}

/// Indices of `units`, heaviest first (ties in plan order): handing out the
/// big units first leaves only small ones to even out the finish.
pub fn heaviest_first(units: &[WorkUnit], chosen: impl IntoIterator<Item = usize>) -> Vec<usize> {
    let mut order: Vec<usize> = chosen.into_iter().collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(units[i].weight), i));
    order
}

/// The units of shard `index` (1-based) of `count`: a deterministic
/// partition balanced by weight (each unit, heaviest first, goes to the
/// lightest shard so far, the lowest-numbered on ties). Sorted in plan order.
pub fn shard_units(units: &[WorkUnit], index: usize, count: usize) -> Vec<usize> {
    assert!(
        (1..=count).contains(&index),
        "shard spec checked by the caller"
    );
    let mut load = vec![0u64; count];
    let mut mine = Vec::new();
    for unit in heaviest_first(units, 0..units.len()) {
        let lightest = (0..count)
            .min_by_key(|&s| (load[s], s))
            .expect("count >= 1");
        load[lightest] += units[unit].weight.max(1);
        if lightest + 1 == index {
            mine.push(unit);
        }
    }
    mine.sort_unstable();
    mine
}

/// Counts the chosen units on `threads` worker threads (0: one per core),
/// heaviest first, each thread taking the next unit as soon as it is free.
/// `done(index, count)` is called from the worker as each unit finishes.
/// The result does not depend on the number of threads: each unit is counted
/// alone and counts are added, and addition does not care about order.
pub fn count_units(
    split: &dyn WorkSplit,
    n: usize,
    units: &[WorkUnit],
    chosen: &[usize],
    unique: bool,
    threads: usize,
    done: &(dyn Fn(usize, UnitCount) + Sync),
) -> Result<(), QueensError> {
    let order = heaviest_first(units, chosen.iter().copied());
    let threads = match threads {
        0 => std::thread::available_parallelism().map_or(1, usize::from),
        threads => threads,
    };
    // The shared queue is one counter: a worker claims position `taken` of
    // `order` by incrementing it, so no unit is counted twice or skipped,
    // and the heaviest units go first whatever the timing.
    let next = AtomicUsize::new(0);
    let work = || {
        loop {
            let taken = next.fetch_add(1, Ordering::Relaxed);
            let Some(&index) = order.get(taken) else {
                break;
            };
            done(index, split.count_unit(n, units[index], unique));
        }
    };
    if threads == 1 {
        // On the caller's thread: starting and joining a thread (tens of
        // microseconds) would dwarf a whole count of a small board.
        work();
        return Ok(());
    }
    // Scoped threads may borrow the plan and the callback; the scope joins
    // them all before returning and passes a worker's panic on to the
    // caller. The caller's thread is one of the workers, so K threads cost
    // K - 1 starts.
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
    })
}

/// A whole count through the split: every unit, summed.
pub fn count_all(
    split: &dyn WorkSplit,
    n: usize,
    options: &CountOptions,
) -> Result<SearchStats, QueensError> {
    let plan = split.plan(n)?;
    let all: Vec<usize> = (0..plan.units.len()).collect();
    let total = std::sync::Mutex::new(UnitCount::default());
    count_units(
        split,
        n,
        &plan.units,
        &all,
        options.unique,
        options.threads,
        &|_, count| *total.lock().expect("no panics while held") += count,
    )?;
    let total = total.into_inner().expect("no panics while held");
    Ok(total.into_stats(plan.nodes, options.unique))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn units(weights: &[u64]) -> Vec<WorkUnit> {
        weights
            .iter()
            .enumerate()
            .map(|(i, &weight)| WorkUnit {
                key: i as u64,
                weight,
            })
            .collect()
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
                .map(|&u| units[u].weight)
                .sum()
        };
        assert_eq!(load(1), 12);
        assert_eq!(load(2), 12);
    }

    #[test]
    fn heaviest_first_breaks_ties_in_plan_order() {
        let units = units(&[2, 5, 2, 5]);
        assert_eq!(heaviest_first(&units, 0..4), vec![1, 3, 0, 2]);
    }

    /// Units whose count is their key, so sums show which were counted.
    struct Keys;

    impl WorkSplit for Keys {
        fn version(&self) -> &'static str {
            "keys/1"
        }
        fn plan(&self, _: usize) -> Result<Plan, QueensError> {
            unreachable!("the tests hand units over directly")
        }
        fn count_unit(&self, _: usize, unit: WorkUnit, _: bool) -> UnitCount {
            UnitCount {
                solutions: unit.key,
                fixed_pairs: 0,
                nodes: 1,
            }
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
                    assert_eq!(count.solutions, units[index].key);
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
}
