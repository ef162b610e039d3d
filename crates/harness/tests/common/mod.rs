//! Running the `queens` binary as a user would, for the harness's
//! integration tests that drive it from outside (`mod common;`). It lives
//! here, not in the conformance crate: Cargo tells only this package's tests
//! where the binary is (`CARGO_BIN_EXE_queens`).

// Each test file compiles its own copy of this module and uses part of it.
#![allow(dead_code)]

use std::path::Path;
use std::process::{Command, Output};

/// `queens ARGS...` in the current directory, to completion.
pub fn queens(args: &[&str]) -> Output {
    queens_in(args, Path::new("."))
}

/// `queens ARGS...` run from `dir`, for commands that read or write
/// relative paths (records, reports).
pub fn queens_in(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_queens"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the queens binary runs")
}

/// The binary's stdout or stderr as text; everything it prints is UTF-8.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("utf-8 output")
}
