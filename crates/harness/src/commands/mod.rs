//! One module per subcommand.

pub mod compare;
pub mod count;
pub mod explain;
pub mod list;
pub mod merge;
pub mod report;
pub mod solve;
pub mod trace;
mod split_count;
pub mod verify;
