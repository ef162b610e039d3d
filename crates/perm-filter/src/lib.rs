#![doc = include_str!("../README.md")]

mod diagonal;
mod generate;
mod search;

use std::marker::PhantomData;

use queens_core::trace::Observer;
use queens_core::{GenericSearch, SearchStats, SolutionSink, SolverInfo};

pub use diagonal::{Clash, Diagonal, MAX_DIAGONAL_N, Walk, first_clash_column};
pub use generate::{HeapsAlgorithm, ItertoolsPermutations, MAX_N, PermutationSource};
pub use search::Search;

// The diagonal bit sets must hold every board the generators can make.
const _: () = assert!(MAX_N <= MAX_DIAGONAL_N);

/// The facts both variants share; they differ in id, idea and measurements.
const fn variant(id: &'static str, idea: &'static str, analysis: &'static str) -> SolverInfo {
    SolverInfo {
        id,
        seed: "N Queens (Prolog), schinckel.net, 2008: http://schinckel.net/2008/06/07/n-queens/",
        idea,
        node: "one permutation generated (and tested until its first shared diagonal)",
        max_n: MAX_N,
        limit_reason: "counting permutations in a u64: 21! overflows it",
        enumerates: true,
        teaching: include_str!("../README.md"),
        analysis,
    }
}

/// The allocation-free variant: Heap's algorithm.
pub static INFO: SolverInfo = variant(
    "perm-filter",
    "generate-and-test: all n! row permutations in place (Heap's algorithm), keep those with distinct diagonals",
    include_str!("../ANALYSIS.md"),
);

/// The straightforward variant: itertools' `permutations`.
pub static ITERTOOLS_INFO: SolverInfo = variant(
    "perm-filter-itertools",
    "generate-and-test: all n! row permutations from itertools (a Vec each), keep those with distinct diagonals",
    include_str!("../ANALYSIS-itertools.md"),
);

/// A permutation source that is registered as a solver of its own.
pub trait Variant: PermutationSource + Send + Sync + 'static {
    const INFO: &'static SolverInfo;
}

impl Variant for HeapsAlgorithm {
    const INFO: &'static SolverInfo = &INFO;
}

impl Variant for ItertoolsPermutations {
    const INFO: &'static SolverInfo = &ITERTOOLS_INFO;
}

/// Generate-and-test with permutations from `G`.
#[derive(Clone, Copy, Debug, Default)]
pub struct PermFilter<G>(PhantomData<G>);

impl<G> PermFilter<G> {
    pub const fn new() -> Self {
        PermFilter(PhantomData)
    }
}

/// The `perm-filter` solver.
pub static PERM_FILTER: PermFilter<HeapsAlgorithm> = PermFilter::new();
/// The `perm-filter-itertools` solver.
pub static PERM_FILTER_ITERTOOLS: PermFilter<ItertoolsPermutations> = PermFilter::new();

// Counting, listing and tracing are one generic loop, so core's blanket
// `Solver` for `GenericSearch` is all the glue needed. Classes come from
// canonicalising each listed board (the post's third wish), which is what
// that glue does for `--unique`.
impl<G: Variant> GenericSearch for PermFilter<G> {
    const INFO: &'static SolverInfo = G::INFO;

    fn search<S: SolutionSink, O: Observer>(
        &self,
        n: usize,
        sink: &mut S,
        observer: &mut O,
    ) -> SearchStats {
        Search::new(n).run::<G, _, _>(sink, observer).stats()
    }
}
