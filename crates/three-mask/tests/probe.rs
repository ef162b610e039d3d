//! Knuth's estimate: exact where the tree leaves it no choice, unbiased
//! over every path, and close at n = 8 with many probes.

use queens_core::Solver;
use queens_min_conflicts::SplitMix64;
use queens_three_mask::ThreeMask;
use queens_three_mask::probe::{estimate, guesses, probe};

fn exact(n: usize) -> Vec<f64> {
    let profile = ThreeMask.tree_profile(n).unwrap().unwrap();
    profile.into_iter().map(|c| c as f64).collect()
}

#[test]
fn one_path_and_uniform_branching_are_estimated_exactly() {
    // n = 1: one path (the root and one full board). n = 2: the root's two
    // children are both dead ends, so every probe sees degrees 2, 0.
    for n in [1, 2] {
        let mut random = SplitMix64::new(7);
        let got = estimate(n, 5, &mut |d| random.below(d as usize) as u32);
        assert_eq!(got.levels, exact(n), "n = {n}");
        assert_eq!(got.spread, 0.0, "n = {n}");
    }
}

#[test]
fn every_path_weighted_by_its_probability_gives_the_exact_profile() {
    for n in 1..=7 {
        let mut expected = vec![0.0; n + 1];
        let mut paths = 0;
        // Every choice sequence, as an odometer: the last choice that can
        // still grow grows, and the ones after it start again from 0.
        let mut choices: Vec<u32> = Vec::new();
        loop {
            let mut made = 0;
            let degrees = probe(n, &mut |_| {
                made += 1;
                choices.get(made - 1).copied().unwrap_or(0)
            });
            choices.resize(made, 0);
            let probability: f64 = degrees[..made]
                .iter()
                .map(|&d| 1.0 / f64::from(d))
                .product();
            for (e, g) in expected.iter_mut().zip(guesses(n, &degrees)) {
                *e += probability * g;
            }
            paths += 1;
            let Some(i) = (0..made).rev().find(|&i| choices[i] + 1 < degrees[i]) else {
                break;
            };
            choices[i] += 1;
            choices.truncate(i + 1);
        }
        let exact = exact(n);
        // One path per leaf of the tree: at least as many as its boards.
        assert!(paths as f64 >= exact[n], "n = {n}");
        for (k, (e, x)) in expected.iter().zip(&exact).enumerate() {
            assert!(
                (e - x).abs() <= 1e-9 * x.max(1.0),
                "n = {n}, k = {k}: {e} vs {x}"
            );
        }
    }
}

#[test]
fn many_probes_at_eight_land_near_2057() {
    for seed in [1, 2, 3] {
        let mut random = SplitMix64::new(seed);
        let got = estimate(8, 20_000, &mut |d| random.below(d as usize) as u32);
        let error = (got.total - 2057.0).abs() / 2057.0;
        assert!(error < 0.03, "seed {seed}: {} ({error})", got.total);
        // The standard error is what says how far the mean may be off.
        assert!(
            got.spread > 0.0 && got.spread < 0.02 * 2057.0,
            "seed {seed}: {}",
            got.spread
        );
    }
}

#[test]
fn a_seed_gives_the_same_estimate() {
    let run = || {
        let mut random = SplitMix64::new(42);
        estimate(10, 100, &mut |d| random.below(d as usize) as u32)
    };
    assert_eq!(run(), run());
}
