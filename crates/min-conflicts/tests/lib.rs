//! The crate's integration tests as one test binary: the workspace's finder
//! contract.

mod conformance;
