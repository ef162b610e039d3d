//! The workspace's finder contract (see queens-conformance's `finders`),
//! taken to 10^7 queens: a board that size is written and checked in well
//! under a second.

queens_conformance::finder_suite!(
    queens_construction::CONSTRUCTION,
    queens_conformance::finders::FinderConfig::powers_up_to(
        10_000_000,
        "linear and without search: the bar's size is cheap to write and check"
    )
);
