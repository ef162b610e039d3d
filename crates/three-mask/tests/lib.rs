//! The crate's integration tests as one test binary (one link instead of
//! one per file): the workspace's solver contract and what is specific to
//! this solver.

mod conformance;
mod probe;
mod three_mask;
