//! The workspace's solver contract (see the queens-conformance crate).

queens_conformance::suite!(
    queens_textbook::Textbook,
    queens_conformance::Config::count_up_to(
        12,
        "a backtracker of the same tree as three-mask: n = 12 is well under a second"
    )
);
