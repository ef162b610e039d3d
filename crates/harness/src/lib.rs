//! The `queens` command as a library: the registry of solvers and the
//! subcommands (counting over threads, shards and checkpoints is the
//! `queens_distributed` library's; the command catches the signals and
//! prints). The `queens` binary is `main` plus the counting allocator;
//! the benches and the integration tests use the registry from here.
//!
//! The layers (see docs/ARCHITECTURE.md), each using only those below it:
//!
//! - [`cli`]: the command enum and dispatch, nothing else.
//! - [`cmd`]: one module per subcommand; each owns its arguments, parses
//!   them, calls a library and prints.
//! - [`interruption`]: SIGINT and SIGTERM during a long phase: a split
//!   count saves its units, any other phase ends with one line (a choice
//!   for the whole process, so the command makes it).
//! - [`memory`]: the memory budget: a search's declared peak against
//!   `--max-memory` or what the machine has, refused before it starts.
//! - [`registry`]: the one list of solvers, and the one of finders.
//! - [`budget`]: the time a long command is predicted to take, the
//!   refusal past ten minutes without `--long`, and the bar with the time left.
//! - [`boards`]: the formats `solve` and `find` print a board in.
//! - [`estimate_table`]: what `count --estimate` says about the README's
//!   table of estimates: its machine, this one, and the ratio of the two.
//! - [`page_traces`]: the recorded searches the report's HTML page plays.
//! - [`trace_text`]: a trace's lines as `queens trace` prints them (its
//!   header, each step wrapped to the width and cut when too long).
//! - [`code_changes`]: the git facts that let a report say a record is
//!   older than a solver's code.
//! - [`args`], [`error`]: the number parser every argument uses, and the
//!   one place a failure becomes an exit code.
//! - below: `queens_distributed` (a split count's units on threads, in
//!   shards, resumed from checkpoints; shard records merged and
//!   rechecked), `queens_report` (reports), `queens_measure` (measuring,
//!   cross-validation), `queens_record` (records, atomic files) and
//!   `queens_core` (the `Solver` protocol).

pub mod args;
pub mod boards;
pub mod budget;
pub mod cli;
pub mod cmd;
pub mod code_changes;
pub mod count_record;
pub mod error;
pub mod estimate_table;
pub mod interruption;
pub mod memory;
pub mod page_traces;
pub mod registry;
pub mod repair_trace;
pub mod trace_json;
pub mod trace_text;
