//! The harness's integration tests, as one test binary: each file below
//! used to be its own binary, and each linked the whole workspace (wgpu
//! included), so the suite spent most of its build linking. One binary
//! links once; a file is selected by its module path
//! (`cargo test -p queens-harness --test integration cli::`).

mod browser;
mod cli;
mod common;
mod compare_and_report;
mod conformance;
mod counters;
mod docs_traces;
mod estimate;
mod exercises;
mod externals;
mod file_arguments;
mod find;
mod gpu;
mod memory_budget;
mod one_tree;
mod oracle;
mod prose_figures;
mod repair_trace;
#[cfg(unix)]
mod shared_files;
mod split;
mod squares;
mod teach_cli;
mod teaching_order;
mod terminal;
mod time_budget;
mod traces;
mod trust;
mod whole_writes;
