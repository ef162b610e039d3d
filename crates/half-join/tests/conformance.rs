//! The workspace's solver contract (see the queens-conformance crate).

queens_conformance::suite!(queens_half_join::HALF_JOIN);
