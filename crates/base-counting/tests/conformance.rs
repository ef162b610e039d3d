//! The workspace's solver contract (see the queens-conformance crate).

queens_conformance::suite!(
    queens_base_counting::BaseCounting,
    queens_conformance::Config::count_up_to(
        12,
        "the odometer's own tests always went to n = 12, well under a second"
    )
);
