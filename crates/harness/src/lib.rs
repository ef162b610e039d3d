//! The `queens` harness as a library: the registry of solvers and the
//! subcommands, shared by the `queens` binary, the benches and the tests.

pub mod cli;
pub mod commands;
pub mod error;
pub mod registry;
