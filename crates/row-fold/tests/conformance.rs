//! The workspace's solver contract (see the queens-conformance crate).

queens_conformance::suite!(
    queens_row_fold::RowFold,
    queens_conformance::Config::count_up_to(
        12,
        "the fold's own tests always went to n = 12: levels of a few MB"
    )
);
