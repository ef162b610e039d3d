//! The workspace's solver contract (see the queens-conformance crate): on
//! a machine without a GPU adapter the suite is skipped with a note, unless
//! QUEENS_REQUIRE_GPU is set (CI sets it, with Mesa's lavapipe installed).

queens_conformance::suite!(queens_gpu::GPU_CONSTELLATIONS);
