//! One module per subcommand.

pub mod count;
pub mod list;
pub mod merge;
pub mod solve;
mod split_count;
pub mod verify;
