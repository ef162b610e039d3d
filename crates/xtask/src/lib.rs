//! `cargo xtask`: the chores of this workspace, written in Rust instead of
//! shell, so that what they check is code that can be read, tested and
//! linted like the rest (JSON parsed with serde_json, OEIS values from
//! `queens_core::oeis`, medians from the workspace's timing statistics,
//! every process's exit status checked).
//!
//! `cargo xtask NAME` (an alias in `.cargo/config.toml`) runs it from the
//! checkout; the scripts under `scripts/` are one-line wrappers around it
//! and `.ci/run` calls `cargo xtask ci setup` before the tests and
//! `cargo xtask ci checks` after them. The subcommands, one module each
//! under [`cmd`]:
//!
//! - `ci setup` / `ci checks`: every CI step except the three commands CI
//!   calls literally (`cargo test --workspace`, `cargo fmt --all --check`,
//!   `cargo clippy --workspace --all-targets -- -D warnings`).
//! - `scaling`: threads and solvers side by side, interleaved round by round.
//! - `parallel-local`: the README's GNU parallel example on local slots,
//!   with a killed shard resumed.
//! - `slurm-one-node` / `slurm-e2e`: a one-node Slurm on this machine, and
//!   the job array run on it with a requeued task.
//! - `browser-test`: the HTML page in headless Chromium.
//! - `build-time`: the first `cargo test --workspace` on a fresh clone of
//!   HEAD, timed (build wall and CPU seconds, then the tests' wall
//!   seconds), recorded in `bench-results/build-time.json` and spliced into
//!   README.md; `--splice-only` remakes the paragraph from the record.
//! - `instructions`: the instructions each solver's search retires at
//!   n = 8..12, counted by valgrind's callgrind on a build it decodes,
//!   written as a new `bench-results/<UTC time>-instructions.json`.
//! - `vs-quadrant`: half-join against E. Kluev's quadrant join, one thread
//!   each, interleaved, recorded in `bench-results/vs-quadrant.json` and
//!   spliced into README.md as a table; `--splice-only` remakes the table.
//! - `architecture`: the layering rules of docs/ARCHITECTURE.md
//!   ([`architecture`]), also run by `cargo test` as this crate's tests.
//!
//! It runs the `queens` binary as a user would and never links a solver
//! crate or the harness (the architecture rules check that too).
//!
//! Exit codes, as everywhere in the workspace: 0 ok, 1 a check failed,
//! 2 bad input or a missing tool (one line on stderr says which).

#![deny(missing_docs)]

pub mod architecture;
pub mod cli;
pub mod cmd;
pub mod counts;
pub mod error;
pub mod process;
pub mod readme_record;
pub mod slurm;
pub mod stats;
pub mod workspace;

pub use error::Error;
