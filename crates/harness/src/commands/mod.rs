//! One module per subcommand.

pub mod compare;
pub mod count;
pub mod explain;
pub mod list;
pub mod report;
pub mod solve;
pub mod trace;
pub mod verify;
