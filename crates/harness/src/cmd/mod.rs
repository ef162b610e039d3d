//! One module per subcommand. Each defines `Args` (its clap arguments) and
//! `run(&Args)`: it parses, calls the library layer (`queens_measure`,
//! `queens_report`, `queens_record`, [`queens_distributed`], the solvers
//! through [`crate::registry`]) and prints. No command reaches into another
//! command.

pub mod compare;
pub mod count;
pub mod explain;
pub mod find;
pub mod list;
pub mod merge;
pub mod recheck;
pub mod report;
pub mod search;
pub mod solve;
pub mod trace;
pub mod tree;
pub mod verify;
