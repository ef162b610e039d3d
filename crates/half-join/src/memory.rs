//! What one thread of half-join holds at once, declared before a count
//! starts (`Solver::peak_bytes`): the plan, and the unit workspace of
//! `crate::unit`, whose size is set by the board's largest quarters and
//! file sets: walked up to n = 23, measured beyond (see
//! [`MEASURED_PEAK`]).
//! Kept in one function, [`peak_bytes`], so that a change of a path
//! changes one place.
//!
//! Every vector below that grows by pushing or resizing is counted at twice
//! its content: a vector's capacity doubles, so it holds up to twice what
//! it was last asked for.

use queens_core::memory::Question;

use crate::board::{Board, Unit};
use crate::join::GATHER_MAX_WORDS;
use crate::layout::Width;
use crate::tuning::{CHUNK_PAIRS, QUARTERS_MIN_N};

/// Below [`QUARTERS_MIN_N`] a unit's halves are searched whole and are
/// few: this at n = 13 (where a count holds about half a megabyte,
/// measured), half as much for each n below (a count's halves grow less
/// than twofold per n there). Every such n is measured against it by the
/// harness's memory test.
const SMALL_BOARD_BYTES: u64 = 1 << 20;

/// What every count holds beside the buffers counted one by one: the
/// board's tables (layout, dense set indices: tens of kilobytes), the
/// index chooser's samples and its remap tables (16 KiB), the statistics.
const FIXED_BYTES: u64 = 128 << 10;

/// The largest quarters and file sets of each board the quarters path
/// counts (n = 14..=23, [`QUARTERS_MIN_N`] on): for each n, the most
/// pieces the two quarters of one side of a unit hold together, and the
/// most halves one file set of one side can have (the pairs of its
/// quarters' pieces whose ranks fit, before the diagonal test: what
/// `Quarters::halves` tries). Computed by walking every unit's quarters
/// (`reach_table` below, `--ignored`, minutes at n = 23); a test computes
/// them again for the smaller boards.
const QUARTER_REACH: [Reach; 10] = [
    Reach::new(10_371, 1_080),
    Reach::new(13_243, 689),
    Reach::new(43_244, 7_240),
    Reach::new(57_500, 3_720),
    Reach::new(163_930, 41_644),
    Reach::new(239_828, 24_122),
    Reach::new(716_804, 300_950),
    Reach::new(1_105_690, 168_955),
    Reach::new(3_127_420, 2_300_692),
    Reach::new(5_736_542, 1_377_514),
];

/// One board's largest quarters and sets (see [`QUARTER_REACH`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Reach {
    /// Pieces of one side's two quarters.
    pieces: u64,
    /// Halves (pairs of pieces tried) of one file set of one side.
    set_halves: u64,
}

impl Reach {
    const fn new(pieces: u64, set_halves: u64) -> Reach {
        Reach { pieces, set_halves }
    }
}

/// An upper bound on the heap one thread holds to answer `question` for
/// the n×n board: for a count, the unit workspace.
pub(crate) fn peak_bytes(n: usize, question: Question) -> u64 {
    let board = Board::new(n);
    let work = match question {
        // The walkthrough makes the plan and shows units one step at a
        // time, holding one unit's small search at once; the engine lists
        // no boards. Only a count holds a workspace.
        Question::Trace | Question::Enumerate => 0,
        Question::Count => workspace_bytes(&board),
    };
    FIXED_BYTES + work
}

/// What the process holds once for `question`, whatever its threads: the
/// plan (every question makes it). A count's lists of the parts it runs
/// are the run's, declared by whoever runs them once the plan says how
/// many parts a run (or a shard) lists (`queens_distributed::run`).
pub(crate) fn shared_bytes(n: usize, _question: Question) -> u64 {
    plan_bytes(&Board::new(n))
}

/// The plan, compact (`queens_core::split::Plan`): every unit (before the
/// canonical ones are kept), the canonical units as `WorkUnit`s, twice
/// (weighed, then held by the plan with their count of pieces and first
/// piece's index).
fn plan_bytes(board: &Board) -> u64 {
    let units = board.units().len() as u64;
    let unit = size_of::<Unit>() as u64;
    let work_unit = size_of::<queens_core::split::WorkUnit>() as u64;
    let held = work_unit + (size_of::<u32>() + size_of::<usize>()) as u64;
    2 * units * unit + 2 * units * (work_unit + held)
}

/// A thread's unit workspace for the board's path.
fn workspace_bytes(board: &Board) -> u64 {
    let n = board.n;
    if n < QUARTERS_MIN_N {
        return SMALL_BOARD_BYTES >> (QUARTERS_MIN_N - 1 - n);
    }
    let Some(&reach) = QUARTER_REACH.get(n - QUARTERS_MIN_N) else {
        return MEASURED_MARGIN * MEASURED_PEAK[n - WALKED_MAX_N - 1];
    };
    let bytes = quarters_bytes(board, reach);
    if board.layout.width == Width::Wide {
        // A wide set joined as `u64` words keeps its words and pairs in a
        // second set of buffers (12 bytes more per half, on both sides).
        return bytes + 2 * 2 * chunk_halves(reach) * 12;
    }
    bytes
}

/// The largest board of [`QUARTER_REACH`].
const WALKED_MAX_N: usize = QUARTERS_MIN_N + QUARTER_REACH.len() - 1;

/// The peak heap one thread of `queens count N --estimate` held, for the
/// boards past the walked table, n = 24..=28: the largest the estimates
/// record measured (`bench-results/estimates.json`, `peak_bytes`, sampled
/// units whose every part was counted on one thread: the unit's quarters,
/// or from n = 27 one set's, and a sub-part's halves and join). A test
/// checks this table against the record.
const MEASURED_PEAK: [u64; 5] = [
    809_009_152,
    1_333_088_256,
    2_647_654_400,
    468_398_080,
    1_186_590_720,
];

/// What a thread is declared to hold past the walked table, over the
/// measured peak. Walking every unit's quarters of n = 24 would take days,
/// so no bound is walked there; the measurement is a sample, and samples
/// of n = 26 have peaked anywhere from 1.26 to 2.65 GB, so the largest is
/// doubled. The structural bound of the walked boards, carried past them
/// by a growth per two n (pieces six-fold, halves nine-fold: above any
/// growth the table shows), declared 31 GiB a thread at n = 26 and 182 GiB
/// at n = 28, 12 and 150 times what was measured: it refused every machine
/// the count is meant for, and a refusal that every run meets is no guard.
const MEASURED_MARGIN: u64 = 2;

/// The halves one side of one sub-part makes at most: a whole set's, or a
/// chunk's when the set is cut (its share of [`CHUNK_PAIRS`] and one left
/// piece's pairs, at most a quarter's pieces; see `crate::unit::SetCut`).
/// So from the boards whose sets are cut on, a thread's halves stop
/// growing with n, and only the quarters' pieces do.
fn chunk_halves(reach: Reach) -> u64 {
    reach.set_halves.min(CHUNK_PAIRS + reach.pieces)
}

/// The quarters path (n = 14 on): both sides' quarters (each piece a
/// found entry, a key and a side key; each quarter a table of cells, one
/// per (ranks, outside files)), one sub-part's keys per side (as many as
/// its pieces may pair into, plus the slack `Quarters::halves` keeps), its
/// unsorted pairs and each side's buckets (tops padded by 3 words per
/// bucket), the bucket sizes, and the join's runs and gathered bottoms.
fn quarters_bytes(board: &Board, reach: Reach) -> u64 {
    let per_piece = (size_of::<(u32, u64, u32)>() + size_of::<u64>() + size_of::<u32>()) as u64;
    let cells = quarter_cells(board);
    let quarters = 2 * (2 * reach.pieces * per_piece + 2 * 2 * (cells + 1) * 4);
    let halves = chunk_halves(reach) + reach.pieces;
    let keys = 2 * 2 * halves * 8;
    // The most index bits a set may take: the layout's, or one more where
    // the layout leaves room (`Board::chosen_index_bits`).
    let index = 1u64 << board.chosen_index_bits(usize::MAX, usize::MAX);
    let unsorted = 2 * halves * 8;
    let sides = 2 * (halves + 3 * index) * 4 + 2 * halves * 4 + 2 * 2 * (index + 1) * 4;
    let join = 2 * index * 8 + 2 * GATHER_MAX_WORDS as u64 * 4;
    quarters + keys + unsorted + sides + 2 * index * 4 + join
}

/// The cells of the larger quarter: (ranks of the half) × (its files
/// outside the block).
fn quarter_cells(board: &Board) -> u64 {
    let left = (1u32 << board.half) - 1;
    let outside = board.full & !board.block;
    let most = (outside & left)
        .count_ones()
        .max((outside & !left).count_ones());
    1u64 << (board.half as u32 + most)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::SplitSymmetry;
    use crate::join::Role;
    use crate::quarters::{self, Quarters};
    use crate::unit;

    /// [`Reach`] of the n×n board, walking every unit's quarters.
    fn reach(n: usize) -> Reach {
        let board = Board::new(n);
        let plan = crate::plan::plan(&Board::new(n)).whole_units();
        let side_bits = quarters::side_bits(&board);
        let (mut tops, mut bottoms) = (Quarters::default(), Quarters::default());
        let mut most = Reach::new(0, 0);
        for work in &plan[..plan.len() - 1] {
            let top_unit = Unit::from_key(work.key);
            let bottom_unit = board.map_unit(SplitSymmetry::Flip, top_unit);
            for (quarters, unit, role) in [
                (&mut tops, top_unit, Role::Top),
                (&mut bottoms, bottom_unit, Role::Bottom),
            ] {
                quarters.build(
                    crate::arch::Portable,
                    &board,
                    &side_bits,
                    unit::contributions(&board, role),
                    unit::forbidden(&board, unit, role),
                    unit.middle,
                    unit.pattern,
                );
                most.pieces = most.pieces.max(quarters.pieces());
            }
            unit::for_each_top_set(&board, top_unit, &board.orbit(top_unit).1, |set, _| {
                let bottom_set = board.bottom_set(top_unit.middle, set);
                most.set_halves = most
                    .set_halves
                    .max(tops.pairs(set))
                    .max(bottoms.pairs(bottom_set));
            });
        }
        most
    }

    #[test]
    fn the_reach_table_is_what_the_quarters_hold_on_the_smaller_boards() {
        for n in QUARTERS_MIN_N..=17 {
            assert_eq!(reach(n), QUARTER_REACH[n - QUARTERS_MIN_N], "n = {n}");
        }
    }

    /// Prints [`QUARTER_REACH`] (run with --ignored --nocapture; about an
    /// hour on two cores, most of it n = 23; `REACH_N=22,23` for some).
    #[test]
    #[ignore = "an hour: regenerates a table"]
    fn reach_table() {
        let sizes: Vec<usize> = std::env::var("REACH_N").map_or_else(
            |_| (QUARTERS_MIN_N..=23).collect(),
            |list| list.split(',').map(|n| n.parse().unwrap()).collect(),
        );
        for n in sizes {
            let started = std::time::Instant::now();
            let Reach { pieces, set_halves } = reach(n);
            eprintln!(
                "n = {n}: Reach::new({pieces}, {set_halves}), in {:?}",
                started.elapsed()
            );
        }
    }

    #[test]
    fn no_set_up_to_n_23_is_cut() {
        // The walked table (to n = 23) bounds every set's tries on each
        // side, and no set of those boards reaches either limit of the cut
        // (README: "No set up to n = 23 is cut"; `tuning::UNCUT_MAX_N` skips
        // counting the pairs there).
        use crate::tuning::{SUB_PART_PAIRS, UNCUT_MAX_N};
        let below_limits = |n: usize| {
            let most = QUARTER_REACH[n - QUARTERS_MIN_N].set_halves;
            most <= CHUNK_PAIRS && u128::from(most).pow(2) <= u128::from(SUB_PART_PAIRS)
        };
        assert_eq!(QUARTERS_MIN_N + QUARTER_REACH.len() - 1, UNCUT_MAX_N);
        assert!((QUARTERS_MIN_N..=UNCUT_MAX_N).all(below_limits));
    }

    #[test]
    fn a_count_declares_more_than_a_trace_and_grows_with_n() {
        for n in 4..=28 {
            assert!(peak_bytes(n, Question::Count) >= peak_bytes(n, Question::Trace));
        }
        // While a unit's quarters are built whole, the bound grows with the
        // board (the quarters and a set's halves do), same parity to same
        // parity; from n = 27 a thread holds one set's quarters at a time,
        // a fraction of a unit's.
        for n in 16..crate::tuning::EXACT_MIN_N {
            assert!(
                peak_bytes(n, Question::Count) > peak_bytes(n - 2, Question::Count),
                "n = {n}"
            );
        }
    }

    #[test]
    fn past_the_walked_table_a_thread_declares_at_least_the_measured_peak_and_at_most_twice() {
        // The estimates record's peaks (one thread, its largest sample) at
        // every n it holds: never above the declaration (what it is for),
        // and past the walked boards within twice of it.
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../bench-results/estimates.json"
        );
        let record: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let estimates = record["estimates"].as_array().unwrap();
        let past_the_table = (WALKED_MAX_N + 1..=28).filter(|&n| {
            let of_n = |e: &&serde_json::Value| e["n"].as_u64() == Some(n as u64);
            estimates.iter().find(of_n).is_some()
        });
        assert_eq!(past_the_table.count(), MEASURED_PEAK.len());
        for estimate in estimates {
            let n = estimate["n"].as_u64().unwrap() as usize;
            let measured = estimate["peak_bytes"].as_u64().unwrap();
            let declared = peak_bytes(n, Question::Count);
            assert!(declared >= measured, "n = {n}: {declared} < {measured}");
            if n > WALKED_MAX_N {
                assert!(
                    declared <= 2 * measured + FIXED_BYTES,
                    "n = {n}: {declared}"
                );
            }
        }
    }
}
