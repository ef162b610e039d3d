//! The cost model: a unit's predicted time, so that the plan's weights (and
//! the pieces it cuts long units into) are in time, not in top sets.
//!
//! Counting a unit is, for every top set S it joins, making S's tops and
//! the bottoms of its bottom set S' (from quarter pieces), sorting both
//! into index buckets, and joining them. The making and sorting grow as
//! the halves, tops + bottoms; the join as the pairs, tops × bottoms. The
//! number of top sets alone misses both: a set of spread files has many
//! halves, a set of adjacent files (they attack each other along the
//! diagonals) very few, and the pairs are a product of two such numbers.
//!
//! Counting halves would take as long as making them, so the model
//! *estimates* a set's halves by independent pairs: of the h! ways to put
//! h queens on h ranks, one per file of S, a random one keeps each file
//! off the squares forbidden to the side (the middle queen's attacks, and
//! for bottoms with the long diagonals' symmetries those diagonals) with
//! probability (free ranks of the file) / h, and keeps two files at
//! distance d < h off a shared diagonal with probability
//! 1 - 2(h - d) / (h(h - 1)) (the pairs of ranks d apart, either way).
//! Taking these as independent gives the estimate; it runs in one
//! popcount per distance, a few hundred operations a set, cheap enough for
//! every command to make the plan of n = 28 (130,331 units, up to a few
//! hundred sets each). Independence overstates the halves of crowded
//! sets; what matters is that it ranks sets as their halves do (a test
//! checks it against the real halves).
//!
//! A unit's predicted time is then, in nanoseconds,
//!
//! ```text
//! per_unit + Σ over its top sets (per_set + per_half · (T + B) + per_pair · T · B)
//! ```
//!
//! with T and B the estimated tops and bottoms of the set. The
//! coefficients are per n ([`COEFFICIENTS`]), fitted on sampled units
//! timed on this machine by the calibration command named there; from
//! n = 23 they are scaled so that the plan's total is the one-thread time
//! `--estimate` projected (`bench-results/estimates.json`), and sizes too
//! large to time take the form of the largest timed size of their parity.
//! The arithmetic is in `f64` basic operations only (no library functions
//! such as `ln` or `powf`, whose last bits may differ between platforms),
//! in a fixed order, so every machine makes the same plan.

use crate::board::{Board, SplitSymmetry, Unit};
use crate::unit;

/// How much of the independent-pairs estimate's conflict a pair of files
/// at diagonal distance counts: 1, the estimate as derived. (Larger
/// factors, which shrink crowded sets further, fitted the sampled sets'
/// times a little better but put the plan's one-thread total of n = 23
/// and 24 far off the record's projection: they blow up the few units of
/// the most spread sets, which a sample seldom draws.)
pub(crate) const CONFLICT: f64 = 1.0;

/// A size's coefficients: nanoseconds per unit, per set, per estimated
/// half (tops + bottoms), per estimated pair (tops × bottoms).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Coefficients {
    pub per_unit: f64,
    pub per_set: f64,
    pub per_half: f64,
    pub per_pair: f64,
}

/// The coefficients of each n, from n = [`FIRST_N`], in nanoseconds of
/// one thread: printed by the calibration,
/// `cargo test --release -p queens-half-join cost::tests::calibrate -- --ignored --nocapture`
/// (which times sampled units of n = 20 to 24 on this machine, fits them,
/// and prints this table and the accuracy beside the old weight). From
/// n = 23 each size's form (its own fit; from n = 25 the largest timed
/// size's of its parity) is scaled so that the plan's total is the
/// one-thread time `bench-results/estimates.json` projects, from far more
/// units than the fit times. A zero is a coefficient the fit found no use
/// for. Sizes below take the
/// first entry of their parity; the table ends at n = 28, the engine's
/// limit.
pub(crate) const COEFFICIENTS: [Coefficients; 9] = [
    // n = 20 (timed)
    Coefficients {
        per_unit: 2.188e7,
        per_set: 0.0,
        per_half: 0.0,
        per_pair: 7.338e-4,
    },
    // n = 21 (timed)
    Coefficients {
        per_unit: 3.851e7,
        per_set: 0.0,
        per_half: 8.284e-3,
        per_pair: 5.828e-4,
    },
    // n = 22 (timed)
    Coefficients {
        per_unit: 1.050e8,
        per_set: 0.0,
        per_half: 0.0,
        per_pair: 1.530e-4,
    },
    // n = 23 (timed, scaled to the projection)
    Coefficients {
        per_unit: 2.710e8,
        per_set: 0.0,
        per_half: 0.0,
        per_pair: 1.780e-4,
    },
    // n = 24 (timed, scaled to the projection)
    Coefficients {
        per_unit: 1.186e9,
        per_set: 0.0,
        per_half: 9.298e-2,
        per_pair: 6.780e-5,
    },
    // n = 25 (n = 23's form, scaled to the projection)
    Coefficients {
        per_unit: 1.016e8,
        per_set: 0.0,
        per_half: 0.0,
        per_pair: 6.672e-5,
    },
    // n = 26 (n = 24's form, scaled to the projection)
    Coefficients {
        per_unit: 7.283e8,
        per_set: 0.0,
        per_half: 5.709e-2,
        per_pair: 4.162e-5,
    },
    // n = 27 (n = 23's form, scaled to the projection)
    Coefficients {
        per_unit: 4.664e7,
        per_set: 0.0,
        per_half: 0.0,
        per_pair: 3.063e-5,
    },
    // n = 28 (n = 24's form, scaled to the projection)
    Coefficients {
        per_unit: 4.544e8,
        per_set: 0.0,
        per_half: 3.562e-2,
        per_pair: 2.597e-5,
    },
];

/// The smallest n [`COEFFICIENTS`] has its own entry for.
pub(crate) const FIRST_N: usize = 20;

/// The coefficients of an n.
pub(crate) fn coefficients(n: usize) -> Coefficients {
    let at = if n < FIRST_N {
        // The first entry of the same parity.
        FIRST_N + (n + FIRST_N) % 2
    } else {
        n
    };
    COEFFICIENTS[(at - FIRST_N).min(COEFFICIENTS.len() - 1)]
}

/// A unit's features: what its predicted time is a linear function of.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Features {
    /// Top sets joined.
    pub sets: f64,
    /// Estimated halves (tops + bottoms) over those sets.
    pub halves: f64,
    /// Estimated pairs (tops × bottoms) over those sets.
    pub pairs: f64,
}

impl std::ops::AddAssign for Features {
    fn add_assign(&mut self, other: Features) {
        self.sets += other.sets;
        self.halves += other.halves;
        self.pairs += other.pairs;
    }
}

impl Coefficients {
    /// The predicted nanoseconds of a unit of these features (its
    /// per-unit work included).
    pub(crate) fn predict(&self, features: Features) -> f64 {
        self.per_unit
            + self.per_set * features.sets
            + self.per_half * features.halves
            + self.per_pair * features.pairs
    }
}

/// The predicted time of counting the whole unit on one thread (release
/// build), in nanoseconds: see the module's doc.
pub(crate) fn cost(board: &Board, unit: Unit) -> u64 {
    let features = Estimator::new(board, unit, CONFLICT).unit_features();
    coefficients(board.n).predict(features).round() as u64
}

/// Estimates the halves of a unit's sets (see the module's doc).
pub(crate) struct Estimator<'a> {
    board: &'a Board,
    unit: Unit,
    /// Per side (top, bottom): per file, the share of the half's ranks
    /// where a queen of that side may stand.
    free: [[f64; 32]; 2],
    /// `keep[d][k]`: the chance that k pairs of files at distance d are
    /// all off shared diagonals (d from 1 to h - 1, k up to h).
    keep: Vec<Vec<f64>>,
    /// h!, the ways to put a set's queens on the ranks.
    orders: f64,
}

impl<'a> Estimator<'a> {
    /// The estimator of `unit`'s sets, with each pair's conflict scaled
    /// by `conflict` (see [`CONFLICT`]).
    pub(crate) fn new(board: &'a Board, unit: Unit, conflict: f64) -> Estimator<'a> {
        let h = board.half;
        let hf = h as f64;
        let bottom_unit = board.map_unit(SplitSymmetry::Flip, unit);
        let sides = [unit, bottom_unit].map(|side| board.middle_attacks(side.middle));
        let long = board.long_diagonals();
        let mut free = [[0.0; 32]; 2];
        for (role, mut forbidden) in sides.into_iter().enumerate() {
            if role == 1 && board.klein {
                for (forbidden, long) in forbidden.iter_mut().zip(long) {
                    *forbidden |= long;
                }
            }
            for (file, free) in free[role].iter_mut().enumerate().take(board.n) {
                let taken = forbidden[..h]
                    .iter()
                    .filter(|&&f| f >> file & 1 == 1)
                    .count();
                *free = (h - taken) as f64 / hf;
            }
        }
        let keep = (0..h)
            .map(|d| {
                let chance = if d == 0 || h < 2 {
                    1.0
                } else {
                    1.0 - conflict * 2.0 * (hf - d as f64) / (hf * (hf - 1.0))
                };
                let mut powers = vec![1.0; h + 1];
                for k in 1..=h {
                    powers[k] = powers[k - 1] * chance.max(0.0);
                }
                powers
            })
            .collect();
        let orders = (1..=h).fold(1.0, |acc, k| acc * k as f64);
        Estimator {
            board,
            unit,
            free,
            keep,
            orders,
        }
    }

    /// The estimated halves of one side (0 top, 1 bottom) of file set `set`.
    pub(crate) fn halves(&self, role: usize, set: u32) -> f64 {
        let mut estimate = self.orders;
        let mut files = set;
        while files != 0 {
            estimate *= self.free[role][files.trailing_zeros() as usize];
            files &= files - 1;
        }
        for (d, powers) in self.keep.iter().enumerate().skip(1) {
            estimate *= powers[(set & set >> d).count_ones() as usize];
        }
        estimate
    }

    /// The features of one top set (one set, its tops and its bottoms).
    pub(crate) fn set_features(&self, top_set: u32) -> Features {
        let tops = self.halves(0, top_set);
        let bottoms = self.halves(1, self.board.bottom_set(self.unit.middle, top_set));
        Features {
            sets: 1.0,
            halves: tops + bottoms,
            pairs: tops * bottoms,
        }
    }

    /// The features of the whole unit: its sets' features added in
    /// [`unit::for_each_top_set`]'s order.
    pub(crate) fn unit_features(&self) -> Features {
        let (_, fixing) = self.board.orbit(self.unit);
        let mut features = Features::default();
        unit::for_each_top_set(self.board, self.unit, &fixing, |set, _| {
            features += self.set_features(set);
        });
        features
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::unit::SetRange;
    use std::time::Instant;

    /// The sizes a measurement runs on: the comma-separated list in the
    /// variable `SIZES`, else `default`.
    pub(crate) fn sizes_from_env(default: std::ops::RangeInclusive<usize>) -> Vec<usize> {
        std::env::var("SIZES").map_or_else(
            |_| default.collect(),
            |list| {
                list.split(',')
                    .map(|n| n.parse().expect("SIZES: a list of n"))
                    .collect()
            },
        )
    }

    #[test]
    fn the_cost_is_deterministic_and_grows_with_the_estimated_work() {
        // The same unit costs the same every time (the plan must be the
        // same on every run), and every unit costs at least its per-unit
        // work.
        for n in [12, 17, 20] {
            let board = Board::new(n);
            for unit in board.units().into_iter().filter(|&u| board.is_canonical(u)) {
                let first = cost(&board, unit);
                assert_eq!(first, cost(&board, unit), "n = {n}: {unit:?}");
                assert!(first as f64 >= coefficients(n).per_unit.floor(), "n = {n}");
            }
        }
    }

    #[test]
    fn the_estimated_halves_rank_sets_as_their_real_halves_do() {
        // What the model rests on: over the sets of sampled units, the
        // estimated tops and bottoms go with the real ones (a correlation
        // of logs well above zero), with the long diagonals' restriction
        // (n = 18) and the middle queen's attacks (n = 17).
        for n in [17, 18] {
            let board = Board::new(n);
            let units: Vec<Unit> = (board.units().into_iter())
                .filter(|&u| board.is_canonical(u))
                .collect();
            let (mut estimated, mut real) = (Vec::new(), Vec::new());
            for k in 0..6 {
                let unit = units[(k * 7919 + 13 * n) % units.len()];
                let estimator = Estimator::new(&board, unit, CONFLICT);
                let sets = unit::tests::top_set_list(&board, unit);
                for (&set, (tops, bottoms)) in
                    sets.iter().zip(unit::tests::set_halves(&board, unit))
                {
                    let bottom_set = board.bottom_set(unit.middle, set);
                    for (role, set, halves) in [(0, set, tops), (1, bottom_set, bottoms)] {
                        if halves > 0 {
                            estimated.push(estimator.halves(role, set).ln());
                            real.push((halves as f64).ln());
                        }
                    }
                }
            }
            let r = correlation(&estimated, &real);
            eprintln!("n = {n}: log correlation of estimated and real halves {r:.3}");
            assert!(r > 0.6, "n = {n}: {r}");
        }
    }

    /// Pearson's correlation of two samples.
    fn correlation(x: &[f64], y: &[f64]) -> f64 {
        let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
        let (mx, my) = (mean(x), mean(y));
        let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
        for (&a, &b) in x.iter().zip(y) {
            sxy += (a - mx) * (b - my);
            sxx += (a - mx) * (a - mx);
            syy += (b - my) * (b - my);
        }
        sxy / (sxx * syy).sqrt()
    }

    /// A fixed pseudo-random sequence (the calibration draws the same
    /// units and sets on every run).
    struct Draws(u64);

    impl Draws {
        fn below(&mut self, bound: usize) -> usize {
            self.0 = (self.0)
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((self.0 >> 33) % bound as u64) as usize
        }
    }

    /// One sampled unit: the places of the sets timed, the time of its
    /// quarters plus those sets (ns), and each set's time.
    struct Sample {
        unit: Unit,
        sets: u64,
        places: Vec<usize>,
        prepared: f64,
        set_times: Vec<f64>,
    }

    impl Sample {
        /// The whole unit's time, its sets' share scaled up.
        fn whole(&self) -> f64 {
            let share = self.set_times.len() as f64 / self.sets as f64;
            self.prepared + self.set_times.iter().sum::<f64>() / share
        }
    }

    /// Times a unit's quarters and then its sets, in a random order, until
    /// `budget` seconds are spent (every set, if the unit is light).
    fn time_unit(board: &Board, unit: Unit, budget: f64, draws: &mut Draws) -> Sample {
        let sets = unit::top_sets(board, unit);
        let started = Instant::now();
        unit::prepare_unit(board, unit);
        let prepared = started.elapsed().as_secs_f64() * 1e9;
        let mut order: Vec<usize> = (0..sets as usize).collect();
        for i in (1..order.len()).rev() {
            order.swap(i, draws.below(i + 1));
        }
        let mut sample = Sample {
            unit,
            sets,
            places: Vec::new(),
            prepared,
            set_times: Vec::new(),
        };
        let begun = Instant::now();
        for place in order {
            let started = Instant::now();
            let range = SetRange {
                start: place as u64,
                end: place as u64 + 1,
            };
            std::hint::black_box(unit::tests::count_sets(board, unit, range));
            sample.set_times.push(started.elapsed().as_secs_f64() * 1e9);
            sample.places.push(place);
            if begun.elapsed().as_secs_f64() > budget {
                break;
            }
        }
        sample
    }

    /// The non-negative coefficients c minimising Σ (c · x - y)² / y: least
    /// squares between the absolute error (which favours the long rows,
    /// what a unit's time is made of) and the relative one (which would
    /// let a set of no halves weigh as much as the longest), dropping any
    /// coefficient that comes out negative.
    fn fit<const K: usize>(rows: &[([f64; K], f64)]) -> [f64; K] {
        let mut active = [true; K];
        loop {
            let used: Vec<usize> = (0..K).filter(|&i| active[i]).collect();
            let k = used.len();
            let mut a = vec![vec![0.0; k + 1]; k];
            for (x, y) in rows {
                let w = 1.0 / y.max(1.0);
                for (i, &p) in used.iter().enumerate() {
                    for (j, &q) in used.iter().enumerate() {
                        a[i][j] += w * x[p] * x[q];
                    }
                    a[i][k] += w * x[p] * y;
                }
            }
            // Gauss-Jordan elimination with partial pivoting.
            for col in 0..k {
                let pivot = (col..k)
                    .max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))
                    .unwrap();
                a.swap(col, pivot);
                let pivot_row = a[col].clone();
                for (row, values) in a.iter_mut().enumerate() {
                    if row != col && pivot_row[col] != 0.0 {
                        let factor = values[col] / pivot_row[col];
                        for (value, pivot) in values[col..].iter_mut().zip(&pivot_row[col..]) {
                            *value -= factor * pivot;
                        }
                    }
                }
            }
            let mut c = [0.0; K];
            for (i, &p) in used.iter().enumerate() {
                c[p] = if a[i][i] == 0.0 {
                    0.0
                } else {
                    a[i][k] / a[i][i]
                };
            }
            match (0..K).find(|&i| active[i] && c[i] < 0.0) {
                Some(negative) => active[negative] = false,
                None => return c,
            }
        }
    }

    /// The set rows of the draws from `first`, every second one:
    /// ([1, halves, pairs], ns) of each timed set.
    fn set_rows(
        board: &Board,
        sampled: &[Sample],
        conflict: f64,
        first: usize,
    ) -> Vec<([f64; 3], f64)> {
        let mut rows = Vec::new();
        for s in sampled.iter().skip(first).step_by(2) {
            let estimator = Estimator::new(board, s.unit, conflict);
            let sets = unit::tests::top_set_list(board, s.unit);
            for (&place, &time) in s.places.iter().zip(&s.set_times) {
                let f = estimator.set_features(sets[place]);
                rows.push(([1.0, f.halves, f.pairs], time));
            }
        }
        rows
    }

    /// The coefficients fitted to the even draws of one size: the time of
    /// a unit's quarters against [1, its sets' halves], and each timed
    /// set's against [1, halves, pairs].
    fn fit_size(board: &Board, sampled: &[Sample], conflict: f64) -> Coefficients {
        let prepare_rows: Vec<([f64; 2], f64)> = (sampled.iter().step_by(2))
            .map(|s| {
                let f = Estimator::new(board, s.unit, conflict).unit_features();
                ([1.0, f.halves], s.prepared)
            })
            .collect();
        let [per_unit, unit_half] = fit(&prepare_rows);
        let [per_set, set_half, per_pair] = fit(&set_rows(board, sampled, conflict, 0));
        Coefficients {
            per_unit,
            per_set,
            per_half: unit_half + set_half,
            per_pair,
        }
    }

    /// How well `predicted` predicts `actual`, scale apart: the
    /// correlation of logs, and the spread of actual / predicted (90th
    /// over 10th percentile, and largest over smallest).
    fn accuracy(actual: &[f64], predicted: &[f64]) -> String {
        let logs = |v: &[f64]| v.iter().map(|x| x.ln()).collect::<Vec<f64>>();
        let r = correlation(&logs(actual), &logs(predicted));
        let mut ratios: Vec<f64> = actual.iter().zip(predicted).map(|(a, p)| a / p).collect();
        ratios.sort_by(f64::total_cmp);
        let at = |q: f64| ratios[((ratios.len() - 1) as f64 * q).round() as usize];
        format!(
            "log corr {r:.3}, p90/p10 {:.2}, max/min {:.1}",
            at(0.9) / at(0.1),
            at(1.0) / at(0.0)
        )
    }

    /// The one-thread seconds `--estimate` projected for n, from the
    /// record.
    fn projected_seconds(n: usize) -> Option<f64> {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../bench-results/estimates.json"
        );
        let record: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()?;
        (record["estimates"].as_array()?.iter())
            .find(|e| e["n"].as_u64() == Some(n as u64) && e["solver"] == "half-join")
            .and_then(|e| e["seconds"].as_f64())
    }

    /// The plan's predicted total (ns) with coefficients `c`.
    fn plan_total(n: usize, c: Coefficients) -> f64 {
        let board = Board::new(n);
        (board.units().into_iter())
            .filter(|&u| board.is_canonical(u))
            .map(|u| c.predict(Estimator::new(&board, u, CONFLICT).unit_features()))
            .sum()
    }

    /// The calibration of [`COEFFICIENTS`] (release build,
    /// one thread: `cargo test --release -p queens-half-join
    /// cost::tests::calibrate -- --ignored --nocapture`). For each n of
    /// `SIZES` (default 20..=24): units drawn uniformly (a fixed sequence),
    /// each unit's quarters timed and then its sets one by one, in a random
    /// order, until `UNIT_SECONDS` (default 3) are spent, units drawn
    /// until `SECONDS` (default 60) are spent. The even draws fit the
    /// coefficients ([`fit_size`]), the odd ones measure the accuracy, beside the old weight
    /// (the top sets): per unit (its timed sets scaled up to all its sets)
    /// and per set. From n = 23 each form is scaled to the record's
    /// projected time (larger sizes take the form of the largest fitted
    /// size of their parity). Prints the table to paste into
    /// [`COEFFICIENTS`].
    #[test]
    #[ignore = "minutes in a release build: a measurement, not a check"]
    fn calibrate() {
        let env = |name: &str, default: f64| {
            std::env::var(name).map_or(default, |v| v.parse().expect("a number"))
        };
        let sizes = sizes_from_env(20..=24);
        let (seconds, unit_seconds) = (env("SECONDS", 60.0), env("UNIT_SECONDS", 3.0));
        let mut draws = Draws(0x9E37_79B9_7F4A_7C15);
        let mut samples: Vec<(Board, Vec<Sample>)> = Vec::new();
        for &n in &sizes {
            let board = Board::new(n);
            let units: Vec<Unit> = (board.units().into_iter())
                .filter(|&u| board.is_canonical(u))
                .collect();
            let started = Instant::now();
            let mut sampled = Vec::new();
            while started.elapsed().as_secs_f64() < seconds {
                let unit = units[draws.below(units.len())];
                sampled.push(time_unit(&board, unit, unit_seconds, &mut draws));
            }
            eprintln!("n = {n}: {} units timed", sampled.len());
            samples.push((board, sampled));
        }
        let conflict = CONFLICT;
        let mut fitted = std::collections::BTreeMap::new();
        for (board, sampled) in &samples {
            let n = board.n;
            let c = fit_size(board, sampled, conflict);
            fitted.insert(n, c);
            let held: Vec<&Sample> = sampled.iter().skip(1).step_by(2).collect();
            let actual: Vec<f64> = held.iter().map(|s| s.whole()).collect();
            let new: Vec<f64> = (held.iter())
                .map(|s| c.predict(Estimator::new(board, s.unit, conflict).unit_features()))
                .collect();
            let old: Vec<f64> = held.iter().map(|s| s.sets as f64).collect();
            eprintln!("n = {n}: {c:?}");
            eprintln!(
                "n = {n}, {} held-out units, cost: {}",
                held.len(),
                accuracy(&actual, &new)
            );
            eprintln!(
                "n = {n}, {} held-out units, top sets: {}",
                held.len(),
                accuracy(&actual, &old)
            );
            let (mut set_actual, mut set_new) = (Vec::new(), Vec::new());
            for s in &held {
                let estimator = Estimator::new(board, s.unit, conflict);
                let sets = unit::tests::top_set_list(board, s.unit);
                for (&place, &time) in s.places.iter().zip(&s.set_times) {
                    let f = estimator.set_features(sets[place]);
                    set_actual.push(time);
                    set_new.push(c.predict(f) - c.per_unit);
                }
            }
            let ones = vec![1.0; set_actual.len()];
            eprintln!(
                "n = {n}, {} held-out sets, cost: {}; top sets (each alike): {}",
                set_actual.len(),
                accuracy(&set_actual, &set_new),
                accuracy(&set_actual, &ones)
            );
            if let Some(projected) = projected_seconds(n) {
                let total = plan_total(n, c) / 1e9;
                eprintln!(
                    "n = {n}: plan predicts {total:.0} s, the record projected {projected:.0} s"
                );
            }
        }
        // From n = 23 the record projects a one-thread time: each size's
        // form (its own fit, or past the timed sizes the largest timed
        // size's of its parity) is scaled so that the plan's total is that
        // projection, which drew many more units than the fit could time.
        let mut table = Vec::new();
        for n in FIRST_N..FIRST_N + COEFFICIENTS.len() {
            let form = (fitted.iter().rev())
                .find(|&(&m, _)| m <= n && m % 2 == n % 2)
                .map(|(_, &c)| c);
            let Some(form) = form else {
                eprintln!("n = {n}: no fitted size of its parity at or below");
                continue;
            };
            let c = match projected_seconds(n) {
                Some(projected) => {
                    let scale = projected * 1e9 / plan_total(n, form);
                    eprintln!("n = {n}: scaled by {scale:.3} to the record's projection");
                    Coefficients {
                        per_unit: form.per_unit * scale,
                        per_set: form.per_set * scale,
                        per_half: form.per_half * scale,
                        per_pair: form.per_pair * scale,
                    }
                }
                None => form,
            };
            table.push(format!(
                "    // n = {n}\n    Coefficients {{ per_unit: {:.3e}, per_set: {:.3e}, per_half: {:.3e}, per_pair: {:.3e} }},",
                c.per_unit, c.per_set, c.per_half, c.per_pair
            ));
        }
        eprintln!("CONFLICT = {conflict}; COEFFICIENTS:\n{}", table.join("\n"));
    }
}
