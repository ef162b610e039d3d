//! The crate's integration tests as one test binary: the workspace's finder
//! contract, and every n up to the limit (ignored by default).

mod conformance;
mod fail_first;
