//! One module per subcommand.

pub mod compare;
pub mod count;
pub mod list;
pub mod report;
pub mod solve;
pub mod verify;
