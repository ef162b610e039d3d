//! One module per subcommand.

pub mod count;
pub mod explain;
pub mod list;
pub mod solve;
pub mod trace;
pub mod verify;
