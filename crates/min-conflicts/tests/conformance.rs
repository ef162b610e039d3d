//! The workspace's finder contract (see queens-conformance's `finders`),
//! taken to 10^6 queens, the bar's size: near-linear, it takes a moment.

queens_conformance::finder_suite!(
    queens_min_conflicts::MIN_CONFLICTS,
    queens_conformance::finders::FinderConfig::powers_up_to(
        1_000_000,
        "near-linear: the bar's million queens take a moment"
    )
);
