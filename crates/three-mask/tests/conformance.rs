//! The workspace's solver contract (see the queens-conformance crate). The
//! reference solver is counted further than the suite's default: it is the
//! one the others are compared with in the crate's own tests.

queens_conformance::suite!(mirror: queens_three_mask::ThreeMaskMirror);

queens_conformance::suite!(
    queens_three_mask::ThreeMask,
    queens_conformance::Config::count_up_to(
        14,
        "the reference solver, cheap to the 365,596 boards of n = 14"
    )
);
