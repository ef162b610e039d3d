//! Knuth's random probe: an estimate of the size of the backtrack tree
//! without walking it.
//!
//! **The idea.** Walk down from the root once, and at each node note its
//! number of children, the *degree* D (here: the safe files of the next
//! rank), then go on to one child chosen uniformly at random. If every node
//! at depth j had exactly D_j children, the tree would hold
//! D_0·D_1·…·D_{k-1} nodes at depth k; a probe takes that product as its
//! guess. The guess is *unbiased*: a path reaches a given node at depth k
//! with probability 1/(D_0·…·D_{k-1}), the very product it then reports, so
//! summed over every node, weighted by its probability, the guesses give the
//! exact number of nodes at depth k. Averaging many probes estimates the
//! whole profile, level by level, and the tree's size.
//!
//! **Source.** D. E. Knuth, "Estimating the efficiency of backtrack
//! programs", Mathematics of Computation 29 (1975) 121–136; The Art of
//! Computer Programming, section 7.2.2.
//!
//! **Cost.** One probe is one path: at most n nodes, each three mask
//! operations and a population count. K probes cost about K·n steps, where
//! the exact walk visits every node of the tree.
//!
//! **Limits.** Unbiased is not accurate: one probe can be far off, because
//! the rare deep paths carry huge products and the common dead ends carry
//! zero. The spread of the probes' totals shows how far; the standard error
//! [`Estimate::spread`] (their standard deviation over √K) is what a reader
//! should put beside the mean. The chooser is passed in, so a seeded
//! generator makes a run repeatable.

use crate::search::{MAX_N, Mask};

/// One probe: the degree of each node on a random path from the empty
/// board, root first, until a dead end (degree 0, the last entry) or a full
/// board (n entries, none 0). `choose(d)` picks a child: an index in
/// `0..d`, counted among the safe files from file a up.
pub fn probe(n: usize, choose: &mut impl FnMut(u32) -> u32) -> Vec<u32> {
    assert!((1..=MAX_N).contains(&n), "n checked by the caller");
    // The masks as the search keeps them (1 = safe; see `search`).
    let mut left = Mask::MAX;
    let mut right = Mask::MAX;
    let mut vertical = Mask::MAX >> (MAX_N - n);
    let mut degrees = Vec::with_capacity(n);
    for _ in 0..n {
        let free = left & right & vertical;
        let degree = free.count_ones();
        degrees.push(degree);
        if degree == 0 {
            break;
        }
        let mut rest = free;
        for _ in 0..choose(degree).min(degree - 1) {
            rest &= rest - 1;
        }
        let cleared = !(rest & rest.wrapping_neg());
        left = ((left & cleared) << 1) | 1;
        right = (((right & cleared) as i32) >> 1) as Mask;
        vertical &= cleared;
    }
    degrees
}

/// One probe's guess at the number of nodes at each depth 0..=n: the
/// running products of its degrees (0 below a dead end).
pub fn guesses(n: usize, degrees: &[u32]) -> Vec<f64> {
    let mut levels = vec![0.0; n + 1];
    let mut product = 1.0;
    levels[0] = product;
    for (k, &degree) in degrees.iter().enumerate() {
        product *= f64::from(degree);
        levels[k + 1] = product;
    }
    levels
}

/// The mean of many probes.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    /// The estimated number of nodes at depth 0, 1, ..., n.
    pub levels: Vec<f64>,
    /// The estimated size of the whole tree: the sum of `levels`.
    pub total: f64,
    /// The standard error of `total`: the probes' totals' standard
    /// deviation over the square root of their number (0 for one probe).
    pub spread: f64,
}

/// The mean of `probes` probes (at least one) of the n×n tree.
pub fn estimate(n: usize, probes: u64, choose: &mut impl FnMut(u32) -> u32) -> Estimate {
    assert!(probes > 0, "probes checked by the caller");
    let mut levels = vec![0.0; n + 1];
    let (mut sum, mut squares) = (0.0, 0.0);
    for _ in 0..probes {
        let guess = guesses(n, &probe(n, choose));
        let total: f64 = guess.iter().sum();
        sum += total;
        squares += total * total;
        for (level, g) in levels.iter_mut().zip(guess) {
            *level += g;
        }
    }
    let k = probes as f64;
    levels.iter_mut().for_each(|level| *level /= k);
    let mean = sum / k;
    let variance = if probes > 1 {
        ((squares - k * mean * mean) / (k - 1.0)).max(0.0)
    } else {
        0.0
    };
    Estimate {
        levels,
        total: mean,
        spread: (variance / k).sqrt(),
    }
}
