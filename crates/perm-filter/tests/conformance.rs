//! The workspace's solver contract (see the queens-conformance crate), for
//! both permutation sources.

queens_conformance::suite!(heaps: queens_perm_filter::PERM_FILTER);
queens_conformance::suite!(
    itertools: queens_perm_filter::PERM_FILTER_ITERTOOLS,
    queens_conformance::Config::count_up_to(
        10,
        "generate-and-test: n = 11 is 11! = 39.9M permutations, each a new Vec (about 6 s a count)"
    )
);
