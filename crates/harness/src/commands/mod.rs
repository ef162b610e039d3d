//! One module per subcommand.

pub mod compare;
pub mod count;
pub mod explain;
pub mod list;
pub mod merge;
pub mod report;
pub mod solve;
mod split_count;
pub mod trace;
pub mod verify;
