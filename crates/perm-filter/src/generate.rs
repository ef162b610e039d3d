//! The generate half: every permutation of the rows `0..n`, one at a time,
//! handed to a visitor that may stop the generation. Two sources, so the
//! same filter can be timed on an allocation-free generator and on the
//! straightforward library one.

use std::ops::ControlFlow;

use itertools::Itertools;

use crate::diagonal::Walk;

/// Largest n whose permutation count n! fits the u64 node counter
/// (20! ≈ 2.4e18 < 2^64 ≈ 1.8e19 < 21!).
pub const MAX_N: usize = 20;

/// Produces every permutation of `0..n` exactly once.
pub trait PermutationSource {
    /// How the permutations are made, for the trace's first line.
    const METHOD: &'static str;
    /// The diagonal test's column order that suits this generator: start at
    /// the end it changes least.
    const WALK: Walk;

    /// Calls `visit` with each permutation (`rows[c]` = row of column c)
    /// until it returns `Break` or all n! are done. `1 <= n <= MAX_N`.
    fn for_each_permutation(
        n: usize,
        visit: impl FnMut(&[u8]) -> ControlFlow<()>,
    ) -> ControlFlow<()>;
}

/// Heap's algorithm (B. R. Heap, 1963), non-recursive: each permutation after
/// the first differs from the one before by a single swap, made in place in
/// one fixed array. No allocation; amortised O(1) per permutation.
#[derive(Clone, Copy, Debug, Default)]
pub struct HeapsAlgorithm;

impl PermutationSource for HeapsAlgorithm {
    const METHOD: &'static str = "Heap's algorithm: one swap per permutation, in place";
    // Position k is swapped only after all k! arrangements of rows[..k]:
    // the right end changes least.
    const WALK: Walk = Walk::LastToFirst;

    #[inline(always)]
    fn for_each_permutation(
        n: usize,
        mut visit: impl FnMut(&[u8]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        assert!((1..=MAX_N).contains(&n), "n checked by the caller");
        let mut storage = [0u8; MAX_N];
        for (row, slot) in storage.iter_mut().enumerate() {
            *slot = row as u8;
        }
        let rows = &mut storage[..n];
        // swaps_done[k] counts the swaps made at position k since the prefix
        // rows[..=k] was last reset: the state of the recursive version's
        // loop at depth k, kept in an array instead of on the call stack.
        let mut swaps_done = [0u8; MAX_N];
        visit(rows)?;
        let mut k = 1;
        while k < n {
            if (swaps_done[k] as usize) < k {
                // The parity rule makes the k + 1 prefix elements each take
                // position k once over the k swaps.
                let other = if k % 2 == 0 {
                    0
                } else {
                    swaps_done[k] as usize
                };
                rows.swap(other, k);
                visit(rows)?;
                swaps_done[k] += 1;
                k = 1;
            } else {
                swaps_done[k] = 0;
                k += 1;
            }
        }
        ControlFlow::Continue(())
    }
}

/// itertools' `permutations`: lexicographic order (the order of the usual
/// Prolog `perm/2`), one freshly allocated `Vec` per permutation.
#[derive(Clone, Copy, Debug, Default)]
pub struct ItertoolsPermutations;

impl PermutationSource for ItertoolsPermutations {
    const METHOD: &'static str = "itertools permutations: lexicographic order, a new Vec each";
    const WALK: Walk = Walk::FirstToLast;

    #[inline(always)]
    fn for_each_permutation(
        n: usize,
        mut visit: impl FnMut(&[u8]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        assert!((1..=MAX_N).contains(&n), "n checked by the caller");
        (0..n as u8)
            .permutations(n)
            .try_for_each(|rows| visit(&rows))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    fn collect<G: PermutationSource>(n: usize) -> Vec<Vec<u8>> {
        let mut all = Vec::new();
        let _ = G::for_each_permutation(n, |rows| {
            all.push(rows.to_vec());
            ControlFlow::Continue(())
        });
        all
    }

    fn is_permutation(rows: &[u8]) -> bool {
        let mut sorted = rows.to_vec();
        sorted.sort_unstable();
        sorted.iter().enumerate().all(|(i, &r)| r as usize == i)
    }

    fn each_permutation_exactly_once<G: PermutationSource>() {
        let mut factorial = 1;
        for n in 1..=7 {
            factorial *= n;
            let all = collect::<G>(n);
            assert_eq!(all.len(), factorial, "n = {n}");
            assert!(all.iter().all(|p| is_permutation(p)));
            assert_eq!(
                all.iter().collect::<BTreeSet<_>>().len(),
                factorial,
                "n = {n}: repeats"
            );
        }
    }

    #[test]
    fn heaps_algorithm_makes_each_permutation_once() {
        each_permutation_exactly_once::<HeapsAlgorithm>();
    }

    #[test]
    fn itertools_makes_each_permutation_once() {
        each_permutation_exactly_once::<ItertoolsPermutations>();
    }

    #[test]
    fn heaps_algorithm_changes_one_swap_at_a_time() {
        let all = collect::<HeapsAlgorithm>(6);
        for pair in all.windows(2) {
            let moved = pair[0].iter().zip(&pair[1]).filter(|(a, b)| a != b).count();
            assert_eq!(moved, 2, "{:?} -> {:?}", pair[0], pair[1]);
        }
    }

    #[test]
    fn itertools_order_is_lexicographic() {
        let all = collect::<ItertoolsPermutations>(5);
        assert!(all.windows(2).all(|pair| pair[0] < pair[1]));
    }

    #[test]
    fn both_stop_when_told() {
        fn first_three<G: PermutationSource>() -> usize {
            let mut seen = 0;
            let flow = G::for_each_permutation(6, |_| {
                seen += 1;
                if seen == 3 {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            });
            assert!(flow.is_break());
            seen
        }
        assert_eq!(first_three::<HeapsAlgorithm>(), 3);
        assert_eq!(first_three::<ItertoolsPermutations>(), 3);
    }
}
